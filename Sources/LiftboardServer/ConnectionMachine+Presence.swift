import LiftboardCore

/// Issue 44: the board's presence reaches the session as an input, recorded like a commit
/// from elsewhere, so that a replay of the recording gives the same bytes.
extension ConnectionMachine {
    /// The hub's presence of this session's board: the session takes the others' holds (its
    /// cells' `heldBy`) and answers the `presence` message, queued as `shared`'s bytes (the
    /// hub encodes it once for every session; a `presence` still queued is replaced by it,
    /// `OutgoingQueue.append`).
    mutating func presence(_ p: Presence, shared: SharedMessage? = nil, now: Double, into out: inout [Action]) {
        guard session.isLive else { return }
        let ms = clock.serverEvent(serverNow: now)
        if recording { out.append(.record(.presence(p, ms: ms))) }
        var answered = session.handle(.presence(p), at: ms)
        if let shared, case .presence? = answered.last {
            answered.removeLast()
            deliver(answered, now: now, into: &out)
            queue(.shared(shared, head: OutgoingQueue.FrameHead()), barrier: 0, size: shared.size, presence: true, now: now, into: &out)
        } else {
            deliver(answered, now: now, into: &out)
        }
        finish(direct: false, into: &out)
    }
}
