import Testing
@testable import LiftboardCore

/// Issue 44, presence as differences (`hello.config.presence: "delta"`): the session sends its
/// first `presence` whole and then what changed since the one it sent last; a session that did
/// not ask sends every one whole, as before.
@Suite struct PresenceDeltaTests {
    static let ana = Presence.Entry(session: "s2", user: "ana", name: "Ana", color: Presence.color(for: "ana"), role: .move,
                                    holds: ["a"], target: Place(section: "todo", index: 1))
    static let bo = Presence.Entry(session: "s3", name: "Guest 3", color: Presence.color(for: "s3"), role: .edit)

    static func presence(_ people: [Presence.Entry], watching: Int = 1, more: Int = 0) -> Presence {
        Presence(board: "demo", people: people, watching: watching, more: more)
    }

    static func opted() -> Driver {
        var c = SessionConfig()
        c.presence = .delta
        return Driver(Fixtures.listBoard(), config: c)
    }

    static func delta(_ out: [ServerEvent]) -> PresenceDelta? {
        if case .presenceDelta(let d)? = out.last { d } else { nil }
    }

    @Test func aSessionThatDidNotAskIsSentEveryPresenceWhole() {
        var d = Driver(Fixtures.listBoard())
        for (k, p) in [Self.presence([Self.ana]), Self.presence([Self.ana, Self.bo])].enumerated() {
            let out = d.send(.presence(p), at: Double(10 * (k + 1)))
            guard case .presence(let sent)? = out.last else { Issue.record("no whole presence: \(out)"); return }
            #expect(sent == p)
        }
    }

    @Test func theFirstIsWholeThenOnlyTheTargetsIndex() throws {
        var d = Self.opted()
        let p1 = Self.presence([Self.ana, Self.bo])
        let first = try #require(Self.delta(d.send(.presence(p1), at: 10)))
        #expect(first.base == nil && first.v == p1.digest && first.presence == p1)
        var moved = Self.ana
        moved.target = Place(section: "todo", index: 3)
        let p2 = Self.presence([moved, Self.bo])
        let second = try #require(Self.delta(d.send(.presence(p2), at: 20)))
        #expect(second.base == p1.digest && second.v == p2.digest && second.v != second.base)
        #expect(second.changed == [PresenceDelta.Change(index: 0, added: false, fields: .targetIndex)])
        #expect(second.gone.isEmpty && !second.watchingChanged && !second.moreChanged)
        // Into another section: the whole target; a drop: holds and the target gone.
        moved.target = Place(section: "done", index: 0)
        let third = try #require(Self.delta(d.send(.presence(Self.presence([moved, Self.bo])), at: 30)))
        #expect(third.changed.map(\.fields) == [.target])
        moved.holds = []; moved.target = nil
        let fourth = try #require(Self.delta(d.send(.presence(Self.presence([moved, Self.bo])), at: 40)))
        #expect(fourth.changed.map(\.fields) == [[.holds, .target]])
    }

