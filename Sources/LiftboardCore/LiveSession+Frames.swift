/// What the client is told: whole layouts, and frames that name only what changed, only for
/// the cells within one viewport's height of the visible area.
extension LiveSession {
    /// The content band whose cells the client is kept up to date on.
    var window: (Double, Double) { (scrolling.y - viewport.h, scrolling.y + 2 * viewport.h) }

    // `cellInfo`, `sentCell` and `appendUpdate` are always inlined: the diffs call them from
    // mutating code for every cell they compare, and a call of a non-mutating method that is
    // not inlined is passed a copy of the whole session (1.2 KB, memcpy'd) as its `self`.
    @inline(__always) func cellInfo(_ h: Int) -> CellInfo {
        CellInfo(id: arr.ids[h], label: arr.labels[h], color: arr.colors[h], section: arr.sectionIDs[arr.sectionOf[h]],
                 index: arr.indexOf[h], movable: arr.movable[h], frame: arr.frame(of: h), hidden: liftedBy[h] != nil,
                 selected: selection.marked[h], handle: arr.grips[h], card: arr.cards[h], heldBy: heldByOther(h),
                 tree: arr.tree == nil ? nil : treeFacts(h))
    }

    /// Mutating: a holder seen for the first time gets its number in `sent.holders`.
    @inline(__always) mutating func sentCell(_ h: Int) -> SentCell {
        SentCell(frame: arr.frame(of: h), hidden: liftedBy[h] != nil, section: arr.sectionOf[h], index: arr.indexOf[h],
                 selected: selection.marked[h], heldBy: liftedBy.others.none ? 0 : holderNumber(h),
                 tree: arr.tree == nil ? nil : sentTree(h))
    }

    func snapshotState(_ d: Drag) -> SnapshotUpdate {
        SnapshotUpdate(p: d.pointer, id: arr.ids[d.item], center: d.center, size: d.size, moveDur: 0,
                       scale: config.liftScale, rotation: config.liftRotation(width: d.size.w), alpha: config.liftAlpha, dur: 0, ease: .easeOut,
                       count: d.group.count > 1 ? d.group.count : nil, forbidden: d.forbidden ? true : nil)
    }

    /// The whole state; resets what the client is known to have.
    mutating func makeLayout() -> ServerEvent {
        let (y0, y1) = window
        var handles: [Int] = []
        if scrollsSections { columnWindowCells(into: &handles) } else { arr.cells(from: y0, to: y1, into: &handles) }
        for h in sent.order { sent.slot[h] = -1 }
        sent.order = handles
        sent.holders.removeAll()
        sent.cells = handles.map { sentCell($0) }
        for (k, h) in handles.enumerated() { sent.slot[h] = Int32(k) }
        arr.clearChanges()
        sent.scroll = scrolling.y
        sent.scrollX = scrolling.x
        sent.content = contentSize
        sent.sections = sectionInfos()
        var layout = LayoutMessage(version: version, content: sent.content, scroll: Point(x: scrolling.x, y: scrolling.y),
                                   sections: sent.sections, cells: handles.map(cellInfo),
                                   snapshots: drags.map(snapshotState))
        layout.layout = scrollsSections || config.layouts == .named || arr.tree != nil ? arr.spec.kind : nil
        layout.treeIndent = arr.tree?.indent
        return .layout(layout)
    }

