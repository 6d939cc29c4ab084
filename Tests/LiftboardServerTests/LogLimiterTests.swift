import Testing
@testable import LiftboardServer

@Suite struct LogLimiterTests {
    @Test func linesOfOneKindPastTheLimitAreCountedAndReportedWithTheNextOneWritten() {
        var limiter = LogLimiter()
        limiter.perSecond = 2
        #expect(check(limiter.admit("warn refusal", now: 0), true, 0))
        #expect(check(limiter.admit("warn refusal", now: 10), true, 0))
        #expect(check(limiter.admit("warn refusal", now: 20), false, 0))
        #expect(check(limiter.admit("warn refusal", now: 30), false, 0))
        #expect(check(limiter.admit("info hello", now: 40), true, 0))
        #expect(check(limiter.admit("warn refusal", now: 1000), true, 2))
    }
}

private func check(_ r: (Bool, suppressed: Int), _ allowed: Bool, _ suppressed: Int) -> Bool {
    r.0 == allowed && r.suppressed == suppressed
}
