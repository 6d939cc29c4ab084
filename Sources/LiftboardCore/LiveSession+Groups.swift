/// Several items in one drag: UIKit's tap-to-add (a tap by another pointer while a pointer
/// drags adds the tapped item to that drag) and Finder's selections (Ctrl/Meta-click toggles,
/// Shift-click selects a range, Shift+Space on the keyboard; lifting a selected cell carries
/// the whole selection). Insert mode only: a swap exchanges one item with one item.
///
/// The items a drag carries besides its own are parked: out of the live order, so the other
/// cells close the gap and the target is found for the lifted item as for any drag. A drop
/// commits one `group` change (every carried item after the anchor the lifted item's place
/// gives, in the group's order); a cancel sends every one home.
extension LiveSession {
    /// Whether a drag may carry several items.
    var groupsAllowed: Bool { config.mode == .insert && arr.tree == nil }

    // MARK: Taps and clicks

    /// A pointer went up before its long press began. While pointer drags are in flight it is
    /// a tap that adds the movable cell under it (if no drag holds it) to the most recently
    /// lifted pointer drag; otherwise it is a click that edits the selection.
    mutating func tapped(at content: Point, mods: Modifiers, now: Double) {
        if pointers.contains(where: \.roleRefused) { return forbid("tap-to-add", needs: .move) }
        if let d = drags.lastIndex(where: { $0.pointer >= 0 }) {
            guard case .cell(let h) = arr.region(at: content), canTapAdd(h, to: d) else { return }
            if refuseHeld(h, by: "tap-to-add") { return }
            // Across processes the tapped item joins once its claim is won (`ClaimWait`).
            if awaitClaim(h, .tapAdd(item: arr.ids[h], pointer: drags[d].pointer)) { return }
            return tapAdd(h, to: d)
        }
        click(at: content, mods: mods)
    }

    /// Whether a tap may add `h` to drag `d` (holds of other sessions aside).
    func canTapAdd(_ h: Int, to d: Int) -> Bool {
        groupsAllowed && arr.movable[h] && liftedBy[h] == nil && !drags.contains(where: { $0.swapTarget == h })
            && drags[d].copyFrom == nil && !arr.rules[arr.sectionOf[h]].copy
    }

    mutating func tapAdd(_ h: Int, to d: Int) {
        carry(drag: d, group: drags[d].carried + [h])
        announce("\(drags[d].group.count) items lifted.")
    }

    /// A primary click: with Ctrl or Meta it toggles the movable cell's selection and makes it
    /// the anchor; with Shift it adds the cells from the anchor to this one, within the section
    /// (only this one, which becomes the anchor, when the anchor is elsewhere); without
    /// modifiers it clears the selection.
    mutating func click(at content: Point, mods: Modifiers) {
        guard mods.toggles || mods.contains(.shift) else { return clearSelection() }
        guard case .cell(let h) = arr.region(at: content), arr.movable[h] else { return }
        if !mods.toggles, let a = selection.anchor, !arr.isParked(a), arr.sectionOf[a] == arr.sectionOf[h] {
            let s = arr.sectionOf[h]
            let lo = min(arr.indexOf[a], arr.indexOf[h]), hi = max(arr.indexOf[a], arr.indexOf[h])
            for i in lo...hi where arr.movable[arr.members[s][i]] { setSelected(arr.members[s][i], true) }
        } else {
            setSelected(h, mods.toggles ? !selection.marked[h] : true)
            selection.anchor = h
        }
    }

    mutating func setSelected(_ h: Int, _ on: Bool) {
        guard selection.marked[h] != on else { return }
        selection.marked[h] = on
        selection.count += on ? 1 : -1
        step.cellsDirty = true
    }

    mutating func clearSelection() {
        selection.anchor = nil
        guard selection.count > 0 else { return }
        for h in selection.marked.indices where selection.marked[h] { setSelected(h, false) }
    }

    // MARK: Lifting a group

    /// Drag `d` (just lifted) carries the selection when its item is selected (in committed
    /// order, leaving out items other drags hold); lifting an item that is not selected clears
    /// the selection.
    mutating func liftSelection(with d: Int) {
        let h = drags[d].item
        guard selection.marked[h] else { return clearSelection() }
        // A palette's items are copied one at a time.
        guard groupsAllowed, selection.count > 1, drags[d].copyFrom == nil else { return }
        let group = base.indices.filter { !arr.rules[$0].copy }.flatMap { s in
            base[s].filter { x in
                selection.marked[x] && (x == h || (liftedBy[x] == nil && arr.movable[x] && heldByOther(x) == nil && !claimLost(x)))
            }
        }
        guard group.count > 1 else { return }
        carry(drag: d, group: group)
        if drags[d].pointer >= 0 { announce("\(group.count) items lifted.") }
    }

    /// Makes `group` (its own item included) what drag `d` carries: each item new to it gets
    /// a `lift` with `added: true` and is parked; the cells close the gap (a drag whose place
    /// that changed gets its `moved`); the snapshot says the count.
    mutating func carry(drag d: Int, group: [Int]) {
        let p = drags[d].pointer
        let before = drags.map { (pointer: $0.pointer, place: arr.place(of: $0.item)) }
        let old = drags[d].group
        drags[d].group = group
        let added = group.filter { $0 != drags[d].item && !old.contains($0) }
        // Each `from` is the item's place before any of them left the order.
        for x in added { step.gestures.append(.lift(p: p, id: arr.ids[x], from: arr.place(of: x), added: true)) }
        for x in added {
            liftedBy[x] = p
            arr.park(x, pinnedHome: pinnedHome)
            if focus == x { focus = drags[d].item }
        }
        reportPlaces(since: before)
        step.cellsDirty = true
        step.reordered = true
        step.shiftDur = dur(config.shiftMs)
        step.snapshots.append(SnapshotUpdate(p: p, id: arr.ids[drags[d].item], count: group.count))
        if arr.hasRules {
            refreshRefusals(d)
            updateForbidden(d, center: contentPoint(drags[d].center))
        }
    }

    /// Words for a drop or a cancel of a drag that carried `group`, its own item `h`: where
    /// the group starts now.
    func groupWords(_ group: [Int], at h: Int, cancelled: Bool) -> String {
        if cancelled { return "Cancelled. \(group.count) items are back where they were." }
        let s = arr.sectionOf[h]
        let first = group.filter { arr.sectionOf[$0] == s }.map { arr.indexOf[$0] }.min() ?? arr.indexOf[h]
        return "\(group.count) items moved to \(arr.titles[s]), position \(first + 1)."
    }
}
