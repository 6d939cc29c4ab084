/// Collapse and expand without making the visible order again (issue 43, "Big trees stay flat").
extension LiveSession {
    /// Item `h`'s collapsed state just flipped: with no drag in flight the live rows are
    /// exactly the committed order's visible items (`visibleRows`), so its subtree's rows
    /// leave them or enter them right after its row, and only its section is reindexed from
    /// there. Expanding walks the committed order from `h`'s place (`TreeIndex`), stepping
    /// over each collapsed descendant's subtree by its end: it reads only the rows it reveals.
    /// Returns `false`, changing nothing, where that does not hold (a drag in flight, pinned
    /// items in the section or among the rows, `h` no row, the index not of the committed
    /// order): `rebuildLive` then makes the rows.
    /// - Complexity: O(k) for the k rows revealed or hidden, plus the reindex of the rows after
    ///   them in their section (`Arrangement.splice`) and O(sections).
    mutating func toggleRows(of h: Int) -> Bool {
        guard drags.isEmpty, arr.tree != nil, arr.tree!.reveal.isEmpty else { return false }
        let s = arr.sectionOf[h]
        guard s >= 0, arr.pinnedNow[s] == 0, arr.tree!.index.reads(base, section: s) else { return false }
        let i = arr.indexOf[h], d = arr.tree!.committedDepth[h]
        if arr.tree!.collapsed[h] {
            // Its visible descendants are the rows after it deeper than it.
            let rows = arr.members[s], depth = arr.tree!.committedDepth
            var j = i + 1
            while j < rows.count && depth[rows[j]] > d { j += 1 }
            arr.splice(section: s, at: i + 1, removing: j - i - 1, inserting: [])
        } else {
            let m = base[s], end = arr.tree!.index.end, collapsed = arr.tree!.collapsed, movable = arr.movable
            var shown: [Int] = []
            var k = arr.tree!.index.pos[h] + 1
            while k < end[h] {
                let x = m[k]
                guard movable[x] else { return false }  // a pinned row: `rebuildLive` places it
                shown.append(x)
                k = collapsed[x] ? end[x] : k + 1
            }
            arr.splice(section: s, at: i + 1, removing: 0, inserting: shown)
        }
        arr.clearVisited()
        step.reordered = true
        return true
    }

    /// The tree's invariants: with no drag in flight every row's live depth is its committed
    /// one; the committed order's index, in each section where it reads that order, is what
    /// reading the order item by item gives.
    func treeViolations() -> [String] {
        guard let tree = arr.tree else { return [] }
        var v: [String] = []
        if drags.isEmpty && tree.depth != tree.committedDepth { v.append("tree: live depths are not the committed ones with no drag") }
        for (s, m) in base.enumerated() where tree.index.indexes(base, section: s) {
            for (k, h) in m.enumerated() where tree.index.pos[h] != k
                || tree.index.end[h] != TreeOrder.subtreeEnd(from: k, count: m.count, depth: { tree.committedDepth[m[$0]] }) {
                v.append("tree: the index of \(arr.ids[h]) is stale")
            }
        }
        return v
    }
}
