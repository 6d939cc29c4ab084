import Testing
@testable import LiftboardCore

/// Issue 44, the fan-out's cost: a presence the hub makes right after another says which items
/// changed holder (`Presence.Link`), and a watcher whose held names are the previous one's
/// compares only those with its window. A replay's presences (read from the recording) carry
/// no link: the session compares every cell, and must send the same bytes.
@Suite struct LinkedPresenceTests {
    static func people(_ holds: [String], by name: String = "Ana") -> [Presence.Entry] {
        [Presence.Entry(session: "s2", name: name, color: Presence.color(for: "s2"), role: .edit, holds: holds)]
    }

    @Test func theLinkNamesTheItemsWhoseHolderChanged() {
        let first = Presence(board: "b", people: Self.people(["a", "b"]), watching: 0, after: nil, serial: 1)
        #expect(first.link?.serial == 1 && first.link?.base == 0)
        let second = Presence(board: "b", people: Self.people(["b", "c"]), watching: 0, after: first, serial: 2)
        #expect(second.link?.base == 1 && second.link?.changed == ["a", "c"])
        let renamed = Presence(board: "b", people: Self.people(["b", "c"], by: "Bo"), watching: 0, after: second, serial: 3)
        #expect(renamed.link?.changed == ["b", "c"], "another holder's name is a change")
        let same = Presence(board: "b", people: Self.people(["b", "c"], by: "Bo"), watching: 2, after: renamed, serial: 4)
        #expect(same.link?.changed == [])
        // The link is not part of the message.
        #expect(same == Presence(board: "b", people: Self.people(["b", "c"], by: "Bo"), watching: 2))
        var edited = same
        edited.people[0].holds = ["d"]
        #expect(edited.link == nil && edited.heldNames == ["d": "Bo"] && edited.holding == ["s2"])
    }

    /// The hub's linked presences and the same presences unlinked (a replay's) give a watcher
    /// the same messages, step by step: holds far from the window, entering it, leaving it,
    /// changing holder; a scroll; and a link broken by a presence the watcher did not take.
    @Test func linkedAndUnlinkedPresencesGiveTheSameMessages() {
        let steps: [(holds: [String], name: String, skip: Bool)] = [
            ([], "Ana", false), (["i150"], "Ana", false), (["i150", "i1"], "Ana", false), (["i1"], "Ana", false),
            (["i1"], "Bo", false), (["i2", "i1"], "Bo", true), (["i3"], "Bo", false), (["i3"], "Bo", false), ([], "Bo", false),
            (["i2"], "Ana", false),
        ]
        var linked = Driver(Fixtures.longList(200)), unlinked = Driver(Fixtures.longList(200))
        var previous: Presence? = nil
        var sawShortcut = false
        for (k, s) in steps.enumerated() {
            let p = Presence(board: "demo", people: Self.people(s.holds, by: s.name), watching: 1, after: previous, serial: k + 1)
            previous = p
            // A presence the watcher is not sent (it was the hub's `except`): the next one's
            // base is not the watcher's table, so it compares every cell.
            if s.skip { continue }
            if let link = p.link, link.base != 0, linked.session.liveBox?.session.liftedBy.othersFrom == link.base { sawShortcut = true }
            let a = linked.send(.presence(p), at: Double(10 * (k + 1)))
            let b = unlinked.send(.presence(Presence(board: "demo", people: p.people, watching: 1)), at: Double(10 * (k + 1)))
            #expect(a == b, "step \(k): \(s)")
            if k == 3 {
                let wa = linked.send(.wheel(dx: 0, dy: 57), at: 45) + linked.settle()
                let wb = unlinked.send(.wheel(dx: 0, dy: 57), at: 45) + unlinked.settle()
                #expect(wa == wb, "the scroll")
            }
        }
        #expect(sawShortcut, "the linked presences took the shortcut")
        #expect(linked.session.liveBox?.session.liftedBy.others == ["i2": "Ana"])
    }

    /// A dragging session compares the cells whose holder changed by handle (`othersHeld`):
    /// the same messages as comparing every cell of its window, as holds enter and leave the
    /// window, change holder, name the session's own lifted item, and hold an item not on the
    /// board (which sends it back to comparing every cell).
    @Test func aDraggingSessionFindsTheCellsWhoseHolderChangedAsTheWholeWindowDoes() {
        let steps: [(holds: [String], name: String)] = [
            (["i3"], "Ana"), (["i3"], "Ana"), (["i3", "i150"], "Ana"), (["i4"], "Ana"), (["i4"], "Bo"), (["i1", "i4"], "Bo"),
            (["i1", "gone"], "Bo"), (["i1"], "Bo"), ([], "Bo"), (["i2"], "Ana"),
        ]
        var byHandle = Driver(Fixtures.longList(200)), whole = Driver(Fixtures.longList(200))
        for d in [0, 1] {
            // Both lift i0 and hold it over i1.
            if d == 0 { byHandle.drag(from: Point(x: 50, y: 22), to: Point(x: 50, y: 70), at: 0, release: false) } else {
                whole.drag(from: Point(x: 50, y: 22), to: Point(x: 50, y: 70), at: 0, release: false)
            }
        }
        var tookHandles = 0, last: [ServerEvent] = []
        for (k, s) in steps.enumerated() {
            // Own entry: the lifted i0, as the hub lists it.
            let people = [Presence.Entry(session: "test", name: "Guest 1", color: "#000000", role: .edit, holds: ["i0"])] + Self.people(s.holds, by: s.name)
            let p = Presence(board: "long", people: people, watching: 1)
            if byHandle.session.liveBox?.session.liftedBy.othersHeld != nil { tookHandles += 1 }
            whole.session.liveBox?.session.liftedBy.othersHeld = nil
            let a = byHandle.send(.presence(p), at: Double(1000 + 10 * k)), b = whole.send(.presence(p), at: Double(1000 + 10 * k))
            #expect(a == b, "step \(k): \(s)")
            last = a
        }
        #expect(tookHandles >= 5, "the dragging session compared by handle (\(tookHandles) times)")
        #expect(byHandle.session.liveBox?.session.liftedBy.others == ["i2": "Ana"])
        #expect(OthersHoldsTests.heldBy("i2", in: last) == .some("Ana"), "the last step marks i2: \(last)")
    }
}
