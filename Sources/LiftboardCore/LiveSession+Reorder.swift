/// The reorder engine: lift, target resolution with hysteresis, drop, cancel, commits.
extension LiveSession {
    /// Viewport center of item `h`'s cell.
    func viewportCenter(of h: Int) -> Point {
        viewportPoint(arr.frame(of: h).center, section: arr.sectionOf[h])
    }

    mutating func lift(_ h: Int, pointer p: Int, at pointerPos: Point, now: Double) {
        let f = arr.frame(of: h), center = viewportPoint(f.center, section: arr.sectionOf[h])
        var drag = Drag(pointer: p, item: h, grabOffset: Point(x: center.x - pointerPos.x, y: center.y - pointerPos.y),
                        center: center, size: f.size, liftSection: arr.sectionOf[h])
        drag.lastRegion = arr.region(at: Point(x: f.midX, y: f.midY))
        drag.retargetY = f.midY
        if arr.hasRules, arr.rules[arr.sectionOf[h]].copy { drag.copyFrom = arr.sectionOf[h] }
        drags.append(drag)
        liftedBy[h] = p
        refreshRefusals(drags.count - 1)
        let follow = p >= 0 ? Follow(grab: drag.grabOffset, lockX: arr.traits.locksFollowX) : nil
        step.gestures.append(.lift(p: p, id: arr.ids[h], from: arr.place(of: h), follow: follow))
        step.snapshots.append(SnapshotUpdate(p: p, id: arr.ids[h], center: center, size: f.size, moveDur: 0,
                                             scale: config.liftScale, rotation: config.liftRotation(width: f.size.w),
                                             alpha: config.liftAlpha, dur: dur(config.liftMs), ease: .easeOut))
        // Only its cell changed (hidden): a second lift in the step compares every cell.
        if step.restyled == nil { step.restyled = h } else { step.cellsDirty = true }
        liftSelection(with: drags.count - 1)
        if arr.tree != nil { liftSubtree(drags.count - 1, downX: pointers.first { $0.id == p }?.recognizer.origin.x ?? pointerPos.x) }
        updateAutoScroll(now: now)
    }

    /// The snapshot follows the pointer, keeping the grab offset (lists: y only).
    mutating func followPointer(_ d: Int, to at: Point, now: Double) {
        var c = Point(x: at.x + drags[d].grabOffset.x, y: at.y + drags[d].grabOffset.y)
        if arr.traits.locksFollowX { c.x = drags[d].center.x }
        if c != drags[d].center {
            drags[d].center = c
            // Quiet follow: not built as a `SnapshotUpdate` yet, as most steps send nothing (84 Ir a move: move59).
            if config.follow == .quiet && step.snapshots.isEmpty && step.follow == nil { step.follow = (drags[d].pointer, drags[d].item, c) } else {
                placeFollow()
                step.snapshots.append(SnapshotUpdate(p: drags[d].pointer, id: arr.ids[drags[d].item], center: c, moveDur: 0))
            }
        }
        retarget(d, now: now)
        updateAutoScroll(now: now)
    }

    /// Recomputes drag `d`'s place from its snapshot's center; emits one `moved` if it changed.
    /// Returns whether it changed.
    @discardableResult
    mutating func retarget(_ d: Int, now: Double) -> Bool {
        let h = drags[d].item
        let section = arr.sectionOf[h], index = arr.indexOf[h], depth = arr.tree?.depth[h]
        // `swaps(drags[d])` and `contentPoint(_:)` spelled out: a call of a non-mutating method
        // here copied the whole session (every array retained and released) on every move.
        var c = Point(x: drags[d].center.x, y: drags[d].center.y + scrolling.y)
        if c.y != drags[d].retargetY { drags[d].goingDown = c.y > drags[d].retargetY; drags[d].retargetY = c.y }
        if arr.scrollsSections {
            c.x += scrolling.x
            if drags[d].center.y >= arr.headerHeight, let k = arr.layout.scrolledSection(atX: c.x, in: arr) { c.y += scrolling.columns[k] }
        }
        let layout = arr.layoutType
        if config.mode == .swap && drags[d].pointer >= 0 && drags[d].copyFrom == nil {
            layout.retargetSwap(d, center: c, in: &self)
        } else {
            layout.retarget(d, center: c, in: &self)
        }
        if arr.hasRules { updateForbidden(d, center: c) }
        if arr.tree != nil && drags[d].pointer >= 0 { updateSpring(d, center: c, now: now) }
        // Most moves pass nothing: compare handles, make the places (strings) only for a `moved`.
        if arr.sectionOf[h] != section || arr.indexOf[h] != index || arr.tree?.depth[h] != depth {
            var before = Place(section: arr.sectionIDs[section], index: index); before.depth = depth
            noteMoved(pointer: drags[d].pointer, id: arr.ids[h], from: before, to: arr.place(of: h))
            step.reordered = true
            step.shiftDur = dur(config.shiftMs)
            return true
        }
        return false
    }

