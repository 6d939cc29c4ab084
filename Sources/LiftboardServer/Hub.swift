import Foundation
import LiftboardCore
import LiftboardStore
import LiftboardWire

/// One board shared by every session on it, on the service thread.
///
/// Two orders: `truth`, the store's durable order (commits applied in the store's version
/// order, whichever process made them), and `board`, the truth with this process's commits
/// still on their way to the store applied on top (`pending`). A session's own commit is
/// applied at once (it is `board` + 1) and handed to the other sessions; a `commit` message
/// reaches clients only once `truth` reaches its version (see `Connection.Outgoing.barrier`).
///
/// When the store's result is not what the sessions were told (another process committed
/// first, a change became moot, a write failed), the hub rebases: `board` becomes the truth
/// with the pending changes re-applied, and every session is resynced to it (a `layout`;
/// held messages about the old order are dropped).
final class Hub {
    private(set) var board: Board
    private(set) var truth: Board
    private(set) var connections: [Connection] = []
    /// The highest version known durable: messages held behind a barrier go out up to it.
    var durableVersion: Int { truth.version }
    unowned let server: Server

    /// A commit of this process on its way to the store.
    struct Pending {
        var token: Int
        var change: Change?
        /// The session that made it, to tell when the store refuses it.
        var by: String
        /// The version the sessions were told it has; nil when they were told it changes
        /// nothing (after a rebase on which it became moot).
        var expected: Int?
        /// When it was queued for the store (server ms), for the debug log.
        var queuedAt: Double
    }
    private(set) var pending: [Pending] = []
    private var nextToken = 0
    /// Durable commits that came before the ones they follow (the listener and the store
    /// thread race), by version.
    private var arrivals: [Int: DurableCommit] = [:]
    /// Set when the sessions' idea of the order went wrong; `settle()` rebases.
    private var diverged: Int?
    /// The change that reverts the durable board's last commit (for `POST .../undo`), known
    /// for commits made since this process started.
    private(set) var lastRevert: (version: Int, change: Change)?

    init(board: Board, server: Server) {
        self.board = board
        self.truth = board
        self.server = server
    }

    func join(_ c: Connection) { connections.append(c) }
    func leave(_ c: Connection) { connections.removeAll { $0 === c } }

    /// A session committed: apply, persist, and hand it to every other session on the board.
    /// Returns the version the originator's following messages must wait for.
    func commit(_ c: Commit, from origin: Connection) -> Int {
        guard c.version == board.version + 1, board.apply(c) else {
            server.log(.error, "error", session: origin.id, "commit v\(c.version) does not follow board \(board.id) v\(board.version)")
            return 0
        }
        nextToken += 1
        pending.append(Pending(token: nextToken, change: c.change, by: origin.id, expected: c.version, queuedAt: server.now))
        server.writer?.enqueue(CommitRecord(commit: c, at: Date().timeIntervalSince1970 * 1000, origin: server.origin, token: nextToken))
        server.log(.info, "commit", session: origin.id, "board \(board.id) v\(c.version): \(c.moves.map { "\($0.id) \($0.from)->\($0.to)" }.joined(separator: ", "))")
        for other in connections where other !== origin { other.external(c) }
        return c.version
    }

    /// An edit from the API (an item or section added, changed or removed; or a move, when a
    /// board is replaced): applied to the
    /// board, written through the store like a drop, and handed to every session as another
    /// session's commit would be. Returns the commit and the token its store report will
    /// carry, or nil (nothing changes) when the edit does not apply to the board as it is.
    /// `ifVersion` is the version the store must have the board at (`If-Match`; with several
    /// processes this one's view may trail the store's).
    func edit(_ change: Change, by author: String, ifVersion: Int? = nil) -> (commit: Commit, token: Int)? {
        guard let moves = board.apply(change) else { return nil }
        nextToken += 1
        let c = Commit(board: board.id, version: board.version, by: author, moves: moves, order: [], change: change)
        pending.append(Pending(token: nextToken, change: change, by: author, expected: c.version, queuedAt: server.now))
        server.writer?.enqueue(CommitRecord(commit: c, at: Date().timeIntervalSince1970 * 1000, origin: server.origin,
                                            token: nextToken, ifVersion: ifVersion))
        server.log(.info, "edit", session: nil, "board \(board.id) v\(c.version) by \(author): \(Wire.encodeChange(change))")
        for conn in connections { conn.external(c) }
        return (c, nextToken)
    }

