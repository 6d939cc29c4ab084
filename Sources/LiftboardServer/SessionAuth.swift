import LiftboardCore
import LiftboardWire

/// A session's token over its life (issue 42), as a value: who it acts for, the board its URL
/// named, when the token expires and whether the client was warned. Times are server ms (the
/// performer maps a token's `exp` onto the server's clock once, when it admits the token);
/// nothing here reads a clock.
///
///     var auth = SessionAuth(person: ada, board: "demo", expiresAt: 90_000, warningMs: 60_000)
///     auth.nextDeadline            // 30_000: the warning
///     auth.due(now: 30_000)        // .warn(msLeft: 60_000)
///     auth.nextDeadline            // 90_000: the expiry
///     auth.due(now: 90_000)        // .expire
struct SessionAuth: Equatable, Sendable {
    var person: Person
    /// The board the WebSocket URL named (`/ws?board=B`); nil: none named (no `--auth-keys`).
    var board: String?
    /// When the token expires (server ms); nil: never (no token, or a shared `--token`).
    private(set) var expiresAt: Double?
    /// How long before `expiresAt` the client is told `token_expiring`.
    let warningMs: Double
    /// Whether `token_expiring` went out for the current token.
    private(set) var warned = false
    /// The loop's expiry timer.
    var timer = TimerSchedule()

    init(person: Person = .open, board: String? = nil, expiresAt: Double? = nil, warningMs: Double = 60_000) {
        self.person = person
        self.board = board
        self.expiresAt = expiresAt
        self.warningMs = warningMs
    }

    /// What comes due.
    enum Due: Equatable, Sendable {
        /// Send `token_expiring` with this many ms left.
        case warn(msLeft: Double)
        /// The token has expired: the session ends (4401 `token_expired`).
        case expire
    }

    /// When something next comes due (server ms), nil: never.
    var nextDeadline: Double? {
        guard let expiresAt else { return nil }
        return warned ? expiresAt : expiresAt - warningMs
    }

    /// What is due at `now`: nil for a timer that fired early (the loop's clock is a turn old).
    mutating func due(now: Double) -> Due? {
        guard let expiresAt else { return nil }
        if now >= expiresAt { return .expire }
        if !warned, now >= expiresAt - warningMs {
            warned = true
            return .warn(msLeft: expiresAt - now)
        }
        return nil
    }

    /// A new token was accepted: its person (the role may change) and its expiry.
    mutating func renew(person: Person, expiresAt: Double?) {
        self.person = person
        self.expiresAt = expiresAt
        warned = false
    }

    /// Where the loop's timer must stand at `now`.
    mutating func schedule(now: Double) -> TimerSchedule.Command? {
        timer.schedule(fireAt: nextDeadline, now: now)
    }
}

/// The messages of the token's life the server writes itself (docs/protocol.md, "Tokens"):
/// not `ServerEvent`s of the engine, so written here as bytes.
enum AuthMessages {
    /// `{"t":"token_expiring","ms":N}`
    static func expiring(msLeft: Double) -> [UInt8] {
        var w = JSONWriter()
        w.beginObject(); w.key("t"); w.string("token_expiring"); w.key("ms"); w.int(Int(msLeft.rounded(.down))); w.endObject()
        return w.bytes
    }

    /// `{"t":"token_renewed","role":R,"ms":N}`: an `auth` message's token was accepted, and
    /// expires in N ms (no `ms`: it does not expire).
    static func renewed(role: Role, msLeft: Double?) -> [UInt8] {
        var w = JSONWriter()
        w.beginObject(); w.key("t"); w.string("token_renewed"); w.key("role"); w.string(role.rawValue)
        if let msLeft { w.key("ms"); w.int(Int(msLeft.rounded(.down))) }
        w.endObject()
        return w.bytes
    }

    /// `{"t":"error","code":C,"message":M}` with a code of the token's (`token_expired`,
    /// `board_forbidden`, ...), which the engine's `ErrorCode` does not list.
    static func error(code: String, message: String) -> [UInt8] {
        var w = JSONWriter()
        w.beginObject(); w.key("t"); w.string("error"); w.key("code"); w.string(code); w.key("message"); w.string(message); w.endObject()
        return w.bytes
    }

    /// The token of an `{"t":"auth","token":T}` message; nil when the message is not one.
    static func authToken(_ message: UnsafeRawBufferPointer) -> String?? {
        guard let v = try? JSONParser.parse(Array(message)), case .object = v, case .string("auth")? = v["t"] else { return nil }
        if case .string(let token)? = v["token"] { return .some(token) }
        return .some(nil)
    }
}
