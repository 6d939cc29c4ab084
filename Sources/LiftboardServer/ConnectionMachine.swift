import LiftboardCore
import LiftboardWire

/// One WebSocket connection as a value: what it has been sent and holds, its session, its
/// limits and deadlines, and every decision about them. Each input (bytes received, the socket
/// writeable, a timer, the board looked up, the durable version advanced, a commit from
/// elsewhere, close) changes it in place and appends the actions `Connection` performs; time,
/// limits and ids come in as parameters. A struct around a `State` whose cases carry what each
/// phase needs, as SwiftNIO writes its state machines (`NIOTypedHTTPServerUpgraderStateMachine`),
/// composed of small values each tested alone: the `MessageReassembler` (fragments into
/// messages), the server's `RateLimiter`, the `OutgoingQueue`, the `TimerSchedule`.
///
/// Writing: messages wait in `outgoing` behind a barrier (the board version that must be
/// durable first). An input that queued something ends with `.writeNow` (inside this
/// connection's own receive of a whole message: write before the callback returns, while the
/// socket takes it) or `.requestWritable` (anywhere else); the performer then pulls the ready
/// messages with `nextMessage(into:headroom:)` and asks `afterWriting()` what is left to do.
///
/// The inputs are in `ConnectionMachine+Receiving.swift` (the client's bytes, the lookup, the
/// deadlines), `ConnectionMachine+Hub.swift` (the hub's commits, durable versions, rebases) and
/// `ConnectionMachine+Writing.swift` (the socket writeable); the state, the queueing and the
/// end of an input here.
struct ConnectionMachine {
    enum Mode: Sendable { case liftboard, echo }

    /// The bounds a connection lives within.
    struct Bounds: Equatable, Sendable {
        var maxMessageBytes = Limits.maxMessageBytes
        var maxEchoMessageBytes = Limits.maxEchoMessageBytes
        var messagesPerSecond = Limits.messagesPerSecond
        var sustainedSeconds = Limits.sustainedSeconds
        var maxPendingBytes = Limits.maxPendingBytes
        var maxPendingMs = Limits.maxPendingMs
        var heldBeforeBoard = Limits.heldBeforeBoard
        /// Seconds an upgraded connection has to say `hello` (`--hello-timeout`).
        var helloTimeout = 10.0
    }

    /// A line of the session's recording (`Recorder`).
    enum RecordedLine: Equatable, Sendable {
        case message([UInt8], ms: Double)
        case advance(ms: Double)
        case external(Commit, ms: Double)
        case resync(version: Int, order: [SectionOrder], ms: Double)
        case rebase(version: Int, order: [SectionOrder], ms: Double)
        /// Issue 44: who is on the board and what each holds, as the session got it.
        case presence(Presence, ms: Double)
        /// Issue 44: a claim input (`ClaimInput`), as the session got it.
        case claim(ClaimInput, ms: Double)
        /// Issue 42: a renewed token made the session act for another person.
        case person(Person, ms: Double)
    }

    enum Action: Equatable, Sendable {
        /// Write the ready messages now, while the socket takes them (`nextMessage`), then ask
        /// for a writeable callback if `wantsWritable`.
        case writeNow
        /// Ask lws for a writeable callback.
        case requestWritable
        /// Arm the session's timer to fire `afterMs` from now; or cancel it.
        case armTimer(afterMs: Double)
        case cancelTimer
        /// This session's own commit: the hub persists it and hands it to the other sessions.
        case commit(Commit)
        /// Issue 44: the items this session holds changed (a lift, a drop), or where it would
        /// drop them (a `moved`). The hub reads them (`Session.holds`, `holdTarget`) only when
        /// there is someone to tell: a session alone on its board pays for no list.
        case holdsChanged
        /// Issue 44: claims to make and give up in the shared store (`SessionClaims`).
        case claims(SessionClaims.Plan)
        /// Ask the shared store whether board `id` exists (`boardLookupAnswered` follows).
        case lookUpBoard(String)
        /// The lookup asked for is of no more interest.
        case forgetLookup
        /// The hello found its board: join its hub (and start the recording with `hello`).
        case join(board: String, hello: [UInt8], ms: Double)
        case record(RecordedLine)
        case log(LogLevel, event: String, detail: String)
        /// A reader too slow to take a close frame: stop reading it and have lws drop it.
        case abandon
        /// Arm the token's expiry timer to fire `afterMs` from now; or cancel it.
        case armExpiry(afterMs: Double)
        case cancelExpiry
        /// An `auth` message's token, to verify for the session's board (`renewed` follows).
        case verify(token: String)
    }

