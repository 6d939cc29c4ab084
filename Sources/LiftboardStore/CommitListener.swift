import Foundation
import LiftboardCore

/// Another thread with its own PostgreSQL connection: `LISTEN`s for commits from every
/// process (this one's too). A notification carries its commit (`NotifyPayload`); when one
/// does not, or a version was skipped, it reads back the board's commits in version order from
/// the last version it delivered. After a lost connection it
/// reconnects with backoff and catches up on every board, so no commit is missed.
///
/// It also keeps the process's boards the database's: a board created or deleted by any
/// process (`PostgresStore.boardsChannel`) is read and reported (`BoardNews`), as is a board
/// the service thread asks about (`lookUp`: a hello named a board this process does not
/// know, maybe created a moment ago), and after a reconnection the boards are compared whole.
public final class CommitListener: @unchecked Sendable {
    // @unchecked: what is asked is kept by `life` under its lock; everything else belongs to
    // the thread.
    /// Asked of the thread: boards to catch up on from a version, boards to look up.
    private struct Asked: Sendable {
        var catchUps: [String: Int] = [:]
        var lookups: Set<String> = []
    }
    private let life = StoreThread(Asked())
    private let url: String
    private let edits: EditCodec
    /// This process (`CommitRecord.origin`): its own commits come back through the store
    /// thread, so their notifications are not read back.
    private let origin: String
    private var delivered: [String: Int]
    private let onCommits: @Sendable ([DurableCommit]) -> Void
    private let onHealth: @Sendable (Bool) -> Void
    private let onBoards: @Sendable (BoardNews) -> Void

    /// `versions`: each board's version as the server loaded it; `edits`: how edits are kept
    /// as text (`EditCodec`).
    public init(url: String, origin: String, versions: [String: Int], edits: EditCodec,
                onCommits: @escaping @Sendable ([DurableCommit]) -> Void,
                onHealth: @escaping @Sendable (Bool) -> Void, onBoards: @escaping @Sendable (BoardNews) -> Void = { _ in }) {
        self.url = url
        self.edits = edits
        self.origin = origin
        delivered = versions
        self.onCommits = onCommits
        self.onHealth = onHealth
        self.onBoards = onBoards
        life.start(name: "liftboard-listen") { [unowned self] in self.loop() }
    }

    /// Stops the thread (at once, or within its 200 ms poll when the pipe could not be made).
    public func close() { life.stop() }

    /// Asks for every commit of `board` after `version` again (the hub is missing one: a
    /// commit of this process reported failed that landed after all). Served at once (within
    /// one round trip to PostgreSQL), or after a reconnection when the connection is down.
    public func catchUp(board: String, after version: Int) {
        life.withAsked(wake: true) { $0.catchUps[board] = min($0.catchUps[board] ?? version, version) }
    }

    /// Reads `board` from the database and reports it (`BoardNews.appeared`, or `missing`
    /// when there is none). Served at once, or after a reconnection.
    public func lookUp(board: String) {
        life.withAsked(wake: true) { $0.lookups.insert(board) }
    }

