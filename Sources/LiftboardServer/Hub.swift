import Foundation
import LiftboardCore
import LiftboardStore

/// One board shared by every session on it, on the service thread. Commits are serialized
/// here with increasing versions; a `commit` reaches clients only once the store thread says
/// it is durable (see `Connection.Outgoing.barrier`).
final class Hub {
    private(set) var board: Board
    private(set) var connections: [Connection] = []
    /// The highest version known durable (set from the store thread's report).
    var durableVersion: Int
    unowned let server: Server

    init(board: Board, server: Server) {
        self.board = board
        self.server = server
        durableVersion = board.version
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
        server.writer?.enqueue(CommitRecord(commit: c, at: Date().timeIntervalSince1970 * 1000))
        server.log(.info, "commit", session: origin.id, "board \(board.id) v\(c.version): \(c.moves.map { "\($0.id) \($0.from)->\($0.to)" }.joined(separator: ", "))")
        for other in connections where other !== origin { other.external(c) }
        return c.version
    }

    /// The store says `version` is durable: release what waited for it.
    func durable(_ version: Int) {
        guard version > durableVersion else { return }
        durableVersion = version
        for c in connections { c.requestWrite() }
    }
}