    /// Ends a step: its gesture events, then its frame, then commits, then announcements,
    /// appended to `out`. The step's buffers are emptied, keeping their room for the next.
    mutating func flushStep(at now: Double, into out: inout [ServerEvent]) {
        // A move can shorten the content under the scroll offset, or slide cells under another
        // drag's still center.
        if scrollsSections {
            // Columns: whatever moved the rows (a drag, a commit, an edit, a resync), offsets
            // past a column's end come back, retargeting the drags.
            if step.reordered || step.cellsDirty || columnScrollOutOfRange { settleColumns(now: now) }
        } else if scrolling.y > maxScroll || (step.reordered && drags.count > 1) {
            settleDrags(now: now)
        }
        if stepSendsNothing() {
            // Most steps: a pointer drag's follow under quiet follow (`Step.follow`, never made an
            // update), a move within the long press's slop: no frame built to be found empty. removeLast,
            // not removeAll(keepingCapacity:), whose replaceSubrange costs more than the element.
            while !step.snapshots.isEmpty { step.snapshots.removeLast() }
            (step.follow, step.shiftDur, step.scrollDur) = (nil, 0, nil)
            return
        }
        placeFollow()
        var f = FrameMessage(seq: identity.frameSeq + 1, ms: now, ack: identity.lastSeq)
        swap(&f.cells, &sent.lastFrameCells)
        Self.recycle(&f.cells)
        var changed = false, cellsDirty = step.cellsDirty
        if scrollsSections && scrolling.x != sent.scrollX {
            f.scroll = Point(x: scrolling.x, y: 0)
            sent.scrollX = scrolling.x
            cellsDirty = true
            changed = true
        }
        if scrollsSections && step.scrollDur != nil && step.cellsDirty { f.scrollDur = step.scrollDur }
        if scrolling.y != sent.scroll {
            f.scroll = Point(x: 0, y: scrolling.y)
            f.scrollDur = step.scrollDur
            sent.scroll = scrolling.y
            cellsDirty = true
            changed = true
        }
        let edited = !step.appeared.isEmpty || !step.refreshed.isEmpty || !step.removed.isEmpty
        // Only the cells the step touched are compared, when that says all (`CellPlan`).
        if cellsDirty || step.reordered || step.restyled != nil {
            let plan = planCells(dirty: cellsDirty, edited: edited)
            if plan == .whole {
                let content = contentSize
                if content != sent.content { f.content = content; sent.content = content; changed = true }
                let sections = sectionInfos()
                if sections != sent.sections { f.sections = sections; sent.sections = sections; changed = true }
            }
            diffCells(plan, into: &f)
            if plan == .whole, !step.removed.isEmpty { f.removed = step.removed; f.removeDur = step.shiftDur; changed = true }
        }
        if !f.cells.isEmpty || !f.gone.isEmpty { changed = true }
        // `follow: "quiet"`: a step that only moved pointer drags' snapshots sends nothing.
        if config.follow == .quiet, !changed, quietStepOnlyFollows { step.snapshots.removeAll(keepingCapacity: true) }
        if !step.snapshots.isEmpty {
            if step.snapshots.count == 1 {
                // The usual step: one snapshot moved. Its buffer becomes the frame's; the last
                // frame's becomes the step's.
                swap(&f.snapshots, &step.snapshots)
                swap(&step.snapshots, &sent.lastFrameSnapshots)
                Self.recycle(&step.snapshots)
                sent.lastFrameSnapshots = f.snapshots
            } else {
                for u in step.snapshots { f.snapshots.merge(u) }  // one update a snapshot: later keys win
                step.snapshots.removeAll(keepingCapacity: true)
            }
            changed = true
        }
        if focus != sent.focus, let fh = focus {
            f.focus = arr.ids[fh]
            sent.focus = focus
            changed = true
        }
        let frame = changed || step.forceFrame
        // `events: "inline"`: the step's lift, moved and drop ride in its frame (the tests'
        // reference, `inliningEvents()`, puts them there from the separate form).
        if frame, config.events == .inline, !step.gestures.isEmpty, step.gestures.allSatisfy(\.isGestureEvent) {
            // Handed over, not shared (`removeAll(keepingCapacity:)` of a buffer the frame also
            // held allocated a new one); the last frame's becomes the step's.
            swap(&f.events, &step.gestures)
            swap(&step.gestures, &sent.lastFrameEvents)
            Self.recycle(&step.gestures)
            sent.lastFrameEvents = f.events
        }
        out.reserveCapacity(out.count + step.errors.count + step.gestures.count + (frame ? 1 : 0)
                            + step.commits.count + step.announces.count)
        if !step.errors.isEmpty { out += step.errors; step.errors.removeAll(keepingCapacity: true) }
        if !step.gestures.isEmpty { out += step.gestures; step.gestures.removeAll(keepingCapacity: true) }
        if frame {
            if config.follow == .quiet { addUnsentCenters(to: &f) }
            if config.commits == .inline { inlineCommit(into: &f) }
            identity.frameSeq += 1
            // A drag's frames name a few cells; a bigger frame's (a scroll, a layout's worth)
            // are not kept: an idle session would hold them, their labels and cards, until its
            // next frame.
            if f.cells.count <= Self.recycledCellsMax { sent.lastFrameCells = f.cells }
            out.append(.frame(consume f))  // moved into the event's box, not copied
        } else {
            swap(&sent.lastFrameCells, &f.cells)  // empty: its room kept for the next frame
        }
        if !step.commits.isEmpty { out += step.commits; step.commits.removeAll(keepingCapacity: true) }
        if !step.announces.isEmpty { out += step.announces; step.announces.removeAll(keepingCapacity: true) }
        if edited { step.appeared = []; step.refreshed = []; step.removed = [] }
        (step.cellsDirty, step.reordered, step.restyled, step.forceFrame) = (false, false, nil, false)
        (step.shiftDur, step.scrollDur) = (0, nil)
    }

