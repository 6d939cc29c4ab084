import Foundation
import LiftboardCore

/// Another thread with its own PostgreSQL connection: `LISTEN`s for commits from every
/// process (this one's too) and reads back the commits a notification announces, in version
/// order, from the last version it delivered for that board. After a lost connection it
/// reconnects with backoff and catches up on every board, so no commit is missed.
public final class CommitListener: @unchecked Sendable {
    // @unchecked: `stopping` is guarded by `lock`; everything else belongs to the thread.
    private let lock = NSLock()
    private var stopping = false
    private var thread: Thread?
    private let url: String
    private var delivered: [String: Int]
    private let onCommits: @Sendable ([DurableCommit]) -> Void
    private let onHealth: @Sendable (Bool) -> Void

    /// `versions`: each board's version as the server loaded it.
    public init(url: String, versions: [String: Int], onCommits: @escaping @Sendable ([DurableCommit]) -> Void,
                onHealth: @escaping @Sendable (Bool) -> Void) {
        self.url = url
        delivered = versions
        self.onCommits = onCommits
        self.onHealth = onHealth
        let t = Thread { [unowned self] in self.loop() }
        t.name = "liftboard-listen"
        thread = t
        t.start()
    }

    /// Stops the thread (within its 200 ms poll).
    public func close() {
        lock.lock(); stopping = true; lock.unlock()
        while true {
            lock.lock(); let done = thread == nil; lock.unlock()
            if done { return }
            usleep(10_000)
        }
    }

    private var isStopping: Bool { lock.lock(); defer { lock.unlock() }; return stopping }

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
                    db = c
                    // Whatever was committed while this thread was not listening.
                    try catchUp(db: c, boards: Array(delivered.keys))
                    if !up { up = true; onHealth(true) }
                    backoff = 0.1
                }
                var fd = pollfd(fd: db!.socket, events: Int16(POLLIN), revents: 0)
                if poll(&fd, 1, 200) > 0 {
                    var boards: [String] = []
                    for (_, payload) in try db!.notifications() {
                        let board = String(payload.split(separator: "\t").first ?? "")
                        if !boards.contains(board) { boards.append(board) }
                    }
                    try catchUp(db: db!, boards: boards)
                }
            } catch {
                db = nil
                if up { up = false; onHealth(false) }
                Thread.sleep(forTimeInterval: backoff)
                backoff = min(backoff * 2, 5)
            }
        }
        lock.lock(); thread = nil; lock.unlock()
    }

    private func catchUp(db: PostgresConnection, boards: [String]) throws(StoreError) {
        var out: [DurableCommit] = []
        for b in boards {
            guard let last = delivered[b] else { continue }
            let commits = try PostgresStore.commits(on: db, board: b, after: last)
            if let v = commits.last?.version { delivered[b] = v }
            out += commits
        }
        if !out.isEmpty { onCommits(out) }
    }
}
