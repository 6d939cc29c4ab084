import LiftboardCore
import LiftboardWire

/// The hub's inputs: durable versions, commits made elsewhere, rebases and resyncs, its
/// refusals, the close.
extension ConnectionMachine {
    /// The hub's durable version advanced: what waited for it may go, written at once
    /// (`.writeNow`: the hub orders the sessions, the originator first; a writeable callback
    /// per watcher would leave the order to lws and cost each an EPOLLOUT on and off). Not while
    /// the client is mid-message or has sent a close: lws's answers to its pings and close go
    /// out from the writeable callback and must not be overtaken.
    /// `direct` false: the hub is about to rebase (see `HubState.Action.release`); the
    /// writeable callback writes, after it.
    mutating func durableAdvanced(to version: Int, direct: Bool = true, into out: inout [Action]) {
        switch durableAdvanced(to: version, direct: direct) {
        case .writeNow?: out.append(.writeNow)
        case .requestWritable?: out.append(.requestWritable)
        case nil: break
        }
    }

    /// How what a durable version released reaches the socket: `Action`'s two writes, as a
    /// value with no payload (an optional `Action` handed back to the hub was destroyed through
    /// its metadata, for every session of every release).
    enum Write: Equatable, Sendable { case writeNow, requestWritable }

    /// `durableAdvanced(to:direct:into:)` for the hub's release of every session on a board:
    /// returns its one write, if any, instead of appending it to an actions buffer to be
    /// performed.
    mutating func durableAdvanced(to version: Int, direct: Bool = true) -> Write? {
        outgoing.durable = version
        guard hasReadyOutgoing else { return nil }
        return !direct || !reader.mayWriteDirectly || isClosing ? .requestWritable : .writeNow
    }

    /// How a commit made elsewhere reaches this session (`external(_:delivery:now:into:)`). The
    /// hub steps one session's engine for all the idle sessions that see the same view
    /// (`Session.sharedViewKey`): the first of each view leads, the others follow it.
    enum Delivery {
        /// The session steps its engine. With an encoding, the commit and frames it queues are
        /// the messages every session that gets them alike shares (looked up by content).
        case alone(SharedEncoding?)
        /// The first session of its view: it steps its engine, and the answer `external`
        /// returns is for the others of the view.
        case leading(SharedEncoding)
        /// A session whose `sharedViewKey` equaled the leader's before the leader was handed
        /// the same commit and answered `answer`: it takes the leader's state instead of
        /// stepping its engine (`Session.adoptView`), and queues the messages the leader queued
        /// (`answer.bytes`), each frame with its own head (its frame number, ack and time): no
        /// message is built, copied or looked up for it. With an answer that is not complete,
        /// it takes the leader's session and answer (`answer.leader`, `answer.events`),
        /// renumbered, and looks the bytes up in `shared`. A session that records, or a leader
        /// that did not stay idle: it steps itself. (Two references: a case carrying a
        /// `Session` was destroyed through its metadata, for every watcher of every commit.)
        case following(SharedAnswer, shared: SharedEncoding?)
    }

    /// The hub applied a commit made elsewhere (another session, an edit, another process),
    /// handed to this session as `delivery` says. Returns the answer the others of the view
    /// take when the session leads it (`.leading`); nil otherwise.
    @discardableResult
    mutating func external(_ c: Commit, delivery: Delivery, now: Double, into out: inout [Action]) -> SharedAnswer? {
        defer { finish(direct: false, into: &out) }
        switch delivery {
        case .alone(let shared):
            apply(external: c, now: now, shared: shared, into: &out)
            return nil
        case .leading(let shared):
            let answered = apply(external: c, now: now, shared: shared, planning: true, into: &out)
            let planned = answered.planned
            // The session, only for an answer that is not complete (a copy of it costs a retain
            // of each of its references).
            return SharedAnswer(events: answered.events, commitOrder: commitOrder, bytes: planned ?? [],
                                leaderIdle: Self.isIdle(&session), shareable: planned != nil,
                                frames: planned?.reduce(0) { $0 + ($1.message.isFrameBody ? 1 : 0) } ?? 0,
                                leaderState: session.sharedState, leader: planned == nil ? session : nil)
        case .following(let answer, let shared):
            let ms = clock.serverEvent(serverNow: now)
            if follow(answer, now: now, ms: ms, into: &out) { return nil }
            if let leader = answer.leader, !recording, !answer.shareable || answer.commitOrder != commitOrder,
               let mine = session.adoptView(of: leader, answering: answer.events, at: ms, leaderIsIdle: answer.leaderIdle) {
                deliver(mine, now: now, barrier: c.version, shared: shared, into: &out)
                return nil
            }
            apply(external: c, now: now, shared: shared, into: &out)
            return nil
        }
    }