    /// What the socket is to do once the ready messages are written.
    enum AfterWriting: Equatable, Sendable {
        case nothing
        /// More is ready (or the close waits): another writeable callback.
        case askAgain
        /// Everything before the close is out: send the close frame with this code.
        case sendClose(code: Int32, reason: String)
    }

    /// What a session on its board has settled: read at `hello`, and at the join.
    struct Live: Equatable, Sendable {
        /// What this client asked `commit` messages to carry.
        var commitOrder = CommitOrderMode.full
        /// Whether a recorder takes `.record` lines.
        var recording = false
    }

    /// Where a connection is in its life; each case carries what that phase needs.
    enum State {
        /// Upgraded; nothing but `hello` can start the session. `authorized`: the upgrade
        /// request carried the token (headers are gone after the handshake); `lookedUp`: the
        /// hello's board was looked up once, so a hello for it is answered from what this
        /// process has.
        case awaitingHello(authorized: Bool, lookedUp: Bool)
        /// The hello names a board this process does not have: the shared store is asked, and
        /// the hello and what follows it are held until it answers.
        case waitingForBoard(held: [[UInt8]])
        /// On a board (or echoing).
        case live(Live)
        /// A close is decided: nothing the client says is acted on; what is queued goes out
        /// (with the live settings it was queued under, if the session was live), then the
        /// close frame.
        case closing(code: Int32, reason: String, live: Live?)
    }

    // Internal, not private, only for the `ConnectionMachine+` files: `Connection` and the hub
    // read `session` and change the machine through its inputs alone.
    let mode: Mode
    let bounds: Bounds
    var state: State
    var session: Session
    /// The client's clock mapped onto the server's: the session runs on the client's `ms`.
    var clock = ClientClock()
    /// The client's fragments, put back into messages.
    var reader = MessageReassembler()
    /// The client's messages a second (`bounds.messagesPerSecond`, `bounds.sustainedSeconds`).
    var rate: RateLimiter
    var outgoing = OutgoingQueue()
    var timer = TimerSchedule()
    /// Who the session acts for, its URL's board and its token's expiry (issue 42).
    var auth: SessionAuth
    /// Something was queued (or a close decided) during the current input.
    var queued = false
    /// What the session answers a move, kept empty between moves for the next one's answer (a
    /// new array each cost an allocation and its release); none is kept past a few elements.
    var moveEvents: [ServerEvent] = []
    /// Issue 44: the session's claims in a shared store (nil: holds stay in this process).
    var claims: SessionClaims?
    /// Issue 44: whether another session of this process is on the board (the hub keeps it).
    /// A session alone makes no `.holdsChanged`: the hub would drop it, and reads a lone
    /// session's holds when they are about to be told (`Hub.readLoneHolds`). True until the
    /// hub says otherwise, so a machine outside a hub tells every change.
    var othersOnBoard = true

    init(id: String, mode: Mode, authorized: Bool = true, auth: SessionAuth = SessionAuth(), bounds: Bounds = Bounds()) {
        self.mode = mode
        self.bounds = bounds
        self.auth = auth
        state = mode == .echo ? .live(Live()) : .awaitingHello(authorized: authorized, lookedUp: false)
        session = Session(id: id, person: auth.person)
        rate = RateLimiter(limit: bounds.messagesPerSecond, windowMs: 1000)
    }

    /// Whether the hello waits for the shared store to say whether its board exists.
    var isWaitingForBoard: Bool { if case .waitingForBoard = state { true } else { false } }
    var isClosing: Bool { if case .closing = state { true } else { false } }
    /// The messages still queued, ready or not.
    var queuedCount: Int { outgoing.count }
    var pendingBytes: Int { outgoing.pendingBytes }

    /// The live settings: of the live session, or of the one closing; nil before `hello`.
    var live: Live? {
        switch state {
        case .live(let l): l
        case .closing(_, _, let l): l
        case .awaitingHello, .waitingForBoard: nil
        }
    }