    /// After the live order changed under every drag (a rebuild, items carried away): each
    /// drag enters regions afresh, and each whose place changed since `before` (pointer, place)
    /// gets its `moved`.
    mutating func reportPlaces(since before: [(pointer: Int, place: Place)]) {
        for k in drags.indices {
            drags[k].lastRegion = nil
            guard let was = before.first(where: { $0.pointer == drags[k].pointer })?.place else { continue }
            let now = arr.place(of: drags[k].item)
            if now != was { noteMoved(pointer: drags[k].pointer, id: arr.ids[drags[k].item], from: was, to: now) }
        }
    }

    /// Records a `moved` in this step: one input yields at most one per drag, from the place
    /// before the input to the place after it, so a second move of the same drag in the step
    /// (the content moved under its still center) extends the first, or cancels it out.
    /// The id and places are taken, not borrowed: the `moved` is made of them, so no copy of
    /// each place (its section's string retained, and released with the caller's) is made.
    mutating func noteMoved(pointer p: Int, id: consuming String, from: consuming Place, to: consuming Place) {
        let k = step.gestures.lastIndex { if case .moved(p, _, _, _) = $0 { true } else { false } }
        guard let k, case .moved(_, _, let first, _) = step.gestures[k] else {
            step.gestures.append(.moved(p: p, id: consume id, from: consume from, to: consume to))
            return
        }
        if first == to { step.gestures.remove(at: k) } else { step.gestures[k] = .moved(p: p, id: id, from: first, to: to) }
    }

    /// Ends a step that moved items with every drag at rest under its still snapshot: the move
    /// may have shortened the content under the scroll offset (which then scrolls back inside
    /// it, moving the content under every snapshot), or slid cells under another drag's still
    /// center. Every pointer drag is retargeted, as an auto-scroll tick retargets it, until
    /// none moves and the offset holds; so the same points, sent again, move nothing. Drags
    /// that keep taking each other's cells stop after a few rounds, each in a grid taking the
    /// region under its center as entered.
    /// - Complexity: nothing with one drag and the offset inside the content (the usual
    ///   step); else O(drags × cells passed) a round, at most 2 × drags + 2 rounds.
    mutating func settleDrags(now: Double) {
        let pointerDrags = drags.reduce(0) { $0 + ($1.pointer >= 0 ? 1 : 0) }
        for _ in 0..<(2 * drags.count + 2) {
            let clamped = scrolling.y > maxScroll
            if clamped { scrolling.y = maxScroll }
            guard clamped || pointerDrags > 1 else { return }
            var moved = false
            for d in drags.indices where drags[d].pointer >= 0 { moved = retarget(d, now: now) || moved }
            if scrolling.y <= maxScroll && !moved { return }
        }
        if scrolling.y > maxScroll { scrolling.y = maxScroll }
        guard arr.traits.entersRegions else { return }
        for d in drags.indices where drags[d].pointer >= 0 {
            drags[d].lastRegion = arr.region(at: Point(x: drags[d].center.x, y: drags[d].center.y + scrolling.y))
        }
    }

