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
        #expect(edited.link == nil && edited.heldNames == ["d": "Bo"] && edited.holding == ["s2": 0])
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
            if let link = p.link, link.base != 0, linked.session.liveBox?.session.liftedBy.others.from == link.base { sawShortcut = true }
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
        #expect(linked.session.liveBox?.session.liftedBy.others.names == ["i2": "Ana"])
    }

    /// A dragging session whose own entry lists exactly what it lifts takes the presence's
    /// table less those items (`LiftTable.mine`); one whose presences do not list it (or list
    /// something else) walks every other person's holds. Both give the same frames, as holds
    /// enter and leave the window, change holder, name the session's own lifted item, hold an
    /// item not on the board, and as its own entry goes stale.
    @Test func aDraggingSessionTakesThePresencesTableLessItsOwnItemsAsTheWalkWould() {
        let steps: [(holds: [String], name: String, own: [String])] = [
            (["i3"], "Ana", ["i0"]), (["i3"], "Ana", ["i0"]), (["i3", "i150"], "Ana", ["i0"]), (["i4"], "Ana", ["i0"]),
            (["i4"], "Bo", ["i0"]), (["i1", "i4"], "Bo", ["i0", "i5"]), (["i1", "gone"], "Bo", ["i0"]), (["i0", "i1"], "Bo", ["i0"]),
            (["i1"], "Bo", []), ([], "Bo", ["i0"]), (["i2"], "Ana", ["i0"]),
        ]
        var byTable = Driver(Fixtures.longList(200)), walking = Driver(Fixtures.longList(200))
        for d in [0, 1] {
            // Both lift i0 and hold it over i1.
            if d == 0 { byTable.drag(from: Point(x: 50, y: 54), to: Point(x: 50, y: 100), at: 100, release: false) } else {
                walking.drag(from: Point(x: 50, y: 54), to: Point(x: 50, y: 100), at: 100, release: false)
            }
        }
        #expect(byTable.lifts == 1 && walking.lifts == 1, "both lifted i0")
        func frames(_ events: [ServerEvent]) -> [ServerEvent] { events.filter { switch $0 { case .presence, .presenceDelta: false; default: true } } }
        var tookTable = 0, tookLink = 0, last: [ServerEvent] = []
        var previous: Presence? = nil
        for (k, s) in steps.enumerated() {
            // Own entry: what the hub lists (the lifted i0), stale at two steps, missing at one.
            let own = s.own.isEmpty ? [] : [Presence.Entry(session: "test", name: "Guest 1", color: "#000000", role: .edit, holds: s.own)]
            // The hub's presences, each linked to the one before.
            let p = Presence(board: "long", people: own + Self.people(s.holds, by: s.name), watching: 1, after: previous, serial: k + 1)
            previous = p
            if let link = p.link, link.base != 0, s.own == ["i0"], byTable.session.liveBox?.session.liftedBy.others.from == link.base { tookLink += 1 }
            let a = byTable.send(.presence(p), at: Double(1000 + 10 * k))
            if byTable.session.liveBox?.session.liftedBy.others.mine == ["i0"] { tookTable += 1 }
            let b = walking.send(.presence(Presence(board: "long", people: Self.people(s.holds, by: s.name), watching: 1)), at: Double(1000 + 10 * k))
            #expect(frames(a) == frames(b), "step \(k): \(s)")
            last = a
        }
        #expect(tookTable == 9, "the session took the presence's table whenever its entry listed i0 alone")
        #expect(tookLink == 6, "and compared only what changed when it had taken the one before")
        #expect(byTable.session.liveBox?.session.liftedBy.others.names == ["i2": "Ana"])
        #expect(OthersHoldsTests.heldBy("i2", in: last) == .some("Ana"), "the last step marks i2: \(last)")
        #expect(OthersHoldsTests.heldBy("i1", in: frames(walking.send(.presence(Presence(board: "long", people: Self.people(["i1"], by: "Bo"), watching: 1)), at: 2000))) == .some("Bo"))
    }
}
