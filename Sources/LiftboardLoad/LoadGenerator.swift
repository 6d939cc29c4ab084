import CLoadSockets
import Foundation
#if canImport(Glibc)
import Glibc
#endif
import LiftboardCore
import LiftboardWire

/// Many WebSocket sessions on one thread, each looping gestures (see `Workload`: long-press
/// drags, and pans for `realistic`) at `rate` moves a second, timing every move until the frame
/// that acknowledges it (`seq`/`ack`), or until its echo.
///
/// The generator must cost little per message, or a run measures it rather than the server:
/// plain non-blocking sockets on one epoll (`EventLoop`), one heap of deadlines for every
/// session's next step, messages written from templates into one reused buffer
/// (`ClientMessages`, `ClientFrame`), and received messages scanned for the few members it reads
/// (`MessageFields`) instead of parsed into a tree.
public final class LoadGenerator {
    let config: LoadConfig
    let loop: EventLoop
    var timers = DeadlineHeap()
    var clients: [LoadClient] = []
    var latenciesNs: [UInt64] = []
    var sent = 0, received = 0, commits = 0, errors = 0, connected = 0, laidOut = 0, drops = 0, pans = 0, movesSent = 0
    var movesUnanswered = 0
    var presences = 0, presenceBytes = 0, presenceBreaks = 0
    /// `--watchers`: laid out watchers; per commit (`board#version`) its drop, the originator's
    /// copy and every watcher's copy (run time, ns).
    var watchersReady = 0
    var watcherCopies = 0
    struct Fanout { var dropNs: UInt64 = 0; var ownNs: UInt64 = 0; var arrivals: [UInt64] = [] }
    var fanout: [String: Fanout] = [:]
    var cpuAtStart: Double?
    /// When gestures may start (run time, ns): 0, or with watchers the moment all are laid out;
    /// `seconds` counts from it.
    var gesturesFromNs: UInt64 = 0
    /// Sessions ready for gestures (laid out, or connected for the echo).
    var readyCount = 0
    var allFinished = false
    var allClosed = false
    /// Loop turns (each one `epoll_pwait2`) and sockets found ready by them.
    var wakes = 0, readyEvents = 0
    /// Drop delivery: (board, version) → when its drop was sent, and arrivals at other
    /// sessions seen before the dropping session learnt the version.
    var dropSentNs: [String: UInt64] = [:]
    var earlyArrivalsNs: [String: [UInt64]] = [:]
    var deliveryNs: [UInt64] = []
    /// `layout`s after the first: the server resynced a session (another process committed
    /// first while its own drop was on its way to the store, or a write failed).
    var resyncs = 0
    let started: UInt64
    /// CLOCK_REALTIME when `started` was read: turns the kernel's receive stamps into run time.
    let startedRealtime: Int64
    /// When the bytes being handled reached the socket (run time, ns): the kernel's stamp, or
    /// the time they were read when there is none.
    var receivedNs: UInt64 = 0
    /// From the kernel's stamp to the read, for every read that had one: how long arrivals
    /// waited for the load generator.
    var readDelayNs: [UInt64] = []
    /// How late each session's step ran after its deadline: the generator keeping its schedule.
    var lateNs: [UInt64] = []
    /// Shared by every session (one thread): what a read lands in, the message being written
    /// and its frame.
    let scratch: UnsafeMutableRawBufferPointer
    var payload: [UInt8] = []
    var frame: [UInt8] = []
    private var maskState: UInt64 = 0x2545_F491_4F6C_DD1D
    private var noted = false

    public init(config: LoadConfig) throws {
        self.config = config
        loop = try EventLoop()
        scratch = .allocate(byteCount: 256 * 1024, alignment: 16)
        payload.reserveCapacity(4096)
        frame.reserveCapacity(4096)
        started = Self.monotonicNs()
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        startedRealtime = Int64(ts.tv_sec) * 1_000_000_000 + Int64(ts.tv_nsec)
    }

