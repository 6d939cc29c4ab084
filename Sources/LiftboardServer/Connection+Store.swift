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
