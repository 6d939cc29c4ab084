import Testing
import LiftboardCore
import LiftboardStore
@testable import LiftboardServer

/// `SessionClaims` alone (issue 44, holds across processes): what one session asks of the
/// shared store after each step.
@Suite struct SessionClaimsTests {
    @Test func everyAskIsAClaimAndWhatIsNoLongerWantedIsReleased() {
        var c = SessionClaims()
        let pressed = c.plan(asks: ["a"], wanted: ["a"])
        #expect(pressed == .init(claim: ["a"]))
        let held = c.plan(asks: [], wanted: ["a"])
        #expect(held.isEmpty, "held and wanted: nothing to do")
        // A group lift: its other items are claimed when they are held.
        let group = c.plan(asks: [], wanted: ["a", "c", "b"])
        #expect(group == .init(claim: ["b", "c"]))
        // Dropped: every claim goes.
        let dropped = c.plan(asks: [], wanted: [])
        #expect(dropped == .init(release: ["a", "b", "c"]) && c.held.isEmpty)
    }

    @Test func anAskAgainIsClaimedAgainAndATapsClaimIsReleasedWithItsUp() {
        var c = SessionClaims()
        let pressed = c.plan(asks: ["a"], wanted: ["a"])
        #expect(pressed == .init(claim: ["a"]))
        // The up before the answer: the session no longer wants it.
        let up = c.plan(asks: [], wanted: [])
        #expect(up == .init(release: ["a"]))
        // Pressed and let go within one step: claimed (its answer comes), nothing released.
        let tap = c.plan(asks: ["a"], wanted: [])
        #expect(tap == .init(claim: ["a"]))
        let ended = c.releaseAll()
        #expect(ended == ["a"] && c.held.isEmpty)
    }

    @Test func theTargetIsWrittenWhenItsPlaceChangesWhileSomethingIsHeld() {
        var c = SessionClaims()
        let t1 = Place(section: "todo", index: 1), t2 = Place(section: "todo", index: 2)
        #expect(c.plan(asks: ["a"], wanted: ["a"]) == .init(claim: ["a"]), "pressed: no target yet")
        #expect(c.plan(asks: [], wanted: ["a"], target: t1) == .init(target: t1), "lifted: its place")
        #expect(c.plan(asks: [], wanted: ["a"], target: t1).isEmpty, "a pointer move that changes no place writes nothing")
        #expect(c.plan(asks: [], wanted: ["a"], target: t2) == .init(target: t2))
        // Dropped: the rows go, and the next lift writes its target even at the same place.
        #expect(c.plan(asks: [], wanted: []) == .init(release: ["a"]))
        #expect(c.plan(asks: ["b"], wanted: ["b"], target: t2) == .init(claim: ["b"], target: t2))
        #expect(c.releaseAll() == ["b"] && c.target == nil)
    }
}

/// `BoardPresence` with other processes' holders (the shared store's claims).
@Suite struct BoardPresenceOthersTests {
    @Test func otherProcessesHoldersAreListedAfterThisProcesssAndEveryoneIsTold() {
        var p = BoardPresence()
        p.join("s1-a", person: .open)
        _ = p.take(now: 0)
        let bo = Presence.Entry(session: "s1-b", name: "Bo", color: Presence.color(for: "bo"), role: .edit, holds: ["milk"])
        let first = p.setOthers([bo]), again = p.setOthers([bo])
        #expect(first)
        #expect(!again, "the same holders again: no news")
        let except = p.take(now: 200)
        let told = p.presence(board: "demo")
        #expect(except == nil, "news from elsewhere: every session is told")
        #expect(told.people.map(\.session) == ["s1-a", "s1-b"] && told.holders["milk"]?.name == "Bo")
        let cleared = p.setOthers([])
        _ = p.take(now: 400)
        let after = p.presence(board: "demo")
        #expect(cleared && after.holders.isEmpty)
    }
}

/// `Sessions` numbered from the shared store's blocks (issue 44: no two guests of a
/// deployment are "Guest 1").
@Suite struct SessionNumbersTests {
    @Test func sessionsAreNumberedInTheBlockTakenAndMoveToTheNextWhenItIsUsedUp() {
        var s = Sessions(recordBytesPerSecond: 0)
        #expect(s.makeID(tagged: false) == "s1", "one process: 1, 2, ...")
        s.takeBlock(first: 2001)
        let size = ClaimBroker.sessionBlockSize
        var asked = 0
        var ids: [String] = []
        for _ in 0..<(size + 2) {
            ids.append(s.makeID(tagged: false))
            if s.wantsBlock() {
                asked += 1
                s.takeBlock(first: 5001)
            }
        }
        #expect(ids.first == "s2001" && ids[size - 1] == "s\(2000 + size)")
        #expect(ids[size] == "s5001" && ids[size + 1] == "s5002", "the next block once this one is used")
        #expect(asked == 1, "asked once, a tenth before the end")
    }

    @Test func aBlockThatComesLateKeepsTheNumbersGivenAndOneUsedUpCountsOn() {
        var s = Sessions(recordBytesPerSecond: 0)
        _ = s.makeID(tagged: false)
        _ = s.makeID(tagged: false)
        s.takeBlock(first: 1)
        #expect(s.makeID(tagged: false) == "s3", "s1 and s2 were given: not again")
        var last = ""
        for _ in 0..<ClaimBroker.sessionBlockSize { last = s.makeID(tagged: false) }
        #expect(last == "s\(ClaimBroker.sessionBlockSize + 3)", "no next block came: numbered on")
    }
}
