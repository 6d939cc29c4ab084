import LiftboardLoad
import XCTest

final class StartOffsetTests: XCTestCase {
    private func offsets(_ n: Int, spread: Bool) -> (config: LoadConfig, offsets: [Double]) {
        var c = LoadConfig()
        c.sessions = n
        c.sessionsPerBoard = 2
        c.spreadStarts = spread
        return (c, (0..<n).map { c.startOffsetMs(index: $0) })
    }

    func testSpreadStartsCoverTheCycleWithNoWideGapForAnyCount() {
        for n in [2, 7, 100, 500, 1000] {
            let (c, o) = offsets(n, spread: true)
            let sorted = o.sorted()
            XCTAssert(sorted.allSatisfy { $0 >= 0 && $0 < c.gestureCycleMs })
            let gaps = zip(sorted.dropFirst(), sorted).map { $0 - $1 } + [sorted[0] + c.gestureCycleMs - sorted.last!]
            XCTAssertLessThanOrEqual(gaps.max()!, 2.7 * c.gestureCycleMs / Double(n), "\(n) sessions")
        }
    }

    func testSessionsSharingABoardStartAtLeastAThirdOfACycleApart() {
        let (c, o) = offsets(1000, spread: true)
        for k in stride(from: 0, to: 1000, by: 2) {
            let d = abs(o[k] - o[k + 1])
            XCTAssertGreaterThanOrEqual(min(d, c.gestureCycleMs - d), c.gestureCycleMs / 3, "sessions \(k) and \(k + 1)")
        }
    }

    func testInPhaseStartsPutEveryoneWithin17msExceptABoardsSecondSession() {
        let (c, o) = offsets(1000, spread: false)
        let firsts = stride(from: 0, to: 1000, by: 2).map { o[$0] }
        let seconds = stride(from: 1, to: 1000, by: 2).map { o[$0] }
        XCTAssertLessThan(firsts.max()! - firsts.min()!, 17)
        XCTAssertLessThan(seconds.max()! - seconds.min()!, 17)
        XCTAssertEqual(seconds.min()! - firsts.min()!, c.gestureCycleMs / 2, accuracy: 17)
    }
}
