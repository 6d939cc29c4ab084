import CLibWebSockets
import Foundation
import LiftboardCore
import LiftboardWire

/// What a load run is told.
public struct LoadConfig: Sendable {
    public var host = "127.0.0.1"
    public var port = 8080
    public var path = "/ws"
    public var sessions = 1
    /// Pointer moves per second per session.
    public var rate = 60.0
    public var seconds = 5.0
    /// One board for everyone; `nil`: session k uses board `load-k` (see `LoadBoards`).
    public var board: String? = nil
    /// Send the same messages to `liftboard.echo` and time the echo instead.
    public var echo = false
    /// Pointer moves per drag (`reorder`: each passes one row).
    public var movesPerDrag = 30
    /// How long a drag's finger stays still after `down` (the long press is 500 ms; a server
    /// slowed by a profiler needs more margin, or the drag becomes a pan).
    public var pressWaitMs = 540.0
    /// Ask for `lift`, `moved` and `drop` inside frames (`hello.config.events: "inline"`), as the page does.
    public var inlineEvents = true
    /// What the fingers do.
    public var workload = Workload.reorder
    /// Gestures per session, then it stops and the run ends once all have (`nil`: until `seconds`).
    public var gestures: Int? = nil
    /// Seeds the `realistic` gestures (session k uses seed * 1000003 + k).
    public var seed: UInt64 = 1
    /// Once every session is ready, write "ready" to stderr and wait this long before the
    /// first gesture (a profiler zeroes its counters then; `nil`: each starts when ready).
    public var settleSeconds: Double? = nil
    /// Sessions say hello and then stay still (to measure what an idle session costs).
    public var idle = false
    /// Sampled once every session is connected and idle (resident KiB of the server).
    public var serverPid: Int32? = nil
    /// More servers (ports on `host`): session k connects to `[port] + ports` at k modulo
    /// their count, so that sessions spread over several server processes.
    public var morePorts: [Int] = []
    /// Sessions per board: with 2 and two servers, each board has one session on each, and
    /// the report says how long a drop on one takes to reach the other's client.
    public var sessionsPerBoard = 1
    public init() {}

    /// The port session `k` connects to.
    func port(ofSession k: Int) -> Int {
        let all = [port] + morePorts
        return all[k % all.count]
    }
}

/// What a load run measured.
public struct LoadReport: Codable, Sendable {
    public var mode: String
    public var sessions: Int
    public var connected: Int
    public var rate: Double
    public var seconds: Double
    /// How long the run lasted, connecting and draining included.
    public var elapsedSeconds: Double
    public var sent: Int
    public var received: Int
    public var moves: Int
    public var p50us: Double
    public var p99us: Double
    public var p999us: Double
    public var commits: Int
    /// Drags released (each moves its item ten rows, so each must commit).
    public var drops: Int
    /// Gestures that moved before the long press (`realistic`).
    public var pans: Int
    /// Pointer moves sent (the timed ones; `moves` counts those acknowledged).
    public var movesSent: Int
    public var workload: String
    public var errors: Int
    public var serverCPUSeconds: Double?
    public var serverPeakMemoryKiB: Int?
    public var serverResidentBeforeKiB: Int?
    public var serverResidentIdleKiB: Int?
    /// From a drop (its `up` sent) to its commit reaching the other sessions on the board
    /// (on other servers when sessions spread over several): p50, p99, and how many arrivals.
    public var deliveryP50us: Double?
    public var deliveryP99us: Double?
    public var deliveries: Int?
    public var resyncs: Int?
}

/// Boards the server is given for a load run: one per session, so that the run measures
/// sessions rather than one board's commit rate.
public enum LoadBoards {
    public static let rows = 40
    /// Rows one session's drags cover (0 to 20): sessions sharing a board drag in bands of
    /// this many rows each, so that one's commit never moves the row under another's finger.
    public static let band = 22

