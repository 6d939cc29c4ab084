import CLoadSockets
#if canImport(Glibc)
import Glibc
#endif

/// One epoll instance for every session's socket: a wake-up costs one `epoll_pwait2` whatever
/// the number of sessions, and its timeout (the earliest deadline, see `DeadlineHeap`) is to the
/// nanosecond.
final class EventLoop {
    let epfd: Int32
    private var events: UnsafeMutablePointer<epoll_event>
    let capacity = 512

    init() throws {
        epfd = epoll_create1(Int32(EPOLL_CLOEXEC))
        guard epfd >= 0 else { throw LoadError.system("epoll_create1", errno) }
        events = .allocate(capacity: capacity)
    }

    deinit {
        events.deallocate()
        close(epfd)
    }

    /// Watches `fd` for `token` (readable always; writable when asked).
    func add(_ fd: Int32, token: Int, writable: Bool) -> Bool {
        var ev = epoll_event()
        ev.events = Self.mask(writable)
        ev.data.u64 = UInt64(token)
        return epoll_ctl(epfd, EPOLL_CTL_ADD, fd, &ev) == 0
    }

    func modify(_ fd: Int32, token: Int, writable: Bool) {
        var ev = epoll_event()
        ev.events = Self.mask(writable)
        ev.data.u64 = UInt64(token)
        _ = epoll_ctl(epfd, EPOLL_CTL_MOD, fd, &ev)
    }

    private static func mask(_ writable: Bool) -> UInt32 {
        EPOLLIN.rawValue | EPOLLRDHUP.rawValue | (writable ? EPOLLOUT.rawValue : 0)
    }

    /// Waits until a socket is ready or `timeoutNs` passes; returns how many are ready (see `ready(_:)`).
    /// Where `epoll_pwait2` is missing (kernels before 5.11, valgrind 3.19), `epoll_wait`, its
    /// timeout rounded up to the millisecond: without it every wait failed at once and the loop
    /// spun, never seeing a socket ready.
    func wait(timeoutNs: UInt64) -> Int {
        if !nanosecondWaits {
            return max(0, Int(epoll_wait(epfd, events, Int32(capacity), Int32(min((timeoutNs + 999_999) / 1_000_000, 60_000)))))
        }
        var ts = timespec(tv_sec: Int(timeoutNs / 1_000_000_000), tv_nsec: Int(timeoutNs % 1_000_000_000))
        let n = epoll_pwait2(epfd, events, Int32(capacity), &ts, nil)
        if n < 0 && errno == ENOSYS {
            nanosecondWaits = false
            return wait(timeoutNs: timeoutNs)
        }
        return max(0, Int(n))
    }
    private var nanosecondWaits = true

    /// The k-th ready socket of the last `wait`: its token and events.
    func ready(_ k: Int) -> (token: Int, events: UInt32) { (Int(events[k].data.u64), events[k].events) }
}

/// Deadlines (ns) and the token each is for, earliest first. A token re-scheduled leaves its old
/// entry in place; the owner knows its current deadline and ignores the stale one when it comes up.
struct DeadlineHeap {
    private var items: [(deadline: UInt64, token: Int)] = []

    var isEmpty: Bool { items.isEmpty }
    var earliest: UInt64? { items.first?.deadline }

    mutating func push(_ deadline: UInt64, _ token: Int) {
        items.append((deadline, token))
        var k = items.count - 1
        while k > 0 {
            let parent = (k - 1) / 2
            guard items[k].deadline < items[parent].deadline else { break }
            items.swapAt(k, parent)
            k = parent
        }
    }

    /// The earliest entry if it is due at `now`.
    mutating func popDue(_ now: UInt64) -> (deadline: UInt64, token: Int)? {
        guard let first = items.first, first.deadline <= now else { return nil }
        let last = items.removeLast()
        if !items.isEmpty {
            items[0] = last
            var k = 0
            while true {
                let l = 2 * k + 1, r = l + 1
                var m = k
                if l < items.count, items[l].deadline < items[m].deadline { m = l }
                if r < items.count, items[r].deadline < items[m].deadline { m = r }
                if m == k { break }
                items.swapAt(k, m)
                k = m
            }
        }
        return first
    }
}
