import Testing
@testable import LiftboardCore

/// `Session` keeps its live state behind a reference (copied on write, for speed): it must
/// still behave as a value.
@Suite struct SessionValueTests {
    /// A drag of `a` (list board) two rows down, dropped.
    static let drag: [(ClientEvent, Double)] = [
        (.down(pointer: 1, at: Point(x: 50, y: 60), kind: .touch), 100),
        (.move(pointer: 1, at: Point(x: 50, y: 120)), 700),
        (.move(pointer: 1, at: Point(x: 50, y: 200)), 720),
        (.move(pointer: 1, at: Point(x: 50, y: 280)), 740),
        (.up(pointer: 1, at: Point(x: 50, y: 280)), 760),
    ]

    @Test func aCopyOfASessionIsNotChangedByDrivingTheOriginal() {
        var d = Driver(Fixtures.listBoard())
        d.send(Self.drag[0].0, at: Self.drag[0].1)
        let copy = d.session
        let orderBefore = copy.liveOrder
        for (e, t) in Self.drag.dropFirst() { d.send(e, at: t) }
        #expect(d.session.liveOrder != orderBefore, "the drag moved a")
        #expect(d.session.version == 1)
        #expect(copy.liveOrder == orderBefore)
        #expect(copy.version == 0)
        #expect(copy.nextDeadline == 600, "the copy still waits for its long press")
    }

    @Test func aCopyDrivenLikeTheOriginalAnswersTheSameBytesOfEvents() {
        var d = Driver(Fixtures.listBoard())
        d.send(Self.drag[0].0, at: Self.drag[0].1)
        var copy = d.session
        var fromOriginal: [ServerEvent] = [], fromCopy: [ServerEvent] = []
        for (e, t) in Self.drag.dropFirst() { fromOriginal += d.send(e, at: t) }
        for (e, t) in Self.drag.dropFirst() { fromCopy += copy.handle(e, at: t) }
        #expect(!fromOriginal.isEmpty)
        #expect(fromCopy == fromOriginal)
        #expect(copy.committedOrder == d.session.committedOrder)
    }

    @Test func closingACopyLeavesTheOriginalLive() {
        let d = Driver(Fixtures.listBoard())
        var copy = d.session
        copy.close()
        // Closed, not waiting for a hello: it ignores every event (one waiting would answer no_hello).
        #expect(!copy.isLive)
        #expect(copy.handle(.ping(id: .int(1)), at: 1).isEmpty)
        #expect(d.session.isLive)
        #expect(d.session.boardID == "demo")
    }
}
