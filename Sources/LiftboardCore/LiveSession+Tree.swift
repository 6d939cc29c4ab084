/// Trees (docs/protocol.md, "Trees"): the visible rows, a lifted subtree, the depth a drag
/// projects, the `move` change a drop commits, and the words that say a row's level.
extension LiveSession {
    // MARK: Visible rows

    /// Leaves out of `order` (the committed order: every item, in pre-order) the items a tree
    /// does not show, the descendants of collapsed items and of lifted items, and makes every
    /// row's live depth its committed one but for dragged items (their drags' projected depth).
    /// - Complexity: O(n).
    mutating func visibleRows(_ order: inout [[Int]]) {
        guard arr.tree != nil else { return }
        for h in arr.tree!.reveal where liftedBy[h] == nil {
            var p = arr.tree!.parent[h]
            while p >= 0 { arr.tree!.collapsed[p] = false; p = arr.tree!.parent[p] }
        }
        arr.tree!.reveal.removeAll { liftedBy[$0] == nil }
        arr.tree!.depth = arr.tree!.committedDepth
        for s in order.indices {
            var hideBelow = Int.max
            var rows: [Int] = []
            rows.reserveCapacity(order[s].count)
            for h in order[s] {
                let d = arr.tree!.committedDepth[h]
                if d > hideBelow { continue }
                hideBelow = arr.tree!.collapsed[h] || liftedBy[h] != nil ? d : Int.max
                rows.append(h)
            }
            order[s] = rows
        }
        for k in drags.indices { if let t = drags[k].tree { arr.tree!.depth[drags[k].item] = t.depth } }
    }

    /// Recomputes each item's `hasChildren` and parent from the committed order, its index,
    /// and the subtree each drag carries (a commit may have moved items into or out of it).
    /// - Complexity: O(n).
    mutating func refreshTreeShape() {
        guard arr.tree != nil else { return }
        for m in base {
            let depths = m.map { arr.tree!.committedDepth[$0] }
            let parents = TreeOrder.parents(depths: depths)
            for (k, h) in m.enumerated() {
                arr.tree!.hasChildren[h] = k + 1 < m.count && depths[k + 1] > depths[k]
                arr.tree!.parent[h] = parents[k].map { m[$0] } ?? -1
            }
        }
        for k in drags.indices where drags[k].tree != nil {
            let h = drags[k].item, depth = arr.tree!.committedDepth
            guard let s = base.firstIndex(where: { $0.contains(h) }), let i = base[s].firstIndex(of: h) else { continue }
            let m = base[s]
            let end = TreeOrder.subtreeEnd(from: i, count: m.count) { depth[m[$0]] }
            drags[k].tree!.descendants = Array(m[(i + 1)..<end])
            drags[k].tree!.height = m[i..<end].map { depth[$0] - depth[h] }.max() ?? 0
        }
        arr.tree!.index = TreeIndex(order: base, depth: arr.tree!.committedDepth)
    }

    // MARK: Lifting a subtree

    /// Drag `d` (just lifted) carries its item's subtree: the descendants leave the live order
    /// and the snapshot says how many they are.
    mutating func liftSubtree(_ d: Int, downX: Double) {
        guard let tree = arr.tree else { return }
        let h = drags[d].item
        guard let s = base.firstIndex(where: { $0.contains(h) }), let i = base[s].firstIndex(of: h) else { return }
        let m = base[s]
        let end = TreeOrder.subtreeEnd(from: i, count: m.count) { tree.committedDepth[m[$0]] }
        let d0 = tree.depth[h]
        var height = 0
        for k in i..<end { height = max(height, tree.committedDepth[m[k]] - d0) }
        drags[d].tree = TreeDrag(liftDepth: d0, downX: downX, descendants: Array(m[(i + 1)..<end]), height: height, depth: d0)
        arr.tree!.reveal.append(h)
        guard end > i + 1 else {
            // No rows leave, but another drag beside it may bound its depth (a drag at depth 1
            // just below a row lifted at 0): projected at once, as after any change of rows.
            projectDepths()
            return
        }
        if let k = step.snapshots.lastIndex(where: { $0.p == drags[d].pointer }) { step.snapshots[k].subtree = end - i - 1 }
        let others = drags.enumerated().filter { $0.offset != d }.map { ($0.element.pointer, arr.place(of: $0.element.item)) }
        rebuildLive(reporting: others)
        step.cellsDirty = true
        step.shiftDur = dur(config.shiftMs)
    }

