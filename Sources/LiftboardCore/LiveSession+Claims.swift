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
              arr.movable[h], liftedBy[h] == nil, heldInSubtree(h) == nil, roleLifts(h) else { return }
        pointers[k].claim = arr.ids[h]
        askClaim(h)
    }

    /// Asks for the claim of `h` and of what moving it would carry with it: a tree item's
    /// descendants and, for a lift (`selection`), a selected item's selection (claimed at the
    /// press too, so the lift waits for none of them).
    mutating func askClaim(_ h: Int, selection lifts: Bool = true) {
        let id = arr.ids[h]
        claims.ask(id)
        let others = companions(of: h, selection: lifts).map { arr.ids[$0] }
        for c in others { claims.ask(c) }
        claims.companions[id] = others.isEmpty ? nil : others
    }

    /// The items a lift of `h` would carry besides it now (`liftSubtree`; `liftSelection` with
    /// `selection`).
    func companions(of h: Int, selection lifts: Bool = true) -> [Int] {
        if let tree = arr.tree {
            guard let s = base.firstIndex(where: { $0.contains(h) }), let i = base[s].firstIndex(of: h) else { return [] }
            let m = base[s]
            let end = TreeOrder.subtreeEnd(from: i, count: m.count) { tree.committedDepth[m[$0]] }
            return Array(m[(i + 1)..<end])
        }
        guard lifts, groupsAllowed, selection.marked[h], selection.count > 1, !arr.rules[arr.sectionOf[h]].copy else { return [] }
        var out: [Int] = []
        for (s, m) in base.enumerated() where !arr.rules[s].copy {
            for x in m where x != h && selection.marked[x] && liftedBy[x] == nil && arr.movable[x] && heldByOther(x) == nil { out.append(x) }
        }
        return out
    }

    /// What the store's answers allow a lift of item `id` to do: wait (an answer about it or
    /// about one of its companions is not back), lift, or not (lost: the holder, and the item
    /// they hold: `id`, or one of a tree item's descendants). A selection's lost items are
    /// left out of its group (`liftSelection`).
    func claimVerdict(_ id: String) -> ClaimVerdict {
        guard claims.answered(id) else { return .wait }
        if let holder = claims.lost[id] { return .lost(holder: holder, item: id) }
        for c in claims.companions[id] ?? [] {
            guard claims.answered(c) else { return .wait }
            if arr.tree != nil, let holder = claims.lost[c] { return .lost(holder: holder, item: c) }
        }
        return .lift
    }

    /// Whether item `x` was lost in its latest claim: a group lifted leaves it out.
    func claimLost(_ x: Int) -> Bool { claims.required && claims.lost[arr.ids[x]] != nil }

    /// At the long press's deadline, for the liftable item `h` under pointer `k`: true when
    /// the lift may go on now; false when it waits for the claim's answer or was refused
    /// (the pointer then is inert, as over an item held elsewhere).
    mutating func claimAllowsLift(_ h: Int, pointer k: Int) -> Bool {
        guard claims.required else { return true }
        let id = arr.ids[h]
        if pointers[k].claim != id {
            // The content moved under the pointer (a wheel): the item under it now is asked for.
            pointers[k].claim = id
            askClaim(h)
        }
        switch claimVerdict(id) {
        case .lift:
            return true
        case .wait:
            pointers[k].phase = .inert
            pointers[k].awaitingClaim = true
        case .lost(let holder, let item):
            pointers[k].phase = .inert
            refuseClaimed(item, holder: holder)
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
            guard let item = pointers[k].claim, item == id || claims.companions[item]?.contains(id) == true else { continue }
            let verdict = claimVerdict(item)
            if verdict == .wait { continue }
            pointers[k].awaitingClaim = false
            // The item must still be the cell under the pointer, as at the deadline: while the
            // answer was on its way a commit, a collapse or another drag's subtree may have
            // taken its row (a tree's hidden row has no frame to lift from).
            guard case .cell(let h) = arr.region(at: contentPoint(pointers[k].position)), arr.ids[h] == item else {
                pointers[k].phase = .inert
                continue
            }
            if verdict == .lift, arr.movable[h], liftedBy[h] == nil, heldInSubtree(h) == nil {
                pointers[k].phase = .dragging
                lift(h, pointer: pointers[k].id, at: pointers[k].position, now: now)
            } else {
                pointers[k].phase = .inert
                if case .lost(let holder, let lost) = verdict { refuseClaimed(lost, holder: holder) } else { refuseClaimed(item, holder: nil) }
            }
        }
        resumeWaits(for: id, now: now)
    }

    /// A press whose claim was lost lifts nothing: the holder is named as for an item another
    /// session on this process holds, and its cell marks `heldBy`.
    private mutating func refuseClaimed(_ id: String, holder: String?) {
        guard let h = arr.handleOf[id], let holder = holder ?? claims.lost[id] ?? heldByOther(h) else { return }
        markHeld(id, by: holder)
        announce("\(holder) is moving \(arr.labels[h]).")
    }

    /// Item `id`'s cell carries `heldBy` `holder` (a lost claim: the other process's hold
    /// reaches the next `presence` too).
    mutating func markHeld(_ id: String, by holder: String) {
        guard liftedBy.others.holder(of: id) != holder else { return }
        liftedBy.others.names[id] = holder
        step.cellsDirty = true
    }

    /// The items this session needs claimed now: those its pressed pointers asked for (not
    /// yet refused), and those it holds.
    var claimsWanted: Set<String> {
        var out: Set<String> = []
        for p in pointers {
            guard let id = p.claim, p.phase == .pending || p.awaitingClaim else { continue }
            out.insert(id)
            for c in claims.companions[id] ?? [] { out.insert(c) }
        }
        for w in claims.waiting {
            out.insert(w.item)
            for c in claims.companions[w.item] ?? [] { out.insert(c) }
        }
        for d in drags {
            for h in d.carried { out.insert(arr.ids[h]) }
            // A lifted tree item holds its subtree.
            for h in d.tree?.descendants ?? [] { out.insert(arr.ids[h]) }
        }
        return out
    }
}

/// What the store's answers allow a lift (`LiveSession.claimVerdict`).
enum ClaimVerdict: Equatable {
    case wait, lift
    /// `holder` holds `item` (the item asked for, or one of its subtree's).
    case lost(holder: String, item: String)
}
