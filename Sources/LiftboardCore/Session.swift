/// One connection's state machine: client events in (with the time), server events out,
/// timers as a next deadline. The server and `liftboard replay` drive the very same type.
///
/// - `handle(_:seq:at:boards:)` first fires every timer due at or before `now`, then handles
///   the event. `boards` is asked only for `hello`, for the board it names.
/// - `fire(at:)` fires the timers due at or before `now`; drivers call it at `nextDeadline`
///   (`drain(until:)` does that in a loop).
/// - A `.persist(commit)` among the outputs is this session's own new commit (`version` = the
///   session's board version + 1, `change` set). The driver persists it, hands it to the other
///   sessions on the board as `.external(commit)` (they answer with `.commit`), and sends it to
///   this client as `.commit` once it is durable.
public struct Session: Sendable {
    private enum State: Sendable {
        /// Nothing but `hello` can start it; errors leave it waiting (a replay goes on).
        case awaitingHello
        case live(LiveSession)
        /// The driver closed it: every event is ignored.
        case closed
    }

    public let id: String
    private var state: State = .awaitingHello

    public init(id: String) {
        self.id = id
    }

    private var live: LiveSession? {
        if case .live(let s) = state { return s }
        return nil
    }

    /// Runs `body` on the live session in place (no copy of its arrays).
    private mutating func withLive<R>(_ body: (inout LiveSession) -> R) -> R? {
        guard case .live(var s) = state else { return nil }
        state = .closed
        defer { state = .live(s) }
        return body(&s)
    }

    /// The board this session is on, after a successful `hello`.
    public var boardID: String? { live?.boardID }

    /// The board's committed version as this session knows it.
    public var version: Int? { live?.version }

    /// The config in force, after `hello`.
    public var config: SessionConfig? { live?.config }

    /// When the session next needs `fire(at:)`, or `nil` when nothing is pending.
    public var nextDeadline: Double? { live?.nextDeadline }

    /// Whether any item is lifted right now.
    public var isDragging: Bool { live.map { !$0.drags.isEmpty } ?? false }

    /// Whether the driver has closed the session.
    public var isClosed: Bool { if case .closed = state { true } else { false } }

    /// The live order (dragged items at their live places).
    public var liveOrder: [SectionOrder]? { live?.arr.order }

    /// The committed order as this session knows it.
    public var committedOrder: [SectionOrder]? { live?.baseOrder }

    /// The committed board as this session knows it (edits included), attributes resolved.
    public var committedBoard: Board? { live?.committedBoard() }

    /// The content's scroll offset.
    public var scrollY: Double? { live?.scrollY }

    public mutating func handle(_ event: ClientEvent, seq: Int? = nil, at now: Double,
                                boards: (String) -> Board?) -> [ServerEvent] {
        switch state {
        case .awaitingHello:
            return start(event, seq: seq, at: now, boards: boards)
        case .closed:
            return []
        case .live:
            if case .hello = event {
                return [.error(code: .badMessage, message: "hello: the session has already started")]
            }
            return withLive { $0.handle(event, seq: seq, at: now) } ?? []
        }
    }

    /// `handle` for a session that has started (every event but `hello`).
    public mutating func handle(_ event: ClientEvent, seq: Int? = nil, at now: Double) -> [ServerEvent] {
        handle(event, seq: seq, at: now, boards: { _ in nil })
    }

    /// Fires the timers due at or before `now`, earliest first.
    public mutating func fire(at now: Double) -> [ServerEvent] {
        withLive { $0.fire(at: now) } ?? []
    }

    /// Fires timers at their deadlines until none is due at or before `limit` (`nil`: until
    /// nothing is pending). `settled` is false when `maxSteps` firings did not get there (a
    /// bug, not a stream).
    public mutating func drain(until limit: Double? = nil, maxSteps: Int = 1_000_000) -> (events: [ServerEvent], settled: Bool) {
        var out: [ServerEvent] = []
        var steps = 0
        while let d = nextDeadline, limit.map({ d <= $0 }) ?? true {
            steps += 1
            if steps > maxSteps { return (out, false) }
            out += fire(at: d)
        }
        return (out, true)
    }

    /// Makes `board`'s order and version the committed order, whatever the session had (the
    /// store's truth after a failed write, or after another process committed first); drags
    /// in flight keep their live places. Returns the `layout` to send, or nothing when the
    /// board's items are not this session's.
    public mutating func resync(to board: Board) -> [ServerEvent] {
        withLive { s in
            guard s.resync(to: board.order, version: board.version) else { return [] }
            return [s.makeLayout()]
        } ?? []
    }

    /// Ends the session (the connection went away): every drag in flight is cancelled, and
    /// nothing is handled afterwards.
    public mutating func close() {
        state = .closed
    }

    /// Everything that is wrong with the session's state, for tests: empty when sound.
    public func invariantViolations() -> [String] {
        live?.invariantViolations() ?? []
    }

    private mutating func start(_ event: ClientEvent, seq: Int?, at now: Double,
                                boards: (String) -> Board?) -> [ServerEvent] {
        guard case .hello(let hello) = event else {
            return [.error(code: .noHello, message: "the first message must be hello")]
        }
        guard hello.v == 1 else {
            return [.error(code: .version, message: "protocol version \(hello.v) is not supported (expected 1)")]
        }
        guard let board = boards(hello.board) else {
            return [.error(code: .noBoard, message: "no board \"\(hello.board)\"")]
        }
        var session = LiveSession(sessionID: id, board: board, hello: hello, at: now)
        let out = session.start(seq: seq, at: now)
        state = .live(session)
        return out
    }
}
