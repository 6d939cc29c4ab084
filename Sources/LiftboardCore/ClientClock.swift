/// Maps a client's clock onto the server's monotonic clock, so that a live session runs on the
/// client's `ms` exactly as a replay of its stream does (contract §1, "Time").
///
/// The offset is NTP's lower bound: the smallest `server time - ms` seen. A message that took
/// the least time to arrive gives it, so `server time - offset` is the client's clock as late as
/// the fastest message seen (never ahead of what the client has already sent). Pure: the driver
/// passes the server's clock in.
///
/// Bounds, so a client cannot lie its way out of them:
/// - the session's time never goes back: a smaller `ms` is taken as the last one;
/// - the client's clock may run ahead of the first mapping by at most `maxLeadMs` in all (the
///   first message's extra latency and drift between the two clocks are far smaller); beyond
///   that its `ms` is clamped, so the session's time never outruns the server's by more.
/// - timers fire from the server's clock `timerAllowanceMs` after their mapped due time when no
///   message has come: a message sent before the due time but delayed by more than the fastest
///   message, by up to that allowance, still counts before the timer.
public struct ClientClock: Sendable, Equatable {
    /// How long after a timer's mapped due time the server fires it when no message came:
    /// the jitter of a network path (beyond its fastest message) that the server waits out.
    public static let timerAllowanceMs = 50.0
    /// How far, in all, the client's clock may run ahead of the first mapping.
    public static let maxLeadMs = 1000.0

    /// `server time - client ms`, the smallest seen (after clamping); nil before any `ms`.
    public private(set) var offset: Double?
    /// The first offset: the limit of how far `offset` may come down.
    public private(set) var firstOffset: Double?
    /// The session's time: the last client ms used (never decreases).
    public private(set) var last: Double = 0
    /// Whether the offset came from a message with a real `ms` (a `hello` without one only
    /// gives a provisional mapping, replaced by the first real sample).
    private var measured = false
    /// Added to every `ms` from the first real sample on: how far the session's time had gone
    /// under the provisional mapping (other sessions' commits and presence, timers) past that
    /// sample. A client whose clock starts at 0 after a `hello` without `ms` goes on from the
    /// session's time, rather than standing still until its clock catches up with it. Zero
    /// for a client that sends `ms` in its `hello` (the page).
    public private(set) var shift: Double = 0

    public init() {}

    /// The session time for a client message carrying `ms` (nil: a `hello` without one),
    /// received at `serverNow`. Learns the offset, applies the bounds.
    public mutating func message(ms: Double?, serverNow: Double) -> Double {
        guard var ms else {
            if offset == nil { offset = serverNow - last; firstOffset = offset }
            return last
        }
        if !measured {
            // The first real sample is the mapping: the bounds below then leave it as it is.
            measured = true
            shift = max(0, last - ms)
            offset = serverNow - (ms + shift); firstOffset = offset
        }
        ms += shift
        let floor = firstOffset! - Self.maxLeadMs
        let sample = serverNow - ms
        // Ahead of what the lead allows: clamp the message to the mapping's limit.
        let t = sample < floor ? serverNow - floor : ms
        offset = min(offset!, max(sample, floor))
        last = max(last, t)
        return last
    }

    /// Server time at which a timer due at client time `due` fires when no message comes.
    public func serverFireTime(due: Double) -> Double {
        due + (offset ?? 0) + Self.timerAllowanceMs
    }

    /// The session time for something the server originates at `serverNow` (a timer, another
    /// session's commit): the mapped client clock, less the allowance, never going back.
    public mutating func serverEvent(serverNow: Double) -> Double {
        if let offset { last = max(last, serverNow - offset - Self.timerAllowanceMs) }
        return last
    }
}
