import LiftboardCore
import LiftboardWire

/// The client's inputs: its bytes, the board its hello names looked up, the hello deadline and
/// the session's timer.
extension ConnectionMachine {
    // MARK: Receiving

    /// One fragment of a message arrived at `now` (server ms). `boards` answers which boards
    /// this process has (asked for a `hello` only).
    mutating func received(_ bytes: UnsafeRawBufferPointer, final: Bool, binary: Bool, now: Double,
                           boards: (String) -> Board?, into out: inout [Action]) {
        // What a message sent in one frame queues is written before the callback returns; lws
        // answers pings (which may come between fragments) and a close itself, and those
        // answers must not be overtaken.
        let direct = final && reader.mayWriteDirectly
        // Once a close is decided, nothing more this client says is acted on.
        if isClosing {
            reader.skip(final: final)
        } else {
            handle(bytes, final: final, binary: binary, now: now, boards: boards, into: &out)
        }
        finish(direct: direct, into: &out)
    }

    private mutating func handle(_ bytes: UnsafeRawBufferPointer, final: Bool, binary: Bool, now: Double,
                                 boards: (String) -> Board?, into out: inout [Action]) {
        let limit = mode == .echo ? bounds.maxEchoMessageBytes : bounds.maxMessageBytes
        // The usual: a whole message in one frame, read where lws has it, not copied first.
        switch reader.receive(bytes, final: final, limit: limit, inPlace: mode == .liftboard) {
        case .partial:
            return
        case .whole:
            guard admit(now: now, into: &out) else { return }
            if isWaitingForBoard { return holdUntilBoard(Array(bytes), now: now, into: &out) }
            process(bytes, now: now, boards: boards, into: &out)
        case .tooLarge:
            if mode == .echo { return close(1009, "message too large") }
            send(.error(code: .tooLarge, message: "messages are limited to \(bounds.maxMessageBytes) bytes"), now: now, into: &out)
            out.append(.log(.warn, event: "refusal", detail: "message over \(bounds.maxMessageBytes) bytes"))
            close(1009, "message too large")
        case .assembled(let message):
            if mode == .echo {
                return queue(.raw(message, binary: binary), barrier: 0, size: message.count, now: now, into: &out)
            }
            defer { reader.recycle(message) }
            guard admit(now: now, into: &out) else { return }
            if isWaitingForBoard { return holdUntilBoard(message, now: now, into: &out) }
            message.withUnsafeBytes { process($0, now: now, boards: boards, into: &out) }
        }
    }

    /// One whole message, admitted.
    private mutating func process(_ message: UnsafeRawBufferPointer, now: Double, boards: (String) -> Board?,
                                  into out: inout [Action]) {
        // Most of what a client sends: a move, read by the one move decoder straight into the
        // engine's step, without a `ClientMessage` (built, copied out of its `Result` and
        // destroyed, about 250 Ir) or an event: the page's form first, as a plain value. Any
        // other pointer message comes from the one reading (read once: a second reading by
        // `decodeClient` cost about 1,000 Ir a press).
        if case .live = state {
            if let m = Wire.pageMove(message) { return move(m.pointer, to: m.at, seq: m.seq, ms: m.ms, message: message, now: now, into: &out) }
            switch Wire.pointer(message) {
            case .move(let m)?: return move(m.pointer, to: m.at, seq: m.seq, ms: m.ms, message: message, now: now, into: &out)
            case .other(let m)?: return decoded(m, message, now: now, boards: boards, into: &out)
            case nil: break
            }
        }
        general(message, now: now, boards: boards, into: &out)
    }

    /// A message the pointer reading does not take (or any, before the session is live).
    private mutating func general(_ message: UnsafeRawBufferPointer, now: Double, boards: (String) -> Board?,
                                  into out: inout [Action]) {
        switch Wire.decodeClient(message) {
        case .failure(let e):
            // `auth` is the token's, not the engine's: looked for only where the engine finds
            // no message type it knows (never on the way of a move).
            if e.code == .unknownType, case .some(let token) = AuthMessages.authToken(message) {
                return authRequested(token: token, now: now, into: &out)
            }
            send(.error(code: e.code, message: e.message), now: now, into: &out)
        case .success(let m):
            decoded(m, message, now: now, boards: boards, into: &out)
        }
    }

    /// Message `m`, decoded from `message`.
    private mutating func decoded(_ m: ClientMessage, _ message: UnsafeRawBufferPointer, now: Double, boards: (String) -> Board?,
                                  into out: inout [Action]) {
        switch m.event {
        case .advance, .external, .resync, .rebase, .presence, .claim:
            send(.error(code: .badMessage, message: "\(m.event.typeName): replay only"), now: now, into: &out)
            return
        default: break
        }
        if case .hello(let h) = m.event, case .awaitingHello(let authorized, let lookedUp) = state {
            return hello(h, m, message, authorized: authorized, lookedUp: lookedUp, now: now, boards: boards, into: &out)
        }
        let ms = clock.message(ms: m.ms, serverNow: now)
        if recording { out.append(.record(.message(Array(message), ms: ms))) }
        deliver(session.handle(m.event, seq: m.seq, at: ms), now: now, into: &out)
    }

