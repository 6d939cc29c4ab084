import Testing
import LiftboardCore
@testable import LiftboardServer

/// `BoardPresence` alone (issue 44): who is listed, who is told, and when.
@Suite struct BoardPresenceTests {
    static let viewer = Person(user: "v", name: "Vera", role: .view)

    @Test func viewSessionsAreCountedNotListedAndGuestsAreNamedByTheirNumber() {
        var b = BoardPresence()
        b.join("s3", person: .open)
        b.join("s7-9f3a", person: Person(user: "ana", name: "Ana", role: .move))
        b.join("s8", person: Self.viewer)
        let p = b.presence(board: "demo")
        #expect(p.people.map(\.name) == ["Guest 3", "Ana"])
        #expect(p.people.map(\.user) == [nil, "ana"])
        #expect(p.watching == 1 && p.more == 0)
        #expect(p.people[1].color == Presence.color(for: "ana"), "a user's color: of the user")
        #expect(p.people[0].color == Presence.color(for: "s3"), "a guest's: of the session")
    }

    @Test func colorsAreStableAndSpreadOverThePalette() {
        #expect(Presence.color(for: "ana") == Presence.color(for: "ana"))
        let colors = Set((0..<200).map { Presence.color(for: "user\($0)") })
        #expect(colors.count == Presence.palette.count, "200 users reach every color")
        // FNV-1a of "" is the offset basis, 2166136261 % 12 == 1.
        #expect(Presence.color(for: "") == Presence.palette[1])
    }

    @Test func aSessionWhoseOwnHoldsAreAllTheNewsIsNotToldOfThem() {
        var b = BoardPresence()
        b.join("s1", person: .open)
        b.join("s2", person: .open)
        _ = b.take(now: 0)
        #expect(!b.hasNews)
        let news = b.setHolds(["a"], target: Place(section: "todo", index: 2), of: "s1")
        let again = b.setHolds(["a"], target: Place(section: "todo", index: 2), of: "s1")
        #expect(news && !again, "the same again is no news")
        let except = b.take(now: 200)
        let p = b.presence(board: "demo")
        #expect(except == "s1")
        #expect(p.people[0].holds == ["a"] && p.people[0].target == Place(section: "todo", index: 2))
        // Two sessions' news: both are told (each of the other's).
        b.setHolds(["b"], of: "s2")
        b.setHolds([], of: "s1")
        #expect(b.take(now: 400) == nil)
        // A join: everyone.
        b.setHolds([], of: "s2")
        b.join("s3", person: .open)
        #expect(b.take(now: 600) == nil)
    }

    @Test func newsGoesAtMostEveryHundredMilliseconds() {
        var b = BoardPresence()
        #expect(b.due(now: 0) == nil)
        b.join("s1", person: .open)
        #expect(b.due(now: 5) == 5, "the first at once")
        _ = b.take(now: 5)
        b.setHolds(["a"], of: "s1")
        #expect(b.due(now: 30) == 105, "within 100 ms of the last: when it is 100 ms old")
        #expect(b.due(now: 250) == 250)
    }

    @Test func aBigPresenceForABigAudienceMakesTheNextWait() {
        #expect(BoardPresence.gap(bytes: 500, sessions: 2) == 100, "a small board: ten a second")
        #expect(BoardPresence.gap(bytes: 4_000, sessions: 100) == 100, "400,000 bytes: still 100 ms")
        #expect(BoardPresence.gap(bytes: 3_000, sessions: 300) == 225, "900,000 bytes over 4,000 a ms")
        #expect(BoardPresence.gap(bytes: 10_000, sessions: 1_100) == 750, "at most 750 ms")
        var b = BoardPresence()
        b.join("s1", person: .open)
        b.join("s2", person: .open)
        _ = b.take(now: 0)
        b.sent(bytes: 3_000, to: 300)
        b.setHolds(["a"], of: "s1")
        #expect(b.due(now: 100) == 225, "the last one's gap, not 100 ms")
        #expect(b.due(now: 300) == 300)
        _ = b.take(now: 300)
        b.sent(bytes: 1_000, to: 2)
        b.setHolds([], of: "s1")
        #expect(b.due(now: 310) == 400, "each gap is of the presence before it")
        // Taken and sent to no one: the next waits the least.
        _ = b.take(now: 400)
        b.setHolds(["b"], of: "s2")
        #expect(b.due(now: 420) == 500)
    }

    @Test func aLeaveEndsTheHoldsAndKeepsTheOthersFound() {
        var b = BoardPresence()
        for k in 1...4 { b.join("s\(k)", person: .open) }
        b.setHolds(["a"], of: "s2")
        b.leave("s2")
        b.setHolds(["d"], of: "s4")
        let p = b.presence(board: "demo")
        #expect(p.people.map(\.session) == ["s1", "s3", "s4"])
        #expect(p.people.flatMap(\.holds) == ["d"])
    }

    @Test func onABoardOfManyEveryHolderIsListedAndTheIdleBeyondTheFirstAreCounted() {
        var b = BoardPresence()
        for k in 1...1000 { b.join("s\(k)", person: .open) }
        b.setHolds(["x"], of: "s900")
        let p = b.presence(board: "demo")
        #expect(p.people.count == BoardPresence.maxIdleListed + 1)
        #expect(p.people.last?.session == "s900")
        #expect(p.more == 1000 - 1 - BoardPresence.maxIdleListed)
    }

    /// The presences the hub sends follow one another (`next`): each numbered after the last
    /// and naming the items whose holder changed since, so that a watcher compares only those
    /// with its window (`LinkedPresenceTests`).
    @Test func eachPresenceSentIsLinkedToTheOneBefore() {
        var b = BoardPresence()
        b.join("s1", person: .open)
        b.join("s2", person: .open)
        let first = b.next(board: "demo")
        #expect(first.link?.serial == 1 && first.link?.base == 0)
        b.setHolds(["a", "b"], of: "s1")
        let second = b.next(board: "demo")
        #expect(second.link?.serial == 2 && second.link?.base == 1 && second.link?.changed == ["a", "b"])
        b.setHolds(["b"], target: Place(section: "todo", index: 1), of: "s1")
        b.setHolds(["c"], of: "s2")
        let third = b.next(board: "demo")
        #expect(third.link?.base == 2 && third.link?.changed == ["a", "c"], "b kept its holder; a target is no change of holder")
        #expect(third == b.presence(board: "demo"), "the same message as the presence as it stands")
        b.leave("s2")
        #expect(b.next(board: "demo").link?.changed == ["c"], "a leaver's holds end")
    }
}