    // MARK: Drop and cancel

    /// Ends drag `d`. A drop commits its one change (if it changes anything); then, as after
    /// any commit or cancel, the live order becomes the committed order with every other drag
    /// in flight at its live place, so a cancelled item (and its swap target) goes home.
    /// Returns `false` when the drop removed what the drag carried (a trash): its handles are
    /// then gone.
    @discardableResult
    mutating func endDrag(_ d: Int, cancelled: Bool, now: Double) -> Bool {
        placeFollow()  // while its item's handle stands (a drop can remove it)
        let drag = drags[d], h = drag.item
        // A copy over its palette, or still in it, is a cancel.
        let cancelled = cancelled || isCopyBack(drag)
        var change = cancelled ? nil : dropChange(of: drag)
        if !cancelled, drag.tree?.refused == true { step.errors.append(.error(code: .ruleRefused, message: TreeDrag.refusal)) }
        // A live place its section refuses (a group lifted where it does not fit; a commit
        // that filled the section meanwhile) is no drop: the items go home.
        if change != nil, arr.hasRules, !drag.refused.isEmpty, drag.refused[arr.sectionOf[h]],
           let why = refusal(into: arr.sectionOf[h], carrying: drag.carried) {
            step.errors.append(.error(code: .ruleRefused, message: why.description))
            change = nil
        }
        if let c = change, c.isEdit {
            if case .copyItem = c {
                if dropCopies(d, change: c, now: now) { return true }
            } else if dropRemoves(d, change: c, now: now) {
                return false
            }
            change = nil  // refused (`rule_refused`) or moot: the drag ends as a cancel places it
        }
        let othersBefore = drags.enumerated().filter { $0.offset != d }.map { ($0.element.pointer, arr.place(of: $0.element.item)) }
        let placeBefore = arr.place(of: h), sectionBefore = arr.sectionOf[h]
        drags.remove(at: d)
        liftedBy[h] = nil
        for x in drag.extras { liftedBy[x] = nil }
        // The live order follows in the sections the change touched and those a drag left other
        // than committed (`visited`, its lift's, its last: appended, no new array); the whole
        // order where the drag carried more than its item (those come back wherever they were).
        var touched = change.flatMap { commit($0, now: now) } ?? []
        if drag.extras.isEmpty && drag.copyFrom == nil && drag.group.count <= 1 {
            for s in arr.visited where s >= 0 && !touched.contains(s) { touched.append(s) }
            if drag.liftSection >= 0 && !touched.contains(drag.liftSection) { touched.append(drag.liftSection) }
            if sectionBefore >= 0 && !touched.contains(sectionBefore) { touched.append(sectionBefore) }
            rebuildLive(reporting: othersBefore, touching: touched)
        } else {
            rebuildLive(reporting: othersBefore)
        }
        // Trees: an item that is now inside a subtree another drag carries has no row; it
        // settles where that drag's row is (its `drop` at the place it had).
        let shown = arr.isParked(h) ? drags.first { $0.tree?.descendants.contains(h) == true }?.item ?? h : h
        let place = shown == h ? arr.place(of: h) : placeBefore
        if place != placeBefore { step.shiftDur = dur(config.shiftMs) }
        step.gestures.append(.drop(p: drag.pointer, id: arr.ids[h], at: place, cancelled: cancelled))
        let f = arr.frame(of: shown)
        step.snapshots.append(SnapshotUpdate(p: drag.pointer, id: arr.ids[h], center: viewportPoint(f.center, section: arr.sectionOf[shown]),
                                             moveDur: dur(config.dropMs), scale: 1, rotation: 0, alpha: 1,
                                             dur: dur(config.dropMs), ease: .easeOut, done: true))
        // Its cell shows again; what moved, `rebuildLive` left in the arrangement's changes.
        if step.restyled == nil && drag.group.isEmpty { step.restyled = h } else { step.cellsDirty = true }
        if drag.group.count > 1 {
            // The carried items come back (at their new places, or home): as after an edit, every cell is compared.
            step.shiftDur = dur(config.shiftMs)
            if drag.pointer >= 0 { announce(groupWords(drag.group, at: h, cancelled: cancelled)) }
        }
        updateAutoScroll(now: now)
        return true
    }

