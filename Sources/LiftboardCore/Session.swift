/// One connection's state machine: client events in (with the time), server events out,
/// timers as a next deadline. The server and `liftboard replay` drive the very same type.
///
/// - `handle(_:seq:at:boards:)` first fires every timer due at or before `now`, then handles
///   the event. `boards` is asked only for `hello`, for the board it names.
/// - `fire(at:)` fires the timers due at or before `now`; drivers call it at `nextDeadline`.
/// - A `.commit` among the outputs carries `version` = the session's board version + 1 and
///   `by` = the session id; the driver persists it and hands it to the other sessions on the
///   board as `.external(commit)`.
public struct Session: Sendable {
    public let id: String

    public init(id: String) {
        self.id = id
    }

    /// The board this session is on, after a successful `hello`.
    public private(set) var boardID: String? = nil

    /// When the session next needs `fire(at:)`, or `nil` when nothing is pending.
    public var nextDeadline: Double? { nil }

    public mutating func handle(_ event: ClientEvent, seq: Int? = nil, at now: Double,
                                boards: (String) -> Board?) -> [ServerEvent] {
        []
    }

    public mutating func fire(at now: Double) -> [ServerEvent] {
        []
    }
}
