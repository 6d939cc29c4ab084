import Testing
@testable import LiftboardCore

/// Collapse and expand in place (issue 43, "Big trees stay flat"): a toggle with no drag in
/// flight splices its subtree's rows in or out of the live order (`toggleRows`) through the
/// committed order's index (`TreeIndex`) instead of making the rows again. Here against naive
/// references: the subtree ends against `TreeOrder.subtreeEnd`, the rows against the committed
/// tree less its collapsed subtrees, after random toggles between keyboard moves that commit.
@Suite struct TreeToggleTests {
    @Test func subtreeEndsAreEachItemsSubtreeEnd() {
        var rng = SplitMix64(seed: 4307)
        for _ in 0..<200 {
            var depths: [Int] = []
            for _ in 0..<Int.random(in: 0...40, using: &rng) { depths.append(Int.random(in: 0...((depths.last ?? -1) + 1), using: &rng)) }
            let ends = TreeOrder.subtreeEnds(depths: depths)
            for i in depths.indices {
                #expect(ends[i] == TreeOrder.subtreeEnd(from: i, count: depths.count) { depths[$0] }, "\(depths) at \(i)")
            }
        }
    }

    /// A deep random forest per section (up to 120 items, a third of them collapsed).
    static func board(_ rng: inout SplitMix64) -> Board {
        var n = 0
        let sections = (0..<Int.random(in: 1...3, using: &rng)).map { s in
            var items: [Item] = []
            var prev = -1
            for _ in 0..<Int.random(in: 1...120, using: &rng) {
                var item = Item(id: "i\(n)", height: Int.random(in: 0..<3, using: &rng) == 0 ? 30 : nil)
                n += 1
                item.depth = Int.random(in: max(0, prev - 2)...(prev + 1), using: &rng)
                item.collapsed = Int.random(in: 0..<3, using: &rng) == 0
                items.append(item)
                prev = item.depth
            }
            return Section(id: "s\(s)", items: items)
        }
        var b = Board(id: "t", layout: .tree, sections: sections)
        b.tree = TreeMetrics(indent: 24)
        return b
    }

    /// A session started on a random board (`board`), and the board's item ids.
    static func started(_ rng: inout SplitMix64, id: String) -> (Session, [String]) {
        let board = Self.board(&rng)
        var s = Session(id: id)
        _ = s.handle(.hello(Hello(board: board.id, viewport: Viewport(w: 400, h: 600), config: SessionConfig())), at: 0) { _ in board }
        return (s, board.sections.flatMap(\.items).map(\.id))
    }

    /// Random toggles, and keyboard lifts, moves, indents and drops (commits that change the
    /// committed order and so its index) between them: after every step with no drag in flight
    /// the rows are the committed tree's visible items, and the session's invariants (the
    /// arrangement's geometry, the index against its naive reading) hold.
    @Test(arguments: 0..<30)
    func togglesKeepTheRowsOfTheCommittedTree(seed: Int) {
        var rng = SplitMix64(seed: UInt64(seed) &* 6151 &+ 43)
        var (s, ids) = Self.started(&rng, id: "toggle")
        let keys = ["Tab", "Tab", " ", "ArrowUp", "ArrowDown", "ArrowLeft", "ArrowRight", " ", "Escape"]
        var t = 0.0
        var toggles = 0
        var violations: [String] = []
        for k in 0..<200 {
            t += 16
            let e: ClientEvent = Int.random(in: 0..<3, using: &rng) == 0 ? .key(keys.randomElement(using: &rng)!)
                : .toggle(id: ids.randomElement(using: &rng)!)
            if case .toggle = e, !s.isDragging { toggles += 1 }
            _ = s.handle(e, at: t)
            violations += s.invariantViolations().map { "step \(k) (\(e)): \($0)" }
            if !s.isDragging, let committed = s.committedBoard, s.liveOrder != TreePropertyTests.visibleOrder(committed) {
                violations.append("step \(k) (\(e)): rows \(s.liveOrder!) are not the committed tree's visible rows")
            }
            if !violations.isEmpty { break }
        }
        #expect(toggles > 50)
        #expect(violations.isEmpty, "seed \(seed): \(violations.prefix(3))")
    }
}

extension TreeToggleTests {
    /// The spring-open search out from the drag's row finds what a plain binary search finds.
    @Test func searchOutFromARowIsABinarySearch() {
        for n in 0...40 {
            for cut in 0...n {
                for i in -1...(n + 1) {
                    var probes = 0
                    let got = TreeOrder.firstIndex(count: n, near: i) { probes += 1; return $0 < cut }
                    #expect(got == cut, "n \(n) cut \(cut) from \(i)")
                    #expect(probes <= 2 * (Int.bitWidth - (abs(cut - i) + 1).leadingZeroBitCount) + 2, "n \(n) cut \(cut) from \(i): \(probes) probes")
                }
            }
        }
    }
}