    /// Sets the live settings (a closing session's too); nothing before `hello`.
    mutating func setLive(_ l: Live) {
        switch state {
        case .live:
            state = .live(l)
        case .closing(let code, let reason, .some):
            state = .closing(code: code, reason: reason, live: l)
        default:
            break
        }
    }

    // Each read straight out of the state, not through `live` (an optional `Live` made for it).
    var commitOrder: CommitOrderMode {
        switch state {
        case .live(let l): l.commitOrder
        case .closing(_, _, let l?): l.commitOrder
        default: .full
        }
    }

    /// Whether a recorder takes `.record` lines.
    var recording: Bool {
        switch state {
        case .live(let l): l.recording
        case .closing(_, _, let l?): l.recording
        default: false
        }
    }

    /// The highest board version known durable (nil: not on a hub's versions).
    var durable: Int? { outgoing.durable }

    /// The session joined its board's hub, whose durable version is `durable`; `recording`:
    /// a recorder takes `.record` lines.
    mutating func joined(durable: Int, recording: Bool) {
        outgoing.durable = durable
        guard var l = live else { return }
        l.recording = recording
        setLive(l)
    }

    // MARK: Queueing

    /// Hands the session's outputs on: its own commits to the hub (`.commit`), everything to
    /// the queue.
    /// With `shared`: a commit or frame (from a commit from elsewhere) is queued as the message
    /// every session that gets it alike shares (`SharedEncoding`); returns each message queued
    /// with its barrier, or nil when one of them was not shared.
    @discardableResult
    mutating func deliver(_ events: [ServerEvent], now: Double, barrier initial: Int = 0, shared: SharedEncoding? = nil,
                          into out: inout [Action]) -> [Planned]? {
        if claims != nil { planClaims(into: &out) }
        // Most inputs (a quiet move) answer nothing: only the timer may need arming.
        if events.isEmpty { schedule(now: now, into: &out); return shared == nil ? nil : [] }
        let live = self.live
        // A lift, a `moved` or a drop of this session's changes what it holds (issue 44): the
        // hub hears of it first, as before the rest. Told in the loop below (a frame carrying
        // one too, `hello.config.events: "inline"`; a frame waits for the commit it carries).
        let holdsAt = out.count
        var holdsChanged = false
        // Alone on the board: nobody to tell, so nothing is looked for (`othersOnBoard`).
        let tellsHolds = othersOnBoard
        let commitOrder = live?.commitOrder ?? .full
        var barrier = initial
        var planned: [Planned]? = shared == nil ? nil : []
        for e in events {
            var e = e
            var plainFrame = false, presence = false, size = 0
            // A frame's facts read in its box (`frameFacts`): bound out of the event, it was copied.
            if let frame = e.frameFacts {
                if let v = frame.commitVersion { barrier = max(barrier, v) } else { plainFrame = true }
                if tellsHolds, !holdsChanged { holdsChanged = e.changesHolds }
                size = frame.size
            }
            switch e {
            case .persist(let c):
                // This session's own commit: persisted by the hub, sent once durable.
                out.append(.commit(c))
                barrier = outgoing.durable == nil ? 0 : c.version
                e = .commit(c)
            case .commit(let c):
                barrier = max(barrier, c.version)
            case .lift, .moved, .drop:
                holdsChanged = tellsHolds
            case .presence:
                presence = true
            default:
                break
            }
            // These end the session (contract §5): the error goes out, then the close.
            var fatal: ErrorCode?
            if case .error(let code, _) = e, [.noHello, .version, .noBoard].contains(code) { fatal = code }
            // A commit from elsewhere: the bytes every session on the board gets alike, made once.
            var message: SharedMessage?, head = OutgoingQueue.FrameHead()
            if let shared {
                if case .commit(let c) = e { message = shared.commit(c, mode: commitOrder) }
                if case .presenceDelta(let d) = e { message = shared.presenceDelta(d) }
                if case .frame(let f) = e {
                    message = shared.frame(f, mode: commitOrder)
                    head = OutgoingQueue.FrameHead(seq: f.seq, ms: f.ms, ack: f.ack)
                }
            }
            if let message {
                planned?.append(Planned(message: message, barrier: barrier))
                queue(.shared(message, head: head), barrier: barrier, size: message.size, now: now, into: &out)
            } else {
                planned = nil
                if size == 0 { size = e.estimatedSize(commitOrder: commitOrder) }
                queue(.event(e, plainFrame: plainFrame), barrier: barrier, size: size, presence: presence, now: now, into: &out)
            }
            if let fatal {
                out.append(.log(.warn, event: "refusal", detail: fatal.rawValue))
                close(1008, fatal.rawValue)
            }
        }
        // Usually the loop added no action (an insert goes through `replaceSubrange`: 340 Ir).
        if holdsChanged {
            if out.count == holdsAt { out.append(.holdsChanged) } else { out.insert(.holdsChanged, at: holdsAt) }
        }
        schedule(now: now, into: &out)
        return planned
    }

