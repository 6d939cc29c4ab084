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

    /// Decodes and validates one client message.
    public static func decodeClient(_ bytes: some Collection<UInt8>) -> Result<ClientMessage, WireError> {
        .failure(WireError(code: .badJSON, message: "not implemented yet"))
    }

    /// Encodes one server message as one line of JSON (no newline). `line` is added to
    /// `error` messages in a replay.
    public static func encode(_ event: ServerEvent, line: Int? = nil) -> [UInt8] {
        []
    }

    /// Decodes and validates a board file (contract §2).
    public static func decodeBoard(_ bytes: some Collection<UInt8>) throws(BoardError) -> Board {
        throw .missing(field: "id")
    }

    /// Encodes a board as `GET /api/boards/{id}` returns it: the board file's fields plus
    /// `version` and `order`.
    public static func encodeBoard(_ board: Board) -> [UInt8] {
        []
    }
}
