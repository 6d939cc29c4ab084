import LiftboardCore

/// A session on a board as a fan-out sees it: what it would answer a commit from elsewhere
/// (`Session.sharedViewKey`), read before the commit is handed to anyone.
protocol FanOutMember: AnyObject {
    /// The session's shared-view key, or nil when it is not idle (it steps its own engine).
    func sharedViewKey() -> SharedViewKey?
    /// Whether its key is `key`, made from a session in the live state `state`
    /// (`Session.hasSharedView(_:madeFrom:)`: sharing that very state says it without comparing).
    func hasSharedView(_ key: SharedViewKey, madeFrom state: AnyObject?) -> Bool
    /// The session's live state (`Session.sharedState`).
    func sharedState() -> AnyObject?
}

/// Who gets a commit made elsewhere, and how (issue 39): which sessions share a view, which of
/// them leads it, who is handed the commit first, and what each does with it. Pure: built from
/// the sessions on the board before anything is sent, tested alone; `Hub` performs it.
///
/// Every session but the commit's author gets the commit, in the order they joined. The idle
/// sessions that see the same view (`SharedViewKey`) answer it alike: the first of each view
/// (its leader) steps its engine, and the others take its state and its answer. A session that
/// is not idle steps its own.
struct FanOutPlan: Equatable {
    /// What one session does with the commit.
    enum Step: Equatable {
        /// The commit's author: it has it already.
        case skip
        /// Not idle: steps its own engine.
        case alone
        /// The first of view `view` (numbered from 0 in the order views are met): steps its
        /// engine, and its state and answer are kept for the others of the view.
        case leads(view: Int)
        /// Of view `view`, after its leader: takes the leader's state and answer.
        case follows(view: Int)
    }

    /// One step per member, in the members' order (the order the hub hands them the commit).
    private(set) var steps: [Step]
    /// How many views have a leader.
    private(set) var views = 0

    /// The plan for `members` (in the order they joined), `origin` being the commit's author.
    ///
    /// Watchers of one board mostly share one view, so the last view found is tried first: a
    /// member still in the live state that view's leader is in (it took that view last time) has
    /// the view with nothing compared and nothing copied; else its key is compared, and only
    /// then hashed.
    ///
    /// - Complexity: O(n) key reads for n members, most of them an identity check.
    init<Member: FanOutMember>(_ members: [Member], except origin: Member?) {
        steps = []
        steps.reserveCapacity(members.count)
        var viewOfKey: [SharedViewKey: Int] = [:]
        var leaderStates: [AnyObject?] = []
        var k = 0
        while k < members.count {
            let member = members[k]
            k += 1
            if member === origin { steps.append(.skip); continue }
            guard let key = member.sharedViewKey() else { steps.append(.alone); continue }
            let view: Int, state: AnyObject?
            if let known = viewOfKey[key] {
                (view, state) = (known, leaderStates[known])
                steps.append(.follows(view: view))
            } else {
                (view, state) = (views, member.sharedState())
                views += 1
                viewOfKey[key] = view
                leaderStates.append(state)
                steps.append(.leads(view: view))
            }
            // The members after it that have this view (the last view met is tried first).
            // `key` and `state` are held only while planning: a leader's state held while it
            // steps would not be uniquely held, and it would copy all of it instead of applying
            // the commit in place. Constants of this loop, passed as they are: a binding of
            // the last view for each member copied the key's every array and string (about
            // 1,300 Ir a member, by callgrind at 500 watchers).
            while k < members.count {
                if members[k] === origin {
                    steps.append(.skip)
                } else if members[k].hasSharedView(key, madeFrom: state) {
                    steps.append(.follows(view: view))
                } else {
                    break
                }
                k += 1
            }
        }
    }

    /// The members with each step (tests, logs).
    func members<Member>(_ members: [Member], taking step: Step) -> [Member] {
        zip(members, steps).filter { $0.1 == step }.map(\.0)
    }
}

/// A release: the sessions that write what a durable version releases, in order, and the
/// version each is released to. The sessions whose drops it made durable go first (their own
/// commit's answer first), then every other in the order they joined, each once. Told apart by
/// identity, not by comparing ids (ten thousand watchers, one dropper).
///
/// A newer version that becomes durable while a pass is under way extends it
/// (`extend(to:first:)`) instead of waiting for its end to start a pass of its own: its
/// droppers come next, then the sessions not reached yet, which write both versions' messages
/// in one write, then the ones reached before, for the newer version's alone. So a thousand
/// watchers cost a thousand writes and one more for each reached, not two thousand, and the
/// newer commit's last watcher is not one whole pass later.
struct ReleasePass<Member: AnyObject> {
    /// The version the sessions still to come are released to.
    private(set) var version: Int
    /// Every session, in the order of this pass; those before `next` are reached.
    private var order: [Member]
    private var next = 0

    init(version: Int, first: [Member], members: [Member]) {
        self.version = version
        order = first
        order.reserveCapacity(first.count + members.count)
        // The others in a few runs, copied whole between the members that went first (a dropper
        // or two), not appended one by one after a search of `first` each (about 110 Ir a member).
        var from = 0
        for k in first.compactMap({ f in members.firstIndex { $0 === f } }).sorted() where k >= from {
            order.append(contentsOf: members[from..<k])
            from = k + 1
        }
        order.append(contentsOf: members[from...])
    }

    /// The next session to release (to `version`), or nil when every one is.
    mutating func take() -> Member? {
        guard next < order.count else { return nil }
        next += 1
        return order[next - 1]
    }

    /// How many sessions were taken since the pass began or was last extended.
    var reached: Int { next }

    /// Whether every session is released (to `version`).
    var isDone: Bool { next >= order.count }

    /// Releases the sessions in turn, `write(member, version)` for each, up to `limit` of them
    /// (the rest wait for the next call: `isDone` says whether there are any), and every `every`
    /// sessions asks `newer` whether a newer version became durable meanwhile (its droppers
    /// with it), which extends the pass. A pass extended writes every session left, whatever
    /// `limit`: the caller reads nothing new until it ends (`Hub+Release.swift`). Returns whether
    /// one did.
    mutating func run(every: Int = 64, limit: Int = .max, write: (Member, Int) -> Void,
                      newer: () -> (version: Int, first: [Member])?) -> Bool {
        var extended = false, written = 0, limit = limit
        while written < limit, let m = take() {
            write(m, version)
            written += 1
            guard next % every == 0, let n = newer() else { continue }
            extend(to: n.version, first: n.first)
            (extended, limit) = (true, .max)
        }
        return extended
    }

    /// `m` left while the pass waited between two calls of `run`: it is not written again, not
    /// even when a newer version extends the pass (which writes the sessions reached as well).
    mutating func remove(_ m: Member) {
        guard let k = order.firstIndex(where: { $0 === m }) else { return }
        order.remove(at: k)
        if k < next { next -= 1 }
    }

    /// `newer` is durable too: `first` (its droppers) next, then the sessions not reached, then
    /// the ones reached already (released to an older version), each once, all to `newer`.
    mutating func extend(to newer: Int, first: [Member]) {
        guard newer > version else { return }
        version = newer
        var rest = first
        rest.reserveCapacity(order.count)
        for m in order[next...] where !first.contains(where: { $0 === m }) { rest.append(m) }
        for m in order[..<next] where !first.contains(where: { $0 === m }) { rest.append(m) }
        order = rest
        next = 0
    }
}
