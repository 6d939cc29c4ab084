/// Edits from elsewhere (an item added, removed or changed; a section added, renamed or
/// removed): the board's content changes under the session, drags in flight keep their live
/// places, a drag whose item goes is cancelled, new cells fade in and removed ones fade out.
extension LiveSession {
    /// The committed board as this session knows it, with every attribute resolved (colors and
    /// heights explicit, so that a rebuilt arrangement draws the same cells the same way).
    func committedBoard() -> Board {
        var b = Board(id: boardID, layout: arr.spec.kind, list: arr.spec.list, grid: arr.spec.grid, columns: arr.spec.columns,
                      sections: base.enumerated().map { s, m in
            Section(id: arr.sectionIDs[s], title: arr.titles[s], items: m.map { h in
                Item(id: arr.ids[h], label: arr.labels[h], color: arr.colors[h],
                     height: arr.layout.declaredHeight(arr.heights[h]), movable: arr.movable[h],
                     kind: arr.kinds[h], handle: arr.grips[h], card: arr.cards[h])
            }, accepts: arr.rules[s].accepts.map { $0.sorted() }, max: arr.rules[s].max, copy: arr.rules[s].copy,
               drop: arr.rules[s].drop, subtitle: arr.subtitles[s])
        }, version: version)
        if arr.tree != nil { addTreeFacts(to: &b) }
        return b
    }

    /// Applies `change` (an edit) to the committed board and rebuilds the session around it.
    /// `false`, changing nothing, when the edit does not apply here.
    mutating func applyEdit(_ change: Change, now: Double) -> Bool {
        var board = committedBoard()
        guard board.applyEdit(change) else { return false }
        let refreshed: Set<String> = if case .updateItem(let u) = change { [u.id] } else { [] }
        rebuild(from: board, now: now, refreshed: refreshed)
        return true
    }

    /// Replaces the arrangement with one of `board` (its committed order), keeping the scroll,
    /// the pointers, what the client has been sent, and every drag whose item is still there at
    /// its live place. A drag whose item went is cancelled.
    /// - Complexity: O(n).
    mutating func rebuild(from board: Board, now: Double, refreshed: Set<String>, revealing: [String] = []) {
        let old = arr
        var next = Arrangement(board: board, width: viewport.w)
        func map(_ h: Int) -> Int? { next.handleOf[old.ids[h]] }
        step.appeared = Set(next.ids).subtracting(old.ids)

        // Drags: the ones whose item went end, cancelled; the others keep their live places.
        var kept: [Drag] = [], livePlaces: [(h: Int, section: String, index: Int)] = []
        var before: [(pointer: Int, place: Place)] = []
        for var d in drags {
            guard let h = map(d.item) else {
                step.gestures.append(.drop(p: d.pointer, id: old.ids[d.item], at: old.place(of: d.item), cancelled: true))
                step.snapshots.append(SnapshotUpdate(p: d.pointer, id: old.ids[d.item], moveDur: 0, scale: 1, rotation: 0,
                                                     alpha: 0, dur: dur(config.shiftMs), ease: .easeOut, done: true))
                if let k = pointerIndex(d.pointer) { pointers[k].phase = .inert }
                continue
            }
            before.append((d.pointer, old.place(of: d.item)))
            livePlaces.append((h, old.sectionIDs[old.sectionOf[d.item]], old.indexOf[d.item]))
            d.item = h
            d.swapTarget = d.swapTarget.flatMap(map)
            // A carried item the edit removed is simply no longer carried.
            d.group = d.group.compactMap(map)
            if d.group.count < 2 { d.group = [] }
            d.lastRegion = nil
            kept.append(d)
        }

        // What the client has: the same cells under their new handles; removed ones fade out.
        var order: [Int] = [], cells: [SentCell] = []
        for (k, h) in sent.order.enumerated() {
            if let n = map(h) { order.append(n); cells.append(sent.cells[k]) } else { step.removed.append(old.ids[h]) }
        }
        step.refreshed = Set(refreshed.compactMap { next.handleOf[$0] })

        // Pinned items' homes are their indexes in the new committed order.
        var homes = Array(repeating: 0, count: next.itemCount)
        for m in next.members { for (i, h) in m.enumerated() where !next.movable[h] { homes[h] = i } }
        // Carried items leave the order first, so that live indexes mean what they meant.
        for d in kept { for x in d.extras { next.park(x, pinnedHome: homes) } }
        for (h, section, index) in livePlaces.sorted(by: { ($0.section, $0.index) < ($1.section, $1.index) }) {
            if let t = next.sectionIndexOf[section] { next.move(h, toSection: t, index: index, pinnedHome: homes) }
        }
        if scrollsSections {
            // Columns keep their offsets by id; a new one starts at the top.
            let was = Dictionary(uniqueKeysWithValues: zip(old.sectionIDs, scrolling.columns))
            scrolling.columns = next.sectionIDs.map { was[$0] ?? 0 }
            scrolling.flings = []
            // A pan keeps scrolling its column, wherever the edit put it (none if it went).
            for k in pointers.indices {
                pointers[k].columnAtDown = pointers[k].columnAtDown.flatMap { next.sectionIndexOf[old.sectionIDs[$0]] }
            }
        }
        arr = next
        base = board.sections.map { $0.items.map { next.handleOf[$0.id]! } }
        drags = kept
        // Trees: the items to reveal once dropped, and each drag's subtree, under the new handles.
        if let was = old.tree { arr.tree!.reveal = was.reveal.compactMap(map) + revealing.compactMap { next.handleOf[$0] } }
        refreshTreeShape()
        let was = liftedBy
        liftedBy = LiftTable(count: arr.itemCount)
        liftedBy.others = was.others  // by id: others' holds outlive the rebuild (issue 44)
        for d in drags { for x in d.carried { liftedBy[x] = d.pointer } }
        let wasSelected = selection.marked
        selection = Selection(marked: Array(repeating: false, count: arr.itemCount), anchor: selection.anchor.flatMap(map))
        for h in wasSelected.indices where wasSelected[h] { if let n = map(h) { selection.marked[n] = true; selection.count += 1 } }
        pinnedHome = homes
        committedLayout = config.mode == .swap ? Arrangement(board: board, width: viewport.w) : nil
        for k in drags.indices { drags[k].liftSection = committedLayout?.sectionOf[drags[k].item] ?? committedSection(of: drags[k].item) }
        refreshRefusals()
        focus = focus.flatMap { old.ids.indices.contains($0) ? next.handleOf[old.ids[$0]] : nil }
        sent.focus = sent.focus.flatMap { old.ids.indices.contains($0) ? next.handleOf[old.ids[$0]] : nil }
        sent.order = order
        sent.cells = cells
        sent.slot = Array(repeating: -1, count: arr.itemCount)
        for (k, h) in sent.order.enumerated() { sent.slot[h] = Int32(k) }
        rebuildLive(reporting: before)
        scrolling.y = clampScroll(scrolling.y)
        clampColumnScrolls()
        step.shiftDur = dur(config.shiftMs)
        updateAutoScroll(now: now)
    }
}
