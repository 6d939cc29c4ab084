import Foundation
import LiftboardCore
import LiftboardStore
import LiftboardWire

/// One board shared by every session on it, on the service thread: performs what its
/// `HubState` decides (writes through the store, commits handed to sessions, rebases), and
/// logs. Every decision is the state's; see `HubState` for the two orders and the rebase.
final class Hub {
    private(set) var state: HubState
    private(set) var connections: [Connection] = []
    private var byID: [String: Connection] = [:]
    unowned let server: Server
    /// Who is on the board and what each holds (issue 44; `Hub+Presence.swift`).
    var presence = BoardPresence()
    /// Fires when coalesced presence news may go, and for each chunk of a presence's hand-out.
    var presenceTimer: LoopTimer?
    /// The sessions the last `presence` is still owed to (`Hub+Presence.swift`).
    var presenceHandOut = PresenceHandOut<Connection, PresenceRound>()
    /// The release pass under way, if any, written a chunk a turn (`Hub+Release.swift`).
    var releasing = ReleaseRun<Connection>()

    init(board: Board, server: Server) {
        state = HubState(board: board, origin: server.store.origin)
        self.server = server
    }

    var board: Board { state.board }
    var truth: Board { state.truth }
    /// The highest version known durable: messages held behind a barrier go out up to it.
    var durableVersion: Int { state.durableVersion }
    var lastRevert: (version: Int, change: Change)? { state.lastRevert }

    func join(_ c: Connection) {
        // Kiosks that say the same hello share one arrangement of the board (copy-on-write)
        // instead of one each: the last session to join is the likeliest twin.
        if let last = connections.last { c.shareView(with: last) }
        // The one there before may have changed its holds unheard (`holdsChanged(of:)`).
        readLoneHolds()
        connections.append(c)
        // Who is alone on the board makes no `.holdsChanged` (`ConnectionMachine.othersOnBoard`).
        c.machine.othersOnBoard = connections.count > 1
        if connections.count == 2 { connections[0].machine.othersOnBoard = true }
        byID[c.id] = c
        state.join(c.id)
        presence.join(c.id, person: c.person)
    }

    func leave(_ c: Connection) {
        // Found by identity and removed alone: `removeAll(where:)` retained and released every
        // connection on the board for each one that left (ten thousand watchers closing: half a
        // billion instructions).
        if let k = connections.firstIndex(where: { $0 === c }) { connections.remove(at: k) }
        if connections.count == 1 { connections[0].machine.othersOnBoard = false }
        c.releaseClaims(board: board.id)
        byID[c.id] = nil
        state.leave(c.id)
        presence.leave(c.id)
        presenceHandOut.remove { $0 === c }
        releasing.remove(c)
        presenceChanged()
    }

    /// A session committed: apply, persist, and hand it to every other session on the board.
    /// Returns the version the originator's following messages must wait for.
    func commit(_ c: Commit, from origin: Connection) -> Int {
        guard let actions = state.commit(c, by: origin.id, at: Self.wallClock(), now: server.now) else {
            server.log(.error, "error", session: origin.id, "commit v\(c.version) does not follow board \(board.id) v\(board.version)")
            return 0
        }
        server.log(.info, "commit", session: origin.id, kind: Self.commitLogKind) { Self.logDetail(of: c, into: $0) }
        perform(actions)
        return c.version
    }

    /// An edit from the API (an item or section added, changed or removed; or a move, when a
    /// board is replaced): applied to the board, written through the store like a drop, and
    /// handed to every session as another session's commit would be. Returns the commit and
    /// the token its store report will carry, or nil (nothing changes) when the edit does not
    /// apply to the board as it is. `ifVersion` is the version the store must have the board
    /// at (`If-Match`; with several processes this one's view may trail the store's).
    /// `person`: who the request acts for; the commit is signed with its user (issue 42).
    func edit(_ change: Change, by author: String, person: Person = .open, ifVersion: Int? = nil) -> (commit: Commit, token: Int)? {
        guard let made = state.edit(change, by: author, person: person, ifVersion: ifVersion, at: Self.wallClock(),
                                    now: server.now) else { return nil }
        server.log(.info, "edit", session: nil, "board \(board.id) v\(made.commit.version) by \(author): \(Wire.encodeChange(change))")
        perform(made.actions)
        return (made.commit, made.token)
    }

    // MARK: What the store says

    /// Commits reported durable together (see `HubState.durable(_:)`): what they release
    /// goes out once, after the last.
    func durable(_ batch: [DurableCommit]) {
        // When each drop was queued, read before `durable` forgets it; only at debug (nil
        // otherwise: a `zip` with an empty list still copied the first commit out).
        let queued = LogLevel.debug <= server.config.logLevel ? batch.map { d in d.origin == server.store.origin ? state.pending.first(where: { $0.token == d.token })?.queuedAt : nil } : nil
        let actions = state.durable(batch)
        if let queued {
            for (d, queuedAt) in zip(batch, queued) {
                if let queuedAt, !state.pending.contains(where: { $0.token == d.token }) {
                    server.log(.debug, "durable", session: d.by, "board \(d.board) v\(d.version) durable \(Int(server.now - queuedAt)) ms after the drop")
                }
            }
        }
        // Read in place: a `for d in batch` copied each commit out, and destroyed the copy.
        let origin = server.store.origin
        for k in batch.indices where batch[k].origin != origin {
            let d = batch[k]
            guard actions.contains(where: { if case .deliver(let c, _) = $0 { c.version == d.version } else { false } }) else { continue }
            let age = Self.wallClock() - d.at
            server.log(.info, "commit", session: nil, "board \(truth.id) v\(d.version) from another process (\(d.origin)), \(Int(age)) ms after its drop")
        }
        perform(actions)
    }