    // MARK: The depth

    /// The bounds of the depth of item `h`'s row where it is now (`nil`: none fits). Not on
    /// the move's path: `projectDepth` spells it out.
    func depthBounds(of h: Int, height: Int) -> ClosedRange<Int>? {
        let s = arr.sectionOf[h], i = arr.indexOf[h], n = arr.members[s].count
        let above = i > 0 ? arr.members[s][i - 1] : -1, below = i + 1 < n ? arr.members[s][i + 1] : -1
        return arr.tree?.depthBounds(above: above, below: below, height: height, section: s)
    }

    /// Projects drag `d`'s depth where its row is now: a pointer's from its sideways travel
    /// since its `down`, the keyboard's its current depth, clamped to the row's bounds. Where
    /// no depth fits, the row keeps its depth and the snapshot says `forbidden`.
    /// Returns whether the depth changed.
    @discardableResult
    mutating func projectDepth(_ d: Int) -> Bool {
        // The drag's tree is read and written in place: a copy of it (`var t = drags[d].tree`)
        // retained and released its descendants at every move.
        guard let indent = arr.tree?.indent, drags[d].tree != nil else { return false }
        let h = drags[d].item, p = drags[d].pointer, old = drags[d].tree!.depth
        var want = old
        if p >= 0, let k = pointers.firstIndex(where: { $0.id == p }) {
            want = drags[d].tree!.liftDepth + DepthProjection.levels(dx: pointers[k].position.x - drags[d].tree!.downX, indent: indent)
        }
        // `depthBounds(of:height:)` spelled out, reading the tree in place: a call of it (a
        // non-mutating method, inlined or not) copied the whole session, and its `let tree =
        // arr.tree` (main's) the tree's state, at every move.
        let s = arr.sectionOf[h], i = arr.indexOf[h], n = arr.members[s].count
        var above: (depth: Int, leaf: Bool)? = nil, below: Int? = nil
        if i > 0 { let a = arr.members[s][i - 1]; above = (arr.tree!.depth[a], arr.tree!.leaf[a]) }
        if i + 1 < n { below = arr.tree!.depth[arr.members[s][i + 1]] }
        let bounds = DepthProjection.bounds(above: above, below: below, height: drags[d].tree!.height,
                                            deepest: min(arr.tree!.maxDepth[s] ?? TreeOrder.maxDepth, TreeOrder.maxDepth))
        if (bounds == nil) != drags[d].tree!.refused {
            drags[d].tree!.refused = bounds == nil
            if p >= 0 { step.snapshots.append(SnapshotUpdate(p: p, id: arr.ids[h], forbidden: bounds == nil)) }
        }
        guard let b = bounds, case let depth = min(max(want, b.lowerBound), b.upperBound), depth != old else { return false }
        drags[d].tree!.depth = depth
        arr.tree!.depth[h] = depth
        step.cellsDirty = true
        step.shiftDur = dur(config.shiftMs)
        return true
    }

    /// Every drag's depth projected where its row is now. A drag's bounds count the rows other
    /// drags hold at their depths, so one projection can move another's bounds: rounds until
    /// none changes (at most one a drag, and one more).
    mutating func projectDepths() {
        for _ in 0...drags.count {
            var changed = false
            for k in drags.indices { changed = projectDepth(k) || changed }
            if !changed { return }
        }
    }

    /// The keyboard's Left and Right: a lifted item one level out or in, within its bounds.
    mutating func stepDepth(_ h: Int, by delta: Int) {
        guard let d = drags.firstIndex(where: { $0.item == h }), var t = drags[d].tree,
              let b = depthBounds(of: h, height: t.height), b.contains(t.depth + delta) else { return }
        t.depth += delta
        drags[d].tree = t
        arr.tree!.depth[h] = t.depth
    }

    // MARK: The drop

