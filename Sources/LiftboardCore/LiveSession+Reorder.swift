/// The reorder engine: lift, target resolution with hysteresis, drop, cancel, commits.
extension LiveSession {
    /// Viewport center of item `h`'s cell.
    func viewportCenter(of h: Int) -> Point {
        let f = arr.frame(of: h)
        return Point(x: f.midX, y: f.midY - scrollY)
    }

    mutating func lift(_ h: Int, pointer p: Int, at pointerPos: Point, now: Double) {
        let f = arr.frame(of: h)
        let center = Point(x: f.midX, y: f.midY - scrollY)
        var drag = Drag(pointer: p, item: h, grabOffset: Point(x: center.x - pointerPos.x, y: center.y - pointerPos.y),
                        center: center, size: f.size, liftSection: arr.sectionOf[h])
        if config.mode == .swap { drag.swapBase = arr }
        drag.lastRegion = arr.region(at: Point(x: f.midX, y: f.midY))
        drags.append(drag)
        liftedBy[h] = p
        let follow = p >= 0 ? Follow(grab: drag.grabOffset, lockX: arr.kind == .list) : nil
        step.gestures.append(.lift(p: p, id: arr.ids[h], from: arr.place(of: h), follow: follow))
        step.snapshots.append(SnapshotUpdate(p: p, id: arr.ids[h], center: center, size: f.size, moveDur: 0,
                                             scale: config.liftScale, rotation: config.liftRotation,
                                             alpha: config.liftAlpha, dur: dur(config.liftMs), ease: .easeOut))
        step.cellsDirty = true
        if p >= 0 { updateAutoScroll(drags.count - 1, now: now) }
    }

    /// The snapshot follows the pointer, keeping the grab offset (lists: y only).
    mutating func followPointer(_ d: Int, to at: Point, now: Double) {
        var c = Point(x: at.x + drags[d].grabOffset.x, y: at.y + drags[d].grabOffset.y)
        if arr.kind == .list { c.x = drags[d].center.x }
        if c != drags[d].center {
            drags[d].center = c
            step.snapshots.append(SnapshotUpdate(p: drags[d].pointer, id: arr.ids[drags[d].item], center: c, moveDur: 0))
        }
        retarget(d, now: now)
        updateAutoScroll(d, now: now)
    }

    /// Recomputes drag `d`'s place from its snapshot's center; emits one `moved` if it changed.
    mutating func retarget(_ d: Int, now: Double) {
        let h = drags[d].item
        let before = arr.place(of: h)
        let c = Point(x: drags[d].center.x, y: drags[d].center.y + scrollY)
        if config.mode == .swap {
            retargetSwap(d, center: c)
        } else if arr.kind == .list {
            retargetList(h, centerY: c.y)
        } else {
            retargetGrid(d, center: c)
        }
        let after = arr.place(of: h)
        if after != before {
            step.gestures.append(.moved(p: drags[d].pointer, id: arr.ids[h], from: before, to: after))
            step.cellsDirty = true
            step.shiftDur = dur(config.shiftMs)
        }
    }

    // MARK: Lists: midpoints, with hysteresis

    func nextMovable(section s: Int, after i: Int) -> Int? {
        let m = arr.members[s]
        var j = i + 1
        while j < m.count { if arr.movable[m[j]] { return j }; j += 1 }
        return nil
    }

    func prevMovable(section s: Int, before i: Int) -> Int? {
        let m = arr.members[s]
        var j = i - 1
        while j >= 0 { if arr.movable[m[j]] { return j }; j -= 1 }
        return nil
    }

