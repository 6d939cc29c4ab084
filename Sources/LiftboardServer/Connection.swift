import CLibWebSockets
import Foundation
import LiftboardCore
import LiftboardWire

/// One WebSocket connection on the service thread: its `Session`, its outgoing queue, its
/// timer and its limits. Only the server's callbacks touch it.
final class Connection {
    enum Mode { case liftboard, echo }

    /// An outgoing message, held until the commit it follows is durable.
    struct Outgoing {
        var event: ServerEvent?
        /// Raw bytes (echo), sent as they came.
        var raw: [UInt8]?
        var binary = false
        /// (board version) that must be durable before this goes out; 0 for none.
        var barrier: Int
        var queuedAt: Double
        var size: Int
    }

    let id: String
    let wsi: OpaquePointer
    let mode: Mode
    unowned let server: Server
    var session: Session
    var hub: Hub?
    var outgoing: [Outgoing] = []
    var outgoingHead = 0
    var pendingBytes = 0
    /// What this client asked `commit` messages to carry (read once, at `hello`).
    var commitOrder: CommitOrderMode = .full
    /// Whether this client asked for lift, moved and drop inside frames (read once, at `hello`).
    var inlineEvents = false
    var rx: [UInt8] = []
    /// Set while this connection's own receive callback runs (see `receive`).
    var inReceive = false
    /// Something was queued during the receive callback.
    var writeWanted = false
    /// The current message has had fragments before this one.
    var midMessage = false
    /// The client sent a close frame (lws answers it).
    var peerClosed = false
    /// Armed once the close frame's reason is set: lws closes from there (see `closeSoon`).
    var closeTimer: UnsafeMutablePointer<clws_timer>?
    /// The send buffer, reused: LWS_PRE bytes of room, then the message.
    var sendBuffer = [UInt8](repeating: 0, count: CLWS_PRE + 4096)
    var rxTooLarge = false
    /// A hello for a board this process does not have, while the listener looks for it in
    /// the shared store (created a moment ago by another process?): the hello and whatever
    /// the client sends before the answer, handled in order once it comes.
    var waitingForBoard: [[UInt8]]?
    /// The board was looked up once: a hello for it is answered from what this process has.
    var boardLookedUp = false
    var closing: (code: Int32, reason: String)? = nil
    var timer: UnsafeMutablePointer<clws_timer>?
    /// The server time the timer is armed for (nil: not armed).
    var armedDeadline: Double?
    var recorder: Recorder?
    /// The client's clock mapped onto the server's: the session runs on the client's `ms`.
    var clock = ClientClock()
    // Rate limiting: messages in the current one-second window, and windows over the limit in a row.
    var windowStart = 0.0
    var windowCount = 0
    var windowsOver = 0
    var warnedThisWindow = false
    /// Whether the upgrade request carried the token (headers are gone after the handshake).
    var authorized = true

    init(id: String, wsi: OpaquePointer, mode: Mode, server: Server) {
        self.id = id
        self.wsi = wsi
        self.mode = mode
        self.server = server
        session = Session(id: id)
    }

    deinit {
        for t in [timer, closeTimer] {
            guard let t else { continue }
            lws_sul_cancel(&t.pointee.sul)
            free(t)
        }
    }

    // MARK: Receiving

    /// One fragment of a message arrived. What it queues for this client is written before
    /// the callback returns (see `writeQueued`). Returns -1 to close.
    func receive(_ bytes: UnsafeRawBufferPointer, final: Bool, binary: Bool) -> Int32 {
        inReceive = final && !midMessage && !peerClosed
        midMessage = !final
        handle(bytes, final: final, binary: binary)
        inReceive = false
        guard writeWanted else { return 0 }
        writeWanted = false
        return writeQueued()
    }

    private func handle(_ bytes: UnsafeRawBufferPointer, final: Bool, binary: Bool) {
        // Once a close is decided, nothing more this client says is acted on.
        guard closing == nil else { return }
        let limit = mode == .echo ? Limits.maxEchoMessageBytes : Limits.maxMessageBytes
        if rx.count + bytes.count > limit {
            rxTooLarge = true
        } else if !rxTooLarge {
            rx.append(contentsOf: bytes)
        }
        guard final else { return }
        defer { rx.removeAll(keepingCapacity: rx.capacity <= 1 << 16); rxTooLarge = false }
        if mode == .echo {
            guard !rxTooLarge else { return close(1009, "message too large") }
            queue(Outgoing(event: nil, raw: rx, binary: binary, barrier: 0, queuedAt: server.now, size: rx.count))
            return
        }
        if rxTooLarge {
            send(.error(code: .tooLarge, message: "messages are limited to \(Limits.maxMessageBytes) bytes"))
            server.log(.warn, "refusal", session: id, "message over \(Limits.maxMessageBytes) bytes")
            return close(1009, "message too large")
        }
        guard admit() else { return }
        if waitingForBoard != nil { return holdUntilBoard() }
        process()
    }