    // MARK: What the store says

    /// A commit is durable (this process's, from the store thread, or any process's, from
    /// the listener; either may come twice or early): applied to the truth in version order.
    func durable(_ d: DurableCommit) {
        guard d.version > truth.version else { return }
        arrivals[d.version] = d
        while let next = arrivals.removeValue(forKey: truth.version + 1) { advance(next) }
        // A gap: the listener has it on its way, or (rarely) it is a commit of ours reported
        // failed that landed after all, which the listener does not read back unasked.
        if !arrivals.isEmpty { server.listener?.catchUp(board: truth.id, after: truth.version) }
        for c in connections { c.requestWrite() }
    }

    private func advance(_ d: DurableCommit) {
        let before = truth.version
        var moves: [Move] = []
        let revert = d.change.flatMap { truth.revert(of: $0) }
        lastRevert = nil
        if let change = d.change, let m = truth.apply(change) {
            moves = m
            lastRevert = revert.map { (truth.version, $0) }
            server.publish(d)
        } else {
            // Not a change this board can replay: take the store's word for the version.
            truth.version = d.version
            markDiverged(at: before)
        }
        if d.origin == server.origin, let k = pending.firstIndex(where: { $0.token == d.token }) {
            let p = pending.remove(at: k)
            if k != 0 || p.expected != d.version { markDiverged(at: before) }
            server.log(.debug, "durable", session: p.by, "board \(truth.id) v\(d.version) durable \(Int(server.now - p.queuedAt)) ms after the drop")
        } else if d.origin == server.origin {
            // A write reported failed that did land after all (the connection broke at COMMIT).
            markDiverged(at: before)
        } else if pending.isEmpty && diverged == nil && board.version == before {
            // Another process's commit, with nothing of ours in flight: the path other
            // sessions' commits take, so drags in flight keep their live places.
            board = truth
            let c = Commit(board: truth.id, version: truth.version, by: d.by, moves: moves, order: truth.order, change: d.change)
            let age = Date().timeIntervalSince1970 * 1000 - d.at
            server.log(.info, "commit", session: nil, "board \(truth.id) v\(c.version) from another process (\(d.origin)), \(Int(age)) ms after its drop")
            for conn in connections { conn.external(c) }
        } else {
            markDiverged(at: before)
        }
    }

    /// The store found this process's change moot (another process's commit came first).
    func unchanged(token: Int) {
        guard let k = pending.firstIndex(where: { $0.token == token }) else { return }
        let p = pending.remove(at: k)
        if k != 0 || p.expected != nil { markDiverged(at: truth.version) }
    }

    /// The store refused this process's change: it would break a section's placement rule on
    /// the store's order (another process's commit came first). The dropping session gets
    /// `rule_refused`, then (settle) every session a `layout` on the durable order.
    func refused(token: Int, reason: String) {
        guard let k = pending.firstIndex(where: { $0.token == token }) else { return }
        let p = pending.remove(at: k)
        markDiverged(at: truth.version)
        server.log(.info, "refused", session: p.by, "board \(board.id): \(reason)")
        connections.first { $0.id == p.by }?.send(.error(code: .ruleRefused, message: reason))
    }

    /// The store could not write this commit: the drop is refused (`store_unavailable`).
    func failed(token: Int, reason: String) {
        guard let k = pending.firstIndex(where: { $0.token == token }) else { return }
        let p = pending.remove(at: k)
        markDiverged(at: truth.version)
        server.log(.error, "store", session: p.by, "board \(board.id): drop refused: \(reason)")
        connections.first { $0.id == p.by }?.send(.error(code: .storeUnavailable,
                                                         message: "the drop could not be saved; the board is back to its last saved order"))
    }

    private func markDiverged(at version: Int) {
        diverged = min(diverged ?? version, version)
    }

    /// After a round of reports: rebase when the sessions were told something the store
    /// did not do.
    func settle() {
        guard let since = diverged else { return }
        diverged = nil
        board = truth
        for k in pending.indices {
            if let change = pending[k].change, board.apply(change) != nil {
                pending[k].expected = board.version
            } else {
                pending[k].expected = nil
            }
        }
        server.log(.info, "resync", session: nil, "board \(board.id) v\(board.version) (durable v\(truth.version), \(pending.count) pending)")
        for c in connections { c.resync(to: board, droppingHeldAbove: since) }
    }
}