    /// Takes the leader's state and queues the messages it queued (`answer.bytes`), each frame
    /// with this session's own head. False (nothing done) when it cannot: a session that
    /// records, an answer not complete or made for another `commitOrder`, a leader that did not
    /// stay idle.
    private mutating func follow(_ answer: SharedAnswer, now: Double, ms: Double, into out: inout [Action]) -> Bool {
        guard !recording, answer.shareable, answer.commitOrder == commitOrder, let state = answer.leaderState,
              let own = session.adoptView(ofState: state, frames: answer.frames, leaderIsIdle: answer.leaderIdle) else { return false }
        queueFollowed(answer.bytes, firstSeq: own.firstSeq, ack: own.ack, ms: ms, now: now, into: &out)
        return true
    }

    /// Queues the messages a leader queued (`bytes`), each frame with this session's own head
    /// (numbered from `firstSeq`), after this session took the leader's state; that state was
    /// idle (`Session.isIdleForSharing`): no timer is due in it, so an armed one is cancelled,
    /// as `schedule` would.
    mutating func queueFollowed(_ bytes: [Planned], firstSeq: Int, ack: Int?, ms: Double, now: Double, into out: inout [Action]) {
        var seq = firstSeq
        for p in bytes {
            var head = OutgoingQueue.FrameHead()
            if p.message.isFrameBody {
                head = OutgoingQueue.FrameHead(seq: seq, ms: ms, ack: ack)
                seq += 1
            }
            queue(.shared(p.message, head: head), barrier: p.barrier, size: p.message.size, now: now, into: &out)
        }
        if timer.cancel() != nil { out.append(.cancelTimer) }
    }

    /// The session steps its engine on `c`; `planning`: also returns the shared messages it
    /// queued (nil when one of them was not shared).
    @discardableResult
    private mutating func apply(external c: Commit, now: Double, shared: SharedEncoding? = nil, planning: Bool = false,
                                into out: inout [Action]) -> (events: [ServerEvent], planned: [Planned]?) {
        let ms = clock.serverEvent(serverNow: now)
        if recording { out.append(.record(.external(c, ms: ms))) }
        let answered = session.handle(.external(c), at: ms)
        let planned = deliver(answered, now: now, barrier: c.version, shared: shared, into: &out)
        return (planning ? answered : [], planned)
    }

    /// The hub rebased: what is still held for the client (behind a barrier above `version`)
    /// describes an order the store did not make, so it goes; the session takes `board` as
    /// its committed order and the client gets a `layout`, held until `board` is durable.
    mutating func resync(to board: Board, droppingHeldAbove version: Int, now: Double, into out: inout [Action]) {
        outgoing.removeAll { $0.barrier > version }
        if recording, session.isLive {
            out.append(.record(.resync(version: board.version, order: board.order, ms: clock.serverEvent(serverNow: now))))
        }
        deliver(session.resync(to: board), now: now, barrier: board.version, into: &out)
        finish(direct: false, into: &out)
    }

