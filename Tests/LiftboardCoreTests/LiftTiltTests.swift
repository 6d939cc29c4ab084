import Foundation
import Testing
@testable import LiftboardCore

/// The lift's tilt (issue 41 item 5): `liftRotation` capped at asin(36 / width), so a lifted
/// snapshot's ends rise or fall at most 18 px; a phone-width row keeps the seed's 0.0873.
@Suite struct LiftTiltTests {
    @Test func aPhoneRowKeepsTheSeedsTiltAndAWideRowIsCapped() {
        let c = SessionConfig()
        // The same literals as Tests/js/predict.test.mjs: the page computes the same bits.
        #expect(c.liftRotation(width: 390) == 0.0873)
        #expect(c.liftRotation(width: 1200) == 0.030004501823476942)
        #expect(c.liftRotation(width: 413) == 0.08727783334472826)
        var negative = c
        negative.liftRotation = -0.0873
        #expect(negative.liftRotation(width: 1200) == -0.030004501823476942)
        var steep = c
        steep.liftRotation = 0.5
        #expect(steep.liftRotation(width: 30) == 0.5)   // at most 36 px wide: never capped
        for w in [413.0, 500, 800, 1200, 1920, 4000, 100_000] {
            let r = c.liftRotation(width: w)
            #expect(w / 2 * sin(r) <= 18 + 1e-9, "\(w) px: ends move \(w / 2 * sin(r)) px")
            #expect(w / 2 * sin(r) >= 18 - 1e-9, "\(w) px: capped to less than 18 px")
        }
    }

    @Test func arcsineIsAsinWithinTenToTheMinusFifteen() {
        for k in 0...10_000 {
            let x = Double(k) / 10_000
            #expect(abs(arcsine(x) - asin(x)) <= 1e-15, "arcsine(\(x))")
        }
        #expect(arcsine(1) == Double.pi / 2)
    }

    /// The lift's snapshot carries it, for the width of the lifted cell.
    @Test func theLiftOfAWideRowSendsTheCappedTilt() {
        for (width, want) in [(390.0, 0.0873), (1200, 0.030004501823476942)] {
            var d = Driver(Fixtures.listBoard(), viewport: Viewport(w: width, h: 600))
            d.send(.down(pointer: 1, at: Point(x: 50, y: 60), kind: .touch), at: 0)
            d.settle()
            let tilts = d.out.compactMap { e -> Double? in
                if case .frame(let f) = e { f.snapshots.first { $0.rotation != nil }?.rotation } else { nil }
            }
            #expect(tilts == [want], "\(width) px")
        }
    }
}
