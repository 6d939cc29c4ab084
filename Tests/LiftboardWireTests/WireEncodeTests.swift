import Testing
@testable import LiftboardCore
@testable import LiftboardWire

func text(_ e: ServerEvent, line: Int? = nil) -> String { String(decoding: Wire.encode(e, line: line), as: UTF8.self) }

@Suite struct WireEncodeTests {
    @Test func numbersHaveOneCanonicalForm() {
        var w = JSONWriter()
        w.beginArray()
        for x in [56.0, -0.0, 0.5, 1.0 / 3.0, 0.0873, 1e20, -12.34567, Double.nan] { w.number(x) }
        w.endArray()
        #expect(String(decoding: w.bytes, as: UTF8.self) == "[56,0,0.5,0.3333,0.0873,1e+20,-12.3457,0]")
    }

    @Test func framesLeaveOutWhatHasNothingToSay() {
        let f = FrameMessage(seq: 3, ms: 700, snapshots: [SnapshotUpdate(p: 1, id: "a", center: Point(x: 200, y: 140), moveDur: 0)])
        #expect(text(.frame(f)) == #"{"t":"frame","seq":3,"ms":700,"snapshots":[{"p":1,"id":"a","center":{"x":200,"y":140},"moveDur":0,"done":false}]}"#)
    }

    @Test func errorsCarryTheirLineInAReplay() {
        #expect(text(.error(code: .badJSON, message: "x"), line: 4) == #"{"t":"error","code":"bad_json","message":"x","line":4}"#)
        #expect(text(.error(code: .badJSON, message: "q\"\n")) == #"{"t":"error","code":"bad_json","message":"q\"\n"}"#)
    }

