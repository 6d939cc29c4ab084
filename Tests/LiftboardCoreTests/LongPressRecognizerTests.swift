import Testing
@testable import LiftboardCore

@Suite struct LongPressRecognizerTests {
    func make() -> LongPressRecognizer {
        LongPressRecognizer(at: Point(x: 100, y: 100), time: 1000, pressMs: 500, allowableMovement: 10)
    }

    @Test func aPressBeginsFromTheTimerAtItsDeadline() {
        var r = make()
        #expect(r.state == .possible)
        #expect(r.deadline == 1500)
        do { let fired = r.fire(at: 1499); #expect(!fired) }
        do { let fired = r.fire(at: 1500); #expect(fired) }
        #expect(r.state == .began)
        #expect(r.deadline == nil)
    }

    @Test func movingWithinTheAllowableMovementKeepsThePressPossible() {
        var r = make()
        do { let st = r.move(to: Point(x: 106, y: 108)); #expect(st == .possible) }  // exactly 10 away
        do { let st = r.move(to: Point(x: 107, y: 108)); #expect(st == .failed) }
        do { let fired = r.fire(at: 2000); #expect(!fired) }
    }

    @Test func movesAfterTheBeginningAreChanges() {
        var r = make()
        r.fire(at: 1500)
        do { let st = r.move(to: Point(x: 300, y: 300)); #expect(st == .changed) }
        do { let st = r.move(to: Point(x: 301, y: 300)); #expect(st == .changed) }
        do { let st = r.up(); #expect(st == .ended) }
        #expect(r.state == .ended)
    }

    @Test func liftingBeforeThePressIsATapThatFails() {
        var r = make()
        do { let st = r.up(); #expect(st == .failed) }
        #expect(r.deadline == nil)
    }

    @Test func cancellingABeganPressCancelsAndAPossibleOneFails() {
        var began = make()
        began.fire(at: 1500)
        do { let st = began.cancel(); #expect(st == .cancelled) }
        var possible = make()
        do { let st = possible.cancel(); #expect(st == .failed) }
    }

    @Test func finishedRecognizersIgnoreEverything() {
        var r = make()
        r.up()
        do { let st = r.move(to: Point(x: 500, y: 500)); #expect(st == .failed) }
        do { let st = r.cancel(); #expect(st == .failed) }
        do { let fired = r.fire(at: 5000); #expect(!fired) }
    }
}
