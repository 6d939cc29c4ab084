import LiftboardCore

/// A client message as it came off the wire: the event, plus the envelope fields every
/// message may carry.
public struct ClientMessage: Hashable, Sendable {
    public var event: ClientEvent
    /// The client's sequence number, echoed back as `ack` in frames.
    public var seq: Int?
    /// The message's `ms`; `nil` when absent (allowed on `hello` only).
    public var ms: Double?
    public init(event: ClientEvent, seq: Int? = nil, ms: Double? = nil) {
        self.event = event; self.seq = seq; self.ms = ms
    }
}

/// Why a message was refused, as the `error` message reports it.
public struct WireError: Error, Hashable, Sendable {
    public var code: ErrorCode
    public var message: String
    public init(code: ErrorCode, message: String) { self.code = code; self.message = message }
}

/// The protocol's JSON codec (contract §3, §5). Output bytes are deterministic: keys in the
/// contract's order, numbers in one canonical form.
public enum Wire {
    /// Messages over this many bytes are refused with `too_large`.
    public static let maxMessageBytes = 65_536
}
