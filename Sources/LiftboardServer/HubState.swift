import LiftboardCore
import LiftboardStore

/// One board shared by every session on it, as a value: what the hub knows and decides, with
/// no socket, no store and no clock. Each input (a session's commit, an API edit, what the
/// store reports, a round of reports ending) changes the state in place and returns the
/// actions `Hub` performs, in order.
///
/// Two orders: `truth`, the store's durable order (commits applied in the store's version
/// order, whichever process made them), and `board`, the truth with this process's commits
/// still on their way to the store applied on top (`pending`). A session's own commit is
/// applied at once (it is `board` + 1) and handed to the other sessions; a `commit` message
/// reaches clients only once `truth` reaches its version (the barrier of its entry in `OutgoingQueue`).
///
/// When the store's result is not what the sessions were told, `settle` rebases `board` on
/// the truth with the pending changes re-applied, and tells the sessions:
/// - as commits (`Action.rebase`) when every step can be told as one: another process's
///   commit came first and this process's drops landed after it (each session gets the other
///   process's commit, then this process's, in version order, at the store's versions);
/// - as a `layout` (`Action.resync`) otherwise (a drop the store refused or found moot, a
///   commit this board cannot replay, an edit), after an error to the session whose drop it
///   was (`store_unavailable`, `drop_moot`).
struct HubState {
    /// A commit of this process on its way to the store.
    struct Pending: Equatable {
        var token: Int
        var change: Change?
        /// The session that made it (or the API's author), to tell when the store refuses it.
        var by: String
        /// The version the sessions were told it has; nil when they were told it changes
        /// nothing (after a rebase on which it became moot).
        var expected: Int?
        /// When it was queued for the store (server ms), for the debug log.
        var queuedAt: Double
        /// The user who made it and their name (issue 42), told again in a rebase.
        var user: String? = nil
        var name: String? = nil
        /// The change that takes the board back from it, found by the search that applied it
        /// (a session's move): the truth's undo once it is durable (`advance`).
        var revert: Change? = nil
    }

    /// The committed order a rebase starts from: the truth where the sessions' idea of it
    /// began to differ.
    struct RebaseBase: Equatable {
        var version: Int
        var order: [SectionOrder]
    }

    enum Action: Equatable {
        /// Write this commit through the store.
        case persist(CommitRecord)
        /// Every session on the board but `except` (the one whose commit it is), in the order
        /// they joined, gets a commit made elsewhere (another session, an edit, another
        /// process), sent to its client once durable. One action for all of them: not one per
        /// session, each with a copy of the commit (a board watched by thousands).
        case deliver(Commit, except: String?)
        /// A commit is durable: the change feed gets it.
        case publish(DurableCommit)
        /// The listener reads the board's commits after `after` again (one is missing).
        case catchUp(after: Int)
        /// The durable version advanced: messages held behind a barrier up to it may go, written
        /// at once (not left to the order of lws's writeable callbacks), the sessions in `first`
        /// before every other: those whose own drops just became durable get their commit first.
        /// Not at once (`direct` false) while the sessions were told something the store did not
        /// do: what is held may be a commit at a version the store gave another, which `settle`
        /// drops before the writeable callbacks come.
        case release(durable: Int, first: [String] = [], direct: Bool = true)
        /// Session `to` is told why what it was told did not happen, before its `layout`.
        case refuse(to: String, ErrorCode, message: String)
        /// Session `to`: what is held for it about versions after `base.version` goes unless it
        /// can stand (everything but `commit` messages); its committed order goes back to
        /// `base` without a message; then it gets `commits`, in version order, as commits made
        /// elsewhere (its own drop among them, with its `by`).
        case rebase(to: String, base: RebaseBase, commits: [Commit])
        /// Session `to`: what is held for it about versions after `droppingHeldAbove` goes, and
        /// it takes `board` as its committed order (a `layout`).
        case resync(to: String, board: Board, droppingHeldAbove: Int)
    }