    /// `sessionsPerBoard` sessions get a band of rows each.
    public static func board(id: String, sessionsPerBoard: Int = 1) -> Board {
        let n = max(rows, band * sessionsPerBoard)
        return Board(id: id, sections: [Section(id: "all", title: "All", items: (0..<n).map { Item(id: "r\($0)", label: "Row \($0)") })])
    }

    /// The viewport every load session claims: tall enough that 30 row-sized moves never reach
    /// an auto-scroll band, in any session's band of a board shared by two.
    public static let viewport = Viewport(w: 400, h: 2600, dpr: 1)
}

/// Many libwebsockets client connections on one service thread, each looping gestures (see
/// `Workload`: long-press drags, and pans for `realistic`) at `rate` moves a second, timing every move
/// until the frame that acknowledges it (`seq`/`ack`), or until its echo.
public final class LoadGenerator {
    let config: LoadConfig
    var context: OpaquePointer?
    var clients: [LoadClient] = []
    var latenciesNs: [UInt64] = []
    var sent = 0, received = 0, commits = 0, errors = 0, connected = 0, laidOut = 0, drops = 0, pans = 0, movesSent = 0
    /// Sessions ready for gestures (laid out, or connected for the echo).
    var readyCount = 0
    var allFinished = false
    /// Drop delivery: (board, version) → when its drop was sent, and arrivals at other
    /// sessions seen before the dropping session learnt the version.
    var dropSentNs: [String: UInt64] = [:]
    var earlyArrivalsNs: [String: [UInt64]] = [:]
    var deliveryNs: [UInt64] = []
    /// `layout`s after the first: the server resynced a session (another process committed
    /// first while its own drop was on its way to the store, or a write failed).
    var resyncs = 0
    let started = DispatchTime.now().uptimeNanoseconds
    private var protocols: UnsafeMutablePointer<lws_protocols>?
    private var strings: [UnsafeMutablePointer<CChar>] = []

    public init(config: LoadConfig) {
        self.config = config
    }

    var nowNs: UInt64 { DispatchTime.now().uptimeNanoseconds - started }
    var ticker: UnsafeMutablePointer<clws_timer>?

    func heartbeat() {
        guard let ticker else { return }
        if config.gestures != nil, readyCount == config.sessions {
            allFinished = clients.allSatisfy { if case .closed = $0.phase { true } else { false } }
        }
        lws_sul_schedule(context, 0, &ticker.pointee.sul, loadHeartbeat, 100_000)
    }

    /// A session is ready for gestures: it starts now, or with everyone after the settle time.
    func ready(_ client: LoadClient) {
        readyCount += 1
        if config.idle { return }
        guard let settle = config.settleSeconds else { return client.after(ms: Double(client.index % 17) + client.stagger) }
        guard readyCount == config.sessions else { return }
        FileHandle.standardError.write(Data("ready\n".utf8))
        for c in clients { c.after(ms: settle * 1000 + Double(c.index % 17) + c.stagger) }
    }

    func cString(_ s: String) -> UnsafePointer<CChar> {
        let p = strdup(s)!
        strings.append(p)
        return UnsafePointer(p)
    }

