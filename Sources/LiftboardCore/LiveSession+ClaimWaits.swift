/// Issue 44, holds across processes: a keyboard lift, a `moveTo` and a tap-to-add go through
/// the claim as a press does. With `ClaimInput.required` each asks for its item's claim (and a
/// lift's companions: a selection, a subtree) and waits (`ClaimWait`); the store's answer, an
/// input like any, does it then (won, or the store down: as it would have been done at once,
/// checked again against the board as it is now) or refuses it with `error` `held` and the
/// holder's name announced (lost).
extension LiveSession {
    /// With claims required: asks for `h`'s claim for `wait` and returns true (the answer does
    /// it); without: false, and the caller goes on at once.
    mutating func awaitClaim(_ h: Int, _ wait: ClaimWait) -> Bool {
        guard claims.required else { return false }
        if case .keyLift = wait { askClaim(h) } else { askClaim(h, selection: false) }
        claims.waiting.append(wait)
        return true
    }

    /// The store answered about `id`: every wait on it, or on a lift whose companion it is,
    /// whose answers are all in goes on or is refused, in the order asked.
    mutating func resumeWaits(for id: String, now: Double) {
        guard !claims.waiting.isEmpty else { return }
        var rest: [ClaimWait] = []
        let waits = claims.waiting
        claims.waiting = []
        for w in waits {
            let item = w.item
            guard item == id || claims.companions[item]?.contains(id) == true else { rest.append(w); continue }
            switch claimVerdict(item) {
            case .wait:
                rest.append(w)
            case .lost(let holder, let lost):
                guard let h = arr.handleOf[lost] else { continue }
                markHeld(lost, by: holder)
                step.errors.append(.error(code: .held, message: "\(w.what): \(lost) is held by \(holder)"))
                announce("\(holder) is moving \(arr.labels[h]).")
            case .lift:
                resume(w, now: now)
            }
        }
        claims.waiting = rest + claims.waiting
    }

    /// Does what waited, on the board as it is now: an item gone, lifted or made unmovable
    /// meanwhile is left alone (a `moveTo` says why, as at once).
    private mutating func resume(_ w: ClaimWait, now: Double) {
        switch w {
        case .keyLift(let id):
            guard let h = arr.handleOf[id], !arr.isParked(h), dragIndex(Self.keyboardPointer) == nil, roleLifts(h), arr.movable[h],
                  liftedBy[h] == nil, heldInSubtree(h) == nil else { return }
            focus = h
            keyboardLift(h, now: now)
        case .moveTo(let id, let section, let place):
            moveTo(id, section: section, place: place, now: now, claimed: true)
        case .tapAdd(let id, let p):
            guard let h = arr.handleOf[id], !arr.isParked(h), let d = drags.lastIndex(where: { $0.pointer == p }),
                  canTapAdd(h, to: d), heldByOther(h) == nil else { return }
            tapAdd(h, to: d)
        }
    }
}
