import Testing
@testable import LiftboardCore
@testable import LiftboardWire

/// The wire of multi-item drags (issue 29): `mods` on `down` and `key`, `group` and `batch`
/// changes, and what the server adds to `lift`, cells and snapshots.
@Suite struct MultiDragWireTests {
    @Test func downAndKeyCarryModifiers() throws {
        let down = try decode(#"{"t":"down","p":0,"x":1,"y":2,"ms":10,"kind":"mouse","mods":["meta","shift"]}"#).get()
        #expect(down.event == .down(pointer: 0, at: Point(x: 1, y: 2), kind: .mouse, mods: [.meta, .shift]))
        let key = try decode(#"{"t":"key","key":" ","mods":["shift"],"ms":10}"#).get()
        #expect(key.event == .key(" ", mods: .shift))
    }

    @Test(arguments: [
        #"{"t":"down","p":0,"x":1,"y":2,"ms":10,"mods":["hyper"]}"#,
        #"{"t":"down","p":0,"x":1,"y":2,"ms":10,"mods":["ctrl","ctrl"]}"#,
        #"{"t":"key","key":"a","ms":10,"mods":"shift"}"#,
        #"{"t":"key","key":"a","ms":10,"mods":["shift","ctrl","meta","alt","shift"]}"#,
    ])
    func unknownRepeatedOrMistypedModifiersAreBadMessages(text: String) {
        #expect(code(text) == .badMessage)
        #expect(message(text)?.contains("mods") == true)
    }

    @Test func groupAndBatchChangesRoundTrip() throws {
        let changes: [Change] = [
            .group(ids: ["a", "c"], section: "done", after: "x", index: 1),
            .group(ids: ["a"], section: "done", after: nil, index: 0),
            .batch([.insert(id: "a", section: "todo", after: nil, index: 0), .insert(id: "c", section: "todo", after: "b", index: 3)]),
            .batch([.removeItem("a"), .removeItem("c")]),  // a trash drop of a group (issue 23)
            .batch([.addItem(Item(id: "c", label: "C", color: "#111", kind: "bug", handle: .leading), section: "todo", after: "b"),
                    .addItem(Item(id: "a", label: "A", color: "#222"), section: "todo", after: nil)]),
        ]
        for c in changes {
            let text = Wire.encodeChange(c)
            #expect(Wire.decodeChange(text) == c, "\(text)")
        }
        #expect(Wire.encodeChange(changes[0]) == #"{"group":["a","c"],"section":"done","after":"x","index":1}"#)
    }

    @Test(arguments: [
        #"{"group":[],"section":"s","after":null}"#,
        #"{"group":["a","a"],"section":"s","after":null}"#,
        #"{"group":["a"],"section":"s"}"#,
        #"{"batch":[]}"#,
        #"{"batch":[{"batch":[{"swap":["a","b"]}]}]}"#,
        #"{"batch":[{"edit":"removeItem","id":"a"},{"swap":["a","b"]}]}"#,  // edits and reorders together
        #"{"batch":[{"edit":"updateItem","id":"a","label":"A"}]}"#,  // an edit batch holds removeItem and addItem only
        #"{"batch":[1]}"#,
    ])
    func malformedGroupsAndBatchesAreRefused(text: String) {
        #expect(Wire.decodeChange(text) == nil, "\(text)")
    }

    @Test func theServerSaysAddedCountAndSelected() {
        let lift = String(decoding: Wire.encode(.lift(p: 1, id: "c", from: Place(section: "todo", index: 3), added: true)), as: UTF8.self)
        #expect(lift == #"{"t":"lift","p":1,"id":"c","from":{"section":"todo","index":3},"added":true}"#)
        var f = FrameMessage(seq: 2, ms: 5, ack: nil)
        var cell = CellUpdate(id: "a", frame: Rect(x: 0, y: 0, w: 10, h: 10), hidden: false, dur: 0, ease: .easeInOut)
        cell.selected = false
        f.cells = [cell]
        f.snapshots = [SnapshotUpdate(p: 1, id: "a", count: 3)]
        let frame = String(decoding: Wire.encode(.frame(f)), as: UTF8.self)
        #expect(frame.contains(#""selected":false"#))
        #expect(frame.contains(#""count":3"#))
    }
}
