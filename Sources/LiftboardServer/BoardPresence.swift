import LiftboardCore

/// Who is on one board and what each holds, and when the next `presence` may go (issue 44,
/// contract "Presence and holds"): a value, decided apart from the sockets. Changes coalesce:
/// a `presence` goes at most every `interval` ms, carrying the state when it goes.
struct BoardPresence {
    struct Member: Equatable {
        var session: String
        /// The session's number in its process ("Guest N").
        var number: Int
        var person: Person
        var holds: [String] = []
        var target: Place? = nil
    }

    /// In the order they joined.
    private(set) var members: [Member] = []
    /// Each member's index in `members` (a lift on a board of a thousand sessions finds its
    /// member without a walk over them).
    private var index: [String: Int] = [:]
    /// At most this many sessions that hold nothing are listed (every holder is: the others'
    /// `heldBy` comes from the list); the rest are counted in `more`. A board of a thousand
    /// watchers sends a `presence` of a few KB, not of 150 KB.
    static let maxIdleListed = 24
    /// A session joined or left since the last `presence`: every session is told.
    private var joinedOrLeft = false
    /// The sessions whose holds changed since the last `presence`.
    private var holdsChanged: [String] = []
    /// Issue 44: the sessions of other processes holding items of this board (the shared
    /// store's claims), each with its holds.
    private(set) var others: [Presence.Entry] = []
    /// When the last `presence` went (server ms).
    private(set) var lastSent = -Double.infinity
    /// At most ten a second.
    static let interval = 100.0
    /// The board's presence budget (contract "Presence and holds", When): bytes a millisecond,
    /// 4 MB a second over all its sessions. A `presence` whose bytes times the sessions it went
    /// to exceed what `interval` allows makes the next one wait longer, up to `maxGap`.
    static let budget = 4_000.0
    /// The longest wait: a hold made on another process is seen within 1 s (its claim read at
    /// once on `NOTIFY`, at most 200 ms late without).
    static let maxGap = 750.0
    /// How long after the last `presence` the next may go (ms): `gap(bytes:sessions:)` of the
    /// last one sent.
    private(set) var gap = interval

    /// The wait after a `presence` of `bytes` (as encoded) sent to `sessions` sessions:
    /// `bytes × sessions / budget` ms, at least `interval` and at most `maxGap`.
    static func gap(bytes: Int, sessions: Int) -> Double {
        min(maxGap, max(interval, Double(bytes) * Double(sessions) / budget))
    }

    /// Whether something changed that the sessions were not told.
    var hasNews: Bool { joinedOrLeft || !holdsChanged.isEmpty }

    mutating func join(_ session: String, person: Person) {
        index[session] = members.count
        members.append(Member(session: session, number: Self.number(of: session), person: person))
        joinedOrLeft = true
    }

    /// A session left: its holds end with it.
    mutating func leave(_ session: String) {
        guard let k = index.removeValue(forKey: session) else { return }
        members.remove(at: k)
        for j in k..<members.count { index[members[j].session] = j }
        holdsChanged.removeAll { $0 == session }
        joinedOrLeft = true
    }

    /// The items `session` holds now, and where its latest drag would drop. Returns whether
    /// that is news.
    @discardableResult
    mutating func setHolds(_ holds: [String], target: Place? = nil, of session: String) -> Bool {
        guard let k = index[session],
              members[k].holds != holds || members[k].target != target else { return false }
        members[k].holds = holds
        members[k].target = target
        if !holdsChanged.contains(session) { holdsChanged.append(session) }
        return true
    }

    /// The other processes' holders changed: every session is told. Returns whether that is
    /// news.
    mutating func setOthers(_ entries: [Presence.Entry]) -> Bool {
        guard entries != others else { return false }
        others = entries
        joinedOrLeft = true
        return true
    }

    /// `session`'s entry as `presence` lists it (its holds left out): who claims for it.
    func entry(of session: String) -> Presence.Entry? {
        index[session].map { entry(members[$0]) }
    }

    private func entry(_ m: Member) -> Presence.Entry {
        Presence.Entry(session: m.session, user: m.person.user, name: m.person.name ?? Presence.guestName(number: m.number),
                       color: Presence.color(for: m.person.user ?? m.session), role: m.person.role, holds: m.holds, target: m.target)
    }

    /// When the news may go: at `now` when the last `presence` is `gap` old, else when it will
    /// be; nil when there is no news.
    func due(now: Double) -> Double? {
        guard hasNews else { return nil }
        return max(now, lastSent + gap)
    }

    /// The one session not to send the news to: the session whose own holds are all the news
    /// (it knows them: a session is not told of its own lifts and drops). Clears the news;
    /// `now` is when it goes. The caller builds `presence(board:)` only when someone else is
    /// there to be told (a board of one dragging session builds and encodes none).
    mutating func take(now: Double) -> String? {
        let except = !joinedOrLeft && holdsChanged.count == 1 ? holdsChanged[0] : nil
        joinedOrLeft = false
        holdsChanged.removeAll()
        lastSent = now
        gap = Self.interval
        return except
    }

    /// The `presence` taken went as `bytes` to `sessions` sessions: the next waits
    /// `gap(bytes:sessions:)` after it.
    mutating func sent(bytes: Int, to sessions: Int) {
        gap = Self.gap(bytes: bytes, sessions: sessions)
    }

    /// The last presence `next(board:)` made: the next one says what changed since
    /// (`Presence.Link`), so that the sessions that took this one compare only that.
    private var last: Presence? = nil

    /// The presence to send now (`presence(board:)`), numbered after the last one sent and
    /// linked to it.
    mutating func next(board: String) -> Presence {
        let p = presence(board: board, after: last)
        last = p
        return p
    }

    /// The board's presence as it stands: `view` sessions counted in `watching`; of those
    /// holding nothing, the first `maxIdleListed` to join listed and the rest counted in `more`.
    /// With `after` (the one sent before), numbered after it and linked to it.
    func presence(board: String, after previous: Presence? = nil) -> Presence {
        var people: [Presence.Entry] = []
        var watching = 0, idle = 0, more = 0
        for m in members {
            guard m.person.role != .view else { watching += 1; continue }
            if m.holds.isEmpty {
                idle += 1
                if idle > Self.maxIdleListed { more += 1; continue }
            }
            people.append(entry(m))
        }
        // Other processes' holders hold something: every one is listed.
        people += others
        return Presence(board: board, people: people, watching: watching, more: more, after: previous,
                        serial: (previous?.link?.serial ?? 0) + 1)
    }

    /// `s12` and `s12-9f3a` are session 12.
    static func number(of session: String) -> Int {
        Int(session.dropFirst().prefix { $0.isNumber }) ?? 0
    }
}
