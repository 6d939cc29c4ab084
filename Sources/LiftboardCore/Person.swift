/// Who a session or an API request acts for (issue 42): the user a token names, the name shown
/// to others, and the role on the board. Without tokens (`Person.open`) there is no user and
/// the role is `edit`, as the server behaved before tokens.
public struct Person: Hashable, Sendable {
    /// The token's `sub`: nil for a session admitted without a token.
    public var user: String?
    /// The token's `name`, shown to others; nil when the token has none.
    public var name: String?
    public var role: Role

    public init(user: String? = nil, name: String? = nil, role: Role) {
        self.user = user
        self.name = name
        self.role = role
    }

    /// A session on a server without `--auth-keys`, and `replay`/`test` unless a stream names
    /// another: no user, role `edit`.
    public static let open = Person(role: .edit)
}

/// What a token lets its holder do on the boards it names, each role including the ones
/// below it: `view` < `move` < `edit` < `admin` (issue 42, "Roles").
public enum Role: String, Hashable, Sendable, CaseIterable, Comparable {
    /// Sees the board live, scrolls and pans; lifts nothing.
    case view
    /// Every gesture, keyboard reorder and Move to…; a token's role when it names none.
    case move
    /// Also palettes, trash and the API's item and section edits.
    case edit
    /// Also creating, replacing and deleting boards and their rules.
    case admin

    private var rank: Int {
        switch self {
        case .view: 0
        case .move: 1
        case .edit: 2
        case .admin: 3
        }
    }

    public static func < (a: Role, b: Role) -> Bool { a.rank < b.rank }

    /// Whether this role has every right of `other`.
    public func includes(_ other: Role) -> Bool { self >= other }
}
