import LiftboardCore

/// Issue 44: the board's presence reaches the session as an input, recorded like a commit
/// from elsewhere, so that a replay of the recording gives the same bytes.
extension ConnectionMachine {
    /// What a session that stepped its engine on a `presence` answered, for the sessions that
    /// were in the same live state before it (`Session.sharedState`: watchers that took one
    /// view's state from a commit or the presence before): they take its state and the frames
    /// it queued instead of each stepping its own engine (the hub's presences go to every
    /// session of a board, ten times a second). A reference: the hub hands the one answer to
    /// every session of a chunk (a value was copied out of the round and destroyed for each).
    final class PresenceAnswer {
        /// The live state the leader was in before the presence (compared by identity only:
        /// holding it would make the leader copy its state instead of changing it in place).
        let before: ObjectIdentifier
        /// The leader's live state after it, and the messages it queued before the `presence`.
        let state: AnyObject
        let bytes: [Planned]
        let frames: Int
        /// `bytes` end with the `presence` itself: the leader asked for differences
        /// (`config.presence: "delta"`), and so did the sessions in its state.
        let carriesPresence: Bool

        init(before: ObjectIdentifier, state: AnyObject, bytes: [Planned], frames: Int, carriesPresence: Bool = false) {
            self.before = before
            self.state = state
            self.bytes = bytes
            self.frames = frames
            self.carriesPresence = carriesPresence
        }
    }

    /// The hub's presence of this session's board: the session takes the others' holds (its
    /// cells' `heldBy`) and answers the `presence` message, queued as `shared`'s bytes (the
    /// hub encodes it once for every session; a `presence` still queued is replaced by it,
    /// `OutgoingQueue.append`). With `encoding`, the frames it queues are shared too, and the
    /// answer is returned for the sessions in the state it was in (`follow`); with `answer`
    /// (of the session before it), the session takes that answer when it can. `direct`: the
    /// hub sends it from outside every connection's callbacks (its coalescing timer), so what
    /// it queued is written at once when lws owes the client nothing (`writeNow`), not on a
    /// writable callback asked for (two `epoll_ctl` a session a presence).
    @discardableResult
    mutating func presence(_ p: Presence, shared: SharedMessage? = nil, encoding: SharedEncoding? = nil,
                           following answer: PresenceAnswer? = nil, direct: Bool = false, now: Double,
                           into out: inout [Action]) -> PresenceAnswer? {
        guard session.isLive else { return nil }
        let direct = direct && reader.mayWriteDirectly
        if let answer, let shared, follow(answer, shared: shared, direct: direct, now: now, into: &out) { return nil }
        let ms = clock.serverEvent(serverNow: now)
        if recording { out.append(.record(.presence(p, ms: ms))) }
        let before = shared == nil || encoding == nil ? nil : session.sharedState.map(ObjectIdentifier.init)
        var answered = session.handle(.presence(p), at: ms)
        var made: PresenceAnswer?
        // Whole, the hub's one encoding is queued after the rest; as a difference
        // (`config.presence: "delta"`), the session's own, shared with the sessions in its
        // state (they were sent the same last presence) and never replaced in the queue by a
        // newer one, which follows from it.
        var whole = false, delta = false
        switch answered.last {
        case .presence?: whole = shared != nil
        case .presenceDelta?: delta = shared != nil && encoding != nil
        default: break
        }
        if let shared, whole || delta {
            if whole { answered.removeLast() }
            let planned = deliver(answered, now: now, shared: encoding, into: &out)
            if let before, let planned, !recording, claims == nil, Self.isIdle(&session), let state = session.sharedState {
                made = PresenceAnswer(before: before, state: state, bytes: planned,
                                      frames: planned.reduce(0) { $0 + ($1.message.isFrameBody ? 1 : 0) }, carriesPresence: delta)
            }
            if whole {
                queue(.shared(shared, head: OutgoingQueue.FrameHead()), barrier: 0, size: shared.size, presence: true, now: now, into: &out)
            }
        } else {
            deliver(answered, now: now, into: &out)
        }
        finish(direct: direct, into: &out)
        return made
    }

    /// Whether this session would take `answer` (`follow`) rather than step its own engine on
    /// the presence: it was in the state the leader was in before, records nothing and claims
    /// nothing. The hub charges a chunk of a presence's hand-out by it (`PresenceHandOut`).
    /// `before`: the state the leader was in (`PresenceAnswer.before`). Read in
    /// place (as `sharedState`): the hub asks it of every session of a chunk through its
    /// connection, and a non-mutating call there was passed a copy of the whole machine (about
    /// 700 Ir a session a presence, by callgrind at 500 watchers).
    mutating func follows(before: ObjectIdentifier?) -> Bool {
        guard let before, !recording, claims == nil, let mine = session.sharedState else { return false }
        return ObjectIdentifier(mine) == before
    }

    /// Takes `answer`'s state and queues its frames (each with this session's own head) and
    /// the `presence`, when this session was in the state the leader was in before (and is
    /// idle, does not record, claims nothing): what it would have answered is the leader's.
    /// False (nothing done) otherwise.
    private mutating func follow(_ answer: PresenceAnswer, shared: SharedMessage, direct: Bool, now: Double,
                                 into out: inout [Action]) -> Bool {
        // The leader was idle after it (no deadline: no idle reset counting from its own last
        // input either), so this session's own last input changes nothing it answers.
        guard follows(before: answer.before), let own = session.adoptView(ofState: answer.state, frames: answer.frames, leaderIsIdle: true) else { return false }
        queueFollowed(answer.bytes, firstSeq: own.firstSeq, ack: own.ack, ms: clock.serverEvent(serverNow: now), now: now, into: &out)
        if !answer.carriesPresence {
            queue(.shared(shared, head: OutgoingQueue.FrameHead()), barrier: 0, size: shared.size, presence: true, now: now, into: &out)
        }
        finish(direct: direct, into: &out)
        return true
    }
}
