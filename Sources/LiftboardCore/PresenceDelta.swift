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

    /// The message for `p` to a session that was sent `last` (nil: none yet). Whole when there
    /// is no last, it was another board's, either list repeats a session, or the entries kept from
    /// the last list are not in the same order now (the client rebuilds the list by removing
    /// the gone, changing the changed in place and inserting the added at their `at`).
    public init(_ p: Presence, v: UInt32, after last: PresenceSent?) {
        presence = p
        self.v = v
        guard let last, last.presence.board == p.board, let diff = Self.diff(last.presence, p) else { return }
        base = last.v
        (changed, gone) = diff
        watchingChanged = last.presence.watching != p.watching
        moreChanged = last.presence.more != p.more
    }

    private static func diff(_ old: Presence, _ new: Presence) -> (changed: [Change], gone: [String])? {
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
        let v = p.digest
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