    /// Whether the list rule would move item `h` down (+1), up (-1), or not (0) for center `y`.
    func listStep(_ h: Int, centerY y: Double) -> Int {
        let s = arr.sectionOf[h], i = arr.indexOf[h]
        if let j = nextMovable(section: s, after: i) {
            if y >= arr.frame(section: s, index: j).midY { return 1 }
        } else if s + 1 < arr.sectionCount, y >= arr.headerFrame(s + 1).midY {
            return 1
        }
        if let j = prevMovable(section: s, before: i) {
            if y <= arr.frame(section: s, index: j).midY { return -1 }
        } else if s > 0, y <= arr.headerFrame(s).midY {
            return -1
        }
        return 0
    }

    /// Passes neighbours one at a time while the center is at or beyond their midpoint. A pass
    /// that the reverse rule would undo at once (a section's empty slot appearing or vanishing
    /// changes the geometry) is not made, so holding still never moves anything.
    /// - Complexity: O(cells passed).
    mutating func retargetList(_ h: Int, centerY y: Double) {
        for _ in 0...(arr.itemCount + arr.sectionCount) {
            let dir = listStep(h, centerY: y)
            if dir == 0 { return }
            let s = arr.sectionOf[h], i = arr.indexOf[h]
            if dir > 0, let j = nextMovable(section: s, after: i) {
                arr.exchange(section: s, i, j)
                continue
            }
            if dir < 0, let j = prevMovable(section: s, before: i) {
                arr.exchange(section: s, i, j)
                continue
            }
            // Across a header.
            let t = s + dir
            arr.move(h, toSection: t, index: dir > 0 ? 0 : arr.members[t].count, pinnedHome: pinnedHome)
            if listStep(h, centerY: y) == -dir {
                arr.move(h, toSection: s, index: i, pinnedHome: pinnedHome)
                return
            }
        }
    }

    // MARK: Grids: entering frames

    /// Acts when the center enters a new region: a cell (take its place), a header (down: the
    /// section's start; up: the end of the section above), an empty slot or a row's blank end.
    mutating func retargetGrid(_ d: Int, center c: Point) {
        let h = drags[d].item
        let region = arr.region(at: c)
        guard region != drags[d].lastRegion else { return }
        let s = arr.sectionOf[h]
        switch region {
        case .cell(let other) where other != h && arr.movable[other] && liftedBy[other] == nil:
            arr.move(h, toSection: arr.sectionOf[other], index: arr.indexOf[other], pinnedHome: pinnedHome)
        case .header(let t):
            if t > s {
                arr.move(h, toSection: t, index: 0, pinnedHome: pinnedHome)
            } else if t > 0 {
                arr.move(h, toSection: t - 1, index: arr.members[t - 1].count, pinnedHome: pinnedHome)
            } else if s > 0 {
                arr.move(h, toSection: 0, index: 0, pinnedHome: pinnedHome)
            }
        case .slot(let t):
            arr.move(h, toSection: t, index: 0, pinnedHome: pinnedHome)
        case .trailing(let t):
            arr.move(h, toSection: t, index: arr.members[t].count, pinnedHome: pinnedHome)
        default:
            break
        }
        drags[d].lastRegion = arr.region(at: c)
    }

    // MARK: Swap mode

