/// One connection's state machine: client events in (with the time), server events out,
/// timers as a next deadline. The server and `liftboard replay` drive the very same type.
///
/// - `handle(_:seq:at:boards:)` first fires every timer due at or before `now`, then handles
///   the event. `boards` is asked only for `hello`, for the board it names.
/// - `fire(at:)` fires the timers due at or before `now`; drivers call it at `nextDeadline`.
/// - A `.commit` among the outputs whose `by` is this session's id is a new commit: its
///   `version` is the session's board version + 1. The driver persists it and hands it to the
///   other sessions on the board as `.external(commit)`; they answer with `.commit` too (the
///   message every session on a board receives) and animate to the new order.
public struct Session: Sendable {
    public let id: String
    private var live: LiveSession?

    public init(id: String) {
        self.id = id
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

    /// The live order (dragged items at their live places).
    public var liveOrder: [SectionOrder]? { live?.arr.order }

    /// The committed order as this session knows it.
    public var committedOrder: [SectionOrder]? { live?.baseOrder }

    /// The content's scroll offset.
    public var scrollY: Double? { live?.scrollY }

    public mutating func handle(_ event: ClientEvent, seq: Int? = nil, at now: Double,
                                boards: (String) -> Board?) -> [ServerEvent] {
        guard live != nil else { return start(event, seq: seq, at: now, boards: boards) }
        if case .hello = event {
            return [.error(code: .badMessage, message: "hello: the session has already started")]
        }
        return live!.handle(event, seq: seq, at: now)
    }

    /// `handle` for a session that has started (every event but `hello`).
    public mutating func handle(_ event: ClientEvent, seq: Int? = nil, at now: Double) -> [ServerEvent] {
        handle(event, seq: seq, at: now, boards: { _ in nil })
    }

    public mutating func fire(at now: Double) -> [ServerEvent] {
        guard live != nil else { return [] }
        return live!.fire(at: now)
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
        live = session
        return out
    }
}
