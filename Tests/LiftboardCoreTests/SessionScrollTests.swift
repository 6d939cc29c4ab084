import Testing
@testable import LiftboardCore

@Suite struct SessionScrollTests {
    @Test func wheelScrollsAtOnceClampedToTheContent() {
        var d = Driver(Fixtures.longList(40))   // content 32 + 40*57 - 1 = 2311, viewport 600
        d.send(.wheel(dx: 0, dy: 250), at: 10)
        #expect(d.session.scrollY == 250)
        d.send(.wheel(dx: 0, dy: 1e6), at: 20)
        #expect(d.session.scrollY == 1711)
        d.send(.wheel(dx: 0, dy: -1e6), at: 30)
        #expect(d.session.scrollY == 0)
    }

    @Test func aFlingDeceleratesAtUIScrollViewsRateAndStops() {
        var d = Driver(Fixtures.longList(200))
        d.send(.down(pointer: 1, at: Point(x: 50, y: 500), kind: .touch), at: 0)
        // 1 px/ms upwards for the last 100 ms: the content moves down at 1 px/ms.
        for k in 1...10 { d.send(.move(pointer: 1, at: Point(x: 50, y: 500 - 10 * Double(k))), at: 10 * Double(k)) }
        let released = d.session.scrollY ?? 0
        d.send(.up(pointer: 1, at: Point(x: 50, y: 400)), at: 100)
        d.settle()
        // v(t) = 0.998^t px/ms until under 0.01 px/ms: about (1 - 0.01) / -ln(0.998) = 494 px.
        let travelled = (d.session.scrollY ?? 0) - released
        #expect(travelled > 450 && travelled < 510, "travelled \(travelled)")
        #expect(d.session.nextDeadline == nil)
    }

    @Test func aFingerDownStopsAFling() {
        var d = Driver(Fixtures.longList(200))
        d.send(.down(pointer: 1, at: Point(x: 50, y: 500), kind: .touch), at: 0)
        for k in 1...10 { d.send(.move(pointer: 1, at: Point(x: 50, y: 500 - 10 * Double(k))), at: 10 * Double(k)) }
        d.send(.up(pointer: 1, at: Point(x: 50, y: 400)), at: 100)
        d.send(.down(pointer: 2, at: Point(x: 50, y: 300), kind: .touch), at: 200)
        let stopped = d.session.scrollY
        d.send(.up(pointer: 2, at: Point(x: 50, y: 300)), at: 250)
        d.settle()
        #expect(d.session.scrollY == stopped)
    }

    @Test func idleResetScrollsBackToTheTopAfterTheConfiguredTime() {
        var config = SessionConfig()
        config.idleResetMs = 2000
        var d = Driver(Fixtures.longList(40), config: config)
        d.send(.wheel(dx: 0, dy: 300), at: 100)
        #expect(d.session.nextDeadline == 2100)
        let o = d.settle()
        #expect(d.session.scrollY == 0)
        guard case .frame(let f) = o.first else { Issue.record("\(o)"); return }
        #expect(f.scroll == Point(x: 0, y: 0) && f.scrollDur == 500 && f.ms == 2100)
    }

    @Test func framesCarryOnlyCellsNearTheViewportAndListThoseThatLeave() {
        var d = Driver(Fixtures.longList(200), viewport: Viewport(w: 400, h: 300))
        guard case .layout(let l) = d.out[1] else { Issue.record("no layout"); return }
        // Window: one viewport above and below the visible 0-300: cells intersecting [-300, 600).
        #expect(l.cells.count == 10)   // rows at 32 + 57k with tops under 600
        let o = d.send(.wheel(dx: 0, dy: 1000), at: 10)
        guard case .frame(let f) = o.first else { Issue.record("\(o)"); return }
        #expect(f.gone.count == 10)
        #expect(f.cells.allSatisfy { $0.info != nil })
        #expect(f.cells.allSatisfy { $0.frame.maxY > 700 && $0.frame.minY < 1600 })
    }

    @Test func framesAcknowledgeTheHighestSeqHandled() {
        var d = Driver(Fixtures.longList(40))
        let b = d.board
        let o = d.session.handle(.wheel(dx: 0, dy: 10), seq: 41, at: 5) { _ in b }
        guard case .frame(let f) = o.first else { Issue.record("\(o)"); return }
        #expect(f.ack == 41 && f.seq == 1)
    }
}