    /// Empties a buffer that a frame sent earlier shared: in place when that frame is gone (the
    /// buffer is unique), else into a new buffer of the same room. A few elements are removed
    /// one by one (`removeAll(keepingCapacity:)`'s `replaceSubrange` costs more than they do).
    @inline(__always) static func recycle<T>(_ a: inout [T]) {
        if a.count <= 4 { while !a.isEmpty { a.removeLast() } } else { a.removeAll(keepingCapacity: true) }
    }

    /// Whether `flushStep` would send nothing at all (after its settling): no cell, scroll,
    /// content, section, focus or edit news, no event, error, commit or announcement, no
    /// forced frame, and no snapshot update, or (quiet follow) only pointer drags' follows,
    /// which that mode does not send. Mutating (it changes nothing) so that `flushStep` does not
    /// pass it a copy of the whole session, as it does any non-mutating method not inlined.
    mutating func stepSendsNothing() -> Bool {
        guard !step.cellsDirty, !step.reordered, step.restyled == nil, !step.forceFrame,
              scrolling.y == sent.scroll, !scrollsSections || scrolling.x == sent.scrollX,
              step.gestures.isEmpty, step.errors.isEmpty, step.commits.isEmpty, step.announces.isEmpty,
              step.appeared.isEmpty, step.refreshed.isEmpty, step.removed.isEmpty else { return false }
        if let fh = focus, fh != sent.focus { return false }
        return (step.snapshots.isEmpty && step.follow == nil) || (config.follow == .quiet && quietStepOnlyFollows)
    }

    /// The cells a frame compares with what the client has (`planCells` chooses, `diffCells`
    /// follows): each plan says what comparing the whole window would (`FrameDiffTests`).
    enum CellPlan: Equatable {
        /// Nothing the client has can differ: items moved and back, or only outside the window.
        case none
        /// Places `lo...hi` of `section`, whose cells in the window fill the client's `slots`
        /// again in their new order: only the reorder engine moved items, in one section without
        /// restacking (a drag passing a neighbour), or only one cell's visibility changed.
        case run(section: Int, lo: Int, hi: Int, slots: Range<Int>)
        /// The window: a scroll, an edit, a wide change, a cell entering or leaving it.
        case whole
    }

    /// The plan for a step that made every cell `dirty`, moved items or changed one cell's
    /// visibility; `edited`: it added, refreshed or removed items.
    /// - Complexity: O(places reindexed).
    mutating func planCells(dirty: Bool, edited: Bool) -> CellPlan {
        let c = arr.changes
        guard !dirty, !edited, !c.wide else { return .whole }
        var (section, lo, hi) = (c.section, c.lo, c.hi)
        if let h = step.restyled {
            guard c.section < 0 else { return .whole }  // something moved since the last diff
            (section, lo, hi) = (arr.sectionOf[h], arr.indexOf[h], arr.indexOf[h])
        }
        guard section >= 0 else { return .none }
        let (y0, y1) = window
        let m = arr.members[section]
        hi = min(hi, m.count - 1)
        guard lo <= hi else { return .none }
        // The reindexed places hold the same items as before, permuted: those in the window
        // filled a run of the client's slots, and fill it again in their new order.
        var first = Int.max, last = -1, count = 0
        for k in lo...hi {
            let h = m[k]
            let fr = arr.frame(of: h)
            let inside = scrollsSections ? inColumnWindow(fr, section: section) : fr.y < y1 && fr.y + fr.h > y0
            let slot = Int(sent.slot[h])
            guard inside == (slot >= 0) else { return .whole }
            if inside { first = min(first, slot); last = max(last, slot); count += 1 }
        }
        guard count > 0 else { return .none }
        return last - first + 1 == count ? .run(section: section, lo: lo, hi: hi, slots: first..<last + 1) : .whole
    }

