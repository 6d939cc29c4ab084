import LiftboardCore
import LiftboardWire

/// Presence and holds on one board (issue 44): the hub tells every session who is here and what
/// each holds, as an input of the session (`ConnectionMachine.presence`), at most ten times a
/// second (`BoardPresence.interval`); news comes from joins, leaves and the sessions' own lifts
/// and drops (`ConnectionMachine.Action.holdsChanged`).
extension Hub {
    /// A session's held items changed (its lift, its drop, its cancel), or their target (its
    /// `moved`).
    func holdsChanged(of c: Connection) {
        // A session alone on its board is told nothing of its own holds: they are read when
        // someone joins or a `presence` goes (`readLoneHolds`; a join tells everyone
        // everything), so its moves cost no list of ids, no lookup and no presence to time.
        guard connections.count > 1 else { return }
        if presence.setHolds(c.holds, target: c.holdTarget, of: c.id) { presenceChanged() }
    }

    /// The holds of a session alone on the board, read when they are about to be told (a join,
    /// a `presence`): only a session alone changes its holds unheard.
    func readLoneHolds() {
        guard connections.count == 1, let c = connections.first else { return }
        presence.setHolds(c.holds, target: c.holdTarget, of: c.id)
    }

    /// Issue 44: the sessions of other processes that hold items of this board (the shared
    /// store's claims), listed in `presence` after this process's own.
    func otherProcessesHold(_ entries: [Presence.Entry]) {
        if presence.setOthers(entries) { presenceChanged() }
    }

    /// Something changed: sends the news now, or when the last `presence` is `gap` old.
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
        readLoneHolds()
        let except = presence.take(now: server.now)
        guard connections.contains(where: { $0.id != except }) else { return }
        let p = presence.next(board: board.id)
        // One encoding for every session: the message is the same for all.
        let shared = SharedMessage(event: .presence(p), mode: .full, bytes: Wire.encode(.presence(p)), isFrameBody: false)
        // Watchers in one live state (they took one view's state from the last commit or
        // presence) answer alike: the first steps its engine, the others take its answer.
        let encoding = SharedEncoding()
        var answer: ConnectionMachine.PresenceAnswer?
        var told = 0
        for c in connections where c.id != except {
            if let made = c.presence(p, shared: shared, encoding: encoding, following: answer) { answer = made }
            told += 1
        }
        presence.sent(bytes: shared.bytes.count, to: told)
    }
}