    /// The first `hello` (`h`, of message `m`, whose bytes are `message`).
    private mutating func hello(_ h: Hello, _ m: ClientMessage, _ message: UnsafeRawBufferPointer, authorized: Bool, lookedUp: Bool,
                                now: Double, boards: (String) -> Board?, into out: inout [Action]) {
        if !authorized {
            send(.error(code: .unauthorized, message: "a valid token is required"), now: now, into: &out)
            return close(4401, "unauthorized")
        }
        if let required = auth.board, h.board != required {
            queue(.raw(AuthMessages.error(code: "board_forbidden", message: "the hello names another board than the URL's (?board=)"), binary: false),
                  barrier: 0, size: 96, now: now, into: &out)
            out.append(.log(.warn, event: "refusal", detail: "hello for another board than the URL's"))
            return close(4403, "board_forbidden")
        }
        let board = boards(h.board)
        if board == nil, !lookedUp {
            state = .waitingForBoard(held: [Array(message)])
            out.append(.lookUpBoard(h.board))
            return
        }
        let ms = clock.message(ms: m.ms, serverNow: now)
        let events = session.handle(m.event, seq: m.seq, at: ms) { board?.id == $0 ? board : nil }
        if session.boardID != nil, let board {
            state = .live(Live(commitOrder: session.config?.commitOrder ?? .full))
            out.append(.join(board: board.id, hello: Array(message), ms: ms))
        }
        deliver(events, now: now, into: &out)
    }

    /// A move, on the client's clock `ms`.
    private mutating func move(_ pointer: Int, to at: Point, seq: Int?, ms clientMs: Double?, message: UnsafeRawBufferPointer,
                               now: Double, into out: inout [Action]) {
        let ms = clock.message(ms: clientMs, serverNow: now)
        if recording { out.append(.record(.message(Array(message), ms: ms))) }
        // Into the machine's own buffer, taken for the while: unique, so emptied in place.
        var events: [ServerEvent] = []
        swap(&events, &moveEvents)
        session.move(pointer, to: at, seq: seq, at: ms, into: &events)
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
            state = .awaitingHello(authorized: true, lookedUp: false)
            send(.error(code: .badMessage, message: "over \(bounds.heldBeforeBoard) messages before the board was found"), now: now, into: &out)
            out.append(.forgetLookup)
            return close(1008, "too many messages before welcome")
        }
        state = .waitingForBoard(held: [])  // drops the enum's reference: `held` grows in place
        held.append(message)
        state = .waitingForBoard(held: held)
    }

    /// The shared store answered about the board the hello waits for (`boards` has it now, or
    /// there is none): the held messages are handled in order.
    mutating func boardLookupAnswered(now: Double, boards: (String) -> Board?, into out: inout [Action]) {
        guard case .waitingForBoard(let held) = state else { return }
        // Only an authorized hello is looked up.
        state = .awaitingHello(authorized: true, lookedUp: true)
        for message in held {
            if isWaitingForBoard {
                holdUntilBoard(message, now: now, into: &out)
            } else if !isClosing {
                message.withUnsafeBytes { process($0, now: now, boards: boards, into: &out) }
            }
        }
        finish(direct: false, into: &out)
    }

    /// Counts a message against the rate limit (`rate`); false when it must be dropped: the
    /// first refusal of a second warns, a flood sustained for `bounds.sustainedSeconds` closes.
    private mutating func admit(now: Double, into out: inout [Action]) -> Bool {
        let decision = rate.admit(now: now)
        if decision.admitted { return true }
        if decision.overWindowsInARow >= bounds.sustainedSeconds {
            // What is still queued for a flooding client is of no use to anyone.
            outgoing.removeAll()
            send(.error(code: .rateLimited, message: "over \(bounds.messagesPerSecond) messages a second, sustained"), now: now, into: &out)
            out.append(.log(.warn, event: "refusal", detail: "rate limited, closing"))
            close(1008, "rate limited")
        } else if decision.firstRefusalInWindow {
            send(.error(code: .rateLimited, message: "over \(bounds.messagesPerSecond) messages a second: dropping"), now: now, into: &out)
        }
        return false
    }

    /// The client sent a close frame.
    mutating func peerSentClose() { reader.peerSentClose() }

    // MARK: Time

    /// The hello deadline passed (`bounds.helloTimeout` after the upgrade): closes unless a
    /// hello started the session.
    mutating func helloDeadlinePassed(now: Double, into out: inout [Action]) {
        let timeout = bounds.helloTimeout
        switch state {
        case .waitingForBoard:
            // The hello came; the shared store did not say in time whether its board exists.
            state = .awaitingHello(authorized: true, lookedUp: false)
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
        timer.fired()
        guard let d = Self.deadline(of: &session), clock.serverFireTime(due: d) <= now else { return schedule(now: now, into: &out) }
        if socketHasInput() {
            if case .arm(let afterMs) = timer.retry(afterMs: 2) { out.append(.armTimer(afterMs: afterMs)) }
            return
        }
        let ms = clock.serverEvent(serverNow: now)
        if recording { out.append(.record(.advance(ms: ms))) }
        deliver(session.fire(at: ms), now: now, into: &out)
        finish(direct: false, into: &out)
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
        case .toggle: "toggle"
        case .advance: "advance"
        case .external: "external"
        case .resync: "resync"
        case .rebase: "rebase"
        case .presence: "presence"
        case .claim(.required): "claims"
        case .claim: "claimed"
        }
    }
}
