import Testing
@testable import LiftboardCore

@Suite struct ClientClockTests {
    @Test func theSessionRunsOnTheClientsMsWhateverTheDelay() {
        var c = ClientClock()
        #expect(c.message(ms: 300, serverNow: 10_400) == 300)    // a slow first one
        #expect(c.message(ms: 400, serverNow: 10_450) == 400)    // a faster one
        #expect(c.message(ms: 500, serverNow: 10_580) == 500)    // slower again
        #expect(c.offset == 10_050)                               // the smallest server - ms
    }

    @Test func msNeverGoesBackASmallerOneIsTakenAsTheLast() {
        var c = ClientClock()
        _ = c.message(ms: 1000, serverNow: 5000)
        #expect(c.message(ms: 900, serverNow: 5010) == 1000)
        #expect(c.message(ms: 1005, serverNow: 5020) == 1005)
    }

    @Test func aClientClockRunningFarAheadOfTheMappingIsClamped() {
        var c = ClientClock()
        _ = c.message(ms: 0, serverNow: 1000)                    // offset 1000
        // 300 ms ahead of the mapping: within the lead, learned.
        #expect(c.message(ms: 400, serverNow: 1100) == 400)
        #expect(c.offset == 700)
        // A jump of an hour: clamped to the mapping plus the lead, never more.
        let t = c.message(ms: 3_600_000, serverNow: 1200)
        #expect(t == 1200 - (1000 - ClientClock.maxLeadMs))
        #expect(c.offset == 1000 - ClientClock.maxLeadMs)
        // However often it says so.
        #expect(c.message(ms: 3_600_001, serverNow: 1210) == 1210 - (1000 - ClientClock.maxLeadMs))
    }

    @Test func aTimerFiresFromTheServerClockAtItsMappedDueTimePlusTheAllowance() {
        var c = ClientClock()
        _ = c.message(ms: 2000, serverNow: 7000)                 // offset 5000
        #expect(c.serverFireTime(due: 2500) == 7500 + ClientClock.timerAllowanceMs)
        // Fired then, the session's time is the due time (or later, never earlier).
        let fired = c.serverEvent(serverNow: 7500 + ClientClock.timerAllowanceMs)
        #expect(fired == 2500)
        // A message sent before it but arriving later is taken at the timer's time.
        #expect(c.message(ms: 2490, serverNow: 7600) == 2500)
    }

    @Test func aHelloWithoutMsGivesAProvisionalMappingThatTheFirstMsReplaces() {
        var c = ClientClock()
        #expect(c.message(ms: nil, serverNow: 500) == 0)
        #expect(c.serverFireTime(due: 100) == 600 + ClientClock.timerAllowanceMs)
        // A page open for an hour: its first real ms is not "ahead", it is its clock.
        #expect(c.message(ms: 3_600_000, serverNow: 520) == 3_600_000)
        #expect(c.offset == -3_599_480)
        #expect(c.shift == 0)
    }

    @Test func aClockStartingAtZeroAfterAHelloWithoutMsGoesOnFromTheSessionsTime() {
        // Hello at server 1,000 with no ms; others' presence at 16,000 takes the session to
        // 14,950; the client's first message says ms 0 (a script's clock).
        var c = ClientClock()
        #expect(c.message(ms: nil, serverNow: 1_000) == 0)
        #expect(c.serverEvent(serverNow: 16_000) == 14_950)
        #expect(c.message(ms: 0, serverNow: 16_100) == 14_950)
        #expect(c.shift == 14_950)
        // A press then is due 500 ms later on its clock: the server fires it 550 ms after the
        // message, not 15 s (the time the provisional mapping had run).
        #expect(c.serverFireTime(due: 14_950 + 500) == 16_100 + 500 + ClientClock.timerAllowanceMs)
        #expect(c.message(ms: 100, serverNow: 16_200) == 15_050)
    }
}
