import Testing
@testable import LiftboardServer

/// The small deciding parts of the server: board lookups and heap trims.
@Suite struct ServerPartsTests {
    final class Hello {}

    @Test func aHelloForAnUnknownBoardAsksTheSharedStoreOnceAndWaitsWithTheOthersForIt() {
        var lookups = BoardLookups<Hello>()
        let a = Hello(), b = Hello(), c = Hello()
        let unshared = lookups.lookUp("x", for: a, shared: false, now: 0)
        #expect(unshared == .answerNow, "no shared store: no_board at once")
        #expect(lookups.waiting.isEmpty)
        let outcomes = [lookups.lookUp("x", for: a, shared: true, now: 0), lookups.lookUp("x", for: b, shared: true, now: 0),
                        lookups.lookUp("y", for: c, shared: true, now: 0)]
        #expect(outcomes == [.ask, .wait, .ask])
        lookups.forget(b)
        let x = lookups.answered(["x"])
        #expect(x.count == 1 && x[0] === a)
        let rest = lookups.answered(["x", "y"])
        #expect(rest.count == 1 && rest[0] === c)
        #expect(lookups.waiting.isEmpty)
    }

    /// How many sessions a release pass writes before the loop turns: 128 with epoll, the whole
    /// pass with lws's poll loop (it cannot turn without waiting), or what the environment says.
    @Test func aReleaseChunkIsAHundredAndTwentyEightSessionsWholeWithPollOrWhatTheEnvironmentSays() throws {
        #expect(try Server.releaseChunk(for: .epoll, [:]) == 128)
        #expect(try Server.releaseChunk(for: .poll, [:]) == .max)
        #expect(try Server.releaseChunk(for: .poll, ["LIFTBOARD_RELEASE_CHUNK": "2"]) == .max)
        #expect(try Server.releaseChunk(for: .epoll, ["LIFTBOARD_RELEASE_CHUNK": "2"]) == 2)
        for bad in ["0", "-3", "many"] {
            #expect(throws: ServerError.self) { try Server.releaseChunk(for: .epoll, ["LIFTBOARD_RELEASE_CHUNK": bad]) }
        }
    }

    @Test func lookupsPastTheRateAreAnsweredAtOnce() {
        var lookups = BoardLookups<Hello>()
        var outcomes: [BoardLookups<Hello>.Outcome] = []
        for k in 0...Limits.boardLookupsPerSecond { outcomes.append(lookups.lookUp("b\(k)", for: Hello(), shared: true, now: 10)) }
        #expect(outcomes.filter { $0 == .ask }.count == Limits.boardLookupsPerSecond)
        #expect(outcomes.last == .answerNow)
        // A board already asked about waits, whatever the rate.
        let asked = lookups.lookUp("b0", for: Hello(), shared: true, now: 10)
        #expect(asked == .wait)
    }

    @Test func theHeapIsTrimmedWhenItsFreeBytesGrewByAStepSinceTheLastTrim() {
        var trims = HeapTrims()
        var decisions: [Bool] = []
        for free in [HeapTrims.step - 1, HeapTrims.step, 2 * HeapTrims.step - 1] { decisions.append(trims.shouldTrim(free: free)) }
        #expect(decisions == [false, true, false])
        #expect(trims.freeAfterTrim == HeapTrims.step)
        // The free memory was taken again: the next growth by a step from there trims.
        let shrunk = trims.shouldTrim(free: 100)
        #expect(!shrunk && trims.freeAfterTrim == 100)
        let grown = trims.shouldTrim(free: 100 + HeapTrims.step)
        #expect(grown)
    }
}
