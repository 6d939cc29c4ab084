/// Collapse and expand without making the visible order again (issue 43, "Big trees stay flat").
extension LiveSession {
    /// Item `h`'s collapsed state just flipped: the live rows are the committed order's
    /// visible items (`visibleRows`) less those drags carry, each drag's row standing at its
    /// live index (`rebuildLive`), so its subtree's rows leave them or enter them right after
    /// its row, the drags' rows after it keeping their indexes, and only its section is
    /// reindexed from there. Expanding walks the committed order from `h`'s place
    /// (`TreeIndex`), stepping over each collapsed or lifted descendant's subtree by its end:
    /// it reads only the rows it reveals. Returns `false`, changing nothing, where that does
    /// not hold (a swap-mode or multi-item drag, a drag whose reveal is pending, `h` no row,
    /// the index not of the committed order): `rebuildLive` then makes the rows.
    /// - Complexity: O(k) for the k rows revealed or hidden, plus the shift of the rows after
    ///   them in their section (`Arrangement.splice`: an add a row), O(sections) and O(drags);
    ///   with a drag's row after `h` in its section, O(the rows up to the last such row) more.
    mutating func toggleRows(of h: Int) -> Bool {
        // Loops, not closures: a closure that reads `self` here copied the whole session.
        guard arr.tree != nil, drags.isEmpty || config.mode != .swap, !drags.contains(where: { $0.group.count > 1 }) else { return false }
        for x in arr.tree!.reveal where liftedBy[x] == nil { return false }
        let s = arr.sectionOf[h]
        guard s >= 0, arr.tree!.index.reads(base, section: s) else { return false }
        let i = arr.indexOf[h], d = arr.tree!.committedDepth[h]
        // The drags' rows after `h` in its section, by index: they keep their indexes.
        var held: [(index: Int, item: Int)] = []
        for k in drags.indices where arr.sectionOf[drags[k].item] == s && arr.indexOf[drags[k].item] > i {
            held.append((arr.indexOf[drags[k].item], drags[k].item))
        }
        held.sort { $0.index < $1.index }
        var removing = 0, span = 0, inserting: [Int] = []
        if arr.tree!.collapsed[h] {
            // Its visible descendants are the rows after it deeper than it that no drag holds.
            let rows = arr.members[s], depth = arr.tree!.committedDepth
            var j = i + 1
            while j < rows.count {
                if liftedBy[rows[j]] == nil { guard depth[rows[j]] > d else { break }; removing += 1 }
                j += 1
            }
            span = j - i - 1
        } else {
            let m = base[s], end = arr.tree!.index.end, collapsed = arr.tree!.collapsed
            var k = arr.tree!.index.pos[h] + 1
            while k < end[h] {
                let x = m[k]
                if liftedBy[x] == nil { inserting.append(x) }
                k = collapsed[x] || liftedBy[x] != nil ? end[x] : k + 1
            }
        }
        var before: [(pointer: Int, place: Place)] = []
        for k in drags.indices { before.append((drags[k].pointer, arr.place(of: drags[k].item))) }
        if removing == 0 && inserting.isEmpty {
            // Nothing to show or hide (its children are all lifted): the rows stay.
        } else if held.isEmpty {
            arr.splice(section: s, at: i + 1, removing: removing, inserting: inserting)
        } else {
            // The rows after `h` less the drags', changed, then the drags' put back at their
            // indexes (`rebuildLive` inserts them so, in index order, none past the end). Past
            // the last drag's row and the rows hidden, and far enough that the drags' indexes
            // all fall within what changes, every row moves by the same count: only the rows
            // before that are made again, the splice shifts the rest.
            let n = arr.members[s].count
            let limit = min(n, max(held.last!.index + 1, i + 1 + span) + max(0, removing - inserting.count))
            let old = arr.members[s][(i + 1)..<limit]
            var tail = inserting
            tail.reserveCapacity(old.count + inserting.count)
            var dropped = 0
            for x in old where liftedBy[x] == nil {
                if dropped < removing { dropped += 1 } else { tail.append(x) }
            }
            for (index, item) in held { tail.insert(item, at: min(index, i + 1 + tail.count) - i - 1) }
            arr.splice(section: s, at: i + 1, removing: old.count, inserting: tail)
        }
        if drags.isEmpty {
            arr.clearVisited()
        } else {
            // As `rebuildLive` ends: the drags' bounds may have changed, and their places.
            projectDepths()
            reportPlaces(since: before)
        }
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
