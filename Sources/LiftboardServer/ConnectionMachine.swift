import LiftboardCore
import LiftboardWire

/// One WebSocket connection as a value: what it has been sent and holds, its session, its
/// limits and deadlines, and every decision about them. Each input (bytes received, the socket
/// writeable, a timer, the board looked up, the durable version advanced, a commit from
/// elsewhere, close) changes it in place and appends the actions `Connection` performs; time,
/// limits and ids come in as parameters. A struct around a private `State`, as SwiftNIO writes
/// its state machines (`NIOTypedHTTPServerUpgraderStateMachine`).
///
/// Writing: messages wait in `outgoing` behind a barrier (the board version that must be
/// durable first). An input that queued something ends with `.writeNow` (inside this
/// connection's own receive of a whole message: write before the callback returns, while the
/// socket takes it) or `.requestWritable` (anywhere else); the performer then pulls the ready
/// messages with `nextMessage(into:headroom:)` and asks `afterWriting()` what is left to do.
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
    }

    /// What the socket is to do once the ready messages are written.
    enum AfterWriting: Equatable, Sendable {
        case nothing
        /// More is ready (or the close waits): another writeable callback.
        case askAgain
        /// Everything before the close is out: send the close frame with this code.
        case sendClose(code: Int32, reason: String)
    }

    /// An outgoing message, held until the commit it follows is durable.
    struct Outgoing {
        /// Set through `setFrame`, which keeps `plainFrame` with it.
        private(set) var event: ServerEvent?
        /// Raw bytes (echo), sent as they came.
        var raw: [UInt8]?
        /// A message from elsewhere's commit, encoded once for every session that gets it alike
        /// (`SharedEncoding`): a whole `commit`, or a frame's body, whose own head is `head`.
        /// The entry keeps a reference to it, not the message (`event` is nil).
        var shared: SharedMessage? = nil
        var head = FrameHead()
        var binary = false
        /// The board version that must be durable before this goes out; 0 for none.
        var barrier: Int
        var queuedAt: Double
        var size: Int

        /// A frame's own first members, before the body it shares with its view.
        struct FrameHead {
            var seq = 0
            var ms = 0.0
            var ack: Int? = nil
        }

        /// A frame from elsewhere's commit as this session gets it: the shared message with its
        /// own head.
        init(shared: SharedMessage, head: FrameHead, barrier: Int, queuedAt: Double) {
            self.shared = shared
            self.head = head
            self.barrier = barrier
            self.queuedAt = queuedAt
            size = shared.size
        }

        /// `plainFrame`, when the caller knows it (it has the frame at hand), saves reading it
        /// out of the event.
        init(event: ServerEvent?, raw: [UInt8]?, binary: Bool = false, barrier: Int, queuedAt: Double, size: Int,
             plainFrame: Bool? = nil) {
            self.event = event
            self.raw = raw
            self.binary = binary
            self.barrier = barrier
            self.queuedAt = queuedAt
            self.size = size
            if let plainFrame {
                self.plainFrame = plainFrame
            } else if case .frame(let f)? = event {
                self.plainFrame = f.commitVersion == nil
            }
        }

        /// The frame this entry sends (its own head on a shared one), or nil.
        var frame: FrameMessage? {
            if let shared {
                guard case .frame(var f) = shared.event, shared.isFrameBody else { return nil }
                f.seq = head.seq; f.ms = head.ms; f.ack = head.ack
                return f
            }
            if case .frame(let f)? = event { return f }
            return nil
        }

        /// A frame without a commit: a frame queued right after it, behind the same barrier,
        /// merges into it.
        var isPlainFrame: Bool {
            if let shared { return shared.isPlainFrame }
            return plainFrame
        }

        /// `isPlainFrame` of `event`, kept beside it: read out of the event, it copied the whole
        /// frame, three times a message in `queue`.
        private var plainFrame = false

        /// Sets `event` to `f`.
        mutating func setFrame(_ f: FrameMessage) {
            plainFrame = f.commitVersion == nil
            event = .frame(f)
        }

        /// Moves `event` out (not copied: the entry is about to be removed).
        mutating func takeEvent() -> ServerEvent? {
            plainFrame = false
            return event.take()
        }

        /// A `commit` message.
        var isCommit: Bool {
            if case .commit? = event ?? shared?.event { return true }
            return false
        }
    }

    private enum State {
        /// Upgraded; nothing but `hello` can start the session.
        case awaitingHello
        /// The hello names a board this process does not have: the shared store is asked, and
        /// the hello and what follows it are held until it answers.
        case waitingForBoard(held: [[UInt8]])
        /// On a board (or echoing).
        case live
        /// A close is decided: nothing the client says is acted on; what is queued goes out,
        /// then the close frame.
        case closing(code: Int32, reason: String)
    }

    let id: String
    let mode: Mode
    let bounds: Bounds
    private var state: State
    private(set) var session: Session
    /// The client's clock mapped onto the server's: the session runs on the client's `ms`.
    private var clock = ClientClock()
    /// What this client asked `commit` messages to carry, and whether it asked for lift,
    /// moved and drop inside frames (read once, at `hello`).
    private(set) var commitOrder: CommitOrderMode = .full
    private var inlineEvents = false
    /// Whether the upgrade request carried the token (headers are gone after the handshake).
    private let authorized: Bool
    /// Whether a recorder takes `.record` lines.
    private(set) var recording = false
    /// The highest board version known durable (`Int.max` before the session joins a hub).
    private(set) var durable = Int.max
    /// The board was looked up once: a hello for it is answered from what this process has.
    private var boardLookedUp = false

    // Reassembly.
    private var rx: [UInt8] = []
    private var rxTooLarge = false
    private var midMessage = false
    /// The client sent a close frame (lws answers it).
    private var peerClosed = false

    // Rate limiting: messages in the current one-second window, windows over in a row.
    private var windowStart = 0.0
    private var windowCount = 0
    private var windowsOver = 0
    private var warnedThisWindow = false

    // The outgoing queue.
    private(set) var outgoing: [Outgoing] = []
    private var outgoingHead = 0
    private(set) var pendingBytes = 0
    /// Something was queued (or a close decided) during the current input.
    private var queued = false
    /// What the session answers a move, kept empty between moves for the next one's answer (a
    /// new array each cost an allocation and its release); none is kept past a few elements.
    private var moveEvents: [ServerEvent] = []

    /// The server time the session's timer is armed for (nil: not armed; NaN: a retry).
    private var armedDeadline: Double?

    init(id: String, mode: Mode, authorized: Bool = true, bounds: Bounds = Bounds()) {
        self.id = id
        self.mode = mode
        self.authorized = authorized
        self.bounds = bounds
        state = mode == .echo ? .live : .awaitingHello
        session = Session(id: id)
    }

    /// Whether the hello waits for the shared store to say whether its board exists.
    var isWaitingForBoard: Bool { if case .waitingForBoard = state { true } else { false } }
    var isClosing: Bool { if case .closing = state { true } else { false } }
    /// The messages still queued, ready or not.
    var queuedCount: Int { outgoing.count - outgoingHead }

    // MARK: Receiving

    /// One fragment of a message arrived at `now` (server ms). `boards` answers which boards
    /// this process has (asked for a `hello` only).
    mutating func received(_ bytes: UnsafeRawBufferPointer, final: Bool, binary: Bool, now: Double,
                           boards: (String) -> Board?, into out: inout [Action]) {
        // What a message sent in one frame queues is written before the callback returns; lws
        // answers pings (which may come between fragments) and a close itself, and those
        // answers must not be overtaken.
        let direct = final && !midMessage && !peerClosed
        midMessage = !final
        handle(bytes, final: final, binary: binary, now: now, boards: boards, into: &out)
        finish(direct: direct, into: &out)
    }

    private mutating func handle(_ bytes: UnsafeRawBufferPointer, final: Bool, binary: Bool, now: Double,
                                 boards: (String) -> Board?, into out: inout [Action]) {
        // Once a close is decided, nothing more this client says is acted on.
        if isClosing { return }
        let limit = mode == .echo ? bounds.maxEchoMessageBytes : bounds.maxMessageBytes
        // The usual: a whole message in one frame, read where lws has it, not copied first.
        let whole = final && rx.isEmpty && !rxTooLarge && mode == .liftboard && bytes.count <= limit
        if whole {
            guard admit(now: now, into: &out) else { return }
            if isWaitingForBoard { return holdUntilBoard(Array(bytes), now: now, into: &out) }
            return process(bytes, now: now, boards: boards, into: &out)
        }
        if rx.count + bytes.count > limit {
            rxTooLarge = true
        } else if !rxTooLarge {
            rx.append(contentsOf: bytes)
        }
        guard final else { return }
        defer { rx.removeAll(keepingCapacity: rx.capacity <= 1 << 16); rxTooLarge = false }
        if mode == .echo {
            guard !rxTooLarge else { return close(1009, "message too large") }
            queue(Outgoing(event: nil, raw: rx, binary: binary, barrier: 0, queuedAt: now, size: rx.count), now: now, into: &out)
            return
        }
        if rxTooLarge {
            send(.error(code: .tooLarge, message: "messages are limited to \(bounds.maxMessageBytes) bytes"), now: now, into: &out)
            out.append(.log(.warn, event: "refusal", detail: "message over \(bounds.maxMessageBytes) bytes"))
            return close(1009, "message too large")
        }
        guard admit(now: now, into: &out) else { return }
        if isWaitingForBoard { return holdUntilBoard(rx, now: now, into: &out) }
        // Out of `rx` while it is read (`process` may not touch `rx`), then back (emptied above).
        var message: [UInt8] = []
        swap(&message, &rx)
        message.withUnsafeBytes { process($0, now: now, boards: boards, into: &out) }
        swap(&message, &rx)
    }

    /// One whole message, admitted.
    private mutating func process(_ message: UnsafeRawBufferPointer, now: Double, boards: (String) -> Board?,
                                  into out: inout [Action]) {
        // Most of what a client sends: a move in the page's own form, read without a
        // `ClientMessage` (built, copied out of its `Result` and destroyed, about 250 Ir).
        if case .live = state, let m = Wire.pageMove(message) {
            return move(m.pointer, to: m.at, seq: m.seq, ms: m.ms, message: message, now: now, into: &out)
        }
        switch Wire.decodeClient(message) {
        case .failure(let e):
            send(.error(code: e.code, message: e.message), now: now, into: &out)
        case .success(let m):
            if case .move(let pointer, let at) = m.event {
                // None of the checks below concerns a move: the engine gets a new move, not a
                // copy of the decoded message's event (the copy, and its destruction twice, cost
                // about 190 Ir a message).
                return move(pointer, to: at, seq: m.seq, ms: m.ms, message: message, now: now, into: &out)
            }
            switch m.event {
            case .advance, .external, .resync, .rebase:
                send(.error(code: .badMessage, message: "\(m.event.typeName): replay only"), now: now, into: &out)
                return
            default: break
            }
            if case .hello(let h) = m.event, session.boardID == nil {
                if !authorized {
                    send(.error(code: .unauthorized, message: "a valid token is required"), now: now, into: &out)
                    return close(4401, "unauthorized")
                }
                let board = boards(h.board)
                if board == nil, !boardLookedUp {
                    state = .waitingForBoard(held: [Array(message)])
                    out.append(.lookUpBoard(h.board))
                    return
                }
                let ms = clock.message(ms: m.ms, serverNow: now)
                let events = session.handle(m.event, seq: m.seq, at: ms) { board?.id == $0 ? board : nil }
                if session.boardID != nil, let board {
                    commitOrder = session.config?.commitOrder ?? .full
                    inlineEvents = session.config?.events == .inline
                    state = .live
                    out.append(.join(board: board.id, hello: Array(message), ms: ms))
                }
                deliver(events, now: now, into: &out)
                return
            }
            let ms = clock.message(ms: m.ms, serverNow: now)
            if recording { out.append(.record(.message(Array(message), ms: ms))) }
            deliver(session.handle(m.event, seq: m.seq, at: ms), now: now, into: &out)
        }
    }

    /// A move, on the client's clock `ms`.
    private mutating func move(_ pointer: Int, to at: Point, seq: Int?, ms clientMs: Double?, message: UnsafeRawBufferPointer,
                               now: Double, into out: inout [Action]) {
        let ms = clock.message(ms: clientMs, serverNow: now)
        if recording { out.append(.record(.message(Array(message), ms: ms))) }
        // Into the machine's own buffer, taken for the while: unique, so emptied in place.
        var events: [ServerEvent] = []
        swap(&events, &moveEvents)
        session.handle(.move(pointer: pointer, at: at), seq: seq, at: ms, into: &events)
        deliver(events, now: now, into: &out)
        // One by one: `removeAll(keepingCapacity:)` goes through `replaceSubrange`, which costs
        // more than the one or two events a move answers.
        if events.capacity <= 4 { while !events.isEmpty { events.removeLast() } } else { events = [] }
        swap(&events, &moveEvents)
    }

    /// A message that came while the hello waits for its board: kept, up to a bound.
    private mutating func holdUntilBoard(_ message: [UInt8], now: Double, into out: inout [Action]) {
        guard case .waitingForBoard(var held) = state else { return }
        guard held.count < bounds.heldBeforeBoard else {
            state = .awaitingHello
            send(.error(code: .badMessage, message: "over \(bounds.heldBeforeBoard) messages before the board was found"), now: now, into: &out)
            out.append(.forgetLookup)
            return close(1008, "too many messages before welcome")
        }
        state = .awaitingHello  // drops the enum's reference: `held` grows in place
        held.append(message)
        state = .waitingForBoard(held: held)
    }

    /// The shared store answered about the board the hello waits for (`boards` has it now, or
    /// there is none): the held messages are handled in order.
    mutating func boardLookupAnswered(now: Double, boards: (String) -> Board?, into out: inout [Action]) {
        guard case .waitingForBoard(let held) = state else { return }
        state = .awaitingHello
        boardLookedUp = true
        for message in held {
            if isWaitingForBoard {
                holdUntilBoard(message, now: now, into: &out)
            } else if !isClosing {
                message.withUnsafeBytes { process($0, now: now, boards: boards, into: &out) }
            }
        }
        finish(direct: false, into: &out)
    }

    /// Counts a message against the rate limit; false when it must be dropped.
    private mutating func admit(now: Double, into out: inout [Action]) -> Bool {
        if now - windowStart >= 1000 {
            windowsOver = windowCount > bounds.messagesPerSecond ? windowsOver + 1 : 0
            windowStart = now
            windowCount = 0
            warnedThisWindow = false
        }
        windowCount += 1
        guard windowCount > bounds.messagesPerSecond else { return true }
        if windowsOver + 1 >= bounds.sustainedSeconds {
            // What is still queued for a flooding client is of no use to anyone.
            outgoing.removeAll()
            outgoingHead = 0
            pendingBytes = 0
            send(.error(code: .rateLimited, message: "over \(bounds.messagesPerSecond) messages a second, sustained"), now: now, into: &out)
            out.append(.log(.warn, event: "refusal", detail: "rate limited, closing"))
            close(1008, "rate limited")
        } else if !warnedThisWindow {
            warnedThisWindow = true
            send(.error(code: .rateLimited, message: "over \(bounds.messagesPerSecond) messages a second: dropping"), now: now, into: &out)
        }
        return false
    }

    /// The session joined its board's hub, whose durable version is `durable`; `recording`:
    /// a recorder takes `.record` lines.
    mutating func joined(durable: Int, recording: Bool) {
        self.durable = durable
        self.recording = recording
    }

    /// The client sent a close frame.
    mutating func peerSentClose() { peerClosed = true }

    // MARK: Time

    /// The hello deadline passed (`bounds.helloTimeout` after the upgrade): closes unless a
    /// hello started the session.
    mutating func helloDeadlinePassed(now: Double, into out: inout [Action]) {
        let timeout = bounds.helloTimeout
        switch state {
        case .waitingForBoard:
            // The hello came; the shared store did not say in time whether its board exists.
            state = .awaitingHello
            out.append(.forgetLookup)
            send(.error(code: .storeUnavailable, message: "the board could not be looked up in the shared store in time"), now: now, into: &out)
            out.append(.log(.warn, event: "refusal", detail: "board lookup unanswered within \(timeout) s, closing"))
            close(1011, "store unavailable")
        case .awaitingHello:
            send(.error(code: .noHello, message: "no hello within \(timeout) s"), now: now, into: &out)
            out.append(.log(.warn, event: "refusal", detail: "no hello within \(timeout) s, closing"))
            close(1008, "no hello")
        case .live, .closing:
            return
        }
        finish(direct: false, into: &out)
    }

    /// The session's timer fired at `now`. It fires the session only when no message is
    /// waiting on the socket: a message sent before the due time handles it itself
    /// (`Session.handle` fires due timers first), however late a busy server reads it.
    mutating func timerFired(now: Double, socketHasInput: () -> Bool, into out: inout [Action]) {
        armedDeadline = nil
        guard let d = Self.deadline(of: &session), clock.serverFireTime(due: d) <= now else { return schedule(now: now, into: &out) }
        if socketHasInput() { return schedule(now: now, retryMs: 2, into: &out) }
        let ms = clock.serverEvent(serverNow: now)
        if recording { out.append(.record(.advance(ms: ms))) }
        deliver(session.fire(at: ms), now: now, into: &out)
        finish(direct: false, into: &out)
    }

    /// Arms (or cancels) the timer for the session's next deadline.
    private mutating func schedule(now: Double, retryMs: Double = 0, into out: inout [Action]) {
        guard let d = Self.deadline(of: &session) else {
            if armedDeadline != nil { out.append(.cancelTimer) }
            armedDeadline = nil
            return
        }
        // Most inputs leave the deadline where it was: re-arming it is a wasted timer-list walk.
        // Keyed on the server time it fires at, which also moves when the client's clock does.
        let fireAt = clock.serverFireTime(due: d)
        guard retryMs > 0 || fireAt != armedDeadline else { return }
        // A retry is armed for another time than the deadline's: NaN equals nothing, so the
        // next schedule re-arms, and it still counts as armed for a cancel.
        armedDeadline = retryMs > 0 ? .nan : fireAt
        out.append(.armTimer(afterMs: max(retryMs, fireAt - now)))
    }

    /// Whether the session is idle as a shared view means it, read in place.
    private static func isIdle(_ session: inout Session) -> Bool { session.isIdleForSharing }

    /// The session's next deadline, read in place: a plain read of a property of `session`
    /// may copy the whole Session first (about 1,000 instructions on every input).
    private static func deadline(of session: inout Session) -> Double? { session.nextDeadline }

    // MARK: From the hub

    /// The hub's durable version advanced: what waited for it may go, written at once
    /// (`.writeNow`: the hub orders the sessions, the originator first; a writeable callback
    /// per watcher would leave the order to lws and cost each an EPOLLOUT on and off). Not while
    /// the client is mid-message or has sent a close: lws's answers to its pings and close go
    /// out from the writeable callback and must not be overtaken.
    /// `direct` false: the hub is about to rebase (see `HubState.Action.release`); the
    /// writeable callback writes, after it.
    mutating func durableAdvanced(to version: Int, direct: Bool = true, into out: inout [Action]) {
        if let write = durableAdvanced(to: version, direct: direct) { out.append(write) }
    }

    /// `durableAdvanced(to:direct:into:)` for the hub's release of every session on a board:
    /// returns its one action (`.writeNow` or `.requestWritable`), if any, instead of appending
    /// it to an actions buffer to be performed.
    mutating func durableAdvanced(to version: Int, direct: Bool = true) -> Action? {
        durable = version
        guard hasReadyOutgoing else { return nil }
        return !direct || midMessage || peerClosed || isClosing ? .requestWritable : .writeNow
    }

    /// The hub applied a commit made elsewhere (another session, an edit, another process).
    /// `shared`: the encodings of this commit the hub's other sessions made (see `SharedEncoding`).
    /// Returns what the session answered (for watchers with the same view: see below).
    @discardableResult
    mutating func external(_ c: Commit, now: Double, shared: SharedEncoding? = nil, into out: inout [Action]) -> [ServerEvent] {
        let answered = apply(external: c, now: now, shared: shared, into: &out)
        finish(direct: false, into: &out)
        return answered
    }

    /// What a session answered a commit from elsewhere, with the shared message queued for each
    /// of its messages: a session of the same view takes both (`external(_:now:shared:sameViewAs:answer:into:)`)
    /// instead of stepping its engine and looking its bytes up by content (a frame's comparison
    /// with the encodings made so far costs more than the rest of its delivery).
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

        init(events: [ServerEvent], commitOrder: CommitOrderMode, bytes: [Planned], leaderIdle: Bool? = nil,
             shareable: Bool = false, frames: Int = 0, leaderState: AnyObject? = nil) {
            self.events = events
            self.commitOrder = commitOrder
            self.bytes = bytes
            self.leaderIdle = leaderIdle
            self.shareable = shareable
            self.frames = frames
            self.leaderState = leaderState
        }
    }

    /// A message queued from a commit from elsewhere: what every session of the view queues alike.
    struct Planned {
        var message: SharedMessage
        /// The board version that must be durable before it goes out.
        var barrier: Int
    }

    /// `external`, keeping the messages it queued for the sessions of the same view.
    mutating func external(_ c: Commit, now: Double, sharing shared: SharedEncoding, into out: inout [Action]) -> SharedAnswer {
        let ms = clock.serverEvent(serverNow: now)
        if recording { out.append(.record(.external(c, ms: ms))) }
        let answered = session.handle(.external(c), at: ms)
        let planned = deliver(answered, now: now, barrier: c.version, shared: shared, into: &out)
        finish(direct: false, into: &out)
        return SharedAnswer(events: answered, commitOrder: commitOrder, bytes: planned ?? [], leaderIdle: Self.isIdle(&session),
                            shareable: planned != nil, frames: planned?.reduce(0) { $0 + ($1.message.isFrameBody ? 1 : 0) } ?? 0,
                            leaderState: session.sharedState)
    }

    /// `external`, for a session whose `sharedViewKey` equaled the leader's before the leader
    /// was handed the same commit and answered `answer`, a complete one (`answer.shareable`):
    /// see `external(_:now:shared:sameViewAs:answer:into:)`.
    mutating func external(_ c: Commit, now: Double, shared: SharedEncoding?, following answer: SharedAnswer, into out: inout [Action]) {
        let ms = clock.serverEvent(serverNow: now)
        if !follow(answer, now: now, ms: ms, into: &out) { apply(external: c, now: now, shared: shared, into: &out) }
        finish(direct: false, into: &out)
    }

    /// Takes the leader's state and queues the messages it queued (`answer.bytes`), each frame
    /// with this session's own head. False (nothing done) when it cannot: a session that
    /// records, an answer not complete or made for another `commitOrder`, a leader that did not
    /// stay idle.
    private mutating func follow(_ answer: SharedAnswer, now: Double, ms: Double, into out: inout [Action]) -> Bool {
        guard !recording, answer.shareable, answer.commitOrder == commitOrder, let state = answer.leaderState,
              let own = session.adoptView(ofState: state, frames: answer.frames, leaderIsIdle: answer.leaderIdle) else { return false }
        var seq = own.firstSeq
        for p in answer.bytes {
            var head = Outgoing.FrameHead()
            if p.message.isFrameBody {
                head = Outgoing.FrameHead(seq: seq, ms: ms, ack: own.ack)
                seq += 1
            }
            queue(Outgoing(shared: p.message, head: head, barrier: p.barrier, queuedAt: now), now: now, into: &out)
        }
        // The leader's state, taken, was idle (`Session.isIdleForSharing`): no timer is due in
        // it, so an armed one is cancelled, as `schedule` would.
        if armedDeadline != nil {
            out.append(.cancelTimer)
            armedDeadline = nil
        }
        return true
    }

    /// `external`, for a session whose `sharedViewKey` equaled `leader`'s before the leader was
    /// handed the same commit and answered `answer`: it takes the leader's state instead of
    /// stepping the engine itself (`Session.adoptView`), and queues the messages the leader
    /// queued (`answer.bytes`), each frame with its own head (its frame number, ack and time):
    /// no message is built, copied or looked up for it. Without a complete plan it takes the
    /// leader's answer (`answer.events`), renumbered, and looks the bytes up. A session that
    /// records, or a leader that did not stay idle: it steps itself.
    mutating func external(_ c: Commit, now: Double, shared: SharedEncoding?, sameViewAs leader: Session,
                           answer: SharedAnswer, into out: inout [Action]) {
        let ms = clock.serverEvent(serverNow: now)
        if follow(answer, now: now, ms: ms, into: &out) {
            finish(direct: false, into: &out)
            return
        }
        if !recording, !answer.shareable || answer.commitOrder != commitOrder,
           let mine = session.adoptView(of: leader, answering: answer.events, at: ms, leaderIsIdle: answer.leaderIdle) {
            deliver(mine, now: now, barrier: c.version, shared: shared, into: &out)
            finish(direct: false, into: &out)
            return
        }
        apply(external: c, now: now, shared: shared, into: &out)
        finish(direct: false, into: &out)
    }

    @discardableResult
    private mutating func apply(external c: Commit, now: Double, shared: SharedEncoding? = nil, into out: inout [Action]) -> [ServerEvent] {
        let ms = clock.serverEvent(serverNow: now)
        if recording { out.append(.record(.external(c, ms: ms))) }
        let answered = session.handle(.external(c), at: ms)
        deliver(answered, now: now, barrier: c.version, shared: shared, into: &out)
        return answered
    }

    /// The hub rebased: what is still held for the client (behind a barrier above `version`)
    /// describes an order the store did not make, so it goes; the session takes `board` as
    /// its committed order and the client gets a `layout`, held until `board` is durable.
    mutating func resync(to board: Board, droppingHeldAbove version: Int, now: Double, into out: inout [Action]) {
        dropHeld { $0.barrier > version }
        if recording, session.committedOrder != nil {
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
        dropHeld { o in o.barrier > base.version && o.isCommit }
        // A held frame carrying such a commit (`commits: "inline"`) stays, without it (its
        // shared bytes carry it: it is encoded anew).
        for i in outgoingHead..<outgoing.count where outgoing[i].barrier > base.version {
            if var f = outgoing[i].frame, f.commitVersion != nil {
                f.commit = nil
                outgoing[i].setFrame(f)
                outgoing[i].raw = nil
                outgoing[i].shared = nil
            }
        }
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

    // MARK: Queueing

    /// Hands the session's outputs on: its own commits to the hub (`.commit`), everything to
    /// the queue.
    /// With `shared`: a commit or frame (from a commit from elsewhere) is queued as the message
    /// every session that gets it alike shares (`SharedEncoding`); returns each message queued
    /// with its barrier, or nil when one of them was not shared.
    @discardableResult
    private mutating func deliver(_ events: [ServerEvent], now: Double, barrier initial: Int = 0, shared: SharedEncoding? = nil,
                                  into out: inout [Action]) -> [Planned]? {
        // Most inputs (a quiet move) answer nothing: only the timer may need arming.
        if events.isEmpty { schedule(now: now, into: &out); return shared == nil ? nil : [] }
        let events = inlineEvents ? events.inliningEvents() : events
        var barrier = initial
        var planned: [Planned]? = shared == nil ? nil : []
        for e in events {
            var e = e
            var plainFrame = false, size = 0
            switch e {
            case .persist(let c):
                // This session's own commit: persisted by the hub, sent once durable.
                out.append(.commit(c))
                barrier = durable == .max ? 0 : c.version
                e = .commit(c)
            case .commit(let c):
                barrier = max(barrier, c.version)
            case .frame(let f):
                // A frame carrying its commit (`commits: "inline"`) waits for it like the commit.
                if let v = f.commitVersion { barrier = max(barrier, v) } else { plainFrame = true }
                // Read here, off the loop's own event (see `FrameMessage.estimatedWireSize`).
                size = f.estimatedWireSize
            default:
                break
            }
            // These end the session (contract §5): the error goes out, then the close.
            var fatal: ErrorCode?
            if case .error(let code, _) = e, [.noHello, .version, .noBoard].contains(code) { fatal = code }
            // A commit from elsewhere: the bytes every session on the board gets alike, made once.
            var message: SharedMessage?, head = Outgoing.FrameHead()
            if let shared {
                if case .commit(let c) = e { message = shared.commit(c, mode: commitOrder) }
                if case .frame(let f) = e {
                    message = shared.frame(f, mode: commitOrder)
                    head = Outgoing.FrameHead(seq: f.seq, ms: f.ms, ack: f.ack)
                }
            }
            if let message {
                planned?.append(Planned(message: message, barrier: barrier))
                queue(Outgoing(shared: message, head: head, barrier: barrier, queuedAt: now), now: now, into: &out)
            } else {
                planned = nil
                queue(Outgoing(event: e, raw: nil, barrier: barrier, queuedAt: now, size: size, plainFrame: plainFrame), now: now, into: &out)
            }
            if let fatal {
                out.append(.log(.warn, event: "refusal", detail: fatal.rawValue))
                close(1008, fatal.rawValue)
            }
        }
        schedule(now: now, into: &out)
        return planned
    }

    private mutating func send(_ e: ServerEvent, now: Double, into out: inout [Action]) {
        queue(Outgoing(event: e, raw: nil, barrier: 0, queuedAt: now, size: 0), now: now, into: &out)
    }

    private mutating func queue(_ o: consuming Outgoing, now: Double, into out: inout [Action]) {
        if o.size == 0, let e = o.event { o.size = e.estimatedSize(commitOrder: commitOrder) }
        let size = o.size
        // Frames waiting behind each other merge: the client gets the latest state.
        // (Not a frame carrying a commit: the commit would end up before the later changes.)
        if o.isPlainFrame, outgoing.count > outgoingHead, outgoing[outgoing.count - 1].isPlainFrame,
           outgoing[outgoing.count - 1].barrier == o.barrier, let g = outgoing[outgoing.count - 1].frame, let f = o.frame {
            outgoing[outgoing.count - 1].setFrame(g.merged(with: f))
            // Its shared bytes were the first frame's alone: the merged one is encoded anew.
            outgoing[outgoing.count - 1].shared = nil
            outgoing[outgoing.count - 1].raw = nil
        } else {
            pendingBytes += size
            outgoing.append(consume o)
        }
        queued = true
        // One big message (a whole order on a huge board) is not a slow reader: the bound
        // leaves room for twice the message being queued; time catches a client that stalls.
        let maxPending = max(mode == .echo ? 4 * bounds.maxEchoMessageBytes : bounds.maxPendingBytes, 2 * size)
        if pendingBytes > maxPending || now - outgoing[outgoingHead].queuedAt > bounds.maxPendingMs {
            out.append(.log(.warn, event: "refusal", detail: "slow reader: \(pendingBytes) bytes pending"))
            outgoing.removeAll()
            outgoingHead = 0
            pendingBytes = 0
            close(1008, "too far behind")
            out.append(.abandon)
        }
    }

    private mutating func close(_ code: Int32, _ reason: String) {
        guard !isClosing else { return }
        state = .closing(code: code, reason: reason)
        queued = true
    }

    /// Removes the held messages `drop` picks.
    private mutating func dropHeld(where drop: (Outgoing) -> Bool) {
        guard outgoingHead < outgoing.count else { return }
        var removed = 0
        let kept = outgoing[outgoingHead...].filter { o in
            guard drop(o) else { return true }
            removed += o.size
            return false
        }
        guard kept.count != outgoing.count - outgoingHead else { return }
        outgoing = Array(kept)
        outgoingHead = 0
        pendingBytes -= removed
    }

    /// The end of an input: how what it queued (or the close it decided) reaches the socket.
    /// What is queued behind a barrier (a commit from elsewhere, not durable yet) asks for
    /// nothing: `durableAdvanced` writes it once durable. A writeable callback asked for now
    /// would turn EPOLLOUT on and off for each watcher of each commit, for nothing to write.
    private mutating func finish(direct: Bool, into out: inout [Action]) {
        guard queued else { return }
        queued = false
        if direct && !isClosing {
            out.append(.writeNow)
        } else if hasReadyOutgoing || isClosing {
            out.append(.requestWritable)
        }
    }

    // MARK: Writing

    /// Whether the next queued message may go out (its commit is durable).
    var hasReadyOutgoing: Bool {
        outgoingHead < outgoing.count && outgoing[outgoingHead].barrier <= durable
    }

    /// Whether a writeable callback is needed: something is ready, or a close waits.
    var wantsWritable: Bool { hasReadyOutgoing || isClosing }

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

    /// `wantsWritable` for the performer. Mutating only so that a read through the class that
    /// holds the machine is made in place: a plain read of a computed property copies the whole
    /// machine first (a retain and a release of each of its dozen references, on every write).
    mutating func needsWritable() -> Bool { wantsWritable }

    /// `hasReadyOutgoing` for the performer, read in place (see `needsWritable`).
    mutating func hasReadyMessages() -> Bool { hasReadyOutgoing }

    /// Takes the next ready message and writes it into `buffer` after `headroom` bytes (the
    /// buffer's length is then the message's end). Returns whether it is binary, or nil when
    /// nothing is ready.
    mutating func nextMessage(into buffer: inout [UInt8], headroom: Int) -> Bool? {
        guard let (binary, end) = nextMessage(over: &buffer, headroom: headroom) else { return nil }
        buffer.removeSubrange(end...)
        return binary
    }

    /// `nextMessage(into:headroom:)`, leaving the buffer's bytes past the message's `end` as
    /// they are: an encoded message reuses them as room rather than zeroing room anew.
    mutating func nextMessage(over buffer: inout [UInt8], headroom: Int) -> (binary: Bool, end: Int)? {
        guard hasReadyOutgoing else { return nil }
        let i = outgoingHead
        outgoingHead += 1
        pendingBytes -= outgoing[i].size
        // Moved out of the queue, not copied: the slot is only waiting to be removed.
        if let event = outgoing[i].takeEvent() {
            return (outgoing[i].binary, Wire.encode(event, commitOrder: commitOrder, over: &buffer, from: headroom))
        }
        if let shared = outgoing[i].shared.take() {
            // Its own head (seq, ms, ack), then the body every session of its view shares: a
            // watcher's message, written over the room as an encoded one is.
            var end = headroom
            if shared.isFrameBody {
                let head = outgoing[i].head
                end = Wire.frameHead(seq: head.seq, ms: head.ms, ack: head.ack, over: &buffer, from: headroom)
            }
            return (outgoing[i].binary, Self.write(shared.bytes, over: &buffer, at: end))
        }
        buffer.removeSubrange(headroom...)
        if let raw = outgoing[i].raw.take() { buffer.append(contentsOf: raw) }
        return (outgoing[i].binary, buffer.count)
    }

    /// Writes `bytes` into `buffer` at `at`, over what lies there (the buffer grows when it is
    /// shorter); returns where they end.
    private static func write(_ bytes: [UInt8], over buffer: inout [UInt8], at: Int) -> Int {
        let end = at + bytes.count
        guard buffer.count >= end else {
            buffer.removeSubrange(at...)
            buffer.append(contentsOf: bytes)
            return end
        }
        buffer.withUnsafeMutableBufferPointer { b in
            bytes.withUnsafeBufferPointer { src in
                guard let from = src.baseAddress else { return }
                (b.baseAddress! + at).update(from: from, count: src.count)
            }
        }
        return end
    }

    /// Drops the written messages' slots once they are most of the queue, and gives a drained
    /// queue's memory back (a burst of commits doubled it; an idle watcher keeps none of it).
    mutating func compactQueue() {
        if outgoingHead > 0, outgoingHead == outgoing.count {
            // A watcher's usual: its one message of the commit written. Removed as the last
            // element (its slot kept), not through `removeAll`'s general replacement.
            if outgoing.count == 1, outgoing.capacity <= 4 {
                outgoing.removeLast()
            } else {
                outgoing.removeAll(keepingCapacity: outgoing.capacity <= 4)
            }
            outgoingHead = 0
        } else if outgoingHead > 64, outgoingHead * 2 > outgoing.count {
            outgoing.removeFirst(outgoingHead)
            outgoingHead = 0
        }
    }

    /// After the writes of a writeable callback: what the socket is to do next.
    mutating func afterWriting() -> AfterWriting {
        compactQueue()
        if hasReadyOutgoing { return .askAgain }
        guard case .closing(let code, let reason) = state else { return .nothing }
        return outgoingHead >= outgoing.count ? .sendClose(code: code, reason: reason) : .askAgain
    }
}

extension ClientEvent {
    var typeName: String {
        switch self {
        case .hello: "hello"
        case .down: "down"
        case .move: "move"
        case .up: "up"
        case .cancel: "cancel"
        case .wheel: "wheel"
        case .resize: "resize"
        case .key: "key"
        case .ping: "ping"
        case .undo: "undo"
        case .moveTo: "moveTo"
        case .advance: "advance"
        case .external: "external"
        case .resync: "resync"
        case .rebase: "rebase"
        }
    }
}

extension ServerEvent {
    /// About how many bytes the message takes on the wire, for the slow-reader limit.
    func estimatedSize(commitOrder: CommitOrderMode) -> Int {
        switch self {
        case .commit(let c) where commitOrder == .none, .persist(let c) where commitOrder == .none: 160 + c.moves.count * 90
        case .layout(let l): 200 + l.cells.count * 170
        case .frame(let f): f.estimatedWireSize
        case .commit(let c), .persist(let c): 100 + c.order.reduce(0) { $0 + 30 + $1.items.count * 10 }
        default: 120
        }
    }
}
