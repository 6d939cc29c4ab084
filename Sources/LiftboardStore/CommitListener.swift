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
    // @unchecked: `stopping`, `requests` and `lookups` are guarded by `lock`; everything else
    // belongs to the thread.
    private let lock = NSLock()
    private var stopping = false
    private var requests: [String: Int] = [:]
    private var lookups: Set<String> = []
    private var thread: Thread?
    private let url: String
    private let edits: EditCodec
    /// This process (`CommitRecord.origin`): its own commits come back through the store
    /// thread, so their notifications are not read back.
    private let origin: String
    private var delivered: [String: Int]
    private let onCommits: @Sendable ([DurableCommit]) -> Void
    private let onHealth: @Sendable (Bool) -> Void
    private let onBoards: @Sendable (BoardNews) -> Void
    /// Wakes the thread's `poll` at once for a request or a close (without it a request
    /// would wait for the next notification, or the poll's 200 ms timeout).
    private let wakePipe = WakePipe()
    private var wakeFD: Int32 { wakePipe.readFD }

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
        let t = Thread { [unowned self] in self.loop() }
        t.name = "liftboard-listen"
        thread = t
        t.start()
    }

    /// Stops the thread (at once, or within its 200 ms poll when the pipe could not be made).
    public func close() {
        lock.lock(); stopping = true; lock.unlock()
        wake()
        while true {
            lock.lock(); let done = thread == nil; lock.unlock()
            if done { return }
            usleep(1_000)
        }
    }

    private func wake() { wakePipe.wake() }

    private var isStopping: Bool { lock.lock(); defer { lock.unlock() }; return stopping }

    /// Asks for every commit of `board` after `version` again (the hub is missing one: a
    /// commit of this process reported failed that landed after all). Served at once (within
    /// one round trip to PostgreSQL), or after a reconnection when the connection is down.
    public func catchUp(board: String, after version: Int) {
        lock.lock(); requests[board] = min(requests[board] ?? version, version); lock.unlock()
        wake()
    }

    /// Reads `board` from the database and reports it (`BoardNews.appeared`, or `missing`
    /// when there is none). Served at once, or after a reconnection.
    public func lookUp(board: String) {
        lock.lock(); lookups.insert(board); lock.unlock()
        wake()
    }

    private func takeLookups() -> Set<String> {
        lock.lock(); defer { lock.unlock() }
        let r = lookups
        lookups.removeAll()
        return r
    }

    private func takeRequests() -> [String: Int] {
        lock.lock(); defer { lock.unlock() }
        let r = requests
        requests.removeAll()
        return r
    }

    private func loop() {
        var db: PostgresConnection?
        var backoff = 0.1
        var up = true
        while !isStopping {
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
                var fds = [pollfd(fd: db!.socket, events: Int16(POLLIN), revents: 0),
                           pollfd(fd: wakeFD, events: Int16(POLLIN), revents: 0)]
                var boards: [String] = []
                for (b, v) in takeRequests() where delivered[b] != nil {
                    delivered[b] = min(delivered[b]!, v)
                    boards.append(b)
                }
                _ = poll(&fds, wakeFD >= 0 ? 2 : 1, boards.isEmpty ? 200 : 0)
                if fds[1].revents != 0 {
                    // Requests are taken at the top of the next turn.
                    wakePipe.drain()
                }
                var looked = BoardNews()
                for id in takeLookups() { try read(board: id, db: db!, into: &looked, missing: true) }
                if !looked.isEmpty { onBoards(looked) }
                if fds[0].revents != 0 {
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
        lock.lock(); thread = nil; lock.unlock()
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