    /// In its own section the item exchanges places with the item under the center in the
    /// layout at the lift (a fixed reference, so it never oscillates); elsewhere, insert rules.
    mutating func retargetSwap(_ d: Int, center c: Point) {
        let h = drags[d].item
        guard let ref = drags[d].swapBase else { return }
        let ls = drags[d].liftSection
        let top = ref.sectionTop[ls], bottom = top + ref.sectionHeight[ls]
        let half = ref.headerHeight / 2
        let inside = c.y > top + (ls > 0 ? half : -Double.infinity) &&
            c.y < bottom + (ls + 1 < ref.sectionCount ? half : Double.infinity)
        if inside {
            if arr.sectionOf[h] != ls {
                // Back into the lift section: start from the lift order.
                arr.move(h, toSection: ls, index: ref.indexOf[h], pinnedHome: pinnedHome)
            }
            var target = drags[d].swapTarget
            switch ref.region(at: c) {
            case .cell(let other) where other == h: target = nil
            case .cell(let other) where ref.sectionOf[other] == ls && arr.movable[other] && liftedBy[other] == nil:
                target = other
            default: break
            }
            guard target != drags[d].swapTarget else { return }
            // Another drag may have taken an item out of this section meanwhile.
            if let old = drags[d].swapTarget, arr.sectionOf[old] == ls { arr.exchange(section: ls, arr.indexOf[h], arr.indexOf[old]) }
            if let new = target, arr.sectionOf[new] == ls {
                arr.exchange(section: ls, arr.indexOf[h], arr.indexOf[new])
                drags[d].swapTarget = new
            } else {
                drags[d].swapTarget = nil
            }
            return
        }
        if let old = drags[d].swapTarget, arr.sectionOf[h] == ls, arr.sectionOf[old] == ls {
            arr.exchange(section: ls, arr.indexOf[h], arr.indexOf[old])
        }
        drags[d].swapTarget = nil
        if arr.kind == .list { retargetList(h, centerY: c.y) } else { retargetGrid(d, center: c) }
    }

    // MARK: Drop and cancel

    /// Puts item `h` back at its home in `order`: right after its nearest predecessor in the
    /// committed order that is not itself lifted, or first in its committed section.
    func homeIndex(of h: Int, in members: [Int], baseSection: [Int]) -> Int {
        guard let bi = baseSection.firstIndex(of: h) else { return 0 }
        var k = bi - 1
        while k >= 0 {
            let pred = baseSection[k]
            if liftedBy[pred] == nil || pred == h, let at = members.firstIndex(of: pred) { return at + 1 }
            k -= 1
        }
        return 0
    }

    func baseSectionIndex(of h: Int) -> Int {
        base.firstIndex { $0.contains(h) } ?? arr.sectionOf[h]
    }

    mutating func endDrag(_ d: Int, cancelled: Bool, now: Double) {
        let drag = drags[d]
        let h = drag.item
        if cancelled {
            let bs = baseSectionIndex(of: h)
            var m = arr.members[bs]
            if arr.sectionOf[h] == bs { m.remove(at: arr.indexOf[h]) }
            let home = homeIndex(of: h, in: m, baseSection: base[bs])
            let before = arr.place(of: h)
            arr.move(h, toSection: bs, index: home, pinnedHome: pinnedHome)
            if arr.place(of: h) != before { step.shiftDur = dur(config.shiftMs) }
        }
        drags.remove(at: d)
        liftedBy[h] = nil
        let place = arr.place(of: h)
        step.gestures.append(.drop(p: drag.pointer, id: arr.ids[h], at: place, cancelled: cancelled))
        let f = arr.frame(of: h)
        step.snapshots.append(SnapshotUpdate(p: drag.pointer, id: arr.ids[h], center: Point(x: f.midX, y: f.midY - scrollY),
                                             moveDur: dur(config.dropMs), scale: 1, rotation: 0, alpha: 1,
                                             dur: dur(config.dropMs), ease: .easeOut, done: true))
        step.cellsDirty = true
        if !cancelled { commitDrop(of: h, swapTarget: drag.swapTarget, now: now) }
    }

    /// The live order with every other drag in flight put back home.
    func orderWithoutOtherDrags(except h: Int) -> [[Int]] {
        var order = arr.members
        let others = drags.map(\.item).filter { $0 != h }
        guard !others.isEmpty else { return order }
        for o in others {
            let s = arr.sectionOf[o]
            order[s].removeAll { $0 == o }
        }
        for o in others {
            let bs = baseSectionIndex(of: o)
            order[bs].insert(o, at: homeIndex(of: o, in: order[bs], baseSection: base[bs]))
        }
        return order
    }