    /// The `move` a tree drop commits, read off the live rows: the parent is the nearest row
    /// above one level less deep, the anchor the nearest row above at its depth, both among
    /// the rows no other drag holds (a lifted subtree travels with its finger: its row is no
    /// parent, and an item dropped under it would vanish into that drag). `nil` when it leaves
    /// the item under the same parent after the same sibling. A drag out of a palette commits
    /// a `copyItem` there instead.
    func treeDropChange(of drag: Drag) -> Change? {
        guard let tree = arr.tree, let t = drag.tree, !t.refused else { return nil }
        let h = drag.item, s = arr.sectionOf[h], m = arr.members[s], depth = tree.depth[h]
        var parent: Int? = nil, after: Int? = nil, index = 0
        var k = arr.indexOf[h] - 1
        while k >= 0 {
            let y = m[k], dy = tree.depth[y]
            if liftedBy[y] == nil {
                if dy < depth { parent = y; break }
                if dy == depth { if after == nil { after = y }; index += 1 }
            }
            k -= 1
        }
        if drag.copyFrom != nil {
            // Out of a palette: a copy of the subtree lands there; the original stays.
            return .copyItem(id: arr.ids[h], as: copyID(of: arr.ids[h]), section: arr.sectionIDs[s], after: after.map { arr.ids[$0] },
                             index: index, parent: parent.map { arr.ids[$0] })
        }
        if let bs = base.firstIndex(where: { $0.contains(h) }), bs == s, let bi = base[bs].firstIndex(of: h) {
            let bm = base[bs]
            let was = TreeOrder.place(of: bi) { tree.committedDepth[bm[$0]] }
            if was.parent.map({ bm[$0] }) == parent && was.after.map({ bm[$0] }) == after && tree.committedDepth[h] == depth { return nil }
        }
        return .move(arr.ids[h], section: arr.sectionIDs[s], parent: parent.map { arr.ids[$0] }, after: after.map { arr.ids[$0] }, index: index)
    }

    /// Applies a tree `move` to the committed order (`commit`): its subtree goes as
    /// `TreeOrder.plan` places it; a moot move commits nothing.
    mutating func commitTreeMove(_ change: Change, now: Double, undoable: Bool) {
        guard case .move(let id, let sid, let pid, let aid, let index) = change, let tree = arr.tree,
              let x = arr.handleOf[id], let t = arr.sectionIndexOf[sid] else { return }
        let movable = arr.movable
        guard let plan = TreeOrder.plan(x, section: t, parent: pid.flatMap { arr.handleOf[$0] }, after: aid.flatMap { arr.handleOf[$0] },
                                        index: index, order: base, depth: { tree.committedDepth[$0] }, leaf: { tree.leaf[$0] },
                                        movable: { movable[$0] }, maxDepth: { tree.maxDepth[$0] }) else { return }
        let revert = undoable ? self.revert(of: change) : nil
        var order = base
        TreeOrder.carry(plan, in: &order)
        if let why = ruleViolation(order) {
            step.errors.append(.error(code: .ruleRefused, message: why.description))
            return
        }
        for k in plan.start..<plan.end { arr.tree!.committedDepth[base[plan.section][k]] += plan.delta }
        setCommitted(order, version: version + 1)
        refreshTreeShape()
        let moves = [Move(id: id, from: Place(section: arr.sectionIDs[plan.section], index: plan.start),
                          to: Place(section: sid, index: plan.at))]
        step.commits.append(.persist(Commit(board: boardID, version: version, by: identity.sessionID, moves: moves,
                                            order: baseOrder, change: change)))
        if let revert { remember(revert) }
    }

    /// The `move` that puts item `h` back where the committed order has it now.
    func treeMoveBack(_ h: Int) -> Change? {
        guard let tree = arr.tree, let s = base.firstIndex(where: { $0.contains(h) }), let i = base[s].firstIndex(of: h) else { return nil }
        let m = base[s]
        let p = TreeOrder.place(of: i) { tree.committedDepth[m[$0]] }
        return .move(arr.ids[h], section: arr.sectionIDs[s], parent: p.parent.map { arr.ids[m[$0]] }, after: p.after.map { arr.ids[m[$0]] },
                     index: p.index)
    }

    /// Each section's parents, in the committed order (a tree commit's `order[].parents`).
    func committedParents(_ s: Int) -> [String?] {
        guard let tree = arr.tree else { return [] }
        let m = base[s]
        return TreeOrder.parents(depths: m.map { tree.committedDepth[$0] }).map { $0.map { arr.ids[m[$0]] } }
    }

    // MARK: Words

