/// "Move to…" (`moveTo`): the single-pointer alternative to a drag that WCAG 2.5.7 asks for,
/// as Atlassian's menu answers it. It commits the change a drag to that place would commit
/// (an insert: the item after its new movable predecessor that no drag holds), so stores,
/// other sessions, history and undo see a drop; the cells animate, and an `announce` says
/// where the item went.
extension LiveSession {
    /// `claimed`: the item's claim was won (`ClaimWait`), or claims are not required.
    mutating func moveTo(_ id: String, section sid: String, place: MovePlace, now: Double, claimed: Bool = false) {
        guard allowed("moveTo", needs: .move) else { return }
        guard let h = arr.handleOf[id], let t = arr.sectionIndexOf[sid] else {
            return refuseMove("moveTo: no item \(id) or no section \(sid) on this board")
        }
        guard arr.movable[h] else { refuseMove("moveTo: \(arr.labels[h]) is pinned"); return }
        if refuseHeld(h, by: "moveTo") { return }
        guard liftedBy[h] == nil, !drags.contains(where: { $0.swapTarget == h }) else {
            return refuseMove("moveTo: \(arr.labels[h]) is being dragged")
        }
        guard let s = base.firstIndex(where: { $0.contains(h) }), let i = base[s].firstIndex(of: h) else { return }
        if [.up, .down, .indent, .outdent].contains(place) && s != t {
            return refuseMove("moveTo: \(place.rawValue) moves within the item's own section (\(arr.sectionIDs[s]))")
        }
        if s == t && arr.rules[s].copy {
            return refuseMove("moveTo: the order of \(arr.titles[s]) (a palette) does not change")
        }
        // Across processes the move waits for its item's claim; the answer checks it all again.
        if !claimed, awaitClaim(h, .moveTo(item: id, section: sid, place: place)) { return }
        if arr.rules[t].drop == .remove {
            guard allowed("moveTo: a move to a trash", needs: .edit) else { return }
            // Moved to a trash: removed, as a drop there removes it (undo brings it back).
            let label = arr.labels[h], title = arr.titles[t]
            guard commitEdit(.removeItem(id), now: now) else { return }
            step.shiftDur = dur(config.shiftMs)
            return announce("\(label) moved to \(title): removed.")
        }
        if arr.tree != nil && !arr.rules[s].copy { return treeMoveTo(h, section: t, place: place, now: now) }
        if place == .indent || place == .outdent {
            return refuseMove("moveTo: \(place.rawValue) is for tree boards")
        }
        if let r = refusal(into: t, carrying: [h]) {
            step.errors.append(.error(code: .ruleRefused, message: "moveTo: \(r)"))
            return announce(words(r, title: arr.titles[t]))
        }
        // Anchors as a drop's: movable items no drag holds; the item itself never.
        func free(_ x: Int) -> Bool { x != h && arr.movable[x] && liftedBy[x] == nil && !drags.contains { $0.swapTarget == x } }
        let m = base[t]
        let after: Int?
        let index: Int
        switch place {
        case .first:
            after = nil
            index = 0
        case .last:
            after = m.last(where: free)
            index = m.count - (s == t ? 1 : 0)
        case .up:
            // Before the nearest free item above: after the free item above that one.
            guard let k = m[..<i].lastIndex(where: free) else { refuseMove("moveTo: \(arr.labels[h]) is first already"); return }
            after = m[..<k].last(where: free)
            index = k
        case .indent, .outdent:
            return
        case .down:
            guard let k = m[(i + 1)...].firstIndex(where: free) else { refuseMove("moveTo: \(arr.labels[h]) is last already"); return }
            after = m[k]
            index = k
        }
        if arr.rules[s].copy {
            // Out of a palette: a copy, as a drag out of it drops one; the original stays.
            guard allowed("moveTo: a copy out of a palette", needs: .edit) else { return }
            let label = arr.labels[h], new = copyID(of: id)
            guard commitEdit(.copyItem(id: id, as: new, section: sid, after: after.map { arr.ids[$0] }, index: index), now: now),
                  let n = arr.handleOf[new] else { return }
            step.shiftDur = dur(config.shiftMs)
            return announce("Copied \(label) to \(arr.titles[arr.sectionOf[n]]), position \(arr.indexOf[n] + 1).")
        }
        let othersBefore = drags.map { ($0.pointer, arr.place(of: $0.item)) }
        let insert = Change.insert(id: id, section: sid, after: after.map { arr.ids[$0] }, index: index)
        guard commit(insert, now: now) != nil else { return refuseMove("moveTo: \(arr.labels[h]) is there already") }
        rebuildLive(reporting: othersBefore)
        step.shiftDur = dur(config.shiftMs)
        step.cellsDirty = true
        let (nb, ni) = ChangeRule.place(of: h, in: base) ?? (t, 0)
        announce("\(arr.labels[h]) moved to \(arr.titles[nb]), position \(ni + 1) of \(base[nb].count).")
    }

    mutating func refuseMove(_ message: String) {
        step.errors.append(.error(code: .cannotMove, message: message))
    }
}