    /// The message in `rx`, admitted.
    private func process() {
        let now = server.now
        switch Wire.decodeClient(rx) {
        case .failure(let e):
            send(.error(code: e.code, message: e.message))
        case .success(let m):
            switch m.event {
            case .advance, .external, .resync, .rebase:
                send(.error(code: .badMessage, message: "\(m.event.typeName): replay only"))
                return
            default: break
            }
            if case .hello(let h) = m.event, session.boardID == nil {
                if !authorized {
                    send(.error(code: .unauthorized, message: "a valid token is required"))
                    return close(4401, "unauthorized")
                }
                if server.hubs[h.board] == nil, !boardLookedUp, server.lookUpBoard(h.board, for: self) {
                    waitingForBoard = [rx]
                    return
                }
                handleHello(m, hello: h, at: clock.message(ms: m.ms, serverNow: now), now: now)
                return
            }
            let ms = clock.message(ms: m.ms, serverNow: now)
            recorder?.record(rx, ms: ms)
            deliver(session.handle(m.event, seq: m.seq, at: ms), now: now)
        }
    }

    /// A message that came while the hello waits for its board: kept, up to a bound.
    private func holdUntilBoard() {
        guard waitingForBoard!.count < Limits.heldBeforeBoard else {
            send(.error(code: .badMessage, message: "over \(Limits.heldBeforeBoard) messages before the board was found"))
            waitingForBoard = nil
            server.forgetWaitingHello(self)
            return close(1008, "too many messages before welcome")
        }
        waitingForBoard!.append(rx)
    }

    /// The listener answered about the board a hello waits for (the server has its hub now,
    /// or there is none): the held messages are handled in order.
    func boardLookupAnswered() {
        guard let held = waitingForBoard, closing == nil else { return }
        waitingForBoard = nil
        boardLookedUp = true
        for message in held {
            rx = message
            if waitingForBoard != nil { holdUntilBoard() } else { process() }
        }
        rx.removeAll()
        if hasReadyOutgoing { lws_callback_on_writable(wsi) }
    }

    /// Counts a message against the rate limit; false when it must be dropped.
    private func admit() -> Bool {
        let now = server.now
        if now - windowStart >= 1000 {
            windowsOver = windowCount > Limits.messagesPerSecond ? windowsOver + 1 : 0
            windowStart = now
            windowCount = 0
            warnedThisWindow = false
        }
        windowCount += 1
        guard windowCount > Limits.messagesPerSecond else { return true }
        if windowsOver + 1 >= Limits.sustainedSeconds {
            // What is still queued for a flooding client is of no use to anyone.
            outgoing.removeAll()
            outgoingHead = 0
            pendingBytes = 0
            send(.error(code: .rateLimited, message: "over \(Limits.messagesPerSecond) messages a second, sustained"))
            server.log(.warn, "refusal", session: id, "rate limited, closing")
            close(1008, "rate limited")
        } else if !warnedThisWindow {
            warnedThisWindow = true
            send(.error(code: .rateLimited, message: "over \(Limits.messagesPerSecond) messages a second: dropping"))
        }
        return false
    }

    private func handleHello(_ m: ClientMessage, hello: Hello, at ms: Double, now: Double) {
        let hub = server.hubs[hello.board]
        let out = session.handle(m.event, seq: m.seq, at: ms) { id in hub?.board.id == id ? hub?.board : nil }
        if session.boardID != nil, let hub {
            self.hub = hub
            commitOrder = session.config?.commitOrder ?? .full
            inlineEvents = session.config?.events == .inline
            hub.join(self)
            if let dir = server.config.recordDir {
                recorder = Recorder(dir: dir, session: id, board: hub.board, hello: rx, ms: ms,
                                    maxBytes: server.config.recordMaxBytes, rate: server.recordingRate, log: server.log)
            }
            server.log(.info, "hello", session: id, "board \(hub.board.id) v\(hub.board.version)")
        }
        deliver(out, now: now)
    }

    // MARK: Timers

    /// A timer fires from the server's clock only when no message is waiting on the socket: a
    /// message sent before the due time handles it itself (`Session.handle` fires due timers
    /// first), however late a busy server reads it.
    func fireTimer() {
        armedDeadline = nil
        let now = server.now
        guard let d = Self.deadline(of: &session), clock.serverFireTime(due: d) <= now else { return schedule() }
        if socketHasInput() { return schedule(retryMs: 2) }
        let ms = clock.serverEvent(serverNow: now)
        recorder?.recordAdvance(ms: ms)
        deliver(session.fire(at: ms), now: now)
    }

