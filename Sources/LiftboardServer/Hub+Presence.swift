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
        // While a presence is handed out its timer runs a chunk a turn, and looks for news
        // after the last.
        guard !presenceHandOut.isPending else { return }
        armPresenceTimer(afterMs: due - server.now)
    }

    private func armPresenceTimer(afterMs ms: Double) {
        if presenceTimer == nil {
            presenceTimer = LoopTimer(loop: server.serviceLoop.uvLoop, context: server.context) { [unowned self] in
                presenceDue()
            }
        }
        presenceTimer?.arm(afterMs: ms)
    }

    /// The coalescing timer fired (maybe early: a libuv timer's clock is a turn old), or the
    /// next chunk of a presence's hand-out is due.
    private func presenceDue() {
        if presenceHandOut.isPending {
            handOutChunk(direct: true)
            if presenceHandOut.isPending { return }
        }
        guard let due = presence.due(now: server.now) else { return }
        if due <= server.now { sendPresence(direct: true) } else { armPresenceTimer(afterMs: due - server.now) }
    }

    /// Makes the `presence` of the news and hands it to its first chunk of sessions
    /// (`PresenceHandOut`); the others get it in the loop's next turns, one chunk a turn.
    /// `direct`: from the timer, outside every connection's callbacks: each session writes
    /// what it queued at once (`Connection.presence`). From a session's input (news when the
    /// last `presence` is old enough), the first chunk's sessions ask for a writable callback.
    private func sendPresence(direct: Bool = false) {
        readLoneHolds()
        let except = presence.take(now: server.now)
        let owed = connections.filter { $0.id != except }
        guard !owed.isEmpty else { return }
        let p = presence.next(board: board.id)
        // One encoding for every session: the message is the same for all.
        let shared = SharedMessage(event: .presence(p), mode: .full, bytes: Wire.encode(.presence(p)), isFrameBody: false)
        presence.sent(bytes: shared.bytes.count, to: owed.count)
        presenceHandOut.start(PresenceRound(shared), bytes: shared.bytes.count, to: owed)
        handOutChunk(direct: direct)
    }

    /// Hands the presence being handed out to its next chunk of sessions, and has the timer
    /// run the next chunk in a later turn of the loop (1 ms: libuv 1.44 runs a timer armed
    /// with 0 again in the same pass, before any socket is read). Watchers in one live state
    /// (they took one view's state from the last commit or presence) answer alike: the first
    /// steps its engine, the others take its answer, from one chunk to the next too
    /// (`PresenceRound.keep`), so that they still share one state for the next commit's plan.
    /// A chunk is charged by what each session will do (`PresenceHandOut.stepCost`): the
    /// sessions that step alone (dragging ones) go a few a turn.
    private func handOutChunk(direct: Bool) {
        guard let round = presenceHandOut.startChunk(), case .presence(let p) = round.shared.event else { return }
        // Read once a chunk, not out of the round for each session (a retain and a release each).
        let shared = round.shared, encoding = round.encoding
        while let c = presenceHandOut.next(steps: { !$0.machine.follows(before: round.before) }) {
            if let made = c.presence(p, shared: shared, encoding: encoding, following: round.answer, direct: direct) {
                round.took(made)
            }
        }
        guard let next = presenceHandOut.nextMember else { return }
        round.keep(for: next.sharedState())
        armPresenceTimer(afterMs: 1)
    }
}

/// A presence being handed out (`PresenceHandOut`'s message): its encoding, the frames its
/// leaders encoded, and the answer the next sessions in the leader's state take.
final class PresenceRound {
    let shared: SharedMessage
    let encoding = SharedEncoding()
    private(set) var answer: ConnectionMachine.PresenceAnswer?
    /// The state the answer's leader was in before it (`answer?.before`), read apart from the
    /// answer: the chunk asks it of every session, and the answer's read is a copy.
    private(set) var before: ObjectIdentifier?
    /// The live state the answer's leader was in before it, held from one chunk to the next:
    /// the answer names it by identity only, and a state freed between two turns (a commit
    /// moved every session off it) could come back at its address as another.
    private var held: AnyObject?

    init(_ shared: SharedMessage) { self.shared = shared }

    /// The answer of the last session that stepped.
    func took(_ made: ConnectionMachine.PresenceAnswer) {
        answer = made
        before = made.before
        held = nil
    }

    /// At a chunk's end: the answer is kept for the next chunk when its first session, in
    /// `state`, is still in the state the answer's leader was in (held until then); else the
    /// next chunk's first session steps.
    func keep(for state: AnyObject?) {
        if answer != nil, let state, ObjectIdentifier(state) == before {
            held = state
        } else {
            answer = nil
            before = nil
            held = nil
        }
    }
}
