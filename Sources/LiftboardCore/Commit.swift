/// A committed order: durable before it is sent; `order` is the truth, `moves` describe it,
/// `change` says what made it (absent on commits from before changes were kept).
public struct Commit: Hashable, Sendable {
    public var board: String
    public var version: Int
    public var by: String
    public var moves: [Move]
    public var order: [SectionOrder]
    public var change: Change?
    /// Issue 42: the user who made it (a token's `sub`; an API write's token) and the name shown
    /// for them; nil for a session without a user, and for commits made before users.
    public var user: String?
    public var name: String?
    public init(board: String, version: Int, by: String, moves: [Move], order: [SectionOrder], change: Change? = nil,
                user: String? = nil, name: String? = nil) {
        self.board = board; self.version = version; self.by = by; self.moves = moves; self.order = order
        self.change = change; self.user = user; self.name = name
    }
}

/// Why a message was refused (contract §5).
public enum ErrorCode: String, Sendable, Hashable, CaseIterable {
    /// Not JSON, or not a JSON object.
    case badJSON = "bad_json"
    /// A wrong, missing or out-of-range field, or a message that makes no sense now.
    case badMessage = "bad_message"
    /// `t` names no message type.
    case unknownType = "unknown_type"
    /// The first message was not `hello`.
    case noHello = "no_hello"
    /// `hello.v` is not 1.
    case version = "version"
    /// Over 64 KiB.
    case tooLarge = "too_large"
    /// Over 1,000 messages a second.
    case rateLimited = "rate_limited"
    /// `hello.board` names no board.
    case noBoard = "no_board"
    /// The token is missing or wrong.
    case unauthorized = "unauthorized"
    /// The store could not write the drop (disk full, database gone): the drop is refused
    /// and a `layout` puts the session back on the last durable order.
    case storeUnavailable = "store_unavailable"
    /// `undo` with nothing to undo, or whose items moved since the commit it would revert.
    case cannotUndo = "cannot_undo"
    /// A change that would place an item where a section's rule refuses it (`accepts`, `max`,
    /// `copy`, `drop`): it is applied as nothing; the message names the rule.
    case ruleRefused = "rule_refused"
    /// `moveTo` that cannot be done: an unknown, pinned or held item, a section that is not
    /// its own for `up`/`down`, or a place it is at already.
    case cannotMove = "cannot_move"
    /// The store found the drop changes nothing (another change came first and made it moot):
    /// a `layout` puts the session on the store's order.
    case dropMoot = "drop_moot"
    /// The session's role does not allow it (issue 42): a `view` session's key reorder,
    /// `moveTo`, `undo` or tap-to-add; a `move` session's palette copy or trash by key or
    /// `moveTo`. Nothing changes and the session goes on.
    case roleForbids = "role_forbids"
}
