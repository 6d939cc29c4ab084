import Testing
@testable import LiftboardCore

/// A toggle with drags in flight (issue 43, "Big trees stay flat"): the rows are spliced in or
/// out as with no drag (`toggleRows`), each drag's row keeping its index, instead of making the
/// rows again. The reference is the rebuild itself: a `resync` to the committed board makes the
/// rows again from the committed order with the drags at their places (`rebuildLive`), so a copy
/// of the session resynced after each toggle must have the rows the toggle left; and a drag's
/// row keeps its index, as the rebuild keeps it.
@Suite struct TreeToggleDragTests {
    /// A keyboard drag and a pointer drag moving about while random items toggle: after each
    /// toggle the rows are the rebuild's, and the session's invariants hold.
    @Test(arguments: 0..<30)
    func togglesInADragLeaveTheRowsARebuildMakes(seed: Int) {
        var rng = SplitMix64(seed: UInt64(seed) &* 7919 &+ 4307)
        var (s, ids) = TreeToggleTests.started(&rng, id: "toggle-drag")
        let keys = ["Tab", "ArrowDown", "ArrowDown", " ", "ArrowUp", "ArrowDown", "ArrowLeft", "ArrowRight", " ", "Escape"]
        var t = 0.0
        var pressed = false
        var checked = 0
        var violations: [String] = []
        for k in 0..<300 {
            t += 16
            let e: ClientEvent
            switch Int.random(in: 0..<8, using: &rng) {
            case 0, 1: e = .key(keys.randomElement(using: &rng)!)
            case 2 where !pressed:
                e = .down(pointer: 1, at: Point(x: 200, y: Double.random(in: 10...590, using: &rng)), kind: .mouse)
                pressed = true
            case 2: e = .up(pointer: 1, at: Point(x: 200, y: Double.random(in: 10...590, using: &rng))); pressed = false
            case 3 where pressed: e = .move(pointer: 1, at: Point(x: Double.random(in: 150...260, using: &rng), y: Double.random(in: 10...590, using: &rng)))
            default: e = .toggle(id: ids.randomElement(using: &rng)!)
            }
            // A keyboard drag alone (no pointer's retarget after the toggle): its row keeps its
            // index, clamped to its section (what `rebuildLive` gives it).
            var kept: (id: String, section: Int, index: Int)? = nil
            if case .toggle = e, !pressed, s.isDragging, let id = s.holds.first, let order = s.liveOrder,
               let sec = order.firstIndex(where: { $0.items.contains(id) }) {
                kept = (id, sec, order[sec].items.firstIndex(of: id)!)
            }
            _ = s.handle(e, at: t)
            if let kept, let items = s.liveOrder?[kept.section].items, items.firstIndex(of: kept.id) != min(kept.index, items.count - 1) {
                violations.append("step \(k) (\(e)): the lifted \(kept.id) left index \(kept.index): \(items)")
            }
            _ = s.fire(at: t + 1_000)  // presses lift, springs open
            t += 1_000
            violations += s.invariantViolations().map { "step \(k) (\(e)): \($0)" }
            if case .toggle = e, s.isDragging, let committed = s.committedBoard {
                checked += 1
                var rebuilt = s
                _ = rebuilt.resync(to: committed)
                if rebuilt.liveOrder != s.liveOrder {
                    violations.append("step \(k) (\(e)): rows \(s.liveOrder!) are not the rebuild's \(rebuilt.liveOrder!)")
                }
            }
            if !violations.isEmpty { break }
        }
        #expect(checked > 10, "seed \(seed): only \(checked) toggles in a drag")
        #expect(violations.isEmpty, "seed \(seed): \(violations.prefix(3))")
    }
}