    /// The one change a drop makes, read off the live order; `nil` when it changes nothing.
    /// In swap mode, over the lift's section: the exchange with the target. Otherwise: the
    /// item after the nearest movable item before it in its live section that no other drag
    /// holds (first in the section when there is none).
    func dropChange(of drag: Drag) -> Change? {
        if arr.tree != nil { return treeDropChange(of: drag) }
        let h = drag.item
        let s = arr.sectionOf[h]
        if swaps(drag) && s == drag.liftSection {
            guard let t = drag.swapTarget else { return nil }
            return .swap(arr.ids[h], arr.ids[t])
        }
        // Pinned items are never anchors: they keep an index, not a neighbour, and take it
        // back after the change (anchoring on one would undo a drop past it). Nor are held
        // items (lifted, or another swap drag's target): they stand where the committed order
        // does not have them.
        func unheldPredecessor(in m: [Int], before i: Int) -> Int? {
            var k = i - 1
            while k >= 0 {
                let x = m[k]
                if x != h && arr.movable[x] && liftedBy[x] == nil && !drags.contains(where: { $0.swapTarget == x }) { return x }
                k -= 1
            }
            return nil
        }
        if arr.rules[s].drop == .remove {
            // A trash: what the drag carries leaves the board.
            let ids = drag.carried.map { arr.ids[$0] }
            return ids.count == 1 ? .removeItem(ids[0]) : .batch(ids.map { .removeItem($0) })
        }
        let after = unheldPredecessor(in: arr.members[s], before: arr.indexOf[h])
        if drag.copyFrom != nil {
            return .copyItem(id: arr.ids[h], as: copyID(of: arr.ids[h]), section: arr.sectionIDs[s], after: after.map { arr.ids[$0] },
                             index: arr.indexOf[h])
        }
        if drag.group.count > 1 {
            // The group lands after that anchor in its order (the rule decides whether that moves anything).
            return .group(ids: drag.group.map { arr.ids[$0] }, section: arr.sectionIDs[s], after: after.map { arr.ids[$0] },
                          index: arr.indexOf[h])
        }
        // Where it already is in the committed order (its lift's section, kept as commits
        // move it): no change.
        if drag.liftSection == s, let i = ChangeRule.position(of: h, in: base[s], near: arr.indexOf[h]),
           unheldPredecessor(in: base[s], before: i) == after {
            return nil
        }
        return .insert(id: arr.ids[h], section: arr.sectionIDs[s], after: after.map { arr.ids[$0] }, index: arr.indexOf[h])
    }

    /// Applies this session's own `change` to the committed order where it is (`applyToBase`,
    /// as a commit from elsewhere): a new version, persisted by the driver (`.persist`), sent to
    /// the client once durable. Returns the sections of the committed order it changed; `nil`
    /// when it committed nothing, or committed an edit or a tree's move (the board rebuilt).
    /// `undoable`: remembered for `undo` (an undo's own commit is not).
    @discardableResult
    mutating func commit(_ change: Change, now: Double, undoable: Bool = true) -> [Int]? {
        if change.isEdit {
            commitEdit(change, now: now, undoable: undoable)
            return nil
        }
        if case .move = change {
            commitTreeMove(change, now: now, undoable: undoable)
            return nil
        }
        guard let resolved = resolve(change) else { return nil }
        let revert = undoable ? self.revert(of: change) : nil
        // Kept only where a rule may refuse the change: the order it is checked against, and
        // put back if refused.
        let before = arr.hasRules ? base : nil
        let moved = applyToBase(resolved)
        guard !moved.isEmpty else { return nil }
        if let before, let why = ruleViolation(base, since: before) {
            base = before
            step.errors.append(.error(code: .ruleRefused, message: why.description))
            return nil
        }
        let touched = Self.sections(of: moved)
        committedChanged(version: version + 1, touching: touched, moved: moved)
        let moves = moved.map {
            Move(id: arr.ids[$0.item], from: Place(section: arr.sectionIDs[$0.from.section], index: $0.from.index),
                 to: Place(section: arr.sectionIDs[$0.to.section], index: $0.to.index))
        }
        step.commits.append(.persist(ownCommit(moves: moves, change: change)))
        if let revert { remember(revert) }
        return touched
    }

