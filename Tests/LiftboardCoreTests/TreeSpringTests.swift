import Testing
@testable import LiftboardCore

/// Spring-open (docs/protocol.md, Trees): a pointer drag's center resting over a collapsed row's
/// middle half for `springMs` expands it; the timer is the session's `nextDeadline`.
/// Rows (44 tall, header 32): groceries(0) milk(1) eggs(1) garden(0, collapsed: seeds) bills(0).
@Suite struct TreeSpringTests {
    static func board() -> Board {
        var b = TreeMoveToTests.outline()
        var seeds = Item(id: "seeds", label: "Seeds")
        seeds.depth = 1
        b.sections[0].items.insert(seeds, at: 4)
        b.sections[0].items[3].collapsed = true
        b.list = ListMetrics(rowHeight: 44, headerHeight: 32, spacing: 0)
        return b
    }

    func lifted(_ config: SessionConfig = SessionConfig()) -> Driver {
        var d = Driver(Self.board(), config: config)
        d.send(.down(pointer: 1, at: Point(x: 200, y: 230), kind: .touch), at: 0)
        d.send(.move(pointer: 1, at: Point(x: 200, y: 230)), at: 600)  // lifted at 500
        #expect(d.lifts == 1)
        return d
    }

    @Test func restingOverACollapsedRowsMiddleHalfExpandsItAfterSpringMs() {
        var d = lifted()
        #expect(d.session.nextDeadline == nil)
        d.send(.move(pointer: 1, at: Point(x: 200, y: 192)), at: 700)  // garden: 164 ..< 208, middle half 175 ... 197
        #expect(d.session.nextDeadline == 1200)
        d.send(.move(pointer: 1, at: Point(x: 200, y: 194)), at: 900)  // still inside: the time runs on
        #expect(d.session.nextDeadline == 1200)
        #expect(!d.order[0].contains("seeds"))
        d.send(.move(pointer: 1, at: Point(x: 200, y: 194)), at: 1300)
        #expect(d.order[0].contains("seeds"))
        #expect(d.session.nextDeadline == nil)
    }

    @Test func leavingTheMiddleHalfResetsTheTimer() {
        var c = SessionConfig()
        c.springMs = 300
        var d = lifted(c)
        d.send(.move(pointer: 1, at: Point(x: 200, y: 192)), at: 700)
        #expect(d.session.nextDeadline == 1000)
        d.send(.move(pointer: 1, at: Point(x: 200, y: 202)), at: 800)  // the row's bottom quarter
        #expect(d.session.nextDeadline == nil)
        d.send(.move(pointer: 1, at: Point(x: 200, y: 190)), at: 900)
        #expect(d.session.nextDeadline == 1200)
        d.send(.up(pointer: 1, at: Point(x: 200, y: 190)), at: 950)  // dropped first: nothing opens
        d.settle()
        #expect(!d.order[0].contains("seeds"))
    }
}