    /// The hub rebased as commits (another process's commit came first, this process's drops
    /// landed after it): held `commit` messages about versions after `base` go (they carry
    /// versions the store did not give; what else is held stands, so the frames the session
    /// counts as sent do reach the client), the session's committed order goes back to `base`
    /// without a message, and `commits` follow as commits made elsewhere, in version order.
    /// `board` is the hub's, for a session that cannot take the rebase (a `layout` instead).
    mutating func rebase(to base: HubState.RebaseBase, commits: [Commit], board: Board, now: Double, into out: inout [Action]) {
        outgoing.removeAll { e in e.barrier > base.version && e.message.isCommit }
        // A held frame carrying such a commit (`commits: "inline"`) stays, without it.
        outgoing.stripCommits(after: base.version)
        let ms = clock.serverEvent(serverNow: now)
        guard session.handle(.rebase(version: base.version, order: base.order), at: ms).isEmpty else {
            return resync(to: board, droppingHeldAbove: base.version, now: now, into: &out)
        }
        if recording { out.append(.record(.rebase(version: base.version, order: base.order, ms: ms))) }
        for c in commits { apply(external: c, now: now, into: &out) }
        finish(direct: false, into: &out)
    }

    /// An error (or any message) for the client from outside its own input.
    mutating func tell(_ e: ServerEvent, now: Double, into out: inout [Action]) {
        send(e, now: now, into: &out)
        finish(direct: false, into: &out)
    }

    /// Asks for the connection to close with `code` once what is queued is out.
    mutating func close(_ code: Int32, _ reason: String, into out: inout [Action]) {
        close(code, reason)
        finish(direct: false, into: &out)
    }

    /// Takes `other`'s session state when their views are the same (`Session.shareView`).
    mutating func shareView(with other: Session) { session.shareView(with: other) }

    /// The session's `sharedViewKey`, read in place (a plain read of `session` copies it).
    mutating func sharedViewKey() -> SharedViewKey? { session.sharedViewKey }

    /// Whether the session's `sharedViewKey` is `key`, made from a session in the live state
    /// `state` (`Session.hasSharedView(_:madeFrom:)`), read in place.
    mutating func hasSharedView(_ key: SharedViewKey, madeFrom state: AnyObject?) -> Bool {
        session.hasSharedView(key, madeFrom: state)
    }

    /// The session's live state (`Session.sharedState`), read in place.
    mutating func sharedState() -> AnyObject? { session.sharedState }

    /// What a session answered a commit from elsewhere, with the shared message queued for each
    /// of its messages: a session of the same view takes both (`Delivery.following`) instead of
    /// stepping its engine and looking its bytes up by content (a frame's comparison with the
    /// encodings made so far costs more than the rest of its delivery).
    /// A reference, handed to every session of the view: not a copy of its arrays each.
    final class SharedAnswer {
        let events: [ServerEvent]
        /// The `commitOrder` the bytes were made for.
        let commitOrder: CommitOrderMode
        /// For each message queued (after inlining), in order: its shared message and barrier.
        /// Complete (`shareable`) only when every message had one.
        let bytes: [Planned]
        /// Whether the leader stayed idle (`Session.isIdleForSharing`) after answering; nil: not read.
        let leaderIdle: Bool?
        /// Every message queued is in `bytes`: a session of the view queues them as they are,
        /// with its own frame heads, and builds no message of its own.
        let shareable: Bool
        /// How many of `bytes` are frames.
        let frames: Int
        /// The leader's live state after answering (`Session.sharedState`), which the sessions
        /// of its view take.
        let leaderState: AnyObject?
        /// The leader's session after answering, for an answer that is not complete: a session
        /// of its view takes it with `events` (`Session.adoptView(of:answering:at:leaderIsIdle:)`).
        let leader: Session?

        init(events: [ServerEvent], commitOrder: CommitOrderMode, bytes: [Planned], leaderIdle: Bool? = nil,
             shareable: Bool = false, frames: Int = 0, leaderState: AnyObject? = nil, leader: Session? = nil) {
            self.events = events
            self.commitOrder = commitOrder
            self.bytes = bytes
            self.leaderIdle = leaderIdle
            self.shareable = shareable
            self.frames = frames
            self.leaderState = leaderState
            self.leader = leader
        }
    }

    /// A message queued from a commit from elsewhere: what every session of the view queues alike.
    struct Planned {
        var message: SharedMessage
        /// The board version that must be durable before it goes out.
        var barrier: Int
    }
}
