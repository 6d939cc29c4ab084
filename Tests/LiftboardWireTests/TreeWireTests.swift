import Foundation
import Testing
import LiftboardCore
import LiftboardWire

/// Trees in board files and messages (docs/protocol.md, "Trees").
@Suite struct TreeWireTests {
    static let outline = #"""
    {"id": "outline", "layout": "tree", "tree": {"indent": 20},
     "sections": [{"id": "home", "maxDepth": 2, "items": [
       {"id": "g", "children": [{"id": "m"}, {"id": "e", "leaf": true}]},
       {"id": "p", "collapsed": true, "children": [{"id": "s", "children": [{"id": "t"}]}]},
       {"id": "b"}]}]}
    """#

    static func decode(_ text: String) throws(BoardError) -> Board { try Wire.decodeBoard(Array(text.utf8)) }

    @Test func aNestedFileIsItsPreOrderWithDepths() throws {
        let b = try Self.decode(Self.outline)
        #expect(b.layout == .tree)
        #expect(b.tree.indent == 20)
        #expect(b.sections[0].maxDepth == 2)
        let items = b.sections[0].items
        #expect(items.map(\.id) == ["g", "m", "e", "p", "s", "t", "b"])
        #expect(items.map(\.depth) == [0, 1, 1, 0, 1, 2, 0])
        #expect(items.map(\.collapsed) == [false, false, false, true, false, false, false])
        #expect(items.map(\.leaf) == [false, false, true, false, false, false, false])
        #expect(b.order[0].parents == [nil, "g", "g", nil, "p", "s", nil])
    }

    @Test func aTreeBoardIsWrittenBackNestedAndReadsTheSame() throws {
        let b = try Self.decode(Self.outline)
        let text = String(decoding: Wire.encodeBoard(b), as: UTF8.self)
        #expect(text.contains(#""tree":{"indent":20}"#))
        #expect(text.contains(#""children":[{"id":"s""#))
        #expect(try Wire.decodeBoard(Wire.encodeBoard(b)) == b)
    }

    @Test func aListBoardsDocumentDoesNotChange() throws {
        let b = try Self.decode(#"{"id": "l", "sections": [{"id": "s", "items": [{"id": "a"}]}]}"#)
        let text = String(decoding: Wire.encodeBoard(b), as: UTF8.self)
        #expect(!text.contains("tree") && !text.contains("depth") && !text.contains("parents"))
    }

    @Test(arguments: [
        (#"{"id": "x", "sections": [{"id": "s", "items": [{"id": "a", "children": [{"id": "b"}]}]}]}"#,
         "sections[0].items[0].children: only a tree board nests items"),
        (#"{"id": "x", "layout": "tree", "sections": [{"id": "s", "items": [{"id": "a", "leaf": true, "children": [{"id": "b"}]}]}]}"#,
         "sections[0].items[0].leaf: a leaf has no children"),
        (#"{"id": "x", "layout": "tree", "sections": [{"id": "s", "maxDepth": 0, "items": [{"id": "a", "children": [{"id": "b"}]}]}]}"#,
         "sections[0].items[0].children[0]: deeper than maxDepth 0"),
        (#"{"id": "x", "layout": "tree", "sections": [{"id": "s", "maxDepth": 33, "items": []}]}"#,
         "sections[0].maxDepth: expected an integer from 0 to 32"),
        (#"{"id": "x", "layout": "tree", "tree": {"indent": -1}, "sections": []}"#,
         "tree.indent: must be finite and at least 0 (at most 1000000)"),
        (#"{"id": "x", "layout": "tree", "sections": [{"id": "s", "items": [{"id": "a", "children": [{"id": "a"}]}]}]}"#,
         "sections[0].items[0].children[0].id: duplicate id \"a\""),
    ])
    func aBadTreeIsRefusedNamingItsField(file: String, message: String) {
        #expect(throws: BoardError.self) { try Self.decode(file) }
        do { _ = try Self.decode(file) } catch { #expect(error.description == message) }
    }

    @Test func anItemDeeperThan32LevelsIsRefused() {
        var item = #"{"id": "d33"}"#
        for d in stride(from: 32, through: 0, by: -1) { item = #"{"id": "d\#(d)", "children": [\#(item)]}"# }
        let file = #"{"id": "x", "layout": "tree", "sections": [{"id": "s", "items": [\#(item)]}]}"#
        do {
            _ = try Self.decode(file)
            Issue.record("a 34-level tree was read")
        } catch {
            #expect(error.description.hasSuffix("deeper than 32 levels"))
        }
    }

    @Test func aMoveChangeAndAToggleAreRead() throws {
        let line = #"{"t":"external","ms":5,"commit":{"board":"o","version":2,"by":"x","moves":[],"#
            + #""change":{"move":"b","section":"home","parent":"g","after":null,"index":0},"#
            + #""order":[{"section":"home","items":["g","b"],"parents":[null,"g"]}]}}"#
        let m = try Wire.decodeClient(Array(line.utf8)).get()
        guard case .external(let c) = m.event else { Issue.record("not an external: \(m.event)"); return }
        #expect(c.change == .move("b", section: "home", parent: "g", after: nil, index: 0))
        #expect(c.order[0].parents == [nil, "g"])
        let t = try Wire.decodeClient(Array(#"{"t":"toggle","id":"g","ms":1}"#.utf8)).get()
        #expect(t.event == .toggle(id: "g"))
    }

    @Test func parentsOfTheWrongLengthAreABadMessage() {
        let line = #"{"t":"resync","ms":0,"version":1,"order":[{"section":"home","items":["g","b"],"parents":[null]}]}"#
        guard case .failure(let e) = Wire.decodeClient(Array(line.utf8)) else { Issue.record("read"); return }
        #expect(e.message.contains("parents"))
    }

    /// Issue 44: a holder's target on a tree board carries its depth in `presence` (the page
    /// draws the marker at it), and a recording's `presence` line reads back the same; a list's
    /// target has none.
    @Test func aPresenceTargetCarriesItsDepthAndReadsBack() throws {
        var tree = Place(section: "home", index: 3)
        tree.depth = 2
        let ana = Presence.Entry(session: "s1", name: "Ana", color: "#d9480f", role: .move, holds: ["g", "m"], target: tree)
        let bo = Presence.Entry(session: "s2", name: "Bo", color: "#1971c2", role: .move, holds: ["b"],
                                target: Place(section: "home", index: 0))
        let p = Presence(board: "o", people: [ana, bo], watching: 0)
        let text = String(decoding: Wire.encode(.presence(p)), as: UTF8.self)
        #expect(text.contains(#""target":{"section":"home","index":3,"depth":2}"#), "\(text)")
        #expect(text.contains(#""target":{"section":"home","index":0}}"#), "\(text)")
        let line = #"{"t":"presence","ms":7,"# + text.dropFirst(#"{"t":"presence","#.count)
        let m = try Wire.decodeClient(Array(line.utf8)).get()
        #expect(m.event == .presence(p))
    }
}
