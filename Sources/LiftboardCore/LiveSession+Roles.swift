/// Roles in the gesture itself (issue 42, docs/protocol.md "Roles"): the engine enforces what a
/// session's person may do, for every client, so a modified page gains nothing.
///
/// - `view`: a long press is recognized but lifts nothing (the page's predicted lift is undone
///   as any refused lift is); scrolls and pans work; a key reorder (Space or Enter on an item),
///   `moveTo`, `undo` or a tap-to-add is answered `role_forbids` and the session goes on.
/// - `move`: every gesture, keyboard reorder and Move to…, but a palette's item does not lift
///   (a copy is an edit) and a trash is a refused place: a drag shows `forbidden` over it and
///   passes it by, as over any section whose rule refuses the drag.
/// - `edit`, `admin`: everything.
extension LiveSession {
    var role: Role { identity.person.role }

    /// This session's new commit at `version`: `by` its id, and `user` and `name` its person's
    /// when it has a user (a session without one signs with its id alone, as before issue 42).
    /// The whole order only for a client that asked for it: the change says the rest, and
    /// whoever writes the order elsewhere takes it from a board at the commit's version.
    func ownCommit(moves: [Move], change: Change?) -> Commit {
        let p = identity.person
        // Case tests, not `== nil`: on an Equatable payload that compares copies (a `Change?`
        // pair made and destroyed, a `String?` copied; about 500 Ir a drop).
        let partial = if case .some = change { config.commitOrder != .full } else { false }
        let name = if case .some = p.user { p.name } else { String?.none }
        return Commit(board: boardID, version: version, by: identity.sessionID, moves: moves, order: partial ? [] : baseOrder,
                      change: change, user: p.user, name: name)
    }

    /// Whether item `h` is a palette's (a drag out of it drops a copy).
    func inPalette(_ h: Int) -> Bool { arr.hasRules && arr.rules[arr.sectionOf[h]].copy }

    /// Whether this session's role lets it lift item `h`: `view` never, a palette's item from
    /// `edit` on.
    func roleLifts(_ h: Int) -> Bool {
        guard role.includes(.move) else { return false }
        return role.includes(.edit) || !inPalette(h)
    }

    /// Whether section `t` is a trash this session's role may not drop on (below `edit`).
    func roleRefusesTrash(_ t: Int) -> Bool {
        !role.includes(.edit) && arr.rules[t].drop == .remove
    }

    /// Acts for `p` from now on: a drag the new role could not have made ends as a cancel, and
    /// what a trash refuses follows the role.
    mutating func renew(_ p: Person, now: Double) {
        identity.person = p
        for d in drags.indices.reversed() where !role.includes(.move) || (drags[d].copyFrom != nil && !role.includes(.edit)) {
            // Its pointer presses nothing more until it goes up.
            if let k = pointerIndex(drags[d].pointer) { pointers[k].phase = .inert }
            endDrag(d, cancelled: true, now: now)
        }
        refreshRefusals()
    }

    /// Answers `role_forbids` for `what`, which needs role `needed`; nothing changes.
    mutating func forbid(_ what: String, needs needed: Role) {
        step.errors.append(.error(code: .roleForbids,
                                  message: "\(what) needs the \(needed.rawValue) role; this session's is \(role.rawValue)"))
    }

    /// `forbid(what, needs: needed)` unless the role includes `needed`; returns whether it does.
    mutating func allowed(_ what: String, needs needed: Role) -> Bool {
        if role.includes(needed) { return true }
        forbid(what, needs: needed)
        return false
    }
}

extension Session {
    /// The session acts for `person` from now on (a renewed token, whose role may differ): its
    /// role applies to the next input, and a drag in flight that the new role could not have
    /// made (a `view` session's, a palette's copy below `edit`) ends as a cancel. Returns what
    /// that sends (a `drop` and its frame), nothing when no drag ends.
    public mutating func renew(person: Person, at now: Double) -> [ServerEvent] {
        self.person = person  // a shared view's own facts go into its box first (`withLive`)
        return withLive { s in
            var out: [ServerEvent] = []
            s.renew(person, now: now)
            s.flushStep(at: now, into: &out)
            return out
        } ?? []
    }
}
