/// The list rule, with its hysteresis: a dragged item passes its neighbours one at a time
/// while its snapshot's center is at or beyond their midpoints, so holding still never moves
/// anything. A list runs it over the whole board, across headers (`ListLayout`); a kanban
/// column runs it inside the column's frame, the column itself chosen by the center's x
/// (`ColumnsLayout`).
extension LiveSession {
    /// The next row a drag passes from index `i` of section `s`, down (`step` 1) or up (-1): a
    /// movable one (a tree's pinned rows are passed as any row: they keep their place in the
    /// forest, not an index).
    @inline(__always) func movableRow(section s: Int, from i: Int, by step: Int) -> Int? {
        let n = arr.members[s].count  // the row read in place (`let m = arr.members[s]`: 2 Ir more a retarget)
        var j = i + step
        while j >= 0 && j < n { if arr.movable[arr.members[s][j]] || arr.tree != nil { return j }; j += step }
        return nil
    }

    /// Whether the list rule would move item `h` down (+1), up (-1), or not (0) for center `y`
    /// (its section's content coordinates). In a section that refuses its drag (a palette it is
    /// copied out of) it passes no neighbour. `acrossHeaders` (lists): at a section's end,
    /// sections that refuse its drag are not there for the rule: down, it goes to the next
    /// section that takes it when the center reaches that section's header midpoint; up, to
    /// the end of the previous one that takes it when the center reaches its own header's
    /// midpoint (the section just above takes it) or the frame of that section (refusing
    /// sections between).
    /// Always inlined: `retargetByListRule` asks on every move, from mutating code (see
    /// `nextTimer`).
    @inline(__always) func listStep(_ h: Int, centerY y: Double, acrossHeaders: Bool) -> Int {
        let s = arr.sectionOf[h], i = arr.indexOf[h]
        let inRefused = arr.hasRules && !allows(s, for: h)
        if !inRefused, let j = movableRow(section: s, from: i, by: 1) {
            if y >= arr.frame(section: s, index: j).midY { return 1 }
        } else if acrossHeaders, let t = allowedSection(from: s, by: 1, for: h), y >= arr.headerFrame(t).midY {
            return 1
        }
        if !inRefused, let j = movableRow(section: s, from: i, by: -1) {
            if y <= arr.frame(section: s, index: j).midY { return -1 }
        } else if acrossHeaders, let t = allowedSection(from: s, by: -1, for: h),
                  t == s - 1 ? y <= arr.headerFrame(s).midY : y < arr.sectionTop[t + 1] {
            return -1
        }
        return 0
    }

    /// Whether item `n`, held by another pointer drag that follows the list rule where it is
    /// (a swap drag in its lift's section exchanges instead; in columns, one whose center's x
    /// targets another column is entering that one), would move in direction `dir` under that
    /// drag's still snapshot.
    /// Mutating (it changes nothing): `retargetByListRule` calls it on every pass, and a
    /// non-mutating method not inlined is passed a copy of the whole session.
    mutating func passesBack(_ n: Int, dir: Int, acrossHeaders: Bool) -> Bool {
        let s = arr.sectionOf[n]
        guard let p = liftedBy[n], p >= 0, let k = dragIndex(p), drags[k].item == n,
              !(swaps(drags[k]) && s == drags[k].liftSection) else { return false }
        let c = drags[k].center
        guard arr.layout.targetSection(atX: c.x + scrolling.x, current: s, in: arr) == s else { return false }
        let y = c.y + (arr.scrollsSections ? scrolling.columns[s] : scrolling.y)
        return listStep(n, centerY: y, acrossHeaders: acrossHeaders) == dir
    }

    /// Passes neighbours one at a time while the center is at or beyond their midpoint. A pass
    /// that the reverse rule would undo at once (a section's empty slot appearing or vanishing
    /// changes the geometry) is not made, so holding still never moves anything.
    /// `barred`: a section the item must not be taken into across a header (a swap drag
    /// outside its lift section comes back over a cell of it only).
    /// - Complexity: O(cells passed).
    mutating func retargetByListRule(_ h: Int, centerY y: Double, acrossHeaders: Bool, barred: Int? = nil) {
        for _ in 0...(arr.itemCount + arr.sectionCount) {
            let dir = listStep(h, centerY: y, acrossHeaders: acrossHeaders)
            if dir == 0 { return }
            let s = arr.sectionOf[h], i = arr.indexOf[h]
            if !arr.hasRules || allows(s, for: h), let j = movableRow(section: s, from: i, by: dir) {
                arr.exchange(section: s, i, j)
                // Passing an item that another drag holds, whose rule would pass it straight
                // back (both snapshots beyond each other's cells), is not made either.
                if passesBack(arr.members[s][i], dir: dir, acrossHeaders: acrossHeaders) { arr.exchange(section: s, i, j); return }
                continue
            }
            // Across a header (and the sections that refuse the drag).
            guard acrossHeaders, let t = allowedSection(from: s, by: dir, for: h), t != barred else { return }
            arr.move(h, toSection: t, index: dir > 0 ? 0 : arr.members[t].count, pinnedHome: pinnedHome)
            if listStep(h, centerY: y, acrossHeaders: acrossHeaders) == -dir {
                arr.move(h, toSection: s, index: i, pinnedHome: pinnedHome)
                return
            }
        }
    }
}