    public func run() throws -> LoadReport {
        raiseFileLimit()
        protocols = UnsafeMutablePointer<lws_protocols>.allocate(capacity: 2)
        protocols![0] = lws_protocols(name: cString(config.echo ? "liftboard.echo" : "liftboard.v1"), callback: loadClientCallback,
                                      per_session_data_size: 0, rx_buffer_size: 65_536, id: 0, user: nil, tx_packet_size: 0)
        protocols![1] = lws_protocols()
        lws_set_log_level(Int32(LLL_ERR), nil)
        var info = lws_context_creation_info()
        info.port = Int32(CONTEXT_PORT_NO_LISTEN)
        info.protocols = UnsafePointer(protocols)
        info.options = CLWS_CLIENT_CONTEXT_OPTIONS
        info.user = Unmanaged.passUnretained(self).toOpaque()
        info.fd_limit_per_thread = UInt32(config.sessions * 2 + 64)
        guard let ctx = lws_create_context(&info) else { throw LoadError.context }
        context = ctx
        defer { lws_context_destroy(ctx); context = nil; for s in strings { free(s) } }
        for k in 0..<config.sessions {
            let board = config.board ?? "load-\(k / max(1, config.sessionsPerBoard) + 1)"
            let client = LoadClient(index: k, board: board, generator: self)
            clients.append(client)
            client.connect()
        }
        // A heartbeat, so that the service loop wakes up to check the time even when idle.
        ticker = clws_timer_new(Unmanaged.passUnretained(self).toOpaque())
        defer { if let t = ticker { lws_sul_cancel(&t.pointee.sul); free(t) } }
        heartbeat()
        let before = config.serverPid.flatMap(ProcessStats.residentKiB)
        // After `seconds`, no new drag starts; the rest of the time drains drags and commits.
        let end = UInt64((config.seconds + 2.5) * 1e9)
        var idleSample: Int? = nil
        var finishedAt: UInt64? = nil
        while nowNs < end {
            if lws_service(ctx, 0) < 0 { break }
            // A counted run ends once every session has made its gestures, every move is
            // answered and every drop's commit is back (or ten seconds have passed).
            if allFinished, finishedAt == nil { finishedAt = nowNs }
            if let f = finishedAt, nowNs > f + 10_000_000_000
                || (clients.allSatisfy { $0.pending.isEmpty && $0.outbox.isEmpty } && (config.echo || commits >= drops)) { break }
            if config.idle, idleSample == nil, let pid = config.serverPid, laidOut == config.sessions {
                idleSample = ProcessStats.residentKiB(pid: pid)
            }
        }
        var r = report()
        r.serverResidentBeforeKiB = before
        r.serverResidentIdleKiB = idleSample
        return r
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
        return LoadReport(mode: config.echo ? "echo" : "protocol", sessions: config.sessions, connected: connected, rate: config.rate,
                          seconds: config.seconds, elapsedSeconds: Double(nowNs) / 1e9, sent: sent, received: received, moves: sorted.count,
                          p50us: pct(0.5), p99us: pct(0.99), p999us: pct(0.999), commits: commits, drops: drops, pans: pans,
                          movesSent: movesSent, workload: config.workload.rawValue, errors: errors,
                          serverCPUSeconds: nil, serverPeakMemoryKiB: nil, serverResidentBeforeKiB: nil, serverResidentIdleKiB: nil,
                          deliveryP50us: dpct(0.5), deliveryP99us: dpct(0.99), deliveries: config.sessionsPerBoard > 1 ? delivery.count : nil, resyncs: resyncs)
    }

    /// The dropping session got its own commit: `version` is its drop's, sent at `sentNs`.
    func ownCommit(board: String, version: Int, sentNs: UInt64) {
        let key = "\(board)#\(version)"
        dropSentNs[key] = sentNs
        for t in earlyArrivalsNs.removeValue(forKey: key) ?? [] { deliveryNs.append(t > sentNs ? t - sentNs : 0) }
    }

    /// Another session's commit reached this one.
    func othersCommit(board: String, version: Int) {
        let key = "\(board)#\(version)"
        let now = nowNs
        if let sent = dropSentNs[key] { deliveryNs.append(now - sent) } else { earlyArrivalsNs[key, default: []].append(now) }
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
    case context
    public var description: String { "libwebsockets: cannot create a client context" }
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

    public static func residentKiB(pid: Int32) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
            return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "")
        }
        return nil
    }
}

func loadHeartbeat(_ sul: UnsafeMutablePointer<lws_sorted_usec_list_t>?) {
    guard let sul, let owner = clws_timer_owner(sul) else { return }
    Unmanaged<LoadGenerator>.fromOpaque(owner).takeUnretainedValue().heartbeat()
}