    private(set) var board: Board
    private(set) var truth: Board
    /// This server process among those sharing the store.
    let origin: String
    /// The sessions on the board, in the order they joined.
    private(set) var sessions: [String] = []
    private(set) var pending: [Pending] = []
    private var nextToken = 0
    /// Durable commits that came before the ones they follow (the listener and the store
    /// thread race), by version.
    private var arrivals: [Int: DurableCommit] = [:]
    /// Set when the sessions' idea of the order went wrong: the truth before it did.
    private(set) var divergedFrom: RebaseBase?
    /// The durable commits applied since `divergedFrom`, as sessions are to be told them.
    private var sinceDivergence: [Commit] = []
    /// Whether the divergence can be told as commits (see `settle`).
    private var tellable = true
    /// The change that reverts the durable board's last commit (for `POST .../undo`), known
    /// for commits made since this process started.
    private(set) var lastRevert: (version: Int, change: Change)?

    init(board: Board, origin: String) {
        self.board = board
        self.truth = board
        self.origin = origin
    }

    /// The highest version known durable: messages held behind a barrier go out up to it.
    var durableVersion: Int { truth.version }

    mutating func join(_ session: String) { sessions.append(session) }
    /// - Complexity: O(sessions), one comparison each (a session joins once; `removeAll(where:)`
    ///   retained and released every id for each one that left).
    mutating func leave(_ session: String) {
        if let k = sessions.firstIndex(of: session) { sessions.remove(at: k) }
    }

    // MARK: What the sessions and the API do

    /// Session `by` committed `c` (its version one past `board`'s). `at` is the wall-clock
    /// time (ms since the epoch), `now` the server's. Returns nil (nothing to do) when the
    /// commit does not follow the board.
    mutating func commit(_ c: Commit, by session: String, at: Double, now: Double) -> [Action]? {
        guard c.version == board.version + 1 else { return nil }
        var revert: Change?
        if let change = c.change, !change.isEdit {
            guard let applied = board.applyReverting(change) else { return nil }
            revert = applied.revert
        } else {
            guard board.apply(c) else { return nil }
        }
        nextToken += 1
        pending.append(Pending(token: nextToken, change: c.change, by: session, expected: c.version, queuedAt: now, user: c.user,
                               name: c.name, revert: revert))
        var out: [Action] = [.persist(CommitRecord(commit: c, at: at, origin: origin, token: nextToken))]
        if sessions.contains(where: { $0 != session }) { out.append(.deliver(c, except: session)) }
        return out
    }

    /// An edit from the API (or a move, when a board is replaced), applied to the board and
    /// written like a drop. Nil when it does not apply to the board as it is; else the
    /// commit, the token its store report will carry, and the actions.
    /// `person`: who the request acts for (issue 42); a person with a user signs the commit.
    mutating func edit(_ change: Change, by author: String, person: Person = .open, ifVersion: Int?, at: Double, now: Double)
        -> (commit: Commit, token: Int, actions: [Action])? {
        guard let moves = board.apply(change) else { return nil }
        nextToken += 1
        let name = person.user == nil ? nil : person.name
        let c = Commit(board: board.id, version: board.version, by: author, moves: moves, order: [], change: change,
                       user: person.user, name: name)
        pending.append(Pending(token: nextToken, change: change, by: author, expected: c.version, queuedAt: now,
                               user: person.user, name: name))
        var out: [Action] = [.persist(CommitRecord(commit: c, at: at, origin: origin, token: nextToken, ifVersion: ifVersion))]
        if !sessions.isEmpty { out.append(.deliver(c, except: nil)) }
        return (c, nextToken, out)
    }

    // MARK: What the store says

    /// A commit is durable (this process's, from the store thread, or any process's, from
    /// the listener; either may come twice or early): applied to the truth in version order.
    mutating func durable(_ d: DurableCommit) -> [Action] { durable([d]) }

