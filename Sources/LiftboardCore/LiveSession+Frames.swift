/// What the client is told: whole layouts, and frames that name only what changed, only for
/// the cells within one viewport's height of the visible area.
extension LiveSession {
    /// The content band whose cells the client is kept up to date on.
    var window: (Double, Double) { (scrollY - viewport.h, scrollY + 2 * viewport.h) }

    func cellInfo(_ h: Int) -> CellInfo {
        CellInfo(id: arr.ids[h], label: arr.labels[h], color: arr.colors[h], section: arr.sectionIDs[arr.sectionOf[h]],
                 index: arr.indexOf[h], movable: arr.movable[h], frame: arr.frame(of: h), hidden: liftedBy[h] != nil)
    }

    func sentCell(_ h: Int) -> SentCell {
        SentCell(frame: arr.frame(of: h), hidden: liftedBy[h] != nil, section: arr.sectionOf[h], index: arr.indexOf[h])
    }

    func snapshotState(_ d: Drag) -> SnapshotUpdate {
        SnapshotUpdate(p: d.pointer, id: arr.ids[d.item], center: d.center, size: d.size, moveDur: 0,
                       scale: config.liftScale, rotation: config.liftRotation, alpha: config.liftAlpha, dur: 0, ease: .easeOut)
    }

    /// The whole state; resets what the client is known to have.
    mutating func makeLayout() -> ServerEvent {
        let (y0, y1) = window
        let handles = arr.cells(from: y0, to: y1)
        for h in sentOrder { sentSlot[h] = -1 }
        sentOrder = handles
        sentCells = handles.map(sentCell)
        for (k, h) in handles.enumerated() { sentSlot[h] = Int32(k) }
        sentScroll = scrollY
        sentContent = Size(w: viewport.w, h: arr.contentHeight)
        sentSections = arr.sections()
        return .layout(LayoutMessage(version: version, content: sentContent, scroll: Point(x: 0, y: scrollY),
                                     sections: sentSections, cells: handles.map(cellInfo),
                                     snapshots: drags.map(snapshotState)))
    }

    /// Ends a step: its gesture events, then its frame, then commits, then announcements.
    mutating func flushStep(at now: Double) -> [ServerEvent] {
        // A move can shorten the content under the scroll offset.
        if scrollY > maxScroll { scrollY = maxScroll }
        var s = step
        step = Step()
        var out = s.errors
        out += s.gestures
        var f = FrameMessage(seq: frameSeq + 1, ms: now, ack: lastSeq)
        var changed = false
        if scrollY != sentScroll {
            f.scroll = Point(x: 0, y: scrollY)
            f.scrollDur = s.scrollDur
            sentScroll = scrollY
            s.cellsDirty = true
            changed = true
        }
        if s.cellsDirty {
            let content = Size(w: viewport.w, h: arr.contentHeight)
            if content != sentContent { f.content = content; sentContent = content; changed = true }
            let sections = arr.sections()
            if sections != sentSections { f.sections = sections; sentSections = sections; changed = true }
            diffCells(into: &f, step: s)
            if !s.removed.isEmpty { f.removed = s.removed; f.removeDur = s.shiftDur; changed = true }
            if !f.cells.isEmpty || !f.gone.isEmpty { changed = true }
        }
        if !s.snapshots.isEmpty {
            f.snapshots = mergeSnapshots(s.snapshots)
            changed = true
        }
        if focus != sentFocus, let fh = focus {
            f.focus = arr.ids[fh]
            sentFocus = focus
            changed = true
        }
        if changed || s.forceFrame {
            frameSeq += 1
            out.append(.frame(f))
        }
        out += s.commits
        out += s.announces
        return out
    }

    /// Several updates of one snapshot in a step become one: later keys win.
    func mergeSnapshots(_ list: [SnapshotUpdate]) -> [SnapshotUpdate] {
        var out: [SnapshotUpdate] = []
        for u in list { out.merge(u) }
        return out
    }

    /// Cells that entered the window come whole; cells whose frame or visibility changed come
    /// with their new state; cells that left are `gone`.
    /// - Complexity: O(cells in the window).
    mutating func diffCells(into f: inout FrameMessage, step s: Step) {
        let shiftDur = s.shiftDur
        let (y0, y1) = window
        let handles = arr.cells(from: y0, to: y1)
        var next: [SentCell] = []
        next.reserveCapacity(handles.count)
        for h in handles {
            let now = sentCell(h)
            next.append(now)
            let slot = Int(sentSlot[h])
            if slot >= 0 {
                let was = sentCells[slot]
                let refreshed = !s.refreshed.isEmpty && s.refreshed.contains(h)
                guard was != now || refreshed else { continue }
                let moved = was.frame != now.frame
                let renamed = was.section != now.section || was.index != now.index || refreshed
                f.cells.append(CellUpdate(id: arr.ids[h], frame: now.frame, hidden: now.hidden,
                                          dur: moved ? shiftDur : 0, ease: .easeInOut,
                                          info: renamed ? cellInfo(h) : nil))
            } else {
                var u = CellUpdate(id: arr.ids[h], frame: now.frame, hidden: now.hidden, dur: 0,
                                   ease: .easeInOut, info: cellInfo(h))
                if !s.appeared.isEmpty, s.appeared.contains(arr.ids[h]) { u.appear = true; u.dur = shiftDur }
                f.cells.append(u)
            }
        }
        // Mark the new window, then list what left it (still marked from before, not now).
        for h in sentOrder { sentSlot[h] = -2 }
        for (k, h) in handles.enumerated() { sentSlot[h] = Int32(k) }
        for h in sentOrder where sentSlot[h] == -2 {
            f.gone.append(arr.ids[h])
            sentSlot[h] = -1
        }
        sentCells = next
        sentOrder = handles
    }
}