    /// The cell differ: compares the cells `plan` names with what the client has and appends
    /// to `f` an update for each that changed (its new frame and visibility; its attributes
    /// again when its place changed; whole when it entered the window); with `.whole`, the
    /// cells that left the window are `gone`. What the client has becomes what it now has.
    /// - Complexity: O(cells the plan names).
    mutating func diffCells(_ plan: CellPlan, into f: inout FrameMessage) {
        switch plan {
        case .none:
            break
        case .run(let section, let lo, let hi, let slots):
            // The run as the client has it, before its slots are filled again in the new order.
            var was: [SentCell] = []
            swap(&was, &sent.spareCells)
            if was.count < slots.count { was = Array(sent.cells[slots]) }  // else written over: no `removeAll`
            for j in slots { was[j - slots.lowerBound] = sent.cells[j] }
            f.cells.reserveCapacity(f.cells.count + slots.count)
            let m = arr.members[section]
            var slot = slots.lowerBound
            for k in lo...hi {
                let h = m[k]
                let old = Int(sent.slot[h])
                guard old >= 0 else { continue }
                let now = sentCell(h)
                let before = was[old - slots.lowerBound]
                if before != now { appendUpdate(h, was: before, now: now, refreshed: false, to: &f.cells) }
                sent.order[slot] = h
                sent.cells[slot] = now
                sent.slot[h] = Int32(slot)
                slot += 1
            }
            swap(&was, &sent.spareCells)
        case .whole:
            diffWindow(into: &f)
        }
        arr.clearChanges()
    }

    /// `diffCells(.whole)`: the window's cells against the client's, by handle.
    /// - Complexity: O(cells in the window).
    private mutating func diffWindow(into f: inout FrameMessage) {
        if sent.holders.names.count > HolderNames.compactAt { compactHolders() }
        let (y0, y1) = window
        // Two buffers each for the window's handles and cells, swapped: no allocation per frame.
        var handles: [Int] = []
        swap(&handles, &sent.spareOrder)
        handles.removeAll(keepingCapacity: true)
        if scrollsSections { columnWindowCells(into: &handles) } else { arr.cells(from: y0, to: y1, into: &handles) }
        var next: [SentCell] = []
        swap(&next, &sent.spareCells)
        next.removeAll(keepingCapacity: true)
        next.reserveCapacity(handles.count)
        for h in handles {
            let now = sentCell(h)
            next.append(now)
            let slot = Int(sent.slot[h])
            if slot >= 0 {
                let was = sent.cells[slot]
                let refreshed = !step.refreshed.isEmpty && step.refreshed.contains(h)
                guard was != now || refreshed else { continue }
                appendUpdate(h, was: was, now: now, refreshed: refreshed, to: &f.cells)
            } else {
                let appear = !step.appeared.isEmpty && step.appeared.contains(arr.ids[h])
                f.cells.append(CellUpdate(id: arr.ids[h], frame: now.frame, alpha: 1, hidden: now.hidden, dur: appear ? step.shiftDur : 0,
                                          ease: .easeInOut, info: cellInfo(h), appear: appear, selected: nil, heldBy: nil, tree: nil))
            }
        }
        // Mark the new window, then list what left it (still marked from before, not now).
        for h in sent.order { sent.slot[h] = -2 }
        for (k, h) in handles.enumerated() { sent.slot[h] = Int32(k) }
        var gone: [String] = []
        for h in sent.order where sent.slot[h] == -2 {
            gone.append(arr.ids[h])
            sent.slot[h] = -1
        }
        if !gone.isEmpty { f.gone += gone }  // one new box for the frame's rare members, not one a cell
        swap(&sent.cells, &next)
        swap(&sent.order, &handles)
        sent.spareCells = next
        sent.spareOrder = handles
    }

    /// Appends the update of a cell the client has whose state changed: its new frame and
    /// visibility, and its attributes again when its place (section, index) changed, set in
    /// place (an `Optional` chosen by a condition in the init was copied, then destroyed).
    @inline(__always) func appendUpdate(_ h: Int, was: SentCell, now: SentCell, refreshed: Bool,
                                        to cells: inout [CellUpdate]) {
        let moved = was.frame != now.frame
        let renamed = was.section != now.section || was.index != now.index || refreshed
        cells.append(CellUpdate(id: arr.ids[h], frame: now.frame, hidden: now.hidden, dur: moved ? step.shiftDur : 0,
                                ease: .easeInOut))
        let last = cells.count - 1
        if renamed { cells[last].info = cellInfo(h) } else if was.tree != now.tree { cells[last].tree = treeChange(h, was: was.tree, now: now.tree) }
        if was.selected != now.selected { cells[last].selected = now.selected }
        if was.heldBy != now.heldBy { cells[last].heldBy = .some(sent.holders.name(now.heldBy)) }
    }
}