    /// Commits reported durable together (one store transaction, one read of the listener),
    /// applied in version order like one each, with one `release` at the end: a session gets
    /// what they released in one write, not one write a commit.
    mutating func durable(_ batch: [DurableCommit]) -> [Action] {
        var out: [Action] = []
        // Room for what a report usually makes (each commit's publish, the release): the
        // array is allocated once, not grown from empty.
        out.reserveCapacity(batch.count + 1)
        let before = truth.version
        var first: [String] = []
        if arrivals.isEmpty && batch.indices.allSatisfy({ batch[$0].version == before + 1 + $0 }) {
            // The usual report: the commits right after the truth, in order. Applied as they
            // come, as the loop below would take them back out of `arrivals` (each one leaves
            // the truth at its version), without putting them in first. Read in place (a
            // `for d in batch` copied each commit out, and destroyed the copy).
            for k in batch.indices { advance(batch[k], firstOf: &first, into: &out) }
        } else {
            let fresh = batch.filter { $0.version > truth.version }
            guard !fresh.isEmpty else { return [] }
            for d in fresh { arrivals[d.version] = d }
            while let next = arrivals.removeValue(forKey: truth.version + 1) { advance(next, firstOf: &first, into: &out) }
        }
        // A gap: the listener has it on its way, or (rarely) it is a commit of ours reported
        // failed that landed after all, which the listener does not read back unasked.
        if !arrivals.isEmpty { out.append(.catchUp(after: truth.version)) }
        if truth.version > before {
            out.append(.release(durable: truth.version, first: divergedFrom == nil ? first : [], direct: divergedFrom == nil))
        }
        return out
    }

    /// Applies durable commit `d` to the truth, after adding to `first` the session whose drop
    /// it is, when it is this process's and still a session here.
    private mutating func advance(_ d: DurableCommit, firstOf first: inout [String], into out: inout [Action]) {
        let before = truth.version
        let ours = d.origin == origin
        let k = ours ? pending.firstIndex(where: { $0.token == d.token }) : nil
        // The pending entry's session read in place (`first(where:)` copied the whole entry).
        if let k, sessions.contains(pending[k].by), !first.contains(pending[k].by) { first.append(pending[k].by) }
        if k == 0, pending.count == 1, divergedFrom == nil, pending[0].expected == d.version, board.version == d.version {
            // The entry is moved out, its change and revert with it: each read of one of them
            // in the array copied it, and destroyed the copy. Put back unless the drop is usual.
            let p = pending.removeLast()
            // Compared in place (`same`): `d.change == p.change` copied both optionals into a
            // tuple to switch on, and destroyed them.
            if let revert = p.revert, let change = p.change, change.same(as: d.change) {
                // The usual drop: the store did what the sessions were told, and nothing else of
                // this process is on its way, so the truth becomes the board at this version,
                // with the revert its search found. The change is applied to the truth in place
                // (an O(distance) shift): taking the board itself would share its storage, and
                // the next drop applied to the board would copy the whole section (O(items)).
                if truth.apply(change) == nil || truth.version != d.version { truth = board }
                lastRevert = (truth.version, revert)
                out.append(.publish(d))
                return
            }
            pending.append(p)
        }
        // Whether the sessions were told something else than this, decided before it applies.
        let surprise: Bool
        if ours, let k {
            surprise = k != 0 || pending[k].expected != d.version
        } else if ours {
            // A write reported failed that did land after all (the connection broke at COMMIT).
            surprise = true
            tellable = false
        } else {
            surprise = !pending.isEmpty || divergedFrom != nil || board.version != before
        }
        if surprise { markDiverged() }
        lastRevert = nil
        var moves: [Move] = []
        // With its revert, as the truth had it before (for undo), from the same search.
        if let change = d.change, let applied = truth.applyReverting(change) {
            moves = applied.moves
            lastRevert = applied.revert.map { (truth.version, $0) }
            out.append(.publish(d))
            if change.isEdit { tellable = false }
        } else {
            // Not a change this board can replay: take the store's word for the version.
            markDiverged()
            tellable = false
            truth.version = d.version
        }
        if divergedFrom != nil {
            sinceDivergence.append(Commit(board: truth.id, version: truth.version, by: d.by, moves: moves, order: [], change: d.change,
                                          user: d.user, name: d.name))
        }
        if let k {
            pending.remove(at: k)
        } else if !ours && divergedFrom == nil {
            // Another process's commit, with nothing of ours in flight: the path other
            // sessions' commits take, so drags in flight keep their live places.
            board = truth
            let c = Commit(board: truth.id, version: truth.version, by: d.by, moves: moves, order: truth.order, change: d.change,
                           user: d.user, name: d.name)
            if !sessions.isEmpty { out.append(.deliver(c, except: nil)) }
        }
    }