    /// A change with its ids resolved to handles, or `nil` when it names what this board lacks.
    func resolve(_ change: Change) -> ChangeRule.Resolved<Int>? {
        ChangeRule.resolve(change, item: { arr.handleOf[$0] }, section: { arr.sectionIndexOf[$0] })
    }

    /// Where the committed order has item `h` (its section exactly, its index roughly), and
    /// which sections hold no pinned item: what `ChangeRule.apply` needs to apply a change to
    /// `base` without scanning it. Swap mode keeps the committed order's layout; otherwise
    /// an item's live place is its committed one but for the drags in flight around it.
    var committedHints: ChangeRule.Hints<Int> {
        // Pinned items never leave their sections but by a whole order: the live order's
        // sections hold the committed order's pinned items.
        let pinnedCount = arr.pinnedNow
        if let ref = committedLayout {
            let sectionOf = ref.sectionOf, indexOf = ref.indexOf
            return .init(near: { (sectionOf[$0], indexOf[$0]) }, noPinned: { pinnedCount[$0] == 0 })
        }
        let sectionOf = arr.sectionOf, indexOf = arr.indexOf
        return .init(near: { sectionOf[$0] < 0 ? nil : (sectionOf[$0], indexOf[$0]) }, noPinned: { pinnedCount[$0] == 0 })
    }

    /// `setCommitted` after a change applied to `base` in place (`applyToBase`), which changed
    /// only the sections `touched`: pinned homes, refusals and the swap reference follow there.
    /// - Complexity: O(items of those sections) + O(sections + drags).
    /// `moved`: what the change displaced (a dragged item among them changes committed section).
    mutating func committedChanged(version: Int, touching touched: [Int], moved: [ChangeRule.Displacement<Int>]) {
        self.version = version
        for s in touched where arr.pinnedNow[s] > 0 { for (i, h) in base[s].enumerated() where !arr.movable[h] { pinnedHome[h] = i } }
        if arr.hasRules { refreshRefusals(sections: touched) }
        if committedLayout != nil {
            let order = base
            committedLayout!.replaceSections(touched) { order[$0] }
            for k in drags.indices { drags[k].liftSection = committedLayout!.sectionOf[drags[k].item] }
        } else {
            for k in drags.indices {
                if let d = moved.first(where: { $0.item == drags[k].item }) { drags[k].liftSection = d.to.section }
            }
        }
    }

    /// The section of the committed order that holds item `h` (-1: none).
    /// - Complexity: O(n).
    func committedSection(of h: Int) -> Int { base.firstIndex { $0.contains(h) } ?? -1 }

    /// Makes `order` the committed order at `version`: pinned homes and the swap reference follow.
    mutating func setCommitted(_ order: [[Int]], version: Int) {
        base = order
        self.version = version
        resetPinnedHomes()
        if arr.hasRules { refreshRefusals() }
        if committedLayout != nil {
            committedLayout!.setOrder(order)
            for k in drags.indices { drags[k].liftSection = committedLayout!.sectionOf[drags[k].item] }
        } else {
            // Insert mode reads it only to find a dragged item in the committed order.
            for k in drags.indices { drags[k].liftSection = committedSection(of: drags[k].item) }
        }
    }

