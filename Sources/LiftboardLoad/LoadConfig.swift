import LiftboardCore

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
    /// Ask for `follow: "quiet"`, as the page does: a move that only moves the snapshot is not
    /// answered, so only the moves a frame answers (its `ack` is their `seq`) are timed.
    public var quietFollow = false
    /// Ask for `commits: "inline"`, as the page does: a commit from elsewhere inside its frame.
    public var inlineCommits = false
    /// Ask for `commitOrder: "none"`, as the page does: commits carry their change, not the order.
    public var changeOnlyCommits = false
    /// Ask for `presence: "delta"`, as the page does: each `presence` after the first as a difference.
    public var deltaPresence = false
    /// What the fingers do.
    public var workload = Workload.reorder
    /// Gestures per session, then it stops and the run ends once all have (`nil`: until `seconds`).
    public var gestures: Int? = nil
    /// Seeds the `realistic` gestures (session k uses seed * 1000003 + k).
    public var seed: UInt64 = 1
    /// Once every session is ready, write "ready" to stderr and wait this long before the
    /// first gesture (a profiler zeroes its counters then; `nil`: each starts when ready).
    public var settleSeconds: Double? = nil
    /// When sessions make their first gesture: spread over one gesture's cycle (`true`, the
    /// default: a room of people does not drop in the same millisecond), or all at once, in
    /// phase (only sessions sharing a board spread over the cycle): every drop of the run then
    /// comes in a burst, the worst case for the store.
    public var spreadStarts = true
    /// Sessions say hello and then stay still (to measure what an idle session costs).
    public var idle = false
    /// Sessions that only watch (hello, then read every commit), beside the `sessions` that
    /// drag, all on the dragging sessions' one board; gestures start once every one is laid out.
    public var watchers = 0
    /// The server's process, whose resident anonymous memory (`RssAnon`) is sampled before the
    /// first session connects, once every session is connected and idle, and at the end.
    public var serverPid: Int32? = nil
    /// More servers (ports on `host`): session k connects to `[port] + ports` at k modulo
    /// their count, so that sessions spread over several server processes.
    public var morePorts: [Int] = []
    /// Sessions per board: with 2 and two servers, each board has one session on each, and
    /// the report says how long a drop on one takes to reach the other's client.
    public var sessionsPerBoard = 1
    /// Time each answer at the kernel's receive stamp (true) or at the load generator's read.
    public var kernelReceiveTime = true
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
    /// Quiet follow: drag moves no frame answered (a later frame's `ack` passed them); `moves`
    /// over `moves` + this is the share of moves answered.
    public var movesUnanswered: Int? = nil
    /// `presence` messages received, their bytes (the WebSocket payloads), and how many were a
    /// difference from another presence than the session's last (0: none missed).
    public var presences: Int? = nil
    public var presenceBytes: Int? = nil
    public var presenceBreaks: Int? = nil
    public var workload: String
    public var errors: Int
    public var serverCPUSeconds: Double?
    public var serverPeakMemoryKiB: Int?
    /// The load generator's own CPU time (user and system) over the run: its cost per message
    /// is this over `sent + received`.
    public var loadCPUSeconds: Double?
    /// The load generator's loop turns (each one `epoll_pwait2`), and the sockets they found
    /// ready: how many messages one wake-up handles.
    public var loadWakeUps: Int?
    /// How late the sessions' steps (each down, move, up) ran after their deadlines, p50 and
    /// p99: large figures mean the load generator could not keep its own schedule.
    public var loadLateP50us: Double?
    public var loadLateP99us: Double?
    /// How long bytes waited in the socket between the kernel's receive stamp and the load
    /// generator's read, p50 and p99 (what `receiveTime: kernel` leaves out of the latencies).
    public var loadReadDelayP50us: Double?
    public var loadReadDelayP99us: Double?
    /// When an answer is timed: `kernel` (the kernel's receive stamp, SO_TIMESTAMPNS) or `read`
    /// (when the load generator read it, as before the stamps).
    public var receiveTime: String?
    public var loadSocketsReady: Int?
    public var serverResidentBeforeKiB: Int?
    public var serverResidentIdleKiB: Int?
    /// From a drop (its `up` sent) to its commit reaching the other sessions on the board
    /// (on other servers when sessions spread over several): p50, p99, and how many arrivals.
    public var deliveryP50us: Double?
    public var deliveryP99us: Double?
    public var deliveries: Int?
    public var resyncs: Int?
    /// `--watchers`: the sessions that only watched, the commits whose drop was timed, and per
    /// commit the delay from its drop (the `up` sent) to the last watcher's copy (p50, p99,
    /// max), the watcher copies that never came, the originator's own confirmation delay, and
    /// the share of commits whose originator had its copy no later than the median watcher.
    public var watchers: Int? = nil
    public var fanoutCommits: Int? = nil
    public var lastWatcherP50us: Double? = nil
    public var lastWatcherP99us: Double? = nil
    public var lastWatcherMaxus: Double? = nil
    public var medianWatcherP50us: Double? = nil
    public var watcherCopiesMissed: Int? = nil
    public var originatorP50us: Double? = nil
    public var originatorP99us: Double? = nil
    public var originatorBeforeMedianShare: Double? = nil
    /// The server's CPU time (user + system) from the first gesture to the end, and its
    /// resident memory once every session was laid out and at the end.
    public var serverCPUGesturesSeconds: Double? = nil
    public var serverResidentLaidOutKiB: Int? = nil
    public var serverResidentEndKiB: Int? = nil
    /// The floor, in the same run: one 131-byte WebSocket ping written to each watcher's socket
    /// in a bare loop (this process's end of the same connections), its total and per socket.
    public var sendLoopFloorMs: Double? = nil
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
        // More than two sessions a board (`--watchers`): each scrolls its view to its band, and
        // the last band needs a viewport's height of rows below it to be scrolled to.
        let n = sessionsPerBoard > 2 ? band * sessionsPerBoard + 48 : max(rows, band * sessionsPerBoard)
        return Board(id: id, sections: [Section(id: "all", title: "All", items: (0..<n).map { Item(id: "r\($0)", label: "Row \($0)") })])
    }

    /// The viewport every load session claims: tall enough that 30 row-sized moves never reach
    /// an auto-scroll band, in any session's band of a board shared by two.
    public static let viewport = Viewport(w: 400, h: 2600, dpr: 1)
}

extension LoadConfig {
    /// One drag's cycle: the long press, the moves at `rate`, the pause after `up`.
    public var gestureCycleMs: Double { pressWaitMs + 40 + Double(movesPerDrag + 1) * 1000 / rate + 100 }

    /// How long after it is ready session `index` makes its first gesture. Spread: at the
    /// fractional part of index × the golden ratio of one cycle, which spreads any number of
    /// sessions evenly (no gap wider than about 2.6 / N of the cycle) and puts sessions sharing
    /// a board (consecutive indices) at least a third of a cycle apart. In phase: sessions
    /// sharing a board spread over the cycle, everyone else within 17 ms of them.
    public func startOffsetMs(index: Int) -> Double {
        if spreadStarts {
            let golden = 0.618_033_988_749_894_8
            return (Double(index) * golden).truncatingRemainder(dividingBy: 1) * gestureCycleMs
        }
        let mates = max(1, sessionsPerBoard)
        return Double(index % mates) * gestureCycleMs / Double(mates) + Double(index % 17)
    }
}
