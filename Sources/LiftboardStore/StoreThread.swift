import Foundation

/// The life of a thread with a PostgreSQL connection of its own (`ClaimBroker`,
/// `CommitListener`): what the service thread asks of it (`Asked`, kept under a lock), a pipe
/// that wakes its `poll` at once when something is asked or a stop, and a stop that waits for
/// the thread to finish.
final class StoreThread<Asked: Sendable>: @unchecked Sendable {
    // @unchecked: `asked`, `stopping` and `running` are guarded by `condition`.
    private let condition = NSCondition()
    private var asked: Asked
    private var stopping = false
    private var running = false
    private let wakePipe = WakePipe()

    init(_ nothingAsked: Asked) { asked = nothingAsked }

    /// Runs `body` on a thread named `name`; `body` returns when `isStopping`.
    func start(name: String, _ body: @escaping @Sendable () -> Void) {
        condition.withLock { running = true }
        let t = Thread { [self] in
            body()
            condition.withLock { running = false; condition.broadcast() }
        }
        t.name = name
        t.start()
    }

    /// Changes what is asked under the lock; `wake`: and wakes the thread's `poll`.
    @discardableResult
    func withAsked<R>(wake: Bool = false, _ change: (inout Asked) -> R) -> R {
        let r = condition.withLock { change(&asked) }
        if wake { wakePipe.wake() }
        return r
    }

    /// Takes what is asked at `part`, leaving `empty` there.
    func take<Part>(_ part: WritableKeyPath<Asked, Part>, leaving empty: Part) -> Part {
        withAsked { a in
            let taken = a[keyPath: part]
            a[keyPath: part] = empty
            return taken
        }
    }

    /// Asks the thread to stop, and waits until it has. Idempotent.
    func stop() {
        condition.withLock { stopping = true }
        wakePipe.wake()
        condition.withLock { while running { condition.wait() } }
    }

    var isStopping: Bool { condition.withLock { stopping } }

    /// Waits at most `ms` for `socket` (when given) to be readable or the thread to be woken;
    /// whether `socket` is readable.
    func poll(_ socket: Int32?, ms: Int32) -> Bool {
        var fds = [pollfd(fd: wakePipe.readFD, events: Int16(POLLIN), revents: 0),
                   pollfd(fd: socket ?? -1, events: Int16(POLLIN), revents: 0)]
        _ = Glibc.poll(&fds, 2, max(0, ms))
        if fds[0].revents != 0 { wakePipe.drain() }
        return socket != nil && fds[1].revents != 0
    }
}

/// A pipe that wakes a thread's `poll` at once (a request, a close): without it a request
/// waits for the poll's timeout.
final class WakePipe: @unchecked Sendable {
    private let fds: [Int32]
    var readFD: Int32 { fds[0] }

    init() {
        var fds: [Int32] = [-1, -1]
        if pipe(&fds) == 0 {
            for fd in fds {
                _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
                _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            }
        } else {
            fds = [-1, -1]
        }
        self.fds = fds
    }

    deinit { for fd in fds where fd >= 0 { Glibc.close(fd) } }

    func wake() {
        // A full pipe already wakes the thread: a failed write loses nothing.
        var byte: UInt8 = 1
        if fds[1] >= 0 { _ = write(fds[1], &byte, 1) }
    }

    func drain() {
        var drain = [UInt8](repeating: 0, count: 64)
        while Glibc.read(fds[0], &drain, drain.count) > 0 {}
    }
}
