/// A tree board's facts besides the order (docs/protocol.md, "Trees"), by item handle: kept by
/// `Arrangement.tree` so that `LiveSession` gains no stored property for them.
///
/// The committed order (`LiveSession.base`) holds every item in pre-order; `committedDepth`
/// gives each its depth there. The live order holds the visible rows only: the descendants
/// of collapsed items and of lifted items are parked out of it (`LiveSession.visibleRows`).
/// `depth` is the live depth of each row: the committed one, but for a dragged item, whose
/// depth its drag projects.
struct TreeState: Sendable {
    let indent: Double
    var committedDepth: [Int]
    var depth: [Int]
    /// This session's collapsed states (the file's to begin with).
    var collapsed: [Bool]
    let leaf: [Bool]
    /// Each section's `maxDepth` (nil: the board's limit).
    let maxDepth: [Int?]
    /// Whether each item has children in the committed order.
    var hasChildren: [Bool]
    /// Each item's parent in the committed order (-1: top level).
    var parent: [Int]
    /// The committed order's index (`LiveSession.refreshTreeShape` makes it again).
    var index: TreeIndex
    /// Items lifted since the visible order was last made: once their drag ends, their
    /// collapsed ancestors expand, so that a dropped (or cancelled) item is always a row.
    var reveal: [Int] = []

    init(board: Board) {
        indent = board.tree.indent
        var depth: [Int] = [], collapsed: [Bool] = [], leaf: [Bool] = [], order: [[Int]] = []
        for s in board.sections {
            order.append(Array(depth.count..<(depth.count + s.items.count)))
            for item in s.items { depth.append(item.depth); collapsed.append(item.collapsed); leaf.append(item.leaf) }
        }
        index = TreeIndex(order: order, depth: depth)
        committedDepth = depth
        hasChildren = depth.indices.map { $0 + 1 < depth.count && depth[$0 + 1] > depth[$0] }
        parent = TreeOrder.parents(depths: depth).map { $0 ?? -1 }
        self.depth = depth
        self.collapsed = collapsed
        self.leaf = leaf
        maxDepth = board.sections.map(\.maxDepth)
    }

    /// The deepest depth section `s` takes.
    func deepest(in s: Int) -> Int { min(maxDepth[s] ?? TreeOrder.maxDepth, TreeOrder.maxDepth) }

    /// The bounds of the depth of a row of section `s` between the rows `above` and `below`
    /// (handles; -1: none), for a subtree `height` deep (`nil`: none fits).
    func depthBounds(above: Int, below: Int, height: Int, section s: Int) -> ClosedRange<Int>? {
        DepthProjection.bounds(above: above < 0 ? nil : (depth: depth[above], leaf: leaf[above]),
                               below: below < 0 ? nil : depth[below], height: height, deepest: deepest(in: s))
    }
}

/// Where each item stands in the committed order of a tree board (issue 43, "Big trees stay
/// flat"): its index in its section and the end (exclusive) of its subtree there, so that a
/// toggle reads only the rows it reveals (`LiveSession.toggleRows`).
struct TreeIndex: Sendable {
    /// The committed order it reads: valid while the session's is this one. A copy shares its
    /// storage, so an unchanged section compares equal at once.
    private(set) var order: [[Int]]
    private(set) var pos: [Int]
    private(set) var end: [Int]

    /// - Complexity: O(n).
    init(order: [[Int]], depth: [Int]) {
        self.order = order
        pos = Array(repeating: -1, count: depth.count)
        end = pos
        for m in order {
            let ends = TreeOrder.subtreeEnds(depths: m.map { depth[$0] })
            for (k, h) in m.enumerated() { pos[h] = k; end[h] = ends[k] }
        }
    }

    /// Whether section `s` of `order` is the one indexed; if so, the index keeps `order`'s
    /// copy of it, so that the next check compares storage only.
    /// - Complexity: O(1) when they share storage, else O(section).
    mutating func reads(_ order: [[Int]], section s: Int) -> Bool {
        guard indexes(order, section: s) else { return false }
        self.order[s] = order[s]
        return true
    }

    func indexes(_ order: [[Int]], section s: Int) -> Bool { s < self.order.count && self.order[s] == order[s] }
}

/// A drag on a tree board: the subtree it carries, and the depth the finger's sideways travel
/// projects (docs/protocol.md, "Trees").
struct TreeDrag: Sendable {
    /// The lift's depth, and the pointer's x at its `down` (viewport coordinates).
    let liftDepth: Int
    let downX: Double
    /// The item's descendants in committed pre-order (they travel with it, out of the live order).
    var descendants: [Int]
    /// The subtree's height: its deepest depth less its own.
    var height: Int
    /// The depth its row stands at now.
    var depth: Int
    /// The `rule_refused` message of a drop where no depth fits.
    static let refusal = "tree: no depth fits here"
    /// No depth fits the row's place (`lo > hi`): the snapshot says `forbidden`.
    var refused = false
    /// Spring-open: the collapsed row its center rests over (-1: none), and since when.
    var spring = -1
    var springSince = 0.0
}

/// The depth projection of the contract: the lift's depth plus the sideways travel in
/// levels, clamped between the row below's depth and one more than the row above's.
enum DepthProjection {
    /// `round(dx / indent)`, halves away from zero (`indent` 0: 0).
    static func levels(dx: Double, indent: Double) -> Int {
        guard indent > 0 else { return 0 }
        let q = dx / indent
        return Int(q < 0 ? -((-q).rounded(.toNearestOrAwayFromZero)) : q.rounded(.toNearestOrAwayFromZero))
    }

    /// The bounds `lo ... hi` of a row between `above` (depth, leaf) and `below` (depth), for a
    /// subtree `height` deep in a section that takes depths up to `deepest`; `nil` when they cross.
    static func bounds(above: (depth: Int, leaf: Bool)?, below: Int?, height: Int, deepest: Int) -> ClosedRange<Int>? {
        var hi = above.map { $0.leaf ? $0.depth : $0.depth + 1 } ?? 0
        hi = min(hi, deepest - height)
        let lo = below ?? 0
        return lo <= hi ? lo...hi : nil
    }
}
