import Testing
@testable import LiftboardCore

/// Trees (issue 43) under random streams: after every step no item is lost, duplicated or made
/// its own ancestor (each section's depths form a pre-order), depths stay within the limits
/// (`maxDepth`, leaves take no children), every commit is its `move` applied to the order
/// before it, and with no drag in flight the rows are the committed tree less the collapsed
/// subtrees.
@Suite struct TreePropertyTests {
    /// A random forest per section: each depth at most one more than the one before.
    static func board(_ rng: inout SplitMix64) -> Board {
        var n = 0
        let sections = (0..<Int.random(in: 1...3, using: &rng)).map { s in
            var items: [Item] = []
            var prev = -1
            for _ in 0..<Int.random(in: 0...9, using: &rng) {
                var item = Item(id: "i\(n)", height: Bool.random(using: &rng) ? 30 : nil)
                n += 1
                item.depth = Int.random(in: 0...(prev + 1), using: &rng)
                item.collapsed = Int.random(in: 0..<4, using: &rng) == 0
                items.append(item)
                prev = item.depth
            }
            for k in items.indices where !(k + 1 < items.count && items[k + 1].depth > items[k].depth) {
                items[k].leaf = Int.random(in: 0..<4, using: &rng) == 0
            }
            var section = Section(id: "s\(s)", items: items)
            if Bool.random(using: &rng) { section.maxDepth = (items.map(\.depth).max() ?? 0) + Int.random(in: 0...1, using: &rng) }
            return section
        }
        var b = Board(id: "t", layout: .tree, sections: sections)
        b.tree = TreeMetrics(indent: [0, 16, 24].randomElement(using: &rng)!)
        return b
    }

    static func events(_ rng: inout SplitMix64, board: Board, count: Int) -> [(ClientEvent, Double)] {
        var t = 0.0
        var down: Set<Int> = []
        var out: [(ClientEvent, Double)] = []
        let ids = board.sections.flatMap(\.items).map(\.id)
        let keys = ["ArrowUp", "ArrowDown", "ArrowLeft", "ArrowRight", " ", "Escape", "Tab"]
        func point() -> Point { Point(x: Double.random(in: -20...420, using: &rng), y: Double.random(in: -20...620, using: &rng)) }
        for _ in 0..<count {
            t += [0, 1, 16, 100, 700].randomElement(using: &rng)!
            let p = Int.random(in: 0...1, using: &rng)
            switch Int.random(in: 0..<16, using: &rng) {
            case 0..<2:
                if !down.contains(p) { down.insert(p); out.append((.down(pointer: p, at: point(), kind: .touch), t)) }
            case 2..<9:
                out.append((.move(pointer: p, at: point()), t))
            case 9:
                down.remove(p); out.append((.up(pointer: p, at: point()), t))
            case 10:
                down.remove(p); out.append((.cancel(pointer: p), t))
            case 11, 12:
                out.append((.key(keys.randomElement(using: &rng)!), t))
            case 13:
                if let id = ids.randomElement(using: &rng) { out.append((.toggle(id: id), t)) }
            case 14:
                out.append((.undo, t))
            default:
                out.append((.wheel(dx: 0, dy: Double.random(in: -200...200, using: &rng)), t))
            }
        }
        return out
    }

    /// What is wrong with `b`'s trees.
    static func treeViolations(_ b: Board) -> [String] {
        var v: [String] = []
        var seen = Set<String>()
        for s in b.sections {
            let depths = s.items.map(\.depth)
            if !TreeOrder.isPreOrder(depths) { v.append("\(s.id): depths \(depths) are no pre-order") }
            for (k, item) in s.items.enumerated() {
                if !seen.insert(item.id).inserted { v.append("\(item.id) twice") }
                if let m = s.maxDepth, item.depth > m { v.append("\(item.id) at depth \(item.depth) past maxDepth \(m)") }
                if item.leaf, k + 1 < s.items.count, s.items[k + 1].depth > item.depth { v.append("leaf \(item.id) has children") }
            }
        }
        return v
    }

    /// The rows a session shows of committed board `b` (its collapsed states) with no drag.
    static func visibleOrder(_ b: Board) -> [SectionOrder] {
        b.sections.map { s in
            var rows: [String] = []
            var hideBelow = Int.max
            for item in s.items {
                if item.depth > hideBelow { continue }
                hideBelow = item.collapsed ? item.depth : Int.max
                rows.append(item.id)
            }
            return SectionOrder(section: s.id, items: rows)
        }
    }

    @Test(arguments: 0..<40)
    func randomStreamsKeepEveryTreeWhole(seed: Int) {
        var rng = SplitMix64(seed: UInt64(seed) &* 7919 &+ 43)
        let board = Self.board(&rng)
        let events = Self.events(&rng, board: board, count: 120)
        var s = Session(id: "tree")
        _ = s.handle(.hello(Hello(board: board.id, viewport: Viewport(w: 400, h: 600), config: SessionConfig())), at: 0) { _ in board }
        var prev = board
        var violations: [String] = []
        var total = board.sections.reduce(0) { $0 + $1.items.count }
        for (k, (e, t)) in events.enumerated() {
            let out = s.handle(e, at: t) { _ in board }
            for case .persist(let c) in out {
                guard let change = c.change, let (next, _) = prev.applying(change) else {
                    violations.append("step \(k): commit v\(c.version) is not one change on v\(prev.version)"); continue
                }
                if next.order != c.order { violations.append("step \(k): commit v\(c.version) differs from its change applied") }
                prev = next
            }
            guard let committed = s.committedBoard else { continue }
            violations += Self.treeViolations(committed).map { "step \(k) (\(e)): \($0)" }
            if committed.order.map(\.items) != prev.order.map(\.items) || committed.order.map(\.parents) != prev.order.map(\.parents) {
                violations.append("step \(k): the session's committed tree is not its commits'")
            }
            total = committed.sections.reduce(0) { $0 + $1.items.count }
            violations += s.invariantViolations().map { "step \(k) (\(e)): \($0)" }
            if !s.isDragging, s.liveOrder != Self.visibleOrder(committed) {
                violations.append("step \(k) (\(e)): rows \(s.liveOrder!) are not the committed tree's visible rows")
            }
            if !violations.isEmpty { break }
        }
        #expect(total == board.sections.reduce(0) { $0 + $1.items.count })
        #expect(violations.isEmpty, "seed \(seed): \(violations.prefix(3))")
    }
}
