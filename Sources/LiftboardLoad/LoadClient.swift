#if canImport(Glibc)
import Glibc
#endif
import LiftboardCore

/// One simulated person: connects, says hello, then loops gestures (see `Workload`).
final class LoadClient {
    enum Phase { case connecting, awaitingLayout, idle, pressing, moving(Int), releasing, closed }
    /// The socket's state: TCP connect in progress, upgrade sent, WebSocket open, gone.
    enum Link { case connecting, upgrading, open, closed }

    let index: Int
    let board: String
    /// Only watches: says hello and reads (`LoadConfig.watchers`).
    let watcher: Bool
    unowned let generator: LoadGenerator
    var fd: Int32 = -1
    var link = Link.connecting
    var phase = Phase.connecting
    var handshake: WebSocketHandshake?
    /// The server's answer to the upgrade, until its blank line.
    var upgradeAnswer: [UInt8] = []
    var frames = ServerFrameParser()
    /// Bytes the socket did not take yet (written when it is writable again, before anything newer).
    var unsent: [UInt8] = []
    var seq = 0
    /// Moves sent and not yet acknowledged: (seq, send time in ns), in order.
    var pending: [(seq: Int, at: UInt64)] = []
    var session: [UInt8]?
    /// The `v` of the last `presence` (`presence: "delta"`): the next difference's `base`.
    var presenceV: Double?
    /// When the last `up` went on the wire (the drop the next own commit is for).
    var upSentNs: UInt64 = 0
    /// When this session's next step is due (0: none); older entries in the heap are stale.
    var deadline: UInt64 = 0

    init(index: Int, board: String, generator: LoadGenerator, watcher: Bool = false) {
        self.index = index
        self.board = board
        self.watcher = watcher
        self.generator = generator
    }

    /// The next step is due `ms` after now (after the step that schedules it ran, as the old
    /// generator's timers were: the rhythm in which the server sees the messages, and so the
    /// instructions `scripts/bench-instructions` counts, stay the same).
    func after(ms: Double) {
        deadline = generator.nowNs + UInt64(max(0, ms * 1_000_000))
        generator.timers.push(deadline, index)
    }

    // MARK: The gesture loop

    func established() {
        generator.connected += 1
        phase = .awaitingLayout
        seq += 1
        let c = generator.config
        generator.payload.removeAll(keepingCapacity: true)
        ClientMessages.hello(board: board, viewport: LoadBoards.viewport, inlineEvents: c.inlineEvents, quietFollow: c.quietFollow, inlineCommits: c.inlineCommits, changeOnlyCommits: c.changeOnlyCommits,
                             deltaPresence: c.deltaPresence, seq: seq,
                             ms: generator.clientMs, into: &generator.payload)
        if transmitPayload() { generator.sent += 1 }
        if c.echo { phase = .idle; generator.ready(self) }
    }

    /// Sends one `down`, `move` or `up`; a timed one is clocked from now, when it goes on the wire.
    func send(_ input: ClientMessages.Input, _ p: Point, timed: Bool = false, isUp: Bool = false) {
        seq += 1
        let now = generator.nowNs
        generator.payload.removeAll(keepingCapacity: true)
        ClientMessages.input(input, x: p.x, y: p.y + bandOffset, seq: seq, ms: Double(now / 1000) / 1000, into: &generator.payload)
        guard transmitPayload() else { return }
        generator.sent += 1
        if timed { pending.append((seq, now)) }
        if isUp { upSentNs = now }
    }

    /// When this session's first gesture starts, after it is ready (`LoadConfig.startOffsetMs`).
    var stagger: Double { generator.config.startOffsetMs(index: index) }

    /// Sessions sharing a board each drag in their own band of rows: the script's rows, shifted.
    /// With watchers (many sessions a board) each scrolls its view to its band instead
    /// (`scrollToBand`), and the script's rows are used as they are.
    var bandOffset: Double { generator.config.watchers > 0 ? 0 : bandTop }
    var bandTop: Double { 57 * Double(LoadBoards.band * (index % max(1, generator.config.sessionsPerBoard))) }

    /// With watchers: one wheel that scrolls this dragging session's view to its band.
    func scrollToBand() {
        guard generator.config.watchers > 0, !watcher, bandTop > 0 else { return }
        seq += 1
        generator.payload.removeAll(keepingCapacity: true)
        ClientMessages.wheel(dy: bandTop, seq: seq, ms: generator.clientMs, into: &generator.payload)
        if transmitPayload() { generator.sent += 1 }
    }

