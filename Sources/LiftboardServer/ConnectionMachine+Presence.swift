import LiftboardCore

/// Issue 44: the board's presence reaches the session as an input, recorded like a commit
/// from elsewhere, so that a replay of the recording gives the same bytes.
extension ConnectionMachine {
    /// What a session that stepped its engine on a `presence` answered, for the sessions that
    /// were in the same live state before it (`Session.sharedState`: watchers that took one
    /// view's state from a commit or the presence before): they take its state and the frames
    /// it queued instead of each stepping its own engine (the hub's presences go to every
    /// session of a board, ten times a second).
    struct PresenceAnswer {
        /// The live state the leader was in before the presence (compared by identity only:
        /// holding it would make the leader copy its state instead of changing it in place).
        let before: ObjectIdentifier
        /// The leader's live state after it, and the messages it queued before the `presence`.
        let state: AnyObject
        let bytes: [Planned]
        let frames: Int
    }

    /// The hub's presence of this session's board: the session takes the others' holds (its
    /// cells' `heldBy`) and answers the `presence` message, queued as `shared`'s bytes (the
    /// hub encodes it once for every session; a `presence` still queued is replaced by it,
    /// `OutgoingQueue.append`). With `encoding`, the frames it queues are shared too, and the
    /// answer is returned for the sessions in the state it was in (`follow`); with `answer`
    /// (of the session before it), the session takes that answer when it can.
    @discardableResult
    mutating func presence(_ p: Presence, shared: SharedMessage? = nil, encoding: SharedEncoding? = nil,
                           following answer: PresenceAnswer? = nil, now: Double, into out: inout [Action]) -> PresenceAnswer? {
        guard session.isLive else { return nil }
        if let answer, let shared, follow(answer, shared: shared, now: now, into: &out) { return nil }
        let ms = clock.serverEvent(serverNow: now)
        if recording { out.append(.record(.presence(p, ms: ms))) }
        let before = shared == nil || encoding == nil ? nil : session.sharedState.map(ObjectIdentifier.init)
        var answered = session.handle(.presence(p), at: ms)
        var made: PresenceAnswer?
        if let shared, case .presence? = answered.last {
            answered.removeLast()
            let planned = deliver(answered, now: now, shared: encoding, into: &out)
            if let before, let planned, !recording, claims == nil, Self.isIdle(&session), let state = session.sharedState {
                made = PresenceAnswer(before: before, state: state, bytes: planned,
                                      frames: planned.reduce(0) { $0 + ($1.message.isFrameBody ? 1 : 0) })
            }
            queue(.shared(shared, head: OutgoingQueue.FrameHead()), barrier: 0, size: shared.size, now: now, into: &out)
        } else {
            deliver(answered, now: now, into: &out)
        }
        finish(direct: false, into: &out)
        return made
    }

    /// Takes `answer`'s state and queues its frames (each with this session's own head) and
    /// the `presence`, when this session was in the state the leader was in before (and is
    /// idle, does not record, claims nothing): what it would have answered is the leader's.
    /// False (nothing done) otherwise.
    private mutating func follow(_ answer: PresenceAnswer, shared: SharedMessage, now: Double, into out: inout [Action]) -> Bool {
        // The leader was idle after it (no deadline: no idle reset counting from its own last
        // input either), so this session's own last input changes nothing it answers.
        guard !recording, claims == nil, let mine = session.sharedState, ObjectIdentifier(mine) == answer.before,
              let own = session.adoptView(ofState: answer.state, frames: answer.frames, leaderIsIdle: true) else { return false }
        let ms = clock.serverEvent(serverNow: now)
        var seq = own.firstSeq
        for p in answer.bytes {
            var head = OutgoingQueue.FrameHead()
            if p.message.isFrameBody {
                head = OutgoingQueue.FrameHead(seq: seq, ms: ms, ack: own.ack)
                seq += 1
            }
            queue(.shared(p.message, head: head), barrier: p.barrier, size: p.message.size, now: now, into: &out)
        }
        queue(.shared(shared, head: OutgoingQueue.FrameHead()), barrier: 0, size: shared.size, now: now, into: &out)
        if timer.cancel() != nil { out.append(.cancelTimer) }
        finish(direct: false, into: &out)
        return true
    }
}