    /// PLACE on a tree board: the row's position among its siblings, its parent and level.
    /// Among the live rows, those other drags hold are neither (as for a drop: they travel
    /// with their fingers). A row that is not shown (dropped under a collapsed item: parked)
    /// is told by its committed place.
    func treeDescribe(_ h: Int) -> String {
        guard let tree = arr.tree else { return "" }
        var s = arr.sectionOf[h], m: [Int] = [], i = 0, depths = tree.depth
        let live = s >= 0
        if live {
            m = arr.members[s]
            i = arr.indexOf[h]
        } else {
            guard let c = base.firstIndex(where: { $0.contains(h) }), let j = base[c].firstIndex(of: h) else { return "" }
            s = c
            m = base[c]
            i = j
            depths = tree.committedDepth
        }
        let depth = depths[h]
        var parent: Int? = nil, before = 0
        var k = i - 1
        while k >= 0 {
            let dk = depths[m[k]]
            if !live || liftedBy[m[k]] == nil {
                if dk < depth { parent = m[k]; break }
                if dk == depth { before += 1 }
            }
            k -= 1
        }
        var after = 0
        k = i + 1
        while k < m.count {
            let dk = depths[m[k]]
            if !live || liftedBy[m[k]] == nil {
                if dk < depth { break }
                if dk == depth { after += 1 }
            }
            k += 1
        }
        let place = "position \(before + 1) of \(before + after + 1)"
        guard let parent else { return "\(place) in \(arr.titles[s]), level 1" }
        return "\(place), nested under \(arr.labels[parent]), level \(depth + 1)"
    }
}

/// What a client has of a tree row's facts (`SentCell.tree`), by handle.
struct SentTree: Sendable, Equatable {
    var depth: Int
    var parent: Int
    var hasChildren: Bool
    var collapsed: Bool
}

extension LiveSession {
    // MARK: Cells

    /// Row `h`'s parent: the committed one, but for a dragged row, the nearest row above it
    /// one level less deep that no other drag holds, as its drop reads it (-1: none).
    @inline(__always) func treeParent(_ h: Int) -> Int {
        guard let tree = arr.tree else { return -1 }
        guard liftedBy[h] != nil else { return tree.parent[h] }
        let m = arr.members[arr.sectionOf[h]], depth = tree.depth[h]
        if depth == 0 { return -1 }
        var k = arr.indexOf[h] - 1
        while k >= 0 { if tree.depth[m[k]] < depth && liftedBy[m[k]] == nil { return m[k] }; k -= 1 }
        return -1
    }

    @inline(__always) func sentTree(_ h: Int) -> SentTree {
        let tree = arr.tree!
        return SentTree(depth: tree.depth[h], parent: treeParent(h), hasChildren: tree.hasChildren[h], collapsed: tree.collapsed[h])
    }

    func treeFacts(_ h: Int) -> TreeFacts {
        let t = sentTree(h)
        return TreeFacts(depth: t.depth, parent: t.parent < 0 ? nil : arr.ids[t.parent], hasChildren: t.hasChildren, collapsed: t.collapsed)
    }

    func treeChange(_ h: Int, was: SentTree?, now: SentTree?) -> TreeChange {
        var c = TreeChange()
        guard let now else { return c }
        if was?.depth != now.depth { c.depth = now.depth }
        if was?.parent != now.parent { c.parent = .some(now.parent < 0 ? nil : arr.ids[now.parent]) }
        if was?.hasChildren != now.hasChildren { c.hasChildren = now.hasChildren }
        if was?.collapsed != now.collapsed { c.collapsed = now.collapsed }
        return c
    }
}

extension LiveSession {
    // MARK: Collapse and expand

    /// Whether a drag carries item `h` (lifted, or inside a lifted subtree).
    func isCarried(_ h: Int) -> Bool {
        liftedBy[h] != nil || drags.contains { $0.tree?.descendants.contains(h) ?? false }
    }

    /// `toggle`: item `id`'s collapsed state flips in this session when it has children and no
    /// drag carries it; its subtree's rows leave or enter the visible order, and every pointer
    /// drag is retargeted.
    /// - Complexity: O(k) for the k rows revealed or hidden, plus the rows after them in their
    ///   section (`toggleRows`), a drag in flight or not; O(n) where `toggleRows` declines (the
    ///   visible order is made again).
    mutating func toggle(_ id: String, now: Double) {
        guard let h = arr.handleOf[id] else {
            step.errors.append(.error(code: .badMessage, message: "toggle.id: no item \"\(id)\" on this board"))
            return
        }
        guard arr.tree?.hasChildren[h] == true, !isCarried(h) else { return }
        setCollapsed(h, !arr.tree!.collapsed[h], now: now)
    }

    mutating func setCollapsed(_ h: Int, _ on: Bool, now: Double) {
        arr.tree!.collapsed[h] = on
        if !toggleRows(of: h) {
            let before = drags.map { ($0.pointer, arr.place(of: $0.item)) }
            rebuildLive(reporting: before)
        }
        if let f = focus, arr.isParked(f) { focus = h }
        step.cellsDirty = true
        step.shiftDur = dur(config.shiftMs)
        for k in drags.indices where drags[k].pointer >= 0 { retarget(k, now: now) }
    }

