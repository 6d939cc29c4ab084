import Foundation
import Testing
@testable import LiftboardCore
@testable import LiftboardWire

/// The columns wire format (docs/protocol.md, "Columns"): the board file's `layout: "columns"`
/// and `columns` metrics, `wheel` with `x` and `y`, and what `layout` and frames add.
@Suite struct ColumnsWireTests {
    static func board(_ json: String) throws(BoardError) -> Board { try Wire.decodeBoard(Array(json.utf8)) }

    @Test func aColumnsBoardTakesTheDefaultMetricsForMissingKeys() throws {
        let b = try Self.board(#"{"id":"k","layout":"columns","columns":{"width":300},"sections":[]}"#)
        #expect(b.layout == .columns)
        #expect(b.columns == ColumnMetrics(width: 300, gap: 12, headerHeight: 40, rowHeight: 56, spacing: 8))
        let d = try Self.board(#"{"id":"k","layout":"columns","sections":[]}"#)
        #expect(d.columns == ColumnMetrics())
    }

    @Test func badColumnsMetricsAreRefusedNamingTheField() {
        let cases: [(String, String)] = [
            (#""columns":{"width":0}"#, "columns.width"),
            (#""columns":{"rowHeight":-1}"#, "columns.rowHeight"),
            (#""columns":{"gap":-1}"#, "columns.gap"),
            (#""columns":{"headerHeight":"tall"}"#, "columns.headerHeight"),
            (#""columns":{"spacing":2000000}"#, "columns.spacing"),
            (#""columns":[]"#, "columns"),
        ]
        for (metrics, field) in cases {
            do {
                _ = try Self.board(#"{"id":"k","layout":"columns",\#(metrics),"sections":[]}"#)
                Issue.record("\(metrics) was accepted")
            } catch {
                #expect(error.field == field, "\(metrics): \(error)")
            }
        }
        // Read whatever the layout, like `list` and `grid`.
        #expect(throws: BoardError.self) { try Self.board(#"{"id":"k","columns":{"width":0},"sections":[]}"#) }
    }

    @Test func anUnknownLayoutNamesTheFour() {
        do {
            _ = try Self.board(#"{"id":"k","layout":"kanban","sections":[]}"#)
            Issue.record("accepted")
        } catch {
            #expect(error.description == #"layout: unknown layout "kanban" (expected "list", "grid", "columns" or "tree")"#)
        }
    }

    @Test func theAPIDocumentCarriesColumnsForAColumnsBoardOnlyAndDecodesBack() throws {
        let b = try Self.board(#"{"id":"k","layout":"columns","columns":{"width":200,"gap":4},"sections":[{"id":"s","items":[{"id":"a","height":90}]}]}"#)
        let text = String(decoding: Wire.encodeBoard(b), as: UTF8.self)
        #expect(text.contains(#""columns":{"width":200,"gap":4,"headerHeight":40,"rowHeight":56,"spacing":8}"#))
        #expect(try Wire.decodeBoard(Wire.encodeBoard(b)) == b)
        let list = try Self.board(#"{"id":"l","sections":[]}"#)
        #expect(!String(decoding: Wire.encodeBoard(list), as: UTF8.self).contains("columns"))
    }

    @Test func aWheelMayCarryThePointersPlaceBothOrNone() throws {
        #expect(try decode(#"{"t":"wheel","dx":5,"dy":-120,"x":10,"y":20,"ms":10}"#).get().event
                == .wheel(dx: 5, dy: -120, at: Point(x: 10, y: 20)))
        #expect(try decode(#"{"t":"wheel","dx":5,"dy":-120,"ms":10}"#).get().event == .wheel(dx: 5, dy: -120, at: nil))
        #expect(code(#"{"t":"wheel","dx":0,"dy":1,"x":10,"ms":10}"#) == .badMessage)
        #expect(message(#"{"t":"wheel","dx":0,"dy":1,"y":10,"ms":10}"#)?.hasPrefix("wheel.x:") == true)
        #expect(code(#"{"t":"wheel","dx":0,"dy":1,"x":1e8,"y":0,"ms":10}"#) == .badMessage)
    }

    @Test func aColumnsLayoutSaysSoAndItsSectionsCarryTheirScrollAndContentHeight() throws {
        var l = LayoutMessage(version: 0, content: Size(w: 864, h: 600), scroll: Point(x: 12, y: 0),
                              sections: [SectionInfo(id: "s", title: "S", frame: Rect(x: 0, y: 0, w: 280, h: 96), header: 40)],
                              cells: [])
        l.layout = .columns
        l.sections[0].scroll = 7
        l.sections[0].contentHeight = 96
        let text = String(decoding: Wire.encode(.layout(l)), as: UTF8.self)
        #expect(text == #"{"t":"layout","layout":"columns","version":0,"content":{"w":864,"h":600},"scroll":{"x":12,"y":0},"sections":[{"id":"s","title":"S","frame":{"x":0,"y":0,"w":280,"h":96},"header":40,"scroll":7,"contentHeight":96,"count":0}],"cells":[]}"#)
    }
}
