import LiftboardCore

/// Issue 44: the board's presence reaches the session as an input, recorded like a commit
/// from elsewhere, so that a replay of the recording gives the same bytes.
extension ConnectionMachine {
    /// The hub's presence of this session's board: the session takes the others' holds (its
    /// cells' `heldBy`) and answers the `presence` message, queued behind nothing new (a
    /// `presence` still queued is replaced by it, `OutgoingQueue.append`).
    mutating func presence(_ p: Presence, now: Double, into out: inout [Action]) {
        guard session.committedOrder != nil else { return }
        let ms = clock.serverEvent(serverNow: now)
        if recording { out.append(.record(.presence(p, ms: ms))) }
        deliver(session.handle(.presence(p), at: ms), now: now, into: &out)
        finish(direct: false, into: &out)
    }
}