    @Test func aLeaveAJoinAndWatchingAndMore() throws {
        var d = Self.opted()
        d.send(.presence(Self.presence([Self.ana])), at: 10)
        let cy = Presence.Entry(session: "s1", name: "Guest 1", color: Presence.color(for: "s1"), role: .edit)
        let join = try #require(Self.delta(d.send(.presence(Self.presence([cy, Self.ana, Self.bo])), at: 20)))
        #expect(join.changed == [PresenceDelta.Change(index: 0, added: true, fields: .all),
                                 PresenceDelta.Change(index: 2, added: true, fields: .all)])
        let leave = try #require(Self.delta(d.send(.presence(Self.presence([cy, Self.bo], watching: 4, more: 2)), at: 30)))
        #expect(leave.gone == ["s2"] && leave.changed.isEmpty && leave.watchingChanged && leave.moreChanged)
        let same = try #require(Self.delta(d.send(.presence(Self.presence([cy, Self.bo], watching: 4, more: 2)), at: 40)))
        #expect(same.base == same.v && same.changed.isEmpty && same.gone.isEmpty && !same.watchingChanged)
    }

    /// The client rebuilds the list by removing, changing in place and inserting at `at`: when
    /// the entries kept are in another order, or a list repeats a session, it is sent whole.
    @Test func keptEntriesInAnotherOrderOrARepeatedSessionGoWhole() throws {
        var d = Self.opted()
        d.send(.presence(Self.presence([Self.ana, Self.bo])), at: 10)
        let swapped = try #require(Self.delta(d.send(.presence(Self.presence([Self.bo, Self.ana])), at: 20)))
        #expect(swapped.base == nil)
        let twice = try #require(Self.delta(d.send(.presence(Self.presence([Self.bo, Self.bo])), at: 30)))
        #expect(twice.base == nil)
        let back = try #require(Self.delta(d.send(.presence(Self.presence([Self.bo])), at: 40)))
        #expect(back.base == nil, "nor from a list that repeats one")
        let then = try #require(Self.delta(d.send(.presence(Self.presence([Self.bo], watching: 2)), at: 50)))
        #expect(then.base == Self.presence([Self.bo]).digest && then.watchingChanged)
    }

    /// Watchers share one state only when they were sent the same last presence: what they
    /// answer next follows from it.
    /// A presence whose number is a multiple of `wholeEvery` goes whole (a client out of step
    /// is mended by it); the others after the first go as differences.
    @Test func aPresenceNumberedAMultipleOfSixteenGoesWhole() throws {
        // The watching counts whose presences are numbered a multiple of 16, and the others.
        let counts = 1...200
        let keyframes = counts.filter { Self.presence([Self.ana], watching: $0).digest % PresenceDelta.wholeEvery == 0 }
        let others = counts.filter { Self.presence([Self.ana], watching: $0).digest % PresenceDelta.wholeEvery != 0 }
        let key = try #require(keyframes.first), a = try #require(others.first), b = try #require(others.dropFirst().first)
        var d = Self.opted()
        var ms = 0.0
        func send(_ watching: Int) throws -> PresenceDelta {
            ms += 10
            return try #require(Self.delta(d.send(.presence(Self.presence([Self.ana], watching: watching)), at: ms)))
        }
        #expect(try send(a).base == nil)
        let diff = try send(b)
        #expect(diff.base != nil && diff.watchingChanged)
        let whole = try send(key)
        #expect(whole.base == nil && whole.v % 16 == 0)
        // A client that missed everything before it still ends with the presence, exactly.
        #expect(whole.applied(to: Self.presence([Self.bo], watching: 999)) == Self.presence([Self.ana], watching: key))
        #expect(try send(a).base == whole.v)
    }

    @Test func theLastPresenceSentIsPartOfTheSharedView() {
        var a = Self.opted(), b = Self.opted()
        #expect(a.session.sharedViewKey == b.session.sharedViewKey)
        a.send(.presence(Self.presence([Self.ana])), at: 10)
        #expect(a.session.sharedViewKey != b.session.sharedViewKey)
        #expect(!b.session.hasSharedView(a.session.sharedViewKey!))
        b.send(.presence(Self.presence([Self.ana])), at: 10)
        #expect(a.session.sharedViewKey == b.session.sharedViewKey)
        #expect(b.session.hasSharedView(a.session.sharedViewKey!))
    }

    @Test func theDigestFollowsEveryMember() {
        let p = Self.presence([Self.ana, Self.bo])
        var q = p
        #expect(p.digest == q.digest)
        q.watching = 2
        #expect(p.digest != q.digest)
        q = p; q.people[1].user = "s3"
        #expect(p.digest != q.digest)
        q = p; q.people[0].target?.depth = 0
        #expect(p.digest != q.digest)
    }

    /// Presences made at random (a fixed seed): each difference, applied by the contract's rules
    /// to the presence before, gives the presence; a whole one only when the rules call for it.
    @Test func everyDifferenceRebuildsThePresence() {
        var seed: UInt64 = 44
        func next(_ n: Int) -> Int {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((seed >> 33) % UInt64(n))
        }
        let everyone = (1...12).map { k in
            Presence.Entry(session: "s\(k)", user: k % 3 == 0 ? "u\(k)" : nil, name: "Guest \(k)", color: Presence.color(for: "s\(k)"), role: .edit)
        }
        var d = Self.opted()
        var last: Presence?
        var wholes = 0
        for step in 0..<400 {
            var people = everyone.filter { _ in next(3) != 0 }
            for k in people.indices where next(2) == 0 {
                people[k].holds = ["a", "b", "c"].filter { _ in next(2) == 0 }
                if !people[k].holds.isEmpty {
                    people[k].target = Place(section: next(4) == 0 ? "done" : "todo", index: next(5))
                    if next(8) == 0 { people[k].target?.depth = next(3) }
                }
                if next(10) == 0 { people[k].role = .move }
                if next(12) == 0 { people[k].name = "Renamed \(k)" }
            }
            if next(20) == 0, people.count > 1 { people.swapAt(0, people.count - 1) }
            let p = Presence(board: "demo", people: people, watching: next(3), more: next(2))
            guard let delta = Self.delta(d.send(.presence(p), at: Double(10 * (step + 1)))) else { Issue.record("no presence"); return }
            #expect(delta.v == p.digest)
            // Numbered a multiple of `wholeEvery`: whole, always.
            #expect(delta.v % PresenceDelta.wholeEvery != 0 || delta.base == nil, "step \(step)")
            if let last, delta.base != nil {
                #expect(delta.base == last.digest)
                #expect(delta.applied(to: last) == p, "step \(step)")
            } else if delta.v % PresenceDelta.wholeEvery != 0 {
                wholes += 1
            }
            last = p
        }
        #expect(wholes < 40, "whole only when numbered a multiple of 16, the kept entries changed order (1 in 20), and the first")
    }

    /// The hub's presences carry their digest and their difference from the one before
    /// (`Presence.Link`), made once for every session: a session sent the one before takes
    /// them, and sends what it would have made itself (the same presences unlinked, a replay's).
    @Test func theMakersDifferenceIsTheOneASessionWouldMake() throws {
        var moved = Self.ana
        moved.target?.index = 2
        let lists: [[Presence.Entry]] = [[Self.ana], [Self.ana, Self.bo], [moved, Self.bo], [Self.bo], [Self.bo], [moved]]
        var linked = Self.opted(), unlinked = Self.opted()
        var previous: Presence? = nil
        for (k, people) in lists.enumerated() {
            let p = Presence(board: "demo", people: people, watching: 1, after: previous, serial: k + 1)
            #expect(p.link?.digest == p.digest)
            if let previous {
                let made = try #require(p.link?.delta, "step \(k): the difference is made")
                #expect(made.from == previous.people)
            }
            previous = p
            let a = linked.send(.presence(p), at: Double(10 * (k + 1)))
            let b = unlinked.send(.presence(Self.presence(people)), at: Double(10 * (k + 1)))
            #expect(a == b, "step \(k)")
            let d = try #require(Self.delta(a))
            #expect(d.base == nil || d.applied(to: Self.presence(lists[k - 1])) == p, "step \(k): the difference brings the last to this one")
        }
        // A changed presence is no longer the maker's: its digest is its own again.
        var edited = try #require(previous)
        edited.watching = 5
        #expect(edited.link == nil)
    }
}