    private func loop() {
        var db: PostgresConnection?
        var backoff = 0.1
        var up = true
        while !life.isStopping {
            do throws(StoreError) {
                if db == nil || !db!.isConnected {
                    db = nil
                    let c = try PostgresConnection(url: url)
                    try c.exec("LISTEN \(PostgresStore.channel)")
                    try c.exec("LISTEN \(PostgresStore.boardsChannel)")
                    db = c
                    // Boards created or deleted, and whatever was committed, while this
                    // thread was not listening.
                    try reconcileBoards(db: c)
                    try catchUp(db: c, boards: Array(delivered.keys))
                    if !up { up = true; onHealth(true) }
                    backoff = 0.1
                }
                var boards: [String] = []
                for (b, v) in life.take(\.catchUps, leaving: [:]) where delivered[b] != nil {
                    delivered[b] = min(delivered[b]!, v)
                    boards.append(b)
                }
                // Catch-ups asked while this waits are taken at the top of the next turn.
                let readable = life.poll(db!.socket, ms: boards.isEmpty ? 200 : 0)
                var looked = BoardNews()
                for id in life.take(\.lookups, leaving: []) {
                    try read(board: id, db: db!, into: &looked, missing: true)
                }
                if !looked.isEmpty { onBoards(looked) }
                if readable {
                    var carried: [DurableCommit] = []
                    for (channel, payload) in try db!.notifications() {
                        if channel == PostgresStore.boardsChannel {
                            // Reported in the notifications' order: the commits before this
                            // news, the news, then the commits after it.
                            if !carried.isEmpty { onCommits(carried); carried = [] }
                            var news = BoardNews()
                            try boardNotice(payload, db: db!, into: &news)
                            if !news.isEmpty { onBoards(news) }
                            continue
                        }
                        guard let n = NotifyPayload.decode(payload, edits: edits), let last = delivered[n.board], !boards.contains(n.board) else {
                            continue
                        }
                        if n.version <= last { continue }
                        if n.version == last + 1, n.origin == origin {
                            // This process's next commit: the store thread reported it already.
                            delivered[n.board] = n.version
                        } else if n.version == last + 1, let c = n.commit {
                            // The payload carries the commit: nothing to read back.
                            delivered[n.board] = n.version
                            carried.append(c)
                        } else {
                            boards.append(n.board)
                        }
                    }
                    if !carried.isEmpty { onCommits(carried) }
                }
                try catchUp(db: db!, boards: boards)
            } catch {
                db = nil
                if up { up = false; onHealth(false) }
                Thread.sleep(forTimeInterval: backoff)
                backoff = min(backoff * 2, 5)
            }
        }
    }

    /// `created <TAB> id` or `deleted <TAB> id`.
    private func boardNotice(_ payload: String, db: PostgresConnection, into news: inout BoardNews) throws(StoreError) {
        let parts = payload.split(separator: "\t", maxSplits: 1).map(String.init)
        guard parts.count == 2 else { return }
        switch parts[0] {
        case "created": try read(board: parts[1], db: db, into: &news, missing: false)
        case "deleted":
            delivered[parts[1]] = nil
            news.appeared.removeAll { $0.id == parts[1] }
            news.gone.append(parts[1])
        default: break
        }
    }

    /// Reads a board and reports it; a board this thread did not follow is followed from the
    /// version read. (One it follows already keeps its place in the commits: the process has
    /// its hub, or has it on the way, and the commits after it are delivered as they come.)
    private func read(board id: String, db: PostgresConnection, into news: inout BoardNews, missing: Bool) throws(StoreError) {
        if let b = try PostgresStore.board(on: db, id: id) {
            if delivered[id] == nil { delivered[id] = b.version }
            news.appeared.removeAll { $0.id == id }
            news.appeared.append(b)
        } else if missing {
            news.missing.append(id)
        }
    }

    /// After (re)connecting: boards the database has that this thread does not follow appear,
    /// boards it follows that the database no longer has are gone.
    private func reconcileBoards(db: PostgresConnection) throws(StoreError) {
        let r = try db.exec("SELECT id FROM boards")
        let ids = Set((0..<r.count).map { r.text($0, 0) })
        var news = BoardNews()
        for id in ids where delivered[id] == nil { try read(board: id, db: db, into: &news, missing: false) }
        for id in delivered.keys where !ids.contains(id) {
            delivered[id] = nil
            news.gone.append(id)
        }
        if !news.isEmpty { onBoards(news) }
    }

    private func catchUp(db: PostgresConnection, boards: [String]) throws(StoreError) {
        var out: [DurableCommit] = []
        for b in boards {
            guard let last = delivered[b] else { continue }
            let commits = try PostgresStore.commits(on: db, board: b, after: last, edits: edits)
            if let v = commits.last?.version { delivered[b] = v }
            out += commits
        }
        if !out.isEmpty { onCommits(out) }
    }
}

/// Boards that came or went in the database (`CommitListener`'s `onBoards`).
public struct BoardNews: Sendable {
    /// Created (by any process) or asked about, as read; their later commits follow.
    public var appeared: [Board] = []
    /// Deleted by any process.
    public var gone: [String] = []
    /// Asked about (`lookUp`) and not in the database.
    public var missing: [String] = []
    public var isEmpty: Bool { appeared.isEmpty && gone.isEmpty && missing.isEmpty }
}
