/// A section's forest kept as a pre-order with each item's depth (docs/protocol.md, "Trees"):
/// an item is followed by its descendants, which are deeper than it, so an item's subtree is
/// the run from it to the first later item no deeper than it. The board (`Section.items`) and
/// the session (handles) share these rules through accessor closures.
enum TreeOrder {
    /// The deepest an item may be (levels 1 ... 33).
    static let maxDepth = 32

    /// Each item's parent's index (nil at the top level), for depths that form a valid
    /// pre-order (each at most one deeper than the one before, the first 0).
    /// - Complexity: O(n).
    static func parents(depths: [Int]) -> [Int?] {
        var out: [Int?] = []
        out.reserveCapacity(depths.count)
        var stack: [Int] = []
        for (i, d) in depths.enumerated() {
            while stack.count > d { stack.removeLast() }
            out.append(stack.last)
            if stack.count == d { stack.append(i) }
        }
        return out
    }

    /// The first index in `0 ... count` where `before` (true on a prefix of the indices, false
    /// after it) is false, searched out from index `i` in doubling steps, then halving.
    /// - Complexity: O(log distance) from `i` to the answer.
    static func firstIndex(count n: Int, near i: Int, _ before: (Int) -> Bool) -> Int {
        var lo = 0, hi = n  // before(k) for k < lo, !before(k) for k >= hi
        guard n > 0 else { return 0 }
        let i = min(max(i, 0), n - 1)
        var step = 1
        if before(i) {
            lo = i + 1
            while i + step < n {
                if !before(i + step) { hi = i + step; break }
                lo = i + step + 1
                step *= 2
            }
        } else {
            hi = i
            while i - step >= 0 {
                if before(i - step) { lo = i - step + 1; break }
                hi = i - step
                step *= 2
            }
        }
        while lo < hi {
            let mid = (lo + hi) / 2
            if before(mid) { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }

    /// The end (exclusive) of each item's subtree, for depths that form a valid pre-order.
    /// - Complexity: O(n).
    static func subtreeEnds(depths: [Int]) -> [Int] {
        var out = Array(repeating: depths.count, count: depths.count)
        var stack: [Int] = []
        for (i, d) in depths.enumerated() {
            while let last = stack.last, depths[last] >= d { out[last] = i; stack.removeLast() }
            stack.append(i)
        }
        return out
    }

    /// The end (exclusive) of the subtree of the item at `i`.
    /// - Complexity: O(subtree).
    static func subtreeEnd(from i: Int, count: Int, depth: (Int) -> Int) -> Int {
        let d = depth(i)
        var j = i + 1
        while j < count && depth(j) > d { j += 1 }
        return j
    }

    /// Whether `depths` is a pre-order: the first 0, each at most one deeper than the one before.
    static func isPreOrder(_ depths: [Int]) -> Bool {
        var prev = -1
        for d in depths { if d < 0 || d > prev + 1 { return false }; prev = d }
        return true
    }

    /// Where a `move` change puts its item's subtree.
    struct MovePlan: Equatable {
        /// The subtree's section and its run `[start, end)` there.
        var section: Int
        var start: Int
        var end: Int
        /// The target section, and the index its run starts at once removed from its place.
        var target: Int
        var at: Int
        /// What every item of the subtree adds to its depth.
        var delta: Int
    }

    /// The plan of moving `x`'s subtree under `parent` in section `t`, right after its sibling
    /// `after`'s subtree (else as `parent`'s child number `index`, clamped), or `nil` when the
    /// move is moot: `x` unknown or pinned, `parent` `x` itself or inside its subtree, a
    /// `leaf` parent, a depth past `maxDepth` (or the board's limit), or a place that is the
    /// one `x` has. A `parent` gone from `t` counts as none (the top level).
    /// - Complexity: O(items of the sections involved).
    static func plan<T: Equatable>(_ x: T, section t: Int, parent: T?, after: T?, index: Int, order: [[T]],
                                   depth: (T) -> Int, leaf: (T) -> Bool, movable: (T) -> Bool,
                                   maxDepth sectionMax: (Int) -> Int?) -> MovePlan? {
        guard t >= 0, t < order.count, movable(x) else { return nil }
        guard let s = order.indices.first(where: { order[$0].contains(x) }), let i = order[s].firstIndex(of: x) else { return nil }
        let src = order[s]
        let end = subtreeEnd(from: i, count: src.count) { depth(src[$0]) }
        let d0 = depth(x)
        var height = 0
        for k in i..<end { height = max(height, depth(src[k]) - d0) }
        // The target section as it is without the subtree.
        var rest = order[t]
        if s == t { rest.removeSubrange(i..<end) }
        var lo = 0, hi = rest.count, newDepth = 0
        if let p = parent, let pi = rest.firstIndex(of: p) {
            guard !leaf(p) else { return nil }
            newDepth = depth(p) + 1
            lo = pi + 1
            hi = subtreeEnd(from: pi, count: rest.count) { depth(rest[$0]) }
        } else if let p = parent, src[i..<end].contains(p) {
            return nil
        }
        // The children of the parent (or the top-level items) in [lo, hi).
        var children: [Int] = []
        var k = lo
        while k < hi {
            if depth(rest[k]) == newDepth { children.append(k) }
            k += 1
        }
        var at: Int
        if let a = after, let ai = children.first(where: { rest[$0] == a }) {
            at = subtreeEnd(from: ai, count: rest.count) { depth(rest[$0]) }
        } else {
            let n = min(max(0, after == nil ? 0 : index), children.count)
            at = n < children.count ? children[n] : hi
        }
        guard newDepth + height <= min(sectionMax(t) ?? maxDepth, maxDepth) else { return nil }
        if s == t && at == i && newDepth == d0 { return nil }
        return MovePlan(section: s, start: i, end: end, target: t, at: at, delta: newDepth - d0)
    }

    /// Carries out `plan` on `order` (the caller shifts the depths by `plan.delta`).
    /// - Complexity: O(items of the sections involved).
    static func carry<T>(_ plan: MovePlan, in order: inout [[T]]) {
        let run = Array(order[plan.section][plan.start..<plan.end])
        order[plan.section].removeSubrange(plan.start..<plan.end)
        order[plan.target].insert(contentsOf: run, at: plan.at)
    }
}

extension Board {
    /// Applies a tree `move` in place (version + 1) and returns its one move (the item, its
    /// descendants going with it), or `nil`, changing nothing, when it is moot
    /// (`TreeOrder.plan`).
    /// - Complexity: O(items of the board).
    mutating func applyTreeMove(_ id: String, section: String, parent: String?, after: String?, index: Int) -> [Move]? {
        guard let t = sections.firstIndex(where: { $0.id == section }) else { return nil }
        let order = sections.map { $0.items.map(\.id) }
        var byID: [String: Item] = [:]
        for s in sections { for item in s.items where item.id == id || item.id == parent || item.id == after { byID[item.id] = item } }
        var depthOf: [String: Int] = [:]
        for s in sections { for item in s.items { depthOf[item.id] = item.depth } }
        guard let plan = TreeOrder.plan(id, section: t, parent: parent, after: after, index: index, order: order,
                                        depth: { depthOf[$0] ?? 0 }, leaf: { byID[$0]?.leaf ?? false },
                                        movable: { byID[$0]?.movable ?? false }, maxDepth: { sections[$0].maxDepth })
        else { return nil }
        var items = sections.map(\.items)
        for k in plan.start..<plan.end { items[plan.section][k].depth += plan.delta }
        TreeOrder.carry(plan, in: &items)
        for s in [plan.section, plan.target] { sections[s].items = items[s] }
        version += 1
        return [Move(id: id, from: Place(section: sections[plan.section].id, index: plan.start),
                     to: Place(section: section, index: plan.at))]
    }
}

extension TreeOrder {
    /// Where the item at `i` stands in its forest: its parent's index, its previous sibling's
    /// index (nil: first) and how many siblings come before it.
    /// - Complexity: O(items before it under its parent).
    static func place(of i: Int, depth: (Int) -> Int) -> (parent: Int?, after: Int?, index: Int) {
        let d = depth(i)
        var parent: Int? = nil, after: Int? = nil, index = 0
        var k = i - 1
        while k >= 0 {
            let dk = depth(k)
            if dk < d { parent = k; break }
            if dk == d { if after == nil { after = k }; index += 1 }
            k -= 1
        }
        return (parent, after, index)
    }
}

extension Board {
    /// The `move` change that puts item `id` back where it stands now (a tree move's revert).
    func treeMoveBack(_ id: String) -> Change? {
        guard let (s, i) = locate(item: id) else { return nil }
        let items = sections[s].items
        let p = TreeOrder.place(of: i) { items[$0].depth }
        return .move(id, section: sections[s].id, parent: p.parent.map { items[$0].id }, after: p.after.map { items[$0].id }, index: p.index)
    }
}