    /// The gesture in progress, and how many have been made.
    var gesture: Gesture?
    var gestures = 0
    lazy var script = GestureScript(workload: generator.config.workload, movesPerDrag: generator.config.movesPerDrag,
                                    seed: generator.config.seed &* 1_000_003 &+ UInt64(index))

    func tick() {
        let frameMs = 1000 / generator.config.rate
        switch phase {
        case .idle:
            // No new gesture after the run's time (or its count): the ones in flight finish
            // and their commits drain.
            if generator.nowNs >= generator.gesturesFromNs + UInt64(generator.config.seconds * 1e9) || gestures >= (generator.config.gestures ?? .max) {
                phase = .closed
                return
            }
            gestures += 1
            let g = script.next()
            gesture = g
            send(.down, g.start)
            phase = .pressing
            // A drag waits out the long press; a pan moves at once.
            after(ms: g.isDrag ? generator.config.pressWaitMs : frameMs)
        case .pressing:
            phase = .moving(1)
            tick()
        case .moving(let k):
            guard let g = gesture else { return }
            // A pan's moves on a board that cannot scroll change nothing, so no frame acknowledges
            // them (contract §5: nothing is sent for nothing): only a drag's moves are timed.
            send(.move, g.moves[k - 1], timed: g.isDrag)
            generator.movesSent += 1
            phase = k < g.moves.count ? .moving(k + 1) : .releasing
            after(ms: frameMs)
        case .releasing:
            guard let g = gesture else { return }
            send(.up, g.moves.last ?? g.start, isUp: g.isDrag)
            if g.isDrag { generator.drops += 1 } else { generator.pans += 1 }
            gesture = nil
            phase = .idle
            after(ms: 100)
        case .connecting, .awaitingLayout, .closed:
            break
        }
    }

    // MARK: Messages in

    func receive(_ bytes: UnsafeRawBufferPointer) {
        generator.received += 1
        guard let msg = MessageFields.scan(bytes) else { generator.errors += 1; return }
        guard let kind = msg.kind else { return }
        if generator.config.echo {
            if kind == .move, let s = msg.seq { acknowledge(upTo: Self.integer(s)) }
            return
        }
        switch kind {
        case .welcome:
            if let s = msg.session { session = s }
        case .layout:
            if case .awaitingLayout = phase {
                generator.laidOut += 1
                scrollToBand()
                phase = .idle
                generator.ready(self)
            } else {
                generator.resyncs += 1
            }
        case .frame:
            if let a = msg.ack { acknowledge(upTo: Self.integer(a)) }
            // `commits: "inline"`: a commit from elsewhere inside the frame that animates it.
            if let by = msg.commitBy, let v = msg.commitVersion { committed(by: by, version: v) }
        case .commit:
            guard let by = msg.by, let v = msg.version else { break }
            committed(by: by, version: v)
        case .error:
            generator.errors += 1
        case .presence:
            generator.presences += 1
            generator.presenceBytes += bytes.count
            if let base = msg.base, base != presenceV { generator.presenceBreaks += 1 }
            presenceV = msg.v
        case .move, .other:
            break
        }
    }

    /// A commit reached this session: its own (a drop confirmed), or another session's.
    func committed(by: [UInt8], version v: Double) {
        if by == session {
            generator.commits += 1
            generator.ownCommit(board: board, version: Self.integer(v), sentNs: upSentNs)
        } else {
            generator.othersCommit(board: board, version: Self.integer(v))
            if watcher { generator.watcherCommit(board: board, version: Self.integer(v)) }
        }
    }

    /// A JSON number as an integer (toward zero, as `Int(_:)` does; out of range: 0).
    static func integer(_ d: Double) -> Int { d.isFinite && abs(d) < 9e18 ? Int(d) : 0 }

    func acknowledge(upTo ack: Int) {
        let now = generator.receivedNs
        let quiet = generator.config.quietFollow && !generator.config.echo
        var n = 0
        while n < pending.count, pending[n].seq <= ack {
            if quiet && pending[n].seq < ack {
                // Quiet follow: a frame answers its `ack`'s move; the ones before it went unanswered.
                generator.movesUnanswered += 1
            } else {
                generator.latenciesNs.append(now > pending[n].at ? now - pending[n].at : 0)
            }
            n += 1
        }
        if n > 0 { pending.removeFirst(n) }
    }
}