    /// The live order becomes the committed order with every drag in flight at its live place:
    /// a swap drag over its lift's section keeps its exchange (when the two items are still in
    /// one section), any other drag its live section and index. Reports a `moved` for each drag
    /// (pointer, place before) whose place this changed.
    /// `touching`: the sections of the committed order a change applied in place changed; only
    /// those are made again, with the sections where the live order can be another arrangement
    /// of the same items than this rebuild's (pinned items that took their homes back after a
    /// drag's pass, swap drags' exchanges). A section no drag moved anything in is its committed
    /// order; one a drag moved items in is that order with the drags at their live places (each
    /// pass keeps the others in order), what this makes of it again (`ExternalInPlaceTests`
    /// holds it to the whole rebuild's bytes). `nil` (and any tree: its rows follow from the
    /// whole order): every section, the live order replaced whole.
    /// - Complexity: O(n) whole; O(items of the sections made again) + O(sections + drags).
    mutating func rebuildLive(reporting before: [(pointer: Int, place: Place)], touching changed: [Int]? = nil) {
        let whole = changed == nil || arr.tree != nil
        var order = base
        var touched = whole ? Array(0..<arr.sectionCount) : changed!
        if whole {
            visibleRows(&order)
        } else {
            let swapDrags = config.mode == .swap && drags.count > 1
            for s in arr.visited where (arr.pinnedNow[s] > 0 || swapDrags) && !touched.contains(s) { touched.append(s) }
        }
        var inTouched = Array(repeating: whole, count: drags.isEmpty ? 0 : arr.sectionCount)
        for s in touched where !drags.isEmpty { inTouched[s] = true }  // read for drags in flight only
        var carried: [(section: Int, index: Int, item: Int)] = []
        var out: [(item: Int, home: Int?)] = []  // each carried item and, for a drag's own, its committed section
        for k in drags.indices {
            let h = drags[k].item
            if swaps(drags[k]) && arr.sectionOf[h] == drags[k].liftSection {
                // Swap mode: `committedLayout` is the committed order's layout.
                guard let t = drags[k].swapTarget, let ref = committedLayout else { continue }
                let s = ref.sectionOf[h]
                guard inTouched[s] || inTouched[ref.sectionOf[t]] else { continue }
                if ref.sectionOf[t] == s, let i = order[s].firstIndex(of: h), let j = order[s].firstIndex(of: t) {
                    order[s].swapAt(i, j)
                } else {
                    drags[k].swapTarget = nil
                }
            } else {
                carried.append((arr.sectionOf[h], arr.indexOf[h], h))
                out.append((h, drags[k].liftSection))
            }
        }
        // Items that drags carry besides their own stay out of the order (parked).
        let extras = drags.flatMap(\.extras)
        if !carried.isEmpty || !extras.isEmpty {
            if whole {
                let items = Set(carried.map(\.item) + extras)
                for s in order.indices where order[s].contains(where: items.contains) { order[s].removeAll(where: items.contains) }
            } else {
                // A few items, each in one section at most: found by comparing handles, no
                // hashing; a drag's own item only in its committed section (when touched).
                for (x, home) in out + extras.map({ ($0, nil) }) {
                    if let s = home, s >= 0, s < arr.sectionCount {
                        if inTouched[s], let i = ChangeRule.position(of: x, in: order[s], near: arr.indexOf[x]) { order[s].remove(at: i) }
                        continue
                    }
                    for s in touched {
                        if let i = order[s].firstIndex(of: x) { order[s].remove(at: i); break }
                    }
                }
            }
            for c in carried.sorted(by: { ($0.section, $0.index) < ($1.section, $1.index) }) where c.section >= 0 && inTouched[c.section] {
                order[c.section].insert(c.item, at: min(c.index, order[c.section].count))
            }
        }
        if !whole {
            arr.replaceSections(touched) { order[$0] }
        } else if order != arr.members {
            // The same members leave out the same items: equal orders park the same items.
            arr.setOrder(order)
        }
        for s in touched where arr.pinnedNow[s] > 0 { arr.fixPinned(section: s, pinnedHome: pinnedHome) }
        if drags.isEmpty { arr.clearVisited() }
        // Trees: each drag's depth, projected again where its row is now (docs/protocol.md, "Trees").
        if arr.tree != nil { projectDepths() }
        reportPlaces(since: before)
        // Whatever moved is in the arrangement's changes (a new order: all of it).
        step.reordered = true
    }
}
