import Testing
@testable import LiftboardCore

/// A frame after a reorder compares only the cells the engine moved (`CellPlan.run`); it must
/// say exactly what comparing every cell in the window says. The reference is here, in the
/// tests: a client that applies every layout and frame, and the differ on the whole window
/// (`diffCells(.whole)`) run on a copy of the session after each step, which must find nothing
/// left unsent.
struct FrameReference {
    /// What the client has drawn: each cell's frame and whether it is hidden.
    var drawn: [String: (frame: Rect, hidden: Bool)] = [:]

    mutating func absorb(_ events: [ServerEvent]) {
        for e in events {
            switch e {
            case .layout(let l):
                drawn = [:]
                for c in l.cells { drawn[c.id] = (c.frame, c.hidden) }
            case .frame(let f):
                for c in f.cells { drawn[c.id] = (c.frame, c.hidden) }
                for id in f.gone + f.removed { drawn[id] = nil }
            default: break
            }
        }
    }

    /// How the client's cells differ from the session's window, and what the whole differ would
    /// still send; empty when the frames said everything.
    func violations(_ s: Session) -> [String] {
        guard var live = s.liveBox?.session else { return [] }
        var v: [String] = []
        for (k, h) in live.sent.order.enumerated() {
            let id = live.arr.ids[h], cell = live.sent.cells[k]
            guard let d = drawn[id] else { v.append("\(id): in the window, never drawn"); continue }
            if d.frame != cell.frame || d.hidden != cell.hidden { v.append("\(id): drawn \(d), the session has \(cell)") }
        }
        var f = FrameMessage(seq: 0, ms: 0, ack: nil)
        live.diffCells(.whole, into: &f)
        if !f.cells.isEmpty || !f.gone.isEmpty {
            v.append("the whole differ still sends \(f.cells.map(\.id)), gone \(f.gone)")
        }
        return v
    }
}

@Suite struct FrameDiffTests {
    @Test func framesFromTheMovedCellsOnlySayWhatEveryCellSaysOnRandomStreams() {
        var failures: [String] = []
        for seed in 0..<1500 as Range<UInt64> {
            var rng = SplitMix64(seed: seed &+ 90_000)
            let board = RandomStreams.board(&rng)
            let config = RandomStreams.config(&rng)
            let events = RandomStreams.events(&rng, board: board, count: 80)
            var violations: [String] = []
            _ = RandomStreams.run(board: board, config: config, events: events, violations: &violations, checkFrames: true)
            failures += violations.map { "seed \(seed): \($0)" }
            if failures.count > 3 { break }
        }
        #expect(failures.isEmpty, "\(failures.prefix(3))")
    }

    /// A long list, a short viewport: drags that pass rows at the window's edges (cells
    /// entering and leaving the window) and auto-scroll, in both modes.
    @Test func framesFromTheMovedCellsOnlySayWhatEveryCellSaysOnALongListWithEdgeDrags() {
        for mode in [ReorderMode.insert, .swap] {
            var config = SessionConfig()
            config.mode = mode
            var rng = SplitMix64(seed: 7)
            var events: [(ClientEvent, Double)] = []
            var t = 0.0
            for _ in 0..<12 {
                let y = Double.random(in: 20...280, using: &rng)
                events.append((.down(pointer: 1, at: Point(x: 100, y: y), kind: .touch), t))
                t += 600
                var py = y
                for _ in 0..<40 {
                    py = min(max(0, py + Double.random(in: -30...45, using: &rng)), 300)
                    events.append((.move(pointer: 1, at: Point(x: 100, y: py)), t))
                    t += 16
                }
                events.append((.up(pointer: 1, at: Point(x: 100, y: py)), t))
                t += 400
            }
            let board = Fixtures.longList(200)
            var s = Session(id: "long")
            var reference = FrameReference()
            var failures: [String] = []
            var moved = 0
            func take(_ out: [ServerEvent], after what: String) {
                reference.absorb(out)
                moved += out.filter { if case .moved = $0 { true } else { false } }.count
                failures += reference.violations(s).map { "\(mode) after \(what): \($0)" }
            }
            take(s.handle(.hello(Hello(board: board.id, viewport: Viewport(w: 400, h: 300), config: config)), at: 0) { _ in board },
                 after: "hello")
            for (e, t) in events where failures.isEmpty { take(s.handle(e, at: t), after: "\(e) at \(t)") }
            take(s.drain().events, after: "settling")
            #expect(moved > 50, "the drags pass rows")
            #expect(failures.isEmpty, "\(failures.prefix(3))")
        }
    }

    /// The planner says which cells a frame compares: a drag passing its neighbours compares
    /// only the places the engine reindexed (`.run`), never the whole window, while the window
    /// holds them all.
    @Test func thePlannerComparesOnlyTheReindexedPlacesWhenADragPassesItsNeighbours() {
        let board = Fixtures.longList(8)
        var s = Session(id: "plan")
        _ = s.handle(.hello(Hello(board: board.id, viewport: Viewport(w: 400, h: 800), config: SessionConfig())), at: 0) { _ in board }
        _ = s.handle(.down(pointer: 1, at: Point(x: 100, y: 100), kind: .touch), at: 0)
        var plans: [LiveSession.CellPlan] = []
        var t = 600.0
        for y in stride(from: 100.0, through: 400, by: 10) {
            guard var probe = s.liveBox?.session else { Issue.record("no live session"); return }
            var fired: [ServerEvent] = []
            probe.fire(at: t, into: &fired)
            probe.pointerMove(1, to: Point(x: 100, y: y), now: t)
            if probe.step.reordered { plans.append(probe.planCells(dirty: probe.step.cellsDirty, edited: false)) }
            _ = s.handle(.move(pointer: 1, at: Point(x: 100, y: y)), at: t)
            t += 16
        }
        let runs = plans.filter { if case .run = $0 { true } else { false } }.count
        #expect(runs >= 3, "the drag passes rows: \(plans)")
        #expect(runs == plans.count, "every reorder step compares only its run: \(plans)")
    }
}
