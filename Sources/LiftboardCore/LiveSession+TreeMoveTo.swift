/// "Move to…" on a tree board (docs/protocol.md, Trees): `first` and `last` among the target
/// section's top-level items, `up` and `down` among X's siblings, `indent` (X becomes its
/// previous sibling's last child) and `outdent` (X becomes its parent's next sibling, after
/// the parent's subtree). Each commits the `move` change a drop there would. Also spring-open
/// (a drag resting over a collapsed row expands it), the other tree piece issue 43 had left.
extension LiveSession {
    mutating func treeMoveTo(_ h: Int, section t: Int, place: MovePlace, now: Double) {
        guard let tree = arr.tree, let s = base.firstIndex(where: { $0.contains(h) }), let i = base[s].firstIndex(of: h) else { return }
        let m = base[s], label = arr.labels[h]
        let depth = { (k: Int) in tree.committedDepth[m[k]] }
        let here = TreeOrder.place(of: i, depth: depth)
        /// The indices of the children of the item at `p` in section `m` (nil: its top-level items).
        func children(of p: Int?, in m: [Int]) -> [Int] {
            let d = p.map { tree.committedDepth[m[$0]] + 1 } ?? 0
            let lo = p.map { $0 + 1 } ?? 0
            let hi = p.map { TreeOrder.subtreeEnd(from: $0, count: m.count) { tree.committedDepth[m[$0]] } } ?? m.count
            return (lo..<hi).filter { tree.committedDepth[m[$0]] == d }
        }
        let siblings = children(of: here.parent, in: m)
        let k = here.index
        var parent: Int? = here.parent.map { m[$0] }, after: Int?, index: Int
        switch place {
        case .first:
            parent = nil; after = nil; index = 0
        case .last:
            let top = children(of: nil, in: base[t]).map { base[t][$0] }.filter { $0 != h }
            parent = nil; after = top.last; index = top.count
        case .up:
            guard k > 0 else { refuseMove("moveTo: \(label) is first already"); return }
            after = k > 1 ? m[siblings[k - 2]] : nil
            index = k - 1
        case .down:
            guard k + 1 < siblings.count else { refuseMove("moveTo: \(label) is last already"); return }
            after = m[siblings[k + 1]]
            index = k + 1
        case .indent:
            guard let a = here.after else { refuseMove("moveTo: \(label) has no previous sibling to go under"); return }
            guard !tree.leaf[m[a]] else { refuseMove("moveTo: \(arr.labels[m[a]]) takes no children"); return }
            let under = children(of: a, in: m)
            parent = m[a]; after = under.last.map { m[$0] }; index = under.count
        case .outdent:
            guard let p = here.parent else { refuseMove("moveTo: \(label) is at the top level already"); return }
            let pp = TreeOrder.place(of: p, depth: depth)
            parent = pp.parent.map { m[$0] }; after = m[p]; index = pp.index + 1
        }
        // A subtree a drag carries has no rows: nothing moves into it, or within it.
        if let p = parent, isCarried(p) || isCarried(h) {
            refuseMove("moveTo: \(arr.labels[isCarried(h) ? h : p]) is being dragged")
            return
        }
        let movable = arr.movable
        guard TreeOrder.plan(h, section: t, parent: parent, after: after, index: index, order: base,
                             depth: { tree.committedDepth[$0] }, leaf: { tree.leaf[$0] }, movable: { movable[$0] },
                             maxDepth: { tree.maxDepth[$0] }) != nil else {
            refuseMove("moveTo: \(label) cannot go \(place.rawValue) (it is there already, or past the section's maxDepth)")
            return
        }
        let othersBefore = drags.map { ($0.pointer, arr.place(of: $0.item)) }
        let before = version
        commit(.move(arr.ids[h], section: arr.sectionIDs[t], parent: parent.map { arr.ids[$0] }, after: after.map { arr.ids[$0] }, index: index),
               now: now)
        guard version != before else { return }
        arr.tree!.reveal.append(h)  // X lands as a row: its collapsed ancestors expand, as after a drop
        rebuildLive(reporting: othersBefore)
        step.shiftDur = dur(config.shiftMs)
        step.cellsDirty = true
        announce("\(label) moved to \(describe(h)).")
    }
}

extension LiveSession {
    // MARK: Spring-open

    /// Drag `d`'s center `c` (content coordinates): the collapsed row with children it rests
    /// over, inside that row's middle half, becomes its spring row (timed from `now`); any
    /// other place resets it. Rows in a section stand in index order, and the center is near
    /// the drag's own row, so the search goes out from that row (`TreeOrder.firstIndex`).
    /// - Complexity: O(log distance) from the drag's row to the one under the center.
    mutating func updateSpring(_ d: Int, center c: Point, now: Double) {
        // A drag carries `tree` on a tree board only; the tree's facts (a copy of them retains
        // every array) are read only for a row other than the drag's own. The drag's own tree
        // is read and written in place: a copy (`var t = drags[d].tree`, written back) retained
        // and released its descendants at every move (perf: a third of this method's time).
        guard drags[d].tree != nil else { return }
        let h = drags[d].item, s = arr.sectionOf[h], m = arr.members[s]
        // The probes read local copies of the section's arrays: a closure that read `self`
        // copied the whole session or arrangement (every array retained and released) at each.
        // `y0 + top + height` adds as `frame(section:index:).maxY` does.
        let tops = arr.tops[s], heights = arr.heights, y0 = arr.sectionTop[s] + arr.headerHeight
        let lo = TreeOrder.firstIndex(count: m.count, near: arr.indexOf[h]) { y0 + tops[$0] + heights[m[$0]] <= c.y }
        var r = -1
        if lo < m.count {
            let f = arr.frame(section: s, index: lo), y = m[lo]
            if y != h, let tree = arr.tree, tree.collapsed[y], tree.hasChildren[y], c.y >= f.y + f.h / 4, c.y <= f.y + 3 * f.h / 4, c.x >= f.x, c.x <= f.x + f.w {
                r = y
            }
        }
        if r != drags[d].tree!.spring { drags[d].tree!.spring = r; drags[d].tree!.springSince = now }
    }

    /// Drag `k`'s spring row expands (as a `toggle`), and the drags are retargeted.
    mutating func springOpen(_ k: Int, now: Double) {
        guard k < drags.count, let r = drags[k].tree?.spring, r >= 0 else { return }
        drags[k].tree!.spring = -1
        guard arr.tree!.collapsed[r], arr.tree!.hasChildren[r], !isCarried(r) else { return }
        setCollapsed(r, false, now: now)
    }
}

