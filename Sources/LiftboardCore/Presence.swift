extension ServerEvent {
    /// A `lift`, a `moved` or a `drop`, or a frame carrying one (`hello.config.events:
    /// "inline"`, as the page asks): what the session holds, or where it would drop it, may
    /// have changed.
    public var changesHolds: Bool {
        switch self {
        case .lift, .moved, .drop: true
        case .frame(let f): f.events.contains(where: \.changesHolds)
        default: false
        }
    }
}

/// Who is on a board and what each holds (issue 44, contract "Presence"): the `presence`
/// message's body. `view` sessions are counted in `watching`, not listed.
public struct Presence: Hashable, Sendable {
    /// One session on the board that may move things (role above `view`).
    public struct Entry: Hashable, Sendable {
        /// The session's id (its `welcome`'s `session`).
        public var session: String
        /// The token's user, nil for a session admitted without one.
        public var user: String?
        /// The name shown to others: the token's, else "Guest N" (N the session's number).
        public var name: String
        /// `#rrggbb`, stable per user (per session for a guest): `Presence.color(for:)`.
        public var color: String
        public var role: Role
        /// The items the session holds, in the order it lifted them.
        public var holds: [String]
        /// Where the session's latest drag would drop now (its item's live place): moved by
        /// its `moved`, nil while it holds nothing.
        public var target: Place?

        public init(session: String, user: String? = nil, name: String, color: String, role: Role, holds: [String] = [],
                    target: Place? = nil) {
            self.session = session; self.user = user; self.name = name; self.color = color
            self.role = role; self.holds = holds; self.target = target
        }
    }

    public var board: String
    /// Ordered by session number (the order sessions joined the process), then id.
    public var people: [Entry] { didSet { (heldNames, holding) = Self.tables(people); link = nil } }
    /// Each held item's holder's name (the first listed wins): built once a presence, so that
    /// the thousand sessions of a board that take it share one table (`LiveSession.othersHold`).
    public private(set) var heldNames: [String: String]
    /// The sessions listed holding something (a session that lifts nothing and is not among
    /// them takes `heldNames` as is: one lookup, not a walk over the people).
    public private(set) var holding: Set<String>
    /// How this presence follows the one made before it on the same board, when the maker
    /// said so (`init(after:serial:)`, the hub's): nil for one read from a recording or built
    /// alone. Not part of the message: equality leaves it (and the tables) out.
    public private(set) var link: Link?
    /// How many `view` sessions watch the board.
    public var watching: Int
    /// Sessions above `view` that hold nothing and are not listed (a board of many: the list
    /// keeps every holder and the first few others).
    public var more: Int

    /// Which presence this one follows and what changed since (issue 44, "Presence's cost at
    /// a thousand sessions"): a session whose held names are the previous presence's table,
    /// taken whole, compares only `changed` with its window, not every cell of it.
    public struct Link: Sendable {
        /// This presence's number on its board (from 1).
        public var serial: Int
        /// The number of the presence it follows.
        public var base: Int
        /// The items whose holder's name differs between the two `heldNames` (held by someone
        /// else now, held no more, or newly held).
        public var changed: Set<String>
    }

    public init(board: String, people: [Entry], watching: Int, more: Int = 0) {
        self.board = board; self.people = people; self.watching = watching; self.more = more
        (heldNames, holding) = Self.tables(people)
        link = nil
    }

    /// A presence made right after `previous` on the same board, numbered `serial` (the
    /// maker's count, never reused for another presence of the board): it carries the items
    /// whose holder changed since, found once here for every session that takes it.
    public init(board: String, people: [Entry], watching: Int, more: Int = 0, after previous: Presence?, serial: Int) {
        self.init(board: board, people: people, watching: watching, more: more)
        guard let previous, let base = previous.link?.serial else {
            link = Link(serial: serial, base: 0, changed: Set(heldNames.keys))
            return
        }
        var changed = Set<String>()
        for (id, name) in heldNames where previous.heldNames[id] != name { changed.insert(id) }
        for id in previous.heldNames.keys where heldNames[id] == nil { changed.insert(id) }
        link = Link(serial: serial, base: base, changed: changed)
    }

    static func tables(_ people: [Entry]) -> ([String: String], Set<String>) {
        var names: [String: String] = [:], holding = Set<String>()
        for p in people where !p.holds.isEmpty {
            holding.insert(p.session)
            for id in p.holds where names[id] == nil { names[id] = p.name }
        }
        return (names, holding)
    }

    /// Two presences are equal when their messages are: the tables and the link follow.
    public static func == (a: Presence, b: Presence) -> Bool {
        a.board == b.board && a.people == b.people && a.watching == b.watching && a.more == b.more
    }

    public func hash(into h: inout Hasher) {
        h.combine(board); h.combine(people); h.combine(watching); h.combine(more)
    }

    /// The holder of each held item: item id to the holder's entry (the first listed wins,
    /// though a deployment lets one session alone hold an item).
    public var holders: [String: Entry] {
        var out: [String: Entry] = [:]
        for p in people { for id in p.holds where out[id] == nil { out[id] = p } }
        return out
    }

    /// The avatar colors: twelve that keep white initials readable.
    public static let palette = [
        "#d9480f", "#c2255c", "#9c36b5", "#6741d9", "#3b5bdb", "#1971c2",
        "#0c8599", "#099268", "#2f9e44", "#66a80f", "#e67700", "#495057",
    ]

    /// A color stable for `key` (a user, or a guest's session id): FNV-1a over its UTF-8 bytes
    /// picks one of `palette`, the same in every process and every run.
    public static func color(for key: String) -> String {
        var h: UInt32 = 2_166_136_261
        for b in key.utf8 { h = (h ^ UInt32(b)) &* 16_777_619 }
        return palette[Int(h % UInt32(palette.count))]
    }

    /// The name a session without a token's name goes by: "Guest N".
    public static func guestName(number: Int) -> String { "Guest \(number)" }
}
