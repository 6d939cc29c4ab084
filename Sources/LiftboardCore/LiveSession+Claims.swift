/// Issue 44, holds across processes (`ClaimInput`): a press on a liftable item asks for its
/// claim at once (the long press hides the store's round trip); at the long press's deadline
/// the item lifts if the claim was won, waits for the answer if it is not back (the pointer is
/// inert meanwhile and lifts when a won answer comes), and behaves as a press on an item held
/// by another session when it was lost. A claim the store could not make (it is down) lifts
/// as on one process: the hold is this process's alone, and its drop is refused with
/// `store_unavailable` as any drop while the store is down, so nothing two processes do then
/// can both land.
extension LiveSession {
    /// `down` on a cell under a new pointer `k`: asks for its item's claim when claims are
    /// required and the item could lift (movable, not held, the session's role lifts it).
    mutating func askClaim(pointer k: Int, at: Point) {
        guard claims.required, pointers[k].phase == .pending, case .cell(let h) = arr.region(at: contentPoint(at)),
              arr.movable[h], liftedBy[h] == nil, heldByOther(h) == nil, roleLifts(h) else { return }
        pointers[k].claim = arr.ids[h]
        claims.ask(arr.ids[h])
    }

    /// At the long press's deadline, for the liftable item `h` under pointer `k`: true when
    /// the lift may go on now; false when it waits for the claim's answer or was refused
    /// (the pointer then is inert, as over an item held elsewhere).
    mutating func claimAllowsLift(_ h: Int, pointer k: Int) -> Bool {
        guard claims.required else { return true }
        let id = arr.ids[h]
        if pointers[k].claim != id {
            // The content moved under the pointer (a wheel): the item under it now is asked for.
            pointers[k].claim = id
            claims.ask(id)
        }
        if claims.won.contains(id) || claims.failed.contains(id) { return true }
        pointers[k].phase = .inert
        if claims.answered(id) {
            refuseClaimed(h, pointer: k)
        } else {
            pointers[k].awaitingClaim = true
        }
        return false
    }

    /// The store's answer (`ClaimInput`), at `now`: a pointer waiting for it lifts its item,
    /// or is refused.
    mutating func claimInput(_ input: ClaimInput, now: Double) {
        let id: String
        switch input {
        case .required:
            claims.required = true
            return
        case .answer(let item, let holder):
            guard claims.answer(item, holder: holder, failed: false) else { return }
            id = item
        case .failed(let item):
            guard claims.answer(item, holder: nil, failed: true) else { return }
            id = item
        }
        for k in pointers.indices where pointers[k].awaitingClaim {
            guard pointers[k].claim == id else { continue }
            pointers[k].awaitingClaim = false
            // The item must still be the cell under the pointer, as at the deadline: while the
            // answer was on its way a commit, a collapse or another drag's subtree may have
            // taken its row (a tree's hidden row has no frame to lift from).
            guard case .cell(let h) = arr.region(at: contentPoint(pointers[k].position)), arr.ids[h] == id else {
                pointers[k].phase = .inert
                continue
            }
            if claims.won.contains(id) || claims.failed.contains(id), arr.movable[h], liftedBy[h] == nil, heldByOther(h) == nil {
                pointers[k].phase = .dragging
                lift(h, pointer: pointers[k].id, at: pointers[k].position, now: now)
            } else {
                refuseClaimed(h, pointer: k)
            }
        }
    }

    /// A press whose claim was lost lifts nothing: the holder is named as for an item another
    /// session on this process holds, and its cell marks `heldBy`.
    private mutating func refuseClaimed(_ h: Int, pointer k: Int) {
        let id = arr.ids[h]
        pointers[k].phase = .inert
        if let holder = claims.lost[id] ?? heldByOther(h) {
            if liftedBy.others[id] != holder {
                liftedBy.others[id] = holder
                step.cellsDirty = true
            }
            announce("\(holder) is moving \(arr.labels[h]).")
        }
    }

    /// The items this session needs claimed now: those its pressed pointers asked for (not
    /// yet refused), and those it holds.
    var claimsWanted: Set<String> {
        var out: Set<String> = []
        for p in pointers {
            guard let id = p.claim, p.phase == .pending || p.awaitingClaim else { continue }
            out.insert(id)
        }
        for d in drags { for h in d.carried { out.insert(arr.ids[h]) } }
        return out
    }
}