    /// Bytes were read: `kernelRealtimeNs` is the kernel's receive stamp (0: none).
    func arrived(kernelRealtimeNs stamp: Int64) {
        let now = nowNs
        let kernel = stamp - startedRealtime
        // A stamp from before the run or after now (the wall clock stepped) is not used.
        receivedNs = stamp > 0 && kernel > 0 && UInt64(kernel) <= now ? UInt64(kernel) : now
        if receivedNs < now { readDelayNs.append(now - receivedNs) }
        if !config.kernelReceiveTime { receivedNs = now }
    }

    deinit { scratch.deallocate() }

    static func monotonicNs() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
    }

    var nowNs: UInt64 { Self.monotonicNs() - started }
    /// The `ms` of a message sent now: the client's clock, to the microsecond.
    var clientMs: Double { Double(nowNs / 1000) / 1000 }

    /// A fresh masking key for each frame (xorshift: RFC 6455 asks for unpredictable keys to
    /// protect proxies from a browser's script; any key is valid to the server).
    func nextMask() -> UInt32 {
        maskState ^= maskState << 13
        maskState ^= maskState >> 7
        maskState ^= maskState << 17
        return UInt32(truncatingIfNeeded: maskState >> 16)
    }

    /// The first reason a session could not connect, on stderr (the rest only count as errors).
    func note(_ message: String) {
        if noted { return }
        noted = true
        FileHandle.standardError.write(Data("liftboard load: \(message)\n".utf8))
    }

    func heartbeat() {
        // Every connection failed or was closed by the server: nothing is left to measure.
        allClosed = clients.allSatisfy { $0.link == .closed }
        if config.gestures != nil, readyCount == config.sessions {
            allFinished = clients.allSatisfy { if case .closed = $0.phase { true } else { $0.watcher } }
        }
    }

    /// A session is ready for gestures: it starts now, or with everyone after the settle time.
    func ready(_ client: LoadClient) {
        if client.watcher { watchersReady += 1 } else { readyCount += 1 }
        if config.idle { return }
        if config.watchers > 0 {
            // Gestures start once every session, watchers included, is laid out: no commit may
            // come before a watcher could see it.
            guard readyCount == config.sessions, watchersReady == config.watchers else { return }
            cpuAtStart = config.serverPid.flatMap(ProcessStats.cpuSeconds)
            gesturesFromNs = nowNs
            if config.settleSeconds != nil { FileHandle.standardError.write(Data("ready\n".utf8)) }
            for c in clients where !c.watcher { c.after(ms: (config.settleSeconds ?? 0) * 1000 + c.stagger) }
            return
        }
        guard let settle = config.settleSeconds else { return client.after(ms: client.stagger) }
        guard readyCount == config.sessions else { return }
        FileHandle.standardError.write(Data("ready\n".utf8))
        for c in clients { c.after(ms: settle * 1000 + c.stagger) }
    }

    public func run() throws -> LoadReport {
        raiseFileLimit()
        let cpuBefore = Self.cpuSeconds()
        var addresses: [Int: SocketAddress] = [:]
        for port in Set([config.port] + config.morePorts) { addresses[port] = try SocketAddress(host: config.host, port: port) }
        // The server's memory before the first session connects: every session's share
        // (boards loaded for them included) is in what follows.
        let before = config.serverPid.flatMap(ProcessStats.residentKiB)
        for k in 0..<config.sessions {
            let board = config.board ?? "load-\(k / max(1, config.sessionsPerBoard) + 1)"
            let client = LoadClient(index: k, board: board, generator: self)
            clients.append(client)
            client.connect(to: addresses[config.port(ofSession: k)]!)
        }
        // Watchers connect in waves, at most 1,000 upgrades in flight: a server counts
        // connections still upgrading against a budget of its own (it answers 503 past it).
        let watcherAddress = addresses[config.port]!
        func connectWatchers() {
            while clients.count < config.sessions + config.watchers,
                  clients.count - connected - clients.lazy.filter({ $0.link == .closed }).count < 1000 {
                let client = LoadClient(index: clients.count, board: config.board ?? "load-1", generator: self, watcher: true)
                clients.append(client)
                client.connect(to: watcherAddress)
            }
        }
        connectWatchers()
        // After `seconds`, no new drag starts; the rest of the time drains drags and commits.
        // With watchers, connecting them all may take a while (up to a minute); `seconds` then
        // counts from when they are.
        var end = UInt64((config.seconds + 2.5 + (config.watchers > 0 ? 60 : 0)) * 1e9)
        var idleSample: Int? = nil
        var finishedAt: UInt64? = nil
        // A heartbeat, so that the loop checks whether a counted run is over even when idle.
        var nextHeartbeat: UInt64 = 0
        var now = nowNs
        while now < end {
            if clients.count < config.sessions + config.watchers { connectWatchers() }
            if gesturesFromNs > 0 { end = min(end, gesturesFromNs + UInt64((config.seconds + 2.5) * 1e9)) }
            var wake = min(end, nextHeartbeat)
            if let t = timers.earliest { wake = min(wake, t) }
            let n = loop.wait(timeoutNs: wake > now ? wake - now : 0)
            wakes += 1
            readyEvents += n
            for k in 0..<n {
                let (token, events) = loop.ready(k)
                clients[token].ready(events)
            }
            now = nowNs
            while let (deadline, token) = timers.popDue(now) {
                let client = clients[token]
                guard client.deadline == deadline else { continue }  // re-scheduled since
                client.deadline = 0
                lateNs.append(now - deadline)
                client.tick()
            }
            if now >= nextHeartbeat {
                heartbeat()
                nextHeartbeat = now + 100_000_000
            }
            // A counted run ends once every session has made its gestures, every move is
            // answered and every drop's commit is back (or ten seconds have passed).
            if allClosed { break }
            if allFinished, finishedAt == nil { finishedAt = now }
            // Under a profiler (`--settle`) answers come far slower: wait up to two minutes.
            if let f = finishedAt, now > f + (config.settleSeconds != nil ? 120_000_000_000 : 10_000_000_000)
                || (clients.allSatisfy { $0.pending.isEmpty && $0.unsent.isEmpty } && (config.echo || commits >= drops)
                    && watcherCopies >= commits * config.watchers) { break }
            if idleSample == nil, let pid = config.serverPid, laidOut == config.sessions + config.watchers,
               config.idle || config.watchers > 0 {
                idleSample = ProcessStats.residentKiB(pid: pid)
            }
        }
        let cpuAtEnd = config.serverPid.flatMap(ProcessStats.cpuSeconds)
        let residentAtEnd = config.serverPid.flatMap(ProcessStats.residentKiB)
        let floor = config.watchers > 0 ? sendLoopFloor() : nil
        for c in clients where c.link != .closed { c.close(code: 1000) }
        var r = report()
        r.serverResidentBeforeKiB = before
        r.serverResidentIdleKiB = idleSample
        r.loadCPUSeconds = Self.cpuSeconds() - cpuBefore
        let late = lateNs.sorted()
        if !late.isEmpty {
            r.loadLateP50us = Double(late[late.count / 2]) / 1000
            r.loadLateP99us = Double(late[min(late.count - 1, late.count * 99 / 100)]) / 1000
        }
        let delays = readDelayNs.sorted()
        if !delays.isEmpty {
            r.loadReadDelayP50us = Double(delays[delays.count / 2]) / 1000
            r.loadReadDelayP99us = Double(delays[min(delays.count - 1, delays.count * 99 / 100)]) / 1000
        }
        r.receiveTime = config.kernelReceiveTime ? "kernel" : "read"
        r.loadWakeUps = wakes
        r.loadSocketsReady = readyEvents
        if config.watchers > 0 {
            fanoutFigures(into: &r)
            r.serverResidentLaidOutKiB = idleSample
            r.serverResidentEndKiB = residentAtEnd
            if let a = cpuAtStart, let b = cpuAtEnd { r.serverCPUGesturesSeconds = b - a }
            r.sendLoopFloorMs = floor
        }
        return r
    }

    /// A watcher got another session's commit.
    func watcherCommit(board: String, version: Int) {
        watcherCopies += 1
        fanout["\(board)#\(version)", default: Fanout()].arrivals.append(receivedNs)
    }

    /// Per commit whose drop this run timed: the last watcher's delay, the copies missed, the
    /// originator's delay and whether it came no later than the median watcher's.
    func fanoutFigures(into r: inout LoadReport) {
        var last: [UInt64] = [], median: [UInt64] = [], own: [UInt64] = []
        var missed = 0, first = 0
        for f in fanout.values where f.dropNs > 0 {
            missed += max(0, config.watchers - f.arrivals.count)
            own.append(f.ownNs > f.dropNs ? f.ownNs - f.dropNs : 0)
            guard !f.arrivals.isEmpty else { continue }
            let a = f.arrivals.sorted()
            last.append(a[a.count - 1] > f.dropNs ? a[a.count - 1] - f.dropNs : 0)
            let m = a[(a.count - 1) / 2]
            median.append(m > f.dropNs ? m - f.dropNs : 0)
            if f.ownNs <= m { first += 1 }
        }
        func pct(_ v: [UInt64], _ p: Double) -> Double? {
            let s = v.sorted()
            return s.isEmpty ? nil : Double(s[min(s.count - 1, Int(Double(s.count) * p))]) / 1000
        }
        r.watchers = config.watchers
        r.fanoutCommits = own.count
        r.lastWatcherP50us = pct(last, 0.5)
        r.lastWatcherP99us = pct(last, 0.99)
        r.lastWatcherMaxus = last.max().map { Double($0) / 1000 }
        r.medianWatcherP50us = pct(median, 0.5)
        r.watcherCopiesMissed = missed
        r.originatorP50us = pct(own, 0.5)
        r.originatorP99us = pct(own, 0.99)
        r.originatorBeforeMedianShare = own.isEmpty ? nil : Double(first) / Double(own.count)
    }

    /// The floor: one WebSocket ping (125-byte payload, 131 bytes on the wire) written to each
    /// watcher's socket in a bare loop, as fast as the kernel takes them: the least a fan-out
    /// to those sockets can cost. The best of three rounds, in ms.
    func sendLoopFloor() -> Double? {
        let watchers = clients.filter { $0.watcher && $0.link == .open }
        guard !watchers.isEmpty else { return nil }
        var frame: [UInt8] = []
        let payload = [UInt8](repeating: 0x2E, count: 125)
        payload.withUnsafeBytes { ClientFrame.append(opcode: ClientFrame.ping, payload: $0, mask: 0x1234_5678, to: &frame) }
        var best = Double.infinity
        for _ in 0..<3 {
            let t0 = nowNs
            for w in watchers { _ = frame.withUnsafeBytes { send(w.fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT) | Int32(MSG_NOSIGNAL)) } }
            best = min(best, Double(nowNs - t0) / 1e6)
            // Let the server answer the pings before the next round (their pongs are read below).
            usleep(200_000)
        }
        return best
    }

    /// This process's CPU time so far, user and system.
    static func cpuSeconds() -> Double {
        var u = rusage()
        getrusage(RUSAGE_SELF.rawValue, &u)
        return Double(u.ru_utime.tv_sec + u.ru_stime.tv_sec) + Double(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6
    }

    func report() -> LoadReport {
        let sorted = latenciesNs.sorted()
        func pct(_ p: Double) -> Double {
            sorted.isEmpty ? 0 : Double(sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))]) / 1000
        }
        let delivery = deliveryNs.sorted()
        func dpct(_ p: Double) -> Double? {
            delivery.isEmpty ? nil : Double(delivery[min(delivery.count - 1, Int(Double(delivery.count) * p))]) / 1000
        }
        var r = LoadReport(mode: config.echo ? "echo" : "protocol", sessions: config.sessions, connected: connected, rate: config.rate,
                          seconds: config.seconds, elapsedSeconds: Double(nowNs) / 1e9, sent: sent, received: received, moves: sorted.count,
                          p50us: pct(0.5), p99us: pct(0.99), p999us: pct(0.999), commits: commits, drops: drops, pans: pans,
                          movesSent: movesSent, workload: config.workload.rawValue, errors: errors,
                          serverCPUSeconds: nil, serverPeakMemoryKiB: nil, loadCPUSeconds: nil, loadWakeUps: nil, loadLateP50us: nil, loadLateP99us: nil, loadReadDelayP50us: nil, loadReadDelayP99us: nil, receiveTime: nil, loadSocketsReady: nil, serverResidentBeforeKiB: nil, serverResidentIdleKiB: nil,
                          deliveryP50us: dpct(0.5), deliveryP99us: dpct(0.99), deliveries: config.sessionsPerBoard > 1 ? delivery.count : nil, resyncs: resyncs)
        if config.quietFollow && !config.echo { r.movesUnanswered = movesUnanswered }
        if presences > 0 { (r.presences, r.presenceBytes, r.presenceBreaks) = (presences, presenceBytes, presenceBreaks) }
        return r
    }

    /// The dropping session got its own commit: `version` is its drop's, sent at `sentNs`.
    func ownCommit(board: String, version: Int, sentNs: UInt64) {
        let key = "\(board)#\(version)"
        if config.watchers > 0 {
            fanout[key, default: Fanout()].dropNs = sentNs
            fanout[key, default: Fanout()].ownNs = receivedNs
        }
        dropSentNs[key] = sentNs
        for t in earlyArrivalsNs.removeValue(forKey: key) ?? [] { deliveryNs.append(t > sentNs ? t - sentNs : 0) }
    }

    /// Another session's commit reached this one.
    func othersCommit(board: String, version: Int) {
        let key = "\(board)#\(version)"
        let now = receivedNs
        if let sent = dropSentNs[key] { deliveryNs.append(now > sent ? now - sent : 0) } else { earlyArrivalsNs[key, default: []].append(now) }
    }

    private func raiseFileLimit() {
        var lim = rlimit()
        if getrlimit(Int32(RLIMIT_NOFILE.rawValue), &lim) == 0, lim.rlim_cur < lim.rlim_max {
            lim.rlim_cur = lim.rlim_max
            setrlimit(Int32(RLIMIT_NOFILE.rawValue), &lim)
        }
    }
}


public enum LoadError: Error, CustomStringConvertible {
    case system(String, Int32)
    case resolve(String, String)
    public var description: String {
        switch self {
        case .system(let call, let e): "\(call): \(String(cString: strerror(e)))"
        case .resolve(let host, let why): "cannot resolve \(host): \(why)"
        }
    }
}

/// Reads a server process's CPU time and peak memory from /proc.
public enum ProcessStats {
    public static func cpuSeconds(pid: Int32) -> Double? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return nil }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 13, let u = Double(fields[11]), let s = Double(fields[12]) else { return nil }
        return (u + s) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    public static func peakMemoryKiB(pid: Int32) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
            return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "")
        }
        return nil
    }

    /// The process's resident anonymous memory (`RssAnon`: its heap and stacks; not the pages of
    /// its binary and libraries, which running a new code path faults in whatever the sessions
    /// hold), or `VmRSS` on a kernel without it.
    public static func residentKiB(pid: Int32) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
        func field(_ name: String) -> Int? {
            for line in status.split(separator: "\n") where line.hasPrefix(name) {
                return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "")
            }
            return nil
        }
        return field("RssAnon:") ?? field("VmRSS:")
    }
}