    private func socketHasInput() -> Bool {
        var pending: Int32 = 0
        let fd = lws_get_socket_fd(wsi)
        return fd >= 0 && ioctl(fd, UInt(FIONREAD), &pending) == 0 && pending > 0
    }

    func schedule(retryMs: Double = 0) {
        guard let d = Self.deadline(of: &session) else {
            if let timer, armedDeadline != nil { lws_sul_cancel(&timer.pointee.sul) }
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
        if timer == nil { timer = clws_timer_new(Unmanaged.passUnretained(self).toOpaque()) }
        let us = max(retryMs, fireAt - server.now) * 1000
        lws_sul_schedule(server.context, 0, &timer!.pointee.sul, connectionTimerFired, lws_usec_t(us.rounded(.up)))
    }

    /// The session's next deadline, read in place: a plain read of a property of `session`
    /// copies the whole Session first (about 1,000 instructions on every input).
    private static func deadline(of session: inout Session) -> Double? { session.nextDeadline }

    // MARK: Sending

    /// Hands the session's outputs to the hub (commits) and queues them for the client.
    func deliver(_ events: [ServerEvent], now: Double, barrier initial: Int = 0) {
        let events = inlineEvents ? events.inliningEvents() : events
        var barrier = initial
        for e in events {
            var e = e
            switch e {
            case .persist(let c):
                // This session's own commit: persisted by the hub, sent once durable.
                barrier = hub?.commit(c, from: self) ?? 0
                e = .commit(c)
            case .commit(let c):
                barrier = max(barrier, c.version)
            default:
                break
            }
            // These end the session (contract §5): the error goes out, then the close.
            var fatal: ErrorCode?
            if case .error(let code, _) = e, [.noHello, .version, .noBoard].contains(code) { fatal = code }
            queue(Outgoing(event: e, raw: nil, barrier: barrier, queuedAt: now, size: 0))
            if let fatal {
                server.log(.warn, "refusal", session: id, fatal.rawValue)
                close(1008, fatal.rawValue)
            }
        }
        schedule()
    }

    func send(_ e: ServerEvent) {
        queue(Outgoing(event: e, raw: nil, barrier: 0, queuedAt: server.now, size: 0))
    }

    func queue(_ o: consuming Outgoing) {
        if o.size == 0, let e = o.event { o.size = e.estimatedSize(commitOrder: commitOrder) }
        let size = o.size
        // Frames waiting behind each other merge: the client gets the latest state.
        if case .frame(let f)? = o.event, outgoing.count > outgoingHead, case .frame(let g)? = outgoing[outgoing.count - 1].event,
           outgoing[outgoing.count - 1].barrier == o.barrier {
            outgoing[outgoing.count - 1].event = .frame(g.merged(with: f))
        } else {
            pendingBytes += size
            outgoing.append(o)
        }
        // One big message (a whole order on a huge board) is not a slow reader: the bound
        // leaves room for twice the message being queued; time catches a client that stalls.
        let maxPending = max(mode == .echo ? 4 * Limits.maxEchoMessageBytes : Limits.maxPendingBytes, 2 * size)
        if pendingBytes > maxPending || server.now - outgoing[outgoingHead].queuedAt > Limits.maxPendingMs {
            server.log(.warn, "refusal", session: id, "slow reader: \(pendingBytes) bytes pending")
            outgoing.removeAll()
            outgoingHead = 0
            pendingBytes = 0
            close(1008, "too far behind")
            return abandon()
        }
        // In this connection's own receive callback the message goes out before it returns;
        // anywhere else, at the next writeable callback.
        if inReceive { writeWanted = true } else { lws_callback_on_writable(wsi) }
    }

    /// Asks for the connection to close with `code` once the callback can.
    func close(_ code: Int32, _ reason: String) {
        guard closing == nil else { return }
        closing = (code, reason)
        lws_callback_on_writable(wsi)
    }

    /// The hub applied a commit made by another session on this board.
    func external(_ c: Commit) {
        let now = server.now
        let ms = clock.serverEvent(serverNow: now)
        recorder?.recordExternal(c, ms: ms)
        deliver(session.handle(.external(c), at: ms), now: now, barrier: c.version)
    }
}

/// The lws timer callback: finds the connection from the timer and fires its session.
func connectionTimerFired(_ sul: UnsafeMutablePointer<lws_sorted_usec_list_t>?) {
    guard let sul, let owner = clws_timer_owner(sul) else { return }
    Unmanaged<Connection>.fromOpaque(owner).takeUnretainedValue().fireTimer()
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
        case .frame(let f): 80 + f.cells.count * 170 + f.snapshots.count * 100 + f.gone.count * 12 + f.events.count * 120
        case .commit(let c), .persist(let c): 100 + c.order.reduce(0) { $0 + 30 + $1.items.count * 10 }
        default: 120
        }
    }
}
