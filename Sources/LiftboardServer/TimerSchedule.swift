/// When a connection's session timer is armed, as a value: told the server time the session
/// next needs to fire (its `nextDeadline` mapped by the client's clock), it says whether to
/// arm the loop's timer, re-arm it or cancel it, and says nothing when the timer already
/// stands where it should (most inputs leave the deadline where it was: re-arming it is a
/// wasted walk of the loop's timer list).
///
///     var timer = TimerSchedule()
///     timer.schedule(fireAt: 600, now: 100)  // .arm(afterMs: 500)
///     timer.schedule(fireAt: 600, now: 120)  // nil: armed for that already
///     timer.schedule(fireAt: nil, now: 130)  // .cancel
struct TimerSchedule: Equatable, Sendable {
    /// What the loop's timer is to do.
    enum Command: Equatable, Sendable {
        /// Fire `afterMs` from now (replacing any earlier arming).
        case arm(afterMs: Double)
        case cancel
    }

    /// What the loop's timer stands armed for.
    private enum Armed: Equatable, Sendable {
        case idle
        /// The session's deadline, at this server time.
        case deadline(Double)
        /// A retry (`retry(afterMs:)`), for no deadline of the session's: the next `schedule`
        /// arms for the deadline again, whatever it is.
        case retry
    }

    private var armed = Armed.idle

    /// Whether the timer stands armed (for a deadline or a retry).
    var isArmed: Bool { armed != .idle }

    /// The session's next deadline fires at `fireAt` (server ms; nil: it has none).
    mutating func schedule(fireAt: Double?, now: Double) -> Command? {
        guard let fireAt else { return cancel() }
        // Keyed on the server time it fires at, which also moves when the client's clock does.
        if armed == .deadline(fireAt) { return nil }
        armed = .deadline(fireAt)
        // An overdue deadline fires at once.
        return .arm(afterMs: max(0, fireAt - now))
    }

    /// The deadline is due but the session cannot fire now (a message waits on the socket,
    /// which fires it itself): look again `afterMs` from now.
    mutating func retry(afterMs: Double) -> Command {
        armed = .retry
        return .arm(afterMs: afterMs)
    }

    /// The loop's timer fired: it stands armed no more.
    mutating func fired() { armed = .idle }

    /// The session has no deadline any more (it took another's state with none due): cancels
    /// an armed timer.
    mutating func cancel() -> Command? {
        guard isArmed else { return nil }
        armed = .idle
        return .cancel
    }
}
