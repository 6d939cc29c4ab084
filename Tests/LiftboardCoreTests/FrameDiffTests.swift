import Testing
@testable import LiftboardCore

/// A frame after a reorder compares only the cells the engine moved (`diffReordered`); it must
/// say exactly what comparing every cell in the window says.
@Suite struct FrameDiffTests {
    @Test func framesFromTheMovedCellsOnlyEqualFramesFromEveryCellOnRandomStreams() {
        var failures: [String] = []
        for seed in 0..<1500 as Range<UInt64> {
            var rng = SplitMix64(seed: seed &+ 90_000)
            let board = RandomStreams.board(&rng)
            let config = RandomStreams.config(&rng)
            let events = RandomStreams.events(&rng, board: board, count: 80)
            var violations: [String] = []
            let quick = RandomStreams.run(board: board, config: config, events: events, violations: &violations)
            let whole = RandomStreams.run(board: board, config: config, events: events, violations: &violations, wholeDiffs: true)
            if let k = quick.indices.first(where: { $0 < whole.count && quick[$0] != whole[$0] }) {
                failures.append("seed \(seed): message \(k) differs: \(quick[k]) against \(whole[k])")
            } else if quick.count != whole.count {
                failures.append("seed \(seed): \(quick.count) messages against \(whole.count)")
            }
            failures += violations.map { "seed \(seed): \($0)" }
            if failures.count > 3 { break }
        }
        #expect(failures.isEmpty, "\(failures.prefix(3))")
    }

    /// A long list, a short viewport: drags that pass rows at the window's edges (cells
    /// entering and leaving the window) and auto-scroll, in both modes.
    @Test func framesFromTheMovedCellsOnlyEqualFramesFromEveryCellOnALongListWithEdgeDrags() {
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
            func run(whole: Bool) -> [ServerEvent] {
                var s = Session(id: "long", wholeDiffs: whole)
                var out = s.handle(.hello(Hello(board: board.id, viewport: Viewport(w: 400, h: 300), config: config)), at: 0) { _ in board }
                for (e, t) in events { out += s.handle(e, at: t) }
                out += s.drain().events
                return out
            }
            let quick = run(whole: false), whole = run(whole: true)
            let moved = quick.filter { if case .moved = $0 { true } else { false } }.count
            #expect(moved > 50, "the drags pass rows")
            #expect(quick == whole)
        }
    }
}