    /// Left and Right on a focused row with no lift: Right expands a collapsed item, Left
    /// collapses an expanded one with children. Returns whether the key did that.
    mutating func toggleByKey(_ h: Int, key: String, now: Double) -> Bool {
        guard key == "ArrowLeft" || key == "ArrowRight", let tree = arr.tree, tree.hasChildren[h], !isCarried(h),
              tree.collapsed[h] == (key == "ArrowRight") else { return false }
        setCollapsed(h, key == "ArrowLeft", now: now)
        announce("\(arr.labels[h]) \(key == "ArrowLeft" ? "collapsed" : "expanded"), \(describe(h)).")
        return true
    }
}

extension LiveSession {
    /// The tree's facts on the committed board (`committedBoard`): the metrics, each item's
    /// committed depth, leaf and this session's collapsed state, each section's `maxDepth`.
    func addTreeFacts(to b: inout Board) {
        guard let tree = arr.tree else { return }
        b.tree = TreeMetrics(indent: tree.indent)
        for (s, m) in base.enumerated() {
            b.sections[s].maxDepth = tree.maxDepth[s]
            for (k, h) in m.enumerated() {
                b.sections[s].items[k].depth = tree.committedDepth[h]
                b.sections[s].items[k].collapsed = tree.collapsed[h]
                b.sections[s].items[k].leaf = tree.leaf[h]
            }
        }
    }
}

extension LiveSession {
    // MARK: Commits from elsewhere

    /// The committed depths an order's `parents` give (`nil`: none given, every item at the
    /// top level), or `nil` when they are no forest: a parent that is not an ancestor just
    /// before its child in pre-order.
    func treeDepths(_ order: [SectionOrder], handles: [[Int]]) -> [Int]? {
        var depth = arr.tree?.committedDepth ?? []
        for so in order {
            guard let s = arr.sectionIndexOf[so.section] else { return nil }
            let m = handles[s]
            var stack: [Int] = []
            for (k, h) in m.enumerated() {
                let p = so.parents?[k].flatMap { arr.handleOf[$0] }
                if so.parents?[k] != nil && p == nil { return nil }
                while let last = stack.last, last != p { stack.removeLast() }
                if p != nil && stack.isEmpty { return nil }
                guard stack.count <= TreeOrder.maxDepth else { return nil }
                depth[h] = stack.count
                stack.append(h)
            }
        }
        return depth
    }

    /// A commit made elsewhere on a tree board: its `move` applied to the committed order it
    /// was made on, or else its order with its `parents` taken whole; drags in flight keep their
    /// live places. `nil`: not a tree board (the list's plans apply).
    mutating func applyTreeExternal(_ c: Commit, now: Double) -> ExternalPlan? {
        guard let tree = arr.tree else { return nil }
        var next = base
        var depth = tree.committedDepth
        if c.version == version + 1, case .move(let id, let sid, let pid, let aid, let index)? = c.change,
           let x = arr.handleOf[id], let t = arr.sectionIndexOf[sid] {
            let movable = arr.movable
            if let plan = TreeOrder.plan(x, section: t, parent: pid.flatMap { arr.handleOf[$0] }, after: aid.flatMap { arr.handleOf[$0] },
                                         index: index, order: base, depth: { tree.committedDepth[$0] }, leaf: { tree.leaf[$0] },
                                         movable: { movable[$0] }, maxDepth: { tree.maxDepth[$0] }) {
                for k in plan.start..<plan.end { depth[base[plan.section][k]] += plan.delta }
                TreeOrder.carry(plan, in: &next)
            }
        } else if let order = resolve(c.order), let d = treeDepths(c.order, handles: order) {
            next = order
            depth = d
        } else {
            step.errors.append(.error(code: .badMessage, message: "external: order must name every section and item of the board exactly once, as a forest"))
            return .refused
        }
        let before = drags.map { ($0.pointer, arr.place(of: $0.item)) }
        arr.tree!.committedDepth = depth
        setCommitted(next, version: c.version)
        refreshTreeShape()
        rebuildLive(reporting: before)
        step.shiftDur = dur(config.shiftMs)
        step.cellsDirty = true
        step.commits.append(.commit(withOrder(c)))
        return .whole
    }
}