    @Test func aCommitEncodesInTheContractsOrderAndDecodesBack() throws {
        let c = Commit(board: "b", version: 2, by: "s", moves: [Move(id: "a", from: Place(section: "x", index: 0), to: Place(section: "x", index: 1))],
                       order: [SectionOrder(section: "x", items: ["b", "a"])])
        let line = text(.commit(c))
        #expect(line.hasPrefix(#"{"t":"commit","board":"b","version":2,"by":"s","moves":[{"id":"a","from""#))
        let back = try decode(#"{"t":"external","ms":0,"commit":"# + line + "}").get()
        #expect(back.event == .external(c))
    }

    @Test func boardsRoundTripThroughTheirEncoding() throws {
        let b = Board(id: "demo", layout: .grid, list: ListMetrics(rowHeight: 44, headerHeight: 20, spacing: 0),
                      grid: GridMetrics(itemWidth: 90, itemHeight: 100, spacing: 4, headerHeight: 30),
                      sections: [Section(id: "s", title: "S \"1\"", items: [Item(id: "a", label: "A", color: "#fff", height: 70, movable: false)]),
                                 Section(id: "t", items: [])], version: 7)
        #expect(try Wire.decodeBoard(Wire.encodeBoard(b)) == b)
    }

    @Test("a columns board's metrics round-trip; another layout's columns object is validated, then left at the defaults")
    func columnMetricsBelongToColumnsBoards() throws {
        let kanban = Board(id: "k", layout: .columns, columns: ColumnMetrics(width: 300, gap: 0, headerHeight: 44, rowHeight: 64, spacing: 6),
                           sections: [Section(id: "s", items: [Item(id: "a")])])
        #expect(try Wire.decodeBoard(Wire.encodeBoard(kanban)) == kanban)
        let list = try Wire.decodeBoard(Array(#"{"id":"l","columns":{"width":300},"sections":[{"id":"s","items":[]}]}"#.utf8))
        #expect(list.layout == .list && list.columns == ColumnMetrics())
        #expect(try Wire.decodeBoard(Wire.encodeBoard(list)) == list)
        #expect(throws: BoardError.self) { try Wire.decodeBoard(Array(#"{"id":"l","columns":{"width":-1},"sections":[]}"#.utf8)) }
    }
}

@Suite struct BoardFileTests {
    func error(_ json: String) -> BoardError? {
        do { _ = try Wire.decodeBoard(Array(json.utf8)); return nil } catch { return error }
    }

    @Test func defaultsFillWhatTheFileLeavesOut() throws {
        let b = try Wire.decodeBoard(Array(#"{"id":"d","sections":[{"id":"s","items":[{"id":"a"},{"id":"b","label":"B"}]}],"extra":true}"#.utf8))
        #expect(b.layout == .list && b.list == ListMetrics() && b.grid == GridMetrics() && b.version == 0)
        #expect(b.sections[0].title == "s")
        #expect(b.sections[0].items[0].label == "a" && b.sections[0].items[1].color == Board.palette[1])
        #expect(b.sections[0].items[0].movable)
    }

    @Test func invalidBoardsNameTheOffendingField() {
        #expect(error(#"{"sections":[]}"#) == .missing(field: "id"))
        #expect(error(#"{"id":"","sections":[]}"#) == .invalid(field: "id", reason: "must not be empty"))
        #expect(error(#"{"id":"d","layout":"masonry","sections":[]}"#) == .unknownLayout(field: "layout", value: "masonry"))
        #expect(error(#"{"id":"d","sections":[{"id":"s"},{"id":"s"}]}"#) == .duplicateID(field: "sections[1].id", id: "s"))
        #expect(error(#"{"id":"d","sections":[{"id":"s","items":[{"id":"a"}]},{"id":"t","items":[{"id":"a"}]}]}"#)
                == .duplicateID(field: "sections[1].items[0].id", id: "a"))
        #expect(error(#"{"id":"d","sections":[{"id":"s","items":[{"id":"a","height":0}]}]}"#)?.field == "sections[0].items[0].height")
        #expect(error(#"{"id":"d","sections":[{"id":"s","items":[{"id":"a","height":1e999}]}]}"#)?.field == "sections[0].items[0].height")
        #expect(error(#"{"id":"d","list":{"spacing":-1},"sections":[]}"#)?.field == "list.spacing")
        #expect(error(#"{"id":"d","grid":{"itemWidth":"wide"},"sections":[]}"#) == .wrongType(field: "grid.itemWidth", expected: "a number"))
        #expect(error(#"{"id":"d","sections":[{"id":"s","items":[{"id":"a","movable":"no"}]}]}"#)?.field == "sections[0].items[0].movable")
        #expect(error("not json")?.field == "(file)")
    }
}

/// Placement rules in the board file (issue 23): decoded, validated by field, carried by the
/// API's board JSON and the stores' text.
@Suite struct BoardRulesFileTests {
    func error(_ json: String) -> BoardError? {
        do { _ = try Wire.decodeBoard(Array(json.utf8)); return nil } catch { return error }
    }

    @Test func rulesAndKindsDecodeAndRoundTrip() throws {
        let b = try Wire.decodeBoard(Array(#"""
            {"id":"k","sections":[
              {"id":"todo","items":[{"id":"a","kind":"bug","handle":"leading"},{"id":"b","handle":"trailing"}]},
              {"id":"bugs","accepts":["bug","bug","chore"],"max":3,"items":[{"id":"x","kind":"bug"}]},
              {"id":"palette","copy":true,"items":[{"id":"p","kind":"chore"}]},
              {"id":"trash","drop":"remove"}]}
            """#.utf8))
        #expect(b.sections[0].items[0].kind == "bug" && b.sections[0].items[0].handle == .leading)
        #expect(b.sections[0].items[1].kind == nil && b.sections[0].items[1].handle == .trailing)
        #expect(b.sections[1].accepts == ["bug", "chore"] && b.sections[1].max == 3)
        #expect(b.sections[2].copy && b.sections[3].drop == .remove && !b.sections[0].hasRules)
        #expect(try Wire.decodeBoard(Wire.encodeBoard(b)) == b)
        var s = Section(id: "bugs", items: [])
        s.readRules(b.sections[1].rulesText!)
        #expect(s.rules == b.sections[1].rules && s.accepts == ["bug", "chore"] && b.sections[0].rulesText == nil)
        var odd = Section(id: "odd", items: [], accepts: ["a;b", "c:d=1", "é"], max: 0, copy: true)
        odd.readRules(Section(id: "x", items: [], accepts: odd.accepts, max: 0, copy: true).rulesText!)
        #expect(odd.accepts == ["a;b", "c:d=1", "é"] && odd.max == 0 && odd.copy)
    }

    @Test func badRulesNameTheirField() {
        #expect(error(#"{"id":"d","sections":[{"id":"s","items":[{"id":"a","kind":""}]}]}"#)?.field == "sections[0].items[0].kind")
        #expect(error(#"{"id":"d","sections":[{"id":"s","items":[{"id":"a","handle":"middle"}]}]}"#)?.field == "sections[0].items[0].handle")
        #expect(error(#"{"id":"d","sections":[{"id":"s","accepts":"bug"}]}"#)?.field == "sections[0].accepts")
        #expect(error(#"{"id":"d","sections":[{"id":"s","accepts":[1]}]}"#)?.field == "sections[0].accepts[0]")
        #expect(error(#"{"id":"d","sections":[{"id":"s","max":-1}]}"#)?.field == "sections[0].max")
        #expect(error(#"{"id":"d","sections":[{"id":"s","max":1.5}]}"#)?.field == "sections[0].max")
        #expect(error(#"{"id":"d","sections":[{"id":"s","copy":"yes"}]}"#)?.field == "sections[0].copy")
        #expect(error(#"{"id":"d","sections":[{"id":"s","drop":"keep"}]}"#)?.field == "sections[0].drop")
        #expect(error(#"{"id":"d","sections":[{"id":"s","copy":true,"drop":"remove"}]}"#)?.field == "sections[0].drop")
        // A file whose order already breaks its rules is refused.
        #expect(error(#"{"id":"d","sections":[{"id":"s","accepts":["bug"],"items":[{"id":"a"}]}]}"#)?.field == "sections[0].items[0].kind")
        #expect(error(#"{"id":"d","sections":[{"id":"s","max":1,"items":[{"id":"a"},{"id":"b"}]}]}"#)?.field == "sections[0].items")
        #expect(error(#"{"id":"d","sections":[{"id":"s","drop":"remove","items":[{"id":"a"}]}]}"#)?.field == "sections[0].items")
    }
}

extension BoardError {
    /// The field the error names.
    var field: String {
        switch self {
        case .missing(let f), .wrongType(let f, _), .invalid(let f, _), .duplicateID(let f, _), .unknownLayout(let f, _): f
        }
    }
}