    /// The store found this process's change moot (another process's commit came first).
    mutating func unchanged(token: Int) -> [Action] {
        guard let k = pending.firstIndex(where: { $0.token == token }) else { return [] }
        let p = pending.remove(at: k)
        guard k != 0 || p.expected != nil else { return [] }
        markDiverged()
        tellable = false
        guard p.expected != nil else { return [] }
        return [.refuse(to: p.by, .dropMoot, message: "the drop changed nothing by the time it was saved (another change came first); the board is back to its saved order")]
    }

    /// The store refused this process's change: on the store's order it would break a
    /// section's placement rule (issue 23: another process filled the column first). The
    /// dropping session gets `rule_refused` naming the rule; the sessions are rebased as after
    /// any change the store did not take.
    mutating func refused(token: Int, reason: String) -> (by: String, actions: [Action])? {
        guard let k = pending.firstIndex(where: { $0.token == token }) else { return nil }
        let p = pending.remove(at: k)
        markDiverged()
        tellable = false
        return (p.by, [.refuse(to: p.by, .ruleRefused, message: reason)])
    }

    /// The store could not write this commit: the drop is refused (`store_unavailable`).
    mutating func failed(token: Int) -> (by: String, actions: [Action])? {
        guard let k = pending.firstIndex(where: { $0.token == token }) else { return nil }
        let p = pending.remove(at: k)
        markDiverged()
        tellable = false
        return (p.by, [.refuse(to: p.by, .storeUnavailable, message: "the drop could not be saved; the board is back to its last saved order")])
    }

    private mutating func markDiverged() {
        if divergedFrom == nil { divergedFrom = RebaseBase(version: truth.version, order: truth.order) }
    }

    /// After a round of reports: rebase when the sessions were told something the store did
    /// not do (see the type's comment).
    mutating func settle() -> [Action] {
        guard let base = divergedFrom else { return [] }
        divergedFrom = nil
        var commits = sinceDivergence
        sinceDivergence = []
        var asCommits = tellable
        tellable = true
        var out: [Action] = []
        board = truth
        for k in pending.indices {
            let change = pending[k].change
            if let change, let moves = board.apply(change) {
                pending[k].expected = board.version
                commits.append(Commit(board: board.id, version: board.version, by: pending[k].by, moves: moves, order: [], change: change,
                                      user: pending[k].user, name: pending[k].name))
                if change.isEdit { asCommits = false }
            } else {
                if pending[k].expected != nil {
                    out.append(.refuse(to: pending[k].by, .dropMoot, message: "the drop changes nothing after another change that came first"))
                }
                pending[k].expected = nil
                asCommits = false
            }
        }
        for s in sessions {
            out.append(asCommits ? .rebase(to: s, base: base, commits: commits)
                                 : .resync(to: s, board: board, droppingHeldAbove: base.version))
        }
        return out
    }
}

private extension Change {
    /// Whether `other` is this change, read where it is (optional chaining borrows it).
    func same(as other: Change?) -> Bool { other?.isEqual(to: self) ?? false }
    func isEqual(to c: Change) -> Bool { self == c }
}
