import Testing
@testable import LiftboardServer

@Suite struct RateLimiterTests {
    @Test("up to the limit a window goes, the rest is refused until the window ends")
    func window() {
        var r = RateLimiter(limit: 3, windowMs: 1000)
        #expect((0..<5).map { r.admit(now: 100 + Double($0)) .admitted } == [true, true, true, false, false])
        #expect(!r.admit(now: 1099).admitted)
        // The window started at the first ask (100): it ends at 1100.
        #expect(r.admit(now: 1100).admitted)
    }

    @Test("costs are counted: bytes against a byte allowance")
    func costs() {
        var r = RateLimiter(limit: 100)
        #expect(r.admit(60, now: 0).admitted)
        #expect(!r.admit(41, now: 1).admitted)
        #expect(r.admit(40, now: 2).admitted)
        #expect(!r.admit(1, now: 3).admitted)
        #expect(!r.admit(101, now: 5000).admitted)
        #expect(r.admit(100, now: 5001).admitted)
    }

    @Test("an admitted ask says how many were refused since the last admitted one, across windows")
    func refusedBefore() {
        var r = RateLimiter(limit: 1)
        #expect(r.admit(now: 0) == .init(admitted: true, refusedBefore: 0))
        _ = r.admit(now: 1); _ = r.admit(now: 2)
        #expect(r.admit(now: 1500) == .init(admitted: true, refusedBefore: 2))
        #expect(r.admit(now: 3000) == .init(admitted: true, refusedBefore: 0))
    }

    @Test("refusals say whether they are the window's first and how many windows in a row were over")
    func rows() {
        var r = RateLimiter(limit: 1)
        _ = r.admit(now: 0)
        #expect(r.admit(now: 10) == .init(admitted: false, firstRefusalInWindow: true, overWindowsInARow: 1))
        #expect(r.admit(now: 20) == .init(admitted: false, firstRefusalInWindow: false, overWindowsInARow: 1))
        _ = r.admit(now: 1000)
        #expect(r.admit(now: 1010) == .init(admitted: false, firstRefusalInWindow: true, overWindowsInARow: 2))
        _ = r.admit(now: 2000)
        #expect(r.admit(now: 2010).overWindowsInARow == 3)
        // A window within the limit breaks the row.
        _ = r.admit(now: 3000)
        _ = r.admit(now: 4000)
        #expect(r.admit(now: 4010).overWindowsInARow == 1)
        // So does a gap with no window at all.
        _ = r.admit(now: 5000); _ = r.admit(now: 5010)
        _ = r.admit(now: 9000)
        #expect(r.admit(now: 9010).overWindowsInARow == 1)
    }

    @Test("a window has ended once its length has passed since its first ask")
    func ended() {
        var r = RateLimiter(limit: 1, windowMs: 500)
        #expect(r.windowEnded(now: 0))
        _ = r.admit(now: 100)
        #expect(!r.windowEnded(now: 599) && r.windowEnded(now: 600))
    }

    @Test("the log limiter lets 20 lines of a kind a second through and counts the rest for the next")
    func logLimiter() {
        var log = LogLimiter()
        let first = (0..<25).map { log.admit("warn refusal", now: Double($0)) }
        #expect(first.filter(\.0).count == 20)
        #expect(log.admit("info connect", now: 30).0)
        let next = log.admit("warn refusal", now: 1000)
        #expect(next.0 && next.suppressed == 5)
    }

    @Test("the recording rate takes bytes up to its allowance; 0 is no limit")
    func recordingRate() {
        var now = 0.0
        let rate = RecordingRate(bytesPerSecond: 1000, clock: { now })
        #expect(rate.take(600) && rate.take(400) && !rate.take(1))
        now = 999
        #expect(!rate.take(1))
        now = 1000
        #expect(rate.take(1000))
        let unlimited = RecordingRate(bytesPerSecond: 0)
        #expect((0..<100).allSatisfy { _ in unlimited.take(1 << 20) })
    }
}
