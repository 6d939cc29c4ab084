/// A tree board's invariants (docs/protocol.md, "Trees"), for tests and the fuzzer: the
/// committed order is a forest within its bounds, and the live rows are its visible rows.
extension LiveSession {
    /// Everything wrong with the tree's state: empty when sound (and on a board that is no tree).
    /// - Complexity: O(n · drags).
    func treeInvariantViolations() -> [String] {
        guard let tree = arr.tree else { return [] }
        var v = treeViolations()  // the depths and the order's index (`LiveSession+TreeToggle.swift`)
        // The committed order: a pre-order in each section, no depth past the section's bound,
        // no leaf with children, and the facts kept beside it (parent, hasChildren) current.
        for (s, m) in base.enumerated() {
            let depths = m.map { tree.committedDepth[$0] }
            if !TreeOrder.isPreOrder(depths) { v.append("section \(arr.sectionIDs[s]): committed depths \(depths) are no forest") }
            let parents = TreeOrder.parents(depths: depths)
            for (k, h) in m.enumerated() {
                let has = k + 1 < m.count && depths[k + 1] > depths[k]
                if depths[k] > tree.deepest(in: s) { v.append("\(arr.ids[h]) at depth \(depths[k]), past \(tree.deepest(in: s))") }
                if has && tree.leaf[h] { v.append("leaf \(arr.ids[h]) has children") }
                if has != tree.hasChildren[h] { v.append("\(arr.ids[h]).hasChildren is stale") }
                if (parents[k].map { m[$0] } ?? -1) != tree.parent[h] { v.append("\(arr.ids[h]).parent is stale") }
            }
        }
        // The live rows: exactly the visible ones (no descendant of a collapsed or lifted item),
        // every item that is not a drag's at its committed depth.
        var visible: [[Int]] = base
        for s in visible.indices {
            var hideBelow = Int.max
            visible[s] = visible[s].filter { h in
                let d = tree.committedDepth[h]
                if d > hideBelow { return liftedBy[h] != nil && drags.contains { $0.item == h } }
                hideBelow = tree.collapsed[h] || liftedBy[h] != nil ? d : Int.max
                return true
            }
        }
        let rows = arr.members.flatMap { $0 }
        if Set(rows) != Set(visible.flatMap { $0 }) || rows.count != Set(rows).count {
            v.append("live rows \(rows.map { arr.ids[$0] }) are not the visible rows \(visible.flatMap { $0 }.map { arr.ids[$0] })")
        } else {
            // Besides the drags' rows, each section's rows stand in their committed order.
            let dragged = Set(drags.map(\.item))
            for s in visible.indices where arr.members[s].filter({ !dragged.contains($0) }) != visible[s].filter({ !dragged.contains($0) }) {
                v.append("section \(arr.sectionIDs[s]): the rows besides the drags' are not in their committed order")
            }
        }
        for h in rows where liftedBy[h] == nil && tree.depth[h] != tree.committedDepth[h] {
            v.append("\(arr.ids[h]) at live depth \(tree.depth[h]), committed \(tree.committedDepth[h])")
        }
        for d in drags {
            guard let t = d.tree else { v.append("drag of \(arr.ids[d.item]) carries no subtree"); continue }
            if tree.depth[d.item] != t.depth { v.append("drag of \(arr.ids[d.item]) at depth \(t.depth), its row at \(tree.depth[d.item])") }
            for x in t.descendants where !arr.isParked(x) && !drags.contains(where: { $0.item == x }) {
                v.append("\(arr.ids[x]), carried by \(arr.ids[d.item]), is a row")
            }
            guard !t.refused else { continue }
            if let b = depthBounds(of: d.item, height: t.height), !b.contains(t.depth) {
                v.append("drag of \(arr.ids[d.item]) at depth \(t.depth), outside \(b)")
            }
        }
        return v
    }

    /// Each section's live rows with their live depths (nil: no tree).
    var liveTree: [[(id: String, depth: Int)]]? {
        guard let tree = arr.tree else { return nil }
        return arr.members.map { m in m.map { (arr.ids[$0], tree.depth[$0]) } }
    }
}

extension Session {
    /// For tests and the fuzzer, on a tree board: each section's live rows with their live depths.
    public var liveTree: [[(id: String, depth: Int)]]? { liveBox?.session.liveTree }
}