    /// The store found this process's change moot (another process's commit came first).
    func unchanged(token: Int) {
        perform(state.unchanged(token: token))
    }

    /// The store refused this process's change: it would break a section's placement rule on
    /// the store's order (another process's commit came first). The dropping session gets
    /// `rule_refused`, then (settle) every session a `layout` on the durable order.
    func refused(token: Int, reason: String) {
        guard let (by, actions) = state.refused(token: token, reason: reason) else { return }
        server.log(.info, "refused", session: by, "board \(board.id): \(reason)")
        perform(actions)
    }

    /// The store could not write this commit: the drop is refused (`store_unavailable`).
    func failed(token: Int, reason: String) {
        guard let (by, actions) = state.failed(token: token) else { return }
        server.log(.error, "store", session: by, "board \(board.id): drop refused: \(reason)")
        perform(actions)
    }

    /// After a round of reports: rebase when the sessions were told something the store
    /// did not do.
    func settle() {
        let actions = state.settle()
        guard !actions.isEmpty else { return }
        let how = actions.contains { if case .rebase = $0 { true } else { false } } ? "rebase" : "resync"
        server.log(.info, how, session: nil, "board \(board.id) v\(board.version) (durable v\(truth.version), \(state.pending.count) pending)")
        perform(actions)
    }

    // MARK: Performing

    /// The session `id` on this board, if it is here.
    func connection(_ id: String) -> Connection? { byID[id] }

    /// A commit made elsewhere, handed to every session on the board but `origin`'s as its
    /// `FanOutPlan` says: encoded once for all of them, and stepped once for all the idle ones
    /// that see the same view (the view's leader steps its engine, the others take its state
    /// and the messages it queued).
    private func deliver(_ c: Commit, toAllBut origin: Connection?) {
        var c = c
        if origin != nil, c.order.isEmpty, connections.contains(where: \.records) {
            // A session's commit comes with its change only unless its own client wants the
            // order; a recording's `external` line has always held it: the board's, at its version.
            c.order = board.order
        }
        let plan = FanOutPlan(connections, except: origin)
        let encoding = SharedEncoding()
        var leaders = [ConnectionMachine.SharedAnswer?](repeating: nil, count: plan.views)
        for (conn, step) in zip(connections, plan.steps) {
            switch step {
            case .skip:
                continue
            case .alone:
                conn.external(c, delivery: .alone(encoding))
            case .leads(let view):
                leaders[view] = conn.external(c, delivery: .leading(encoding))
            case .follows(let view):
                // A leader comes before its followers in the plan's order. A view whose leader
                // gave no answer is led by its next session.
                if let answer = leaders[view] {
                    conn.external(c, delivery: .following(answer, shared: encoding))
                } else {
                    leaders[view] = conn.external(c, delivery: .leading(encoding))
                }
            }
        }
    }

    private func perform(_ actions: consuming [HubState.Action]) {
        // Each action is moved out of the array, not copied (and its commit with it: a retain and
        // a release of each of its strings and arrays): `Array.take`.
        var actions = actions
        for k in actions.indices {
            switch actions.take(k, leaving: .catchUp(after: 0)) {
            case .persist(let record):
                server.store.writer?.enqueue(record)
            case .deliver(let c, let except):
                deliver(c, toAllBut: except.flatMap { connection($0) })
            case .publish(let d):
                server.publish(d)
            case .catchUp(let after):
                server.store.listener?.catchUp(board: truth.id, after: after)
            case .release(let durable, let first, let direct):
                if releasing.isUnderWay {
                    // Made by a report taken during a pass, or while it waits for its next
                    // chunk (`Hub+Release.swift`): that pass extends to it.
                    releasing.extend(to: durable, first: first, direct: direct)
                } else {
                    release(to: durable, first: first, direct: direct)
                }
            case .refuse(let to, let code, let message):
                connection(to)?.send(.error(code: code, message: message))
            case .rebase(let to, let base, let commits):
                connection(to)?.rebase(to: base, commits: commits)
            case .resync(let to, let board, let since):
                connection(to)?.resync(to: board, droppingHeldAbove: since)
            }
        }
    }

    /// The limiter's kind of the commit's info log line: its level, event and detail's first word.
    static let commitLogKind = "info commit board"

    /// The commit's line: `board B vN: id section[i]->section[j], …` (a place is `section[index]`).
    static func logDetail(of c: Commit) -> String {
        let line = LogLine()
        logDetail(of: c, into: line)
        return line.text
    }

    /// The commit's line, appended to `line` piece by piece (not interpolated move by move into
    /// an array of strings then joined: ~8,500 Ir a commit; then not through `[UInt8]` appends).
    static func logDetail(of c: Commit, into line: LogLine) {
        line.append("board ")
        line.append(c.board)
        line.append(" v")
        line.appendDecimal(c.version)
        line.append(": ")
        for k in c.moves.indices {
            if k > 0 { line.append(", ") }
            let m = c.moves[k]
            line.append(m.id)
            line.append(byte: 0x20)
            line.append(m.from.section)
            line.append(byte: UInt8(ascii: "["))
            line.appendDecimal(m.from.index)
            line.append("]->")
            line.append(m.to.section)
            line.append(byte: UInt8(ascii: "["))
            line.appendDecimal(m.to.index)
            line.append(byte: UInt8(ascii: "]"))
        }
    }

    /// Wall-clock time in ms since the Unix epoch, for the store's history.
    private static func wallClock() -> Double { Date().timeIntervalSince1970 * 1000 }
}

/// A connection is a fan-out's member through its machine's session.
extension Connection: FanOutMember {}
