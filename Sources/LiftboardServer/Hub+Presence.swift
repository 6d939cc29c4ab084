import LiftboardCore
import LiftboardWire

/// Presence and holds on one board (issue 44): the hub tells every session who is here and what
/// each holds, as an input of the session (`ConnectionMachine.presence`), at most ten times a
/// second (`BoardPresence.interval`); news comes from joins, leaves and the sessions' own lifts
/// and drops (`ConnectionMachine.Action.holds`).
extension Hub {
    /// A session's held items changed (its lift, its drop, its cancel), or their target (its
    /// `moved`).
    func holds(_ ids: [String], target: Place?, of c: Connection) {
        // A session alone on its board is told nothing of its own holds: they are kept for
        // whoever joins (a join tells everyone everything), with no presence to time.
        if presence.setHolds(ids, target: target, of: c.id), connections.count > 1 { presenceChanged() }
    }

    /// Issue 44: the sessions of other processes that hold items of this board (the shared
    /// store's claims), listed in `presence` after this process's own.
    func otherProcessesHold(_ entries: [Presence.Entry]) {
        if presence.setOthers(entries) { presenceChanged() }
    }

    /// Something changed: sends the news now, or when the last `presence` is `interval` old.
    func presenceChanged() {
        guard let due = presence.due(now: server.now) else { return }
        if due <= server.now {
            sendPresence()
            return
        }
        if presenceTimer == nil {
            presenceTimer = LoopTimer(loop: server.serviceLoop.uvLoop, context: server.context) { [unowned self] in
                presenceDue()
            }
        }
        presenceTimer?.arm(afterMs: due - server.now)
    }

    /// The coalescing timer fired (maybe early: a libuv timer's clock is a turn old).
    private func presenceDue() {
        guard let due = presence.due(now: server.now) else { return }
        if due <= server.now { sendPresence() } else { presenceTimer?.arm(afterMs: due - server.now) }
    }

    private func sendPresence() {
        let except = presence.take(now: server.now)
        guard connections.contains(where: { $0.id != except }) else { return }
        let p = presence.next(board: board.id)
        // One encoding for every session: the message is the same for all.
        let shared = SharedMessage(event: .presence(p), mode: .full, bytes: Wire.encode(.presence(p)), isFrameBody: false)
        for c in connections where c.id != except { c.presence(p, shared: shared) }
    }
}
