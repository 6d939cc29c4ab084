import LiftboardCore

extension Connection {
    /// The hub rebased: what is still held for the client (behind a barrier above `version`)
    /// describes an order the store did not make, so it goes; the session takes `board` as
    /// its committed order and the client gets a `layout`, held until `board` is durable.
    func resync(to board: Board, droppingHeldAbove version: Int) {
        if outgoingHead < outgoing.count {
            let held = outgoing[outgoingHead...].filter { $0.barrier > version }
            if !held.isEmpty {
                pendingBytes -= held.reduce(0) { $0 + $1.size }
                outgoing = outgoing[outgoingHead...].filter { $0.barrier <= version }
                outgoingHead = 0
            }
        }
        let now = server.now
        if let recorder, session.committedOrder != nil {
            recorder.recordResync(version: board.version, order: board.order, ms: clock.serverEvent(serverNow: now))
        }
        deliver(session.resync(to: board), now: now, barrier: board.version)
    }
}

extension Connection {
    /// The hub rebased as commits (another process's commit came first, this process's drops
    /// landed after it): held `commit` messages about versions after `base` go (they carry
    /// versions the store did not give; what else is held stands, so the frames the session
    /// counts as sent do reach the client), the session's committed order goes back to `base`
    /// without a message, and `commits` follow as commits made elsewhere, in version order.
    func rebase(to base: HubState.RebaseBase, commits: [Commit]) {
        if outgoingHead < outgoing.count {
            var removed = 0
            let kept = outgoing[outgoingHead...].filter { o in
                guard o.barrier > base.version, case .commit? = o.event else { return true }
                removed += o.size
                return false
            }
            if kept.count != outgoing.count - outgoingHead {
                outgoing = Array(kept)
                outgoingHead = 0
                pendingBytes -= removed
            }
        }
        let now = server.now
        let ms = clock.serverEvent(serverNow: now)
        let errors = session.handle(.rebase(version: base.version, order: base.order), at: ms)
        guard errors.isEmpty else {
            // Not this session's items (it cannot be): the whole picture instead.
            if let hub { resync(to: hub.board, droppingHeldAbove: base.version) }
            return
        }
        recorder?.recordRebase(version: base.version, order: base.order, ms: ms)
        for c in commits { external(c) }
    }
}
