/// Swap mode (`mode: "swap"`): the lifted cell exchanges places with the committed cell under
/// it, instead of the items between shifting.
extension LiveSession {
    /// The target is the cell of the lift's section under the center in the layout of the
    /// committed order (a fixed reference while nothing commits, so nothing oscillates). Over
    /// no such cell the live order stays, unless the center goes into another section by the
    /// insert rules: then the exchange is undone and the item moves as in insert mode. Only a
    /// cell of the lift's section brings it back (never that section's header, slot or row
    /// end), and a cell another drag holds (lifted, or another swap drag's target) is never a
    /// target.
    /// This is the part every layout shares: `true` when the center is over such a cell (the
    /// exchange made), else the layout's own rule decides whether it has left the section.
    mutating func swapOverCommittedCell(_ d: Int, center c: Point) -> Bool {
        let h = drags[d].item, ls = drags[d].liftSection
        guard let ref = committedLayout, case .cell(let x) = ref.region(at: c), ref.sectionOf[x] == ls else { return false }
        if arr.sectionOf[h] != ls {
            // Back over the lift's section: from the item's committed place, no exchange.
            arr.move(h, toSection: ls, index: ref.indexOf[h], pinnedHome: pinnedHome)
        }
        if x == h {
            setSwapTarget(d, nil)
        } else if arr.movable[x] && !isHeld(x, byOtherThan: d) {
            setSwapTarget(d, x)
        }  // a pinned or held cell is never a target: the live order stays
        drags[d].lastRegion = nil
        return true
    }

    /// After the insert rules had their turn: a swap drag they kept in its lift's section
    /// waits at its committed place.
    mutating func waitAtCommittedPlace(_ d: Int) {
        let h = drags[d].item, ls = drags[d].liftSection
        if arr.sectionOf[h] == ls, let ref = committedLayout {
            arr.move(h, toSection: ls, index: ref.indexOf[h], pinnedHome: pinnedHome)
            drags[d].lastRegion = nil
        }
    }

    /// Whether item `x` is held by a drag other than `d`: lifted by it, or its swap target.
    func isHeld(_ x: Int, byOtherThan d: Int) -> Bool {
        if let p = liftedBy[x], p != drags[d].pointer { return true }
        return drags.indices.contains { $0 != d && drags[$0].swapTarget == x }
    }

    /// Undoes drag `d`'s exchange, if any, and exchanges with `target` (both in the item's
    /// section), so the live order is the committed order with at most that one exchange.
    mutating func setSwapTarget(_ d: Int, _ target: Int?) {
        let h = drags[d].item
        guard target != drags[d].swapTarget else { return }
        if let old = drags[d].swapTarget, arr.sectionOf[old] == arr.sectionOf[h] {
            arr.exchange(section: arr.sectionOf[h], arr.indexOf[h], arr.indexOf[old])
        }
        drags[d].swapTarget = nil
        if let t = target, arr.sectionOf[t] == arr.sectionOf[h] {
            arr.exchange(section: arr.sectionOf[h], arr.indexOf[h], arr.indexOf[t])
            drags[d].swapTarget = t
        }
    }

    /// Whether `drag` follows the swap rules: pointer drags in swap mode (the keyboard always
    /// moves one place at a time, insert semantics).
    func swaps(_ drag: Drag) -> Bool { config.mode == .swap && drag.pointer >= 0 && drag.copyFrom == nil && arr.tree == nil }
}
