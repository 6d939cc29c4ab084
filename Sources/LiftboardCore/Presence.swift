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

    public var board: String { didSet { link = nil } }
    /// Ordered by session number (the order sessions joined the process), then id.
    public var people: [Entry] { didSet { (heldNames, holding) = Self.tables(people); link = nil } }
    /// Each held item's holder's name (the first listed wins): built once a presence, so that
    /// the thousand sessions of a board that take it share one table (`LiveSession.othersHold`).
    public private(set) var heldNames: [String: String]
    /// The sessions listed holding something, each with its entry's index in `people`, or -1
    /// when it has two (a session finds its own holds with one lookup, not a walk over the
    /// people: `LiveSession.othersHold`).
    public private(set) var holding: [String: Int]
    /// How this presence follows the one made before it on the same board, when the maker
    /// said so (`init(after:serial:)`, the hub's): nil for one read from a recording or built
    /// alone. Not part of the message: equality leaves it (and the tables) out.
    public private(set) var link: Link?
    /// How many `view` sessions watch the board.
    public var watching: Int { didSet { link = nil } }
    /// Sessions above `view` that hold nothing and are not listed (a board of many: the list
    /// keeps every holder and the first few others).
    public var more: Int { didSet { link = nil } }

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
        /// This presence's `digest`, reckoned once for every session that is sent it as a
        /// difference (`LiveSession.presenceMessage`): each reckoned it again, walking every
        /// string of the presence.
        public var digest: UInt32
        /// The difference from the presence this one follows (`PresenceDelta.diff`), made once
        /// for every session that was sent that one last (`from`: its people; a session whose
        /// last presence has other people makes its own); nil when the two cannot be compared.
        var delta: (from: [Entry], changed: [PresenceDelta.Change], gone: [String])?
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
            link = Link(serial: serial, base: 0, changed: Set(heldNames.keys), digest: digest)
            return
        }
        var changed = Set<String>()
        for (id, name) in heldNames where previous.heldNames[id] != name { changed.insert(id) }
        for id in previous.heldNames.keys where heldNames[id] == nil { changed.insert(id) }
        let delta = previous.board == board ? PresenceDelta.diff(previous, self).map { (previous.people, $0.changed, $0.gone) } : nil
        link = Link(serial: serial, base: base, changed: changed, digest: digest, delta: delta)
    }

    static func tables(_ people: [Entry]) -> ([String: String], [String: Int]) {
        var names: [String: String] = [:], holding: [String: Int] = [:]
        for (k, p) in people.enumerated() where !p.holds.isEmpty {
            holding[p.session] = holding[p.session] == nil ? k : -1  // listed twice: no one entry
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

/// Issue 44, "Presence by difference" (contract "Presence and holds"): a session whose hello
/// asked for `config.presence: "delta"` is sent its first `presence` whole and then only what
/// changed since the one it was sent last. A presence of a thousand sessions with a hundred
/// holders is about 10 KB; each dragger's `moved` changes its entry's `target`, so most of
/// what changes is one number an entry.
public enum PresenceMode: String, Sendable, Hashable, CaseIterable {
    /// Every `presence` whole, as the contract shows it (the default).
    case full
    /// The first `presence` whole with its `v`, then each as a difference from the one before.
    case delta
}

/// The last `presence` a session opted in was sent (`SentState.presence`): what its next one is
/// a difference from. Two sessions that were sent the same presence hold equal values (the
/// hub's presence is one value for the whole board, its arrays shared), so watchers still
/// share one state (`SharedViewKey`).
public struct PresenceSent: Hashable, Sendable {
    public var presence: Presence
    /// Its number as sent: `presence.digest`.
    public var v: UInt32

    public init(presence: Presence, v: UInt32) { self.presence = presence; self.v = v }
}

/// A `presence` as a session that opted in is sent it: whole (`base` nil) or as the changes
/// from the one numbered `base`.
public struct PresenceDelta: Hashable, Sendable {
    /// The members of an entry that changed (the entry's `session` is its key and never does).
    public struct Fields: OptionSet, Hashable, Sendable {
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }
        public static let user = Fields(rawValue: 1)
        public static let name = Fields(rawValue: 2)
        public static let color = Fields(rawValue: 4)
        public static let role = Fields(rawValue: 8)
        public static let holds = Fields(rawValue: 16)
        /// The target, whole (`{section, index, depth?}`), or null when the entry has none now.
        public static let target = Fields(rawValue: 32)
        /// Only the target's `index` (same section, same depth or none on both).
        public static let targetIndex = Fields(rawValue: 64)
        public static let all: Fields = [.user, .name, .color, .role, .holds, .target]
    }

    /// One entry added or changed: `presence.people[index]`.
    public struct Change: Hashable, Sendable {
        public var index: Int
        /// New to the list: every member is sent, and its place (`at`, its index).
        public var added: Bool
        public var fields: Fields
    }

    /// The presence the message brings the client to.
    public var presence: Presence
    /// Its number (`Presence.digest`).
    public var v: UInt32
    /// The number of the presence this one is a difference from; nil: sent whole.
    public var base: UInt32?
    /// Entries added or changed, in the order of `presence.people`.
    public var changed: [Change] = []
    /// The sessions listed before and not now, in their order before.
    public var gone: [String] = []
    public var watchingChanged = false
    public var moreChanged = false

    /// A presence whose number is a multiple of this is sent whole: a client out of step (a
    /// difference whose `base` is not its `v`) is mended within about this many presences,
    /// the same for every session, so watchers that share a state still answer alike.
    public static let wholeEvery: UInt32 = 16

    /// The message for `p` to a session that was sent `last` (nil: none yet). Whole when its
    /// number is a multiple of `wholeEvery`, when there
    /// is no last, it was another board's, either list repeats a session, or the entries kept from
    /// the last list are not in the same order now (the client rebuilds the list by removing
    /// the gone, changing the changed in place and inserting the added at their `at`).
    public init(_ p: Presence, v: UInt32, after last: PresenceSent?) {
        presence = p
        self.v = v
        guard let last, v % Self.wholeEvery != 0, last.presence.board == p.board else { return }
        // The maker's difference when this session was sent the presence `p` follows (its
        // people the same array: one comparison of identity), else this session's own.
        let made = p.link?.delta.flatMap { $0.from == last.presence.people ? (changed: $0.changed, gone: $0.gone) : nil }
        guard let diff = made ?? Self.diff(last.presence, p) else { return }
        base = last.v
        (changed, gone) = diff
        watchingChanged = last.presence.watching != p.watching
        moreChanged = last.presence.more != p.more
    }

    static func diff(_ old: Presence, _ new: Presence) -> (changed: [Change], gone: [String])? {
        var was: [String: Int] = [:]
        was.reserveCapacity(old.people.count)
        for (k, e) in old.people.enumerated() where was.updateValue(k, forKey: e.session) != nil { return nil }
        var seen = Set<String>()
        seen.reserveCapacity(new.people.count)
        var changed: [Change] = [], lastKept = -1
        for (k, e) in new.people.enumerated() {
            guard seen.insert(e.session).inserted else { return nil }
            guard let j = was[e.session] else {
                changed.append(Change(index: k, added: true, fields: .all))
                continue
            }
            guard j > lastKept else { return nil }
            lastKept = j
            let f = fields(old.people[j], e)
            if !f.isEmpty { changed.append(Change(index: k, added: false, fields: f)) }
        }
        var gone: [String] = []
        for e in old.people where !seen.contains(e.session) { gone.append(e.session) }
        return (changed, gone)
    }

    private static func fields(_ a: Presence.Entry, _ b: Presence.Entry) -> Fields {
        var f: Fields = []
        if a.user != b.user { f.insert(.user) }
        if a.name != b.name { f.insert(.name) }
        if a.color != b.color { f.insert(.color) }
        if a.role != b.role { f.insert(.role) }
        if a.holds != b.holds { f.insert(.holds) }
        if a.target != b.target {
            if let s = a.target, let t = b.target, s.section == t.section, s.depth == t.depth {
                f.insert(.targetIndex)
            } else {
                f.insert(.target)
            }
        }
        return f
    }
}

extension Presence {
    /// The presence's number as a session that opted in is sent it (`v`): FNV-1a (32-bit) over
    /// its members, each string's UTF-8 bytes and each number's decimal digits followed by a
    /// byte 0 (a missing `user` or `target` as one byte 1): `board`, then per entry `session`,
    /// `user`, `name`, `color`, `role`, each hold, a byte 2, `target`'s `section`, `index` and
    /// `depth` (1 when none), then `watching` and `more`. Equal presences have equal numbers;
    /// a client only compares them.
    public var digest: UInt32 {
        var h = Digest()
        h.add(board)
        for e in people {
            h.add(e.session)
            if let u = e.user { h.add(u) } else { h.byte(1) }
            h.add(e.name); h.add(e.color); h.add(e.role.rawValue)
            for id in e.holds { h.add(id) }
            h.byte(2)
            if let t = e.target {
                h.add(t.section); h.add(t.index)
                if let d = t.depth { h.add(d) } else { h.byte(1) }
            } else {
                h.byte(1)
            }
        }
        h.add(watching); h.add(more)
        return h.value
    }

    private struct Digest {
        var value: UInt32 = 2_166_136_261
        mutating func byte(_ b: UInt8) { value = (value ^ UInt32(b)) &* 16_777_619 }
        mutating func add(_ s: String) { for b in s.utf8 { byte(b) }; byte(0) }
        mutating func add(_ n: Int) { add(String(n)) }
    }
}

extension LiveSession {
    /// The `presence` message this session sends for `p`: `p` itself, or with
    /// `config.presence: "delta"` the difference from the one it sent last, which it remembers.
    mutating func presenceMessage(_ p: Presence) -> ServerEvent {
        guard config.presence == .delta else { return .presence(p) }
        let v = p.link?.digest ?? p.digest
        let d = PresenceDelta(p, v: v, after: sent.presence)
        sent.presence = PresenceSent(presence: p, v: v)
        return .presenceDelta(d)
    }
}

extension PresenceDelta {
    /// What a client makes of this message given `last`, the presence it has (numbered
    /// `base`), by the contract's rules alone: the gone removed, each changed entry's flagged
    /// members taken, the added inserted at their `at`; `watching` and `more` when they
    /// changed. It is `presence` (the tests and the session fuzzer check it). Whole: `presence`.
    public func applied(to last: Presence) -> Presence {
        guard base != nil else { return presence }
        let gone = Set(self.gone)
        var people = last.people.filter { !gone.contains($0.session) }
        var added: [(at: Int, entry: Presence.Entry)] = []
        for c in changed {
            let e = presence.people[c.index]
            if c.added { added.append((c.index, e)); continue }
            guard let k = people.firstIndex(where: { $0.session == e.session }) else { continue }
            if c.fields.contains(.user) { people[k].user = e.user }
            if c.fields.contains(.name) { people[k].name = e.name }
            if c.fields.contains(.color) { people[k].color = e.color }
            if c.fields.contains(.role) { people[k].role = e.role }
            if c.fields.contains(.holds) { people[k].holds = e.holds }
            if c.fields.contains(.target) { people[k].target = e.target }
            if c.fields.contains(.targetIndex), let i = e.target?.index { people[k].target?.index = i }
        }
        for a in added { people.insert(a.entry, at: min(a.at, people.count)) }
        return Presence(board: presence.board, people: people, watching: watchingChanged ? presence.watching : last.watching,
                        more: moreChanged ? presence.more : last.more)
    }
}
