import Testing
@testable import LiftboardServer

/// `TimerSchedule` alone: what the loop's timer is told for each deadline the session reports.
@Suite struct TimerScheduleTests {
    @Test func aDeadlineArmsTheTimerOnceAndAMovedOneReArmsIt() {
        var t = TimerSchedule()
        #expect(!t.isArmed)
        #expect(t.schedule(fireAt: 600, now: 100) == .arm(afterMs: 500))
        #expect(t.isArmed)
        #expect(t.schedule(fireAt: 600, now: 150) == nil, "armed for it already")
        #expect(t.schedule(fireAt: 640, now: 200) == .arm(afterMs: 440))
        #expect(t.schedule(fireAt: 640, now: 210) == nil)
    }

    @Test func noDeadlineCancelsAnArmedTimerOnceAndAnIdleOneNever() {
        var t = TimerSchedule()
        #expect(t.schedule(fireAt: nil, now: 0) == nil, "nothing armed: nothing to cancel")
        _ = t.schedule(fireAt: 300, now: 0)
        #expect(t.schedule(fireAt: nil, now: 10) == .cancel)
        #expect(!t.isArmed)
        #expect(t.schedule(fireAt: nil, now: 20) == nil)
        #expect(t.cancel() == nil)
    }

    @Test func anOverdueDeadlineFiresAtOnce() {
        var t = TimerSchedule()
        #expect(t.schedule(fireAt: 100, now: 130) == .arm(afterMs: 0))
    }

    @Test func onceFiredTheSameDeadlineIsArmedAgain() {
        var t = TimerSchedule()
        _ = t.schedule(fireAt: 600, now: 100)
        t.fired()
        #expect(!t.isArmed)
        #expect(t.schedule(fireAt: 600, now: 600) == .arm(afterMs: 0))
    }

    @Test func aRetryCountsAsArmedAndTheNextScheduleArmsForTheDeadlineWhateverItIs() {
        var t = TimerSchedule()
        _ = t.schedule(fireAt: 600, now: 100)
        t.fired()
        #expect(t.retry(afterMs: 2) == .arm(afterMs: 2))
        #expect(t.isArmed)
        // The deadline is where it was before the retry: armed for it anew all the same.
        #expect(t.schedule(fireAt: 600, now: 602) == .arm(afterMs: 0))
        #expect(t.schedule(fireAt: 600, now: 603) == nil)
        // A retry standing is cancelled like a deadline.
        _ = t.retry(afterMs: 2)
        #expect(t.cancel() == .cancel)
        #expect(!t.isArmed)
    }
}
