import Foundation
import LiftboardCore

/// Another thread with its own PostgreSQL connection: `LISTEN`s for commits from every
/// process (this one's too). A notification carries its commit (`NotifyPayload`); when one
/// does not, or a version was skipped, it reads back the board's commits in version order from
/// the last version it delivered. After a lost connection it
/// reconnects with backoff and catches up on every board, so no commit is missed.
public final class CommitListener: @unchecked Sendable {
    // @unchecked: `stopping` and `requests` are guarded by `lock`; everything else belongs
    // to the thread.
    private let lock = NSLock()
    private var stopping = false
    private var requests: [String: Int] = [:]
    private var thread: Thread?
    private let url: String
    /// This process (`CommitRecord.origin`): its own commits come back through the store
    /// thread, so their notifications are not read back.
    private let origin: String
    private var delivered: [String: Int]
    private let onCommits: @Sendable ([DurableCommit]) -> Void
    private let onHealth: @Sendable (Bool) -> Void
    /// Wakes the thread's `poll` at once for a request or a close (a pipe: without it a
    /// request would wait for the next notification, or the poll's 200 ms timeout).
    private let wakePipe: [Int32]
    private var wakeFD: Int32 { wakePipe[0] }

    /// `versions`: each board's version as the server loaded it.
    public init(url: String, origin: String, versions: [String: Int], onCommits: @escaping @Sendable ([DurableCommit]) -> Void,
                onHealth: @escaping @Sendable (Bool) -> Void) {
        self.url = url
        self.origin = origin
        delivered = versions
        self.onCommits = onCommits
        self.onHealth = onHealth
        var fds: [Int32] = [-1, -1]
        if pipe(&fds) == 0 {
            for fd in fds {
                _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
                _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            }
        } else {
            fds = [-1, -1]
        }
        wakePipe = fds
        let t = Thread { [unowned self] in self.loop() }
        t.name = "liftboard-listen"
        thread = t
        t.start()
    }

    deinit { for fd in wakePipe where fd >= 0 { Glibc.close(fd) } }

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

    private func wake() {
        // A full pipe already wakes the thread: a failed write loses nothing.
        var byte: UInt8 = 1
        if wakePipe[1] >= 0 { _ = write(wakePipe[1], &byte, 1) }
    }

    private var isStopping: Bool { lock.lock(); defer { lock.unlock() }; return stopping }

    /// Asks for every commit of `board` after `version` again (the hub is missing one: a
    /// commit of this process reported failed that landed after all). Served at once (within
    /// one round trip to PostgreSQL), or after a reconnection when the connection is down.
    public func catchUp(board: String, after version: Int) {
        lock.lock(); requests[board] = min(requests[board] ?? version, version); lock.unlock()
        wake()
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
                    db = c
                    // Whatever was committed while this thread was not listening.
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
                    var drain = [UInt8](repeating: 0, count: 64)
                    while read(wakeFD, &drain, drain.count) > 0 {}
                }
                if fds[0].revents != 0 {
                    var carried: [DurableCommit] = []
                    for (_, payload) in try db!.notifications() {
                        guard let n = NotifyPayload.decode(payload), let last = delivered[n.board], !boards.contains(n.board) else {
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
