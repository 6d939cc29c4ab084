import ArgumentParser
import Foundation
import LiftboardCore
import LiftboardLoad
import LiftboardWire

struct LoadCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "load",
        abstract: "Load generator: many WebSocket sessions looping long-press drags; latency per move until its acknowledging frame.",
        discussion: """
            Without --board, session k uses board `load-k`: give the server those boards with \
            `liftboard load --write-boards DIR --sessions N` and `liftboard serve --boards DIR`.
            """)

    @Option(help: "The server's WebSocket URL; repeat it to spread sessions over several servers (same host and path, session k on URL k mod count).")
    var url: [String] = ["ws://127.0.0.1:8080/ws"]
    @Option(name: .customLong("sessions-per-board"), help: "Sessions sharing each board (with two URLs and 2: one session of each board on each server); reports drop-to-other-session delivery.")
    var sessionsPerBoard = 1
    @Option(help: "Concurrent sessions.") var sessions = 1
    @Option(help: "Pointer moves per second per session.") var rate = 60.0
    @Option(help: "How long to run.") var seconds = 5.0
    @Option(help: "Pointer moves per drag of the reorder workload (each passes one row).") var moves = 30
    @Option(help: "What the fingers do: reorder (every move passes a row) or realistic (4-8 px a frame, drags and pans).")
    var workload = "reorder"
    @Option(help: "Gestures per session, then the run ends once all are answered (a fixed, repeatable load).") var gestures: Int?
    @Option(name: .customLong("press-wait-ms"), help: "How long a drag's finger stays still after down (the long press is 500 ms).")
    var pressWaitMs = 540.0
    @Option(help: "How sessions ask for lift, moved and drop: inline (inside frames, as the page does) or separate (messages).")
    var events = "inline"
    @Option(help: "How sessions ask the server to follow a finger: every (every move answered) or quiet (as the page: a move that only moves the snapshot is not answered; only answered moves are timed).")
    var follow = "every"
    @Option(help: "How sessions ask for commits made elsewhere: separate (a message after the frame) or inline (inside the frame, as the page does).")
    var commits = "separate"
    @Option(name: .customLong("commit-order"), help: "What commits carry: full (the whole order) or none (the change only, as the page asks).")
    var commitOrder = "full"
    @Option(help: "How sessions ask for presence: full (every one whole) or delta (differences after the first, as the page asks).")
    var presence = "full"
    @Option(help: "Seed of the realistic workload's gestures.") var seed: UInt64 = 1
    @Option(name: .customLong("receive-time"), help: "When an answer is timed: kernel (its arrival at the socket, the kernel's stamp: leaves the load generator's own delays out) or read (when the load generator reads it).")
    var receiveTime = "kernel"
    @Option(help: "Once every session is ready, print `ready` on stderr and wait this many seconds before the first gesture.")
    var settle: Double?
    @Option(help: "When sessions make their first gesture: spread (over one gesture's cycle, as a room of people would) or in-phase (all at once: every drop in a burst, the store's worst case).")
    var start = "spread"
    @Option(help: "Put every session on this board (default: a board of its own each).") var board: String?
    @Flag(name: .customLong("shared-board"), help: "Put every session on the board `load-1`.") var sharedBoard = false
    @Flag(help: "Time the server's liftboard.echo instead (the raw-transport baseline).") var echo = false
    @Flag(help: "Print one JSON object.") var json = false
    @Flag(help: "Sessions say hello and stay still (what an idle session costs the server, with --server-pid).") var idle = false
    @Option(help: "Sessions that only watch, beside the --sessions that drag, all on one board (load-1, or --board; the dragging sessions share it, each scrolled to its own band of rows: write it with --sessions-per-board equal to --sessions); reports each commit's delay from the drop to the last watcher, copies missed, the originator's delay, and a bare send loop to the watchers' sockets as the floor.")
    var watchers = 0
    @Option(name: .customLong("server-pid"), help: "Report this process's CPU seconds and peak memory.") var serverPid: Int32?
    @Option(name: .customLong("write-boards"), help: "Write the boards load-1 … load-N (N = --sessions; rows for --sessions-per-board) into DIR and exit.") var writeBoards: String?

    func validate() throws {
        guard sessions >= 1 && sessions <= 20_000 else { throw ValidationError("--sessions must be 1 to 20000") }
        guard rate > 0 && rate <= 1000 else { throw ValidationError("--rate must be in (0, 1000]") }
        guard seconds > 0 && seconds <= 3600 else { throw ValidationError("--seconds must be in (0, 3600]") }
        guard moves >= 1 && moves <= 1_000_000 else { throw ValidationError("--moves must be 1 to 1000000") }
        guard writeBoards != nil || url.allSatisfy({ URL(string: $0)?.port != nil }) else { throw ValidationError("--url needs a host and a port: ws://HOST:PORT/ws") }
        guard sessionsPerBoard >= 1 else { throw ValidationError("--sessions-per-board must be positive") }
        guard Workload(rawValue: workload) != nil else { throw ValidationError("--workload must be reorder or realistic") }
        guard gestures.map({ $0 >= 1 }) ?? true else { throw ValidationError("--gestures must be at least 1") }
        guard events == "inline" || events == "separate" else { throw ValidationError("--events must be inline or separate") }
        guard commitOrder == "full" || commitOrder == "none" else { throw ValidationError("--commit-order must be full or none") }
        guard commits == "separate" || commits == "inline" else { throw ValidationError("--commits must be separate or inline") }
        guard follow == "every" || follow == "quiet" else { throw ValidationError("--follow must be every or quiet") }
        guard presence == "full" || presence == "delta" else { throw ValidationError("--presence must be full or delta") }
        guard receiveTime == "kernel" || receiveTime == "read" else { throw ValidationError("--receive-time must be kernel or read") }
        guard pressWaitMs >= 0 && pressWaitMs <= 10_000 else { throw ValidationError("--press-wait-ms must be 0 to 10000") }
        guard start == "spread" || start == "in-phase" else { throw ValidationError("--start must be spread or in-phase") }
        guard watchers >= 0 && watchers + sessions <= 20_000 else { throw ValidationError("--watchers plus --sessions must be at most 20000") }
        guard settle.map({ $0 >= 0 && $0 <= 600 }) ?? true else { throw ValidationError("--settle must be 0 to 600 seconds") }
    }

    func run() throws {
        if let dir = writeBoards {
            try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
            for k in 1...sessions {
                try Data(Wire.encodeBoard(LoadBoards.board(id: "load-\(k)", sessionsPerBoard: sessionsPerBoard))).write(to: URL(fileURLWithPath: "\(dir)/load-\(k).json"))
            }
            return
        }
        let u = URL(string: url[0])!
        var config = LoadConfig()
        config.host = u.host ?? "127.0.0.1"
        config.port = u.port ?? 8080
        config.path = u.path.isEmpty ? "/ws" : u.path
        config.sessions = sessions
        config.rate = rate
        config.seconds = seconds
        config.board = sharedBoard ? "load-1" : board
        config.echo = echo
        config.idle = idle
        config.movesPerDrag = moves
        config.workload = Workload(rawValue: workload)!
        config.gestures = gestures
        config.spreadStarts = start == "spread"
        config.seed = seed
        config.inlineEvents = events == "inline"
        config.quietFollow = follow == "quiet"
        config.inlineCommits = commits == "inline"
        config.changeOnlyCommits = commitOrder == "none"
        config.deltaPresence = presence == "delta"
        config.pressWaitMs = pressWaitMs
        config.settleSeconds = settle
        config.serverPid = serverPid
        config.morePorts = url.dropFirst().compactMap { URL(string: $0)?.port }
        config.sessionsPerBoard = sessionsPerBoard
        config.kernelReceiveTime = receiveTime == "kernel"
        config.watchers = watchers
        if watchers > 0 {
            config.board = board ?? "load-1"
            config.sessionsPerBoard = max(sessionsPerBoard, sessions)
        }
        let cpuBefore = serverPid.flatMap(ProcessStats.cpuSeconds)
        var report = try LoadGenerator(config: config).run()
        if let pid = serverPid {
            if let b = cpuBefore, let a = ProcessStats.cpuSeconds(pid: pid) { report.serverCPUSeconds = a - b }
            report.serverPeakMemoryKiB = ProcessStats.peakMemoryKiB(pid: pid)
        }
        if json {
            let enc = JSONEncoder()
            enc.outputFormatting = [.sortedKeys]
            FileHandle.standardOutput.write(try enc.encode(report) + Data("\n".utf8))
        } else {
            print("mode      sessions  rate  sent      received  moves     p50      p99      p99.9    drops  commits  errors")
            print(String(format: "%-9@ %8d %5.0f %-9d %-9d %-9d %6.0fus %6.0fus %7.0fus %6d %8d %7d",
                         report.mode as NSString, report.sessions, report.rate, report.sent, report.received, report.moves,
                         report.p50us, report.p99us, report.p999us, report.drops, report.commits, report.errors))
            if let u = report.movesUnanswered {
                print(String(format: "quiet follow: %d of %d drag moves answered (%.1f %%); the latencies are theirs", report.moves,
                             report.moves + u, 100 * Double(report.moves) / Double(max(1, report.moves + u))))
            }
            if let c = report.serverCPUSeconds { print(String(format: "server CPU %.2f s", c)) }
            if let n = report.deliveries, let p50 = report.deliveryP50us, let p99 = report.deliveryP99us {
                print(String(format: "drop to the other sessions' commit: p50 %.0fus p99 %.0fus (%d arrivals)", p50, p99, n))
            }
            if let w = report.watchers, let n = report.fanoutCommits {
                print(String(format: "%d watchers, %d commits: drop to the last watcher p50 %.0f us, p99 %.0f us, max %.0f us; to the median watcher p50 %.0f us",
                             w, n, report.lastWatcherP50us ?? 0, report.lastWatcherP99us ?? 0, report.lastWatcherMaxus ?? 0, report.medianWatcherP50us ?? 0))
                print(String(format: "watcher copies missed %d; the originator's own commit p50 %.0f us, p99 %.0f us, no later than the median watcher in %.0f %% of commits",
                             report.watcherCopiesMissed ?? 0, report.originatorP50us ?? 0, report.originatorP99us ?? 0, 100 * (report.originatorBeforeMedianShare ?? 0)))
                if let cpu = report.serverCPUGesturesSeconds, n > 0 {
                    print(String(format: "server CPU from the first gesture: %.2f s, %.2f ms per commit, %.2f us per watcher per commit",
                                 cpu, cpu * 1000 / Double(n), cpu * 1e6 / Double(n * max(1, w))))
                }
                if let a = report.serverResidentBeforeKiB, let b = report.serverResidentLaidOutKiB, let e = report.serverResidentEndKiB {
                    let s = Double(sessions + w)
                    print(String(format: "server resident memory (RssAnon, from before the first session) per session: %.1f KiB laid out, %.1f KiB at the end", Double(b - a) / s, Double(e - a) / s))
                }
                if let f = report.sendLoopFloorMs {
                    print(String(format: "floor: a bare loop writing one 131-byte frame to each of the %d watcher sockets: %.2f ms (%.2f us a socket)", w, f, f * 1000 / Double(w)))
                }
            }
            if let r = report.resyncs, r > 0 { print("resyncs (a layout after the first): \(r)") }
            if let m = report.serverPeakMemoryKiB { print("server peak memory \(m) KiB") }
            if let c = report.loadCPUSeconds {
                print(String(format: "load generator: CPU %.2f s (%.1f us per message sent or received), steps late p99 %.0f us, reads late p99 %.0f us",
                             c, c * 1e6 / Double(max(1, report.sent + report.received)), report.loadLateP99us ?? 0, report.loadReadDelayP99us ?? 0))
            }
            if let a = report.serverResidentBeforeKiB, let b = report.serverResidentIdleKiB {
                print(String(format: "server resident memory %d KiB before, %d KiB with %d idle sessions: %.1f KiB per session",
                             a, b, sessions, Double(b - a) / Double(sessions)))
            }
        }
        if report.connected < sessions { throw ExitCode(1) }
    }
}