    mutating func commitDrop(of h: Int, swapTarget: Int?, now: Double) {
        let newOrder = orderWithoutOtherDrags(except: h)
        guard newOrder != base else { return }
        func place(_ x: Int, in order: [[Int]]) -> Place {
            for (s, m) in order.enumerated() { if let i = m.firstIndex(of: x) { return Place(section: arr.sectionIDs[s], index: i) } }
            return Place(section: "", index: -1)
        }
        var moves = [Move(id: arr.ids[h], from: place(h, in: base), to: place(h, in: newOrder))]
        if let t = swapTarget {
            let from = place(t, in: base), to = place(t, in: newOrder)
            if from != to { moves.append(Move(id: arr.ids[t], from: from, to: to)) }
        }
        for (s, m) in newOrder.enumerated() where arr.pinnedCount[s] > 0 {
            for (i, x) in m.enumerated() where !arr.movable[x] && base[s].firstIndex(of: x) != i {
                moves.append(Move(id: arr.ids[x], from: place(x, in: base), to: Place(section: arr.sectionIDs[s], index: i)))
            }
        }
        base = newOrder
        version += 1
        resetPinnedHomes()
        // Other drags in flight may have displaced pinned items of the new order.
        for s in 0..<arr.sectionCount where arr.pinnedCount[s] > 0 { arr.fixPinned(section: s, pinnedHome: pinnedHome) }
        let commit = Commit(board: boardID, version: version, by: sessionID, moves: moves, order: baseOrder)
        step.commits.append(.commit(commit))
    }

    // MARK: Commits from other sessions

    mutating func applyExternal(_ c: Commit, now: Double) {
        guard c.board == boardID else {
            step.errors.append(.error(code: .badMessage, message: "external: commit for board \"\(c.board)\", this session is on \"\(boardID)\""))
            return
        }
        guard c.version > version else {
            step.errors.append(.error(code: .badMessage, message: "external: version \(c.version) is not newer than \(version)"))
            return
        }
        guard let order = resolve(c.order) else {
            step.errors.append(.error(code: .badMessage, message: "external: order must name every section and item of the board exactly once"))
            return
        }
        let placesBefore = drags.map { arr.place(of: $0.item) }
        base = order
        version = c.version
        resetPinnedHomes()
        // The rest of the board takes the new order; lifted items keep their live places.
        var live = order
        for d in drags {
            let s = arr.sectionOf[d.item], i = arr.indexOf[d.item]
            for k in live.indices { live[k].removeAll { $0 == d.item } }
            live[s].insert(d.item, at: min(i, live[s].count))
        }
        arr.setOrder(live)
        for s in 0..<arr.sectionCount where arr.pinnedCount[s] > 0 { arr.fixPinned(section: s, pinnedHome: pinnedHome) }
        for (k, d) in drags.enumerated() {
            let after = arr.place(of: d.item)
            if after != placesBefore[k] {
                step.gestures.append(.moved(p: d.pointer, id: arr.ids[d.item], from: placesBefore[k], to: after))
            }
            drags[k].lastRegion = nil
            if config.mode == .swap { drags[k].swapBase = arr; drags[k].swapTarget = nil; drags[k].liftSection = arr.sectionOf[d.item] }
        }
        step.cellsDirty = true
        step.shiftDur = dur(config.shiftMs)
        step.commits.append(.commit(c))
    }

    /// The order as handles, if it names every section and item exactly once.
    func resolve(_ order: [SectionOrder]) -> [[Int]]? {
        guard order.count == arr.sectionCount else { return nil }
        var out = Array(repeating: [Int](), count: arr.sectionCount)
        var seen = Array(repeating: false, count: arr.itemCount)
        var seenSection = Array(repeating: false, count: arr.sectionCount)
        var count = 0
        for so in order {
            guard let s = arr.sectionIndexOf[so.section], !seenSection[s] else { return nil }
            seenSection[s] = true
            for id in so.items {
                guard let h = arr.handleOf[id], !seen[h] else { return nil }
                seen[h] = true
                out[s].append(h)
                count += 1
            }
        }
        return count == arr.itemCount ? out : nil
    }
}