    /// Queues `e` for the client, behind no barrier.
    mutating func send(_ e: ServerEvent, now: Double, into out: inout [Action]) {
        var presence = false
        if case .presence = e { presence = true }
        queue(.event(e), barrier: 0, size: e.estimatedSize(commitOrder: commitOrder), presence: presence, now: now, into: &out)
    }

    /// Queues `message` (`presence`: it is a `presence`, which a newer one replaces); closes a
    /// reader too far behind (`bounds.maxPendingBytes`, `maxPendingMs`).
    mutating func queue(_ message: consuming OutgoingQueue.Message, barrier: Int, size: Int, presence: Bool = false, now: Double,
                        into out: inout [Action]) {
        outgoing.append(OutgoingQueue.Entry(message: message, barrier: barrier, size: size, isPresence: presence))
        queued = true
        // One big message (a whole order on a huge board) is not a slow reader: the bound
        // leaves room for twice the largest message still queued (not only the one being
        // queued: a frame or presence behind a whole order still being written is no sign of
        // a slow reader); time catches a client that stalls (its socket has held a partial
        // write that long).
        let bound = max(mode == .echo ? 4 * bounds.maxEchoMessageBytes : bounds.maxPendingBytes, 2 * size)
        if (outgoing.pendingBytes > bound && outgoing.pendingBytes > 2 * outgoing.largestPending)
            || now - (outgoing.stalledSince ?? now) > bounds.maxPendingMs {
            out.append(.log(.warn, event: "refusal", detail: "slow reader: \(outgoing.pendingBytes) bytes pending"))
            outgoing.removeAll()
            close(1008, "too far behind")
            out.append(.abandon)
        }
    }

    /// Decides the close: what is queued goes out first, then the close frame.
    mutating func close(_ code: Int32, _ reason: String) {
        guard !isClosing else { return }
        state = .closing(code: code, reason: reason, live: live)
        queued = true
    }

    /// The end of an input: how what it queued (or the close it decided) reaches the socket.
    /// What is queued behind a barrier (a commit from elsewhere, not durable yet) asks for
    /// nothing: `durableAdvanced` writes it once durable. A writeable callback asked for now
    /// would turn EPOLLOUT on and off for each watcher of each commit, for nothing to write.
    mutating func finish(direct: Bool, into out: inout [Action]) {
        guard queued else { return }
        queued = false
        if direct && !isClosing {
            out.append(.writeNow)
        } else if hasReadyOutgoing || isClosing {
            out.append(.requestWritable)
        }
    }

    // MARK: Time

    /// Arms (or cancels) the timer for the session's next deadline.
    mutating func schedule(now: Double, into out: inout [Action]) {
        let fireAt = Self.deadline(of: &session).map { clock.serverFireTime(due: $0) }
        switch timer.schedule(fireAt: fireAt, now: now) {
        case .arm(let afterMs)?: out.append(.armTimer(afterMs: afterMs))
        case .cancel?: out.append(.cancelTimer)
        case nil: break
        }
    }

    /// The session's next deadline, read in place: a plain read of a property of `session`
    /// may copy the whole Session first (about 1,000 instructions on every input).
    static func deadline(of session: inout Session) -> Double? { session.nextDeadline }

    /// Whether the session is idle as a shared view means it, read in place.
    static func isIdle(_ session: inout Session) -> Bool { session.isIdleForSharing }
}
