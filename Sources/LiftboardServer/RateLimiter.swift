/// How much of something may happen per window of time: `limit` units (messages, lines, bytes,
/// lookups) in each window of `windowMs` milliseconds, a window starting with the first ask
/// after the last one ended. What is over the limit is refused and counted. Pure: the caller
/// passes its clock in (ms, never going back), so a test drives it with plain numbers.
///
/// The one limiter of the server: board lookups (`Limits.boardLookupsPerSecond`), log lines of
/// one kind (`LogLimiter`), recording bytes (`RecordingRate`), and a session's messages.
///
///     var lookups = RateLimiter(limit: 50, windowMs: 1000)
///     if lookups.admit(now: now).admitted { listener.lookUp(board: id) }
struct RateLimiter: Equatable, Sendable {
    /// Units admitted per window.
    let limit: Int
    let windowMs: Double
    /// When the current window started; nil before the first ask.
    private(set) var windowStart: Double?
    /// Units admitted in the current window.
    private(set) var used = 0
    /// Asks refused in the current window.
    private(set) var refusedInWindow = 0
    /// Asks refused since the last one admitted (across windows).
    private(set) var refusedSinceAdmitted = 0
    /// Windows in a row, up to the last one that ended, with an ask refused; an empty window
    /// between breaks the row.
    private(set) var overWindowsBefore = 0

    init(limit: Int, windowMs: Double = 1000) {
        self.limit = limit
        self.windowMs = windowMs
    }

    /// What `admit` decided.
    struct Decision: Equatable, Sendable {
        /// Whether the units may go.
        var admitted: Bool
        /// Admitted: how many asks were refused since the last admitted one (a log line says
        /// how many like it were left out). Refused: 0.
        var refusedBefore = 0
        /// Refused: whether this is the window's first refusal (warn once a window).
        var firstRefusalInWindow = false
        /// Refused: the windows in a row with a refusal, this one included (close after N).
        var overWindowsInARow = 0
    }

    /// Asks for `cost` units at `now` (ms).
    mutating func admit(_ cost: Int = 1, now: Double) -> Decision {
        roll(now)
        guard used + cost <= limit else {
            refusedInWindow += 1
            refusedSinceAdmitted += 1
            return Decision(admitted: false, firstRefusalInWindow: refusedInWindow == 1, overWindowsInARow: overWindowsBefore + 1)
        }
        used += cost
        defer { refusedSinceAdmitted = 0 }
        return Decision(admitted: true, refusedBefore: refusedSinceAdmitted)
    }

    /// Whether the current window has ended by `now`: a table of limiters may drop this one
    /// (its count of refusals goes with it).
    func windowEnded(now: Double) -> Bool {
        guard let windowStart else { return true }
        return now - windowStart >= windowMs
    }

    private mutating func roll(_ now: Double) {
        guard let start = windowStart else { windowStart = now; return }
        guard now - start >= windowMs else { return }
        // The window that ended had a refusal: the row goes on if no empty window came between.
        let contiguous = now - start < 2 * windowMs
        overWindowsBefore = refusedInWindow > 0 && contiguous ? overWindowsBefore + 1 : 0
        windowStart = now
        used = 0
        refusedInWindow = 0
    }
}
