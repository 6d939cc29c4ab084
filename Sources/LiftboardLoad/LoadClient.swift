import CLibWebSockets
import Foundation
import LiftboardCore
import LiftboardWire

/// One simulated person: connects, says hello, then loops long-press drags.
final class LoadClient {
    enum Phase { case connecting, awaitingLayout, idle, pressing, moving(Int), releasing, closed }

    let index: Int
    let board: String
    unowned let generator: LoadGenerator
    var wsi: OpaquePointer?
    var phase = Phase.connecting
    /// Messages to write, one per WRITEABLE, with the seq of the timed ones.
    var outbox: [(bytes: [UInt8], timed: Int?)] = []
    var seq = 0
    /// Moves sent and not yet acknowledged: (seq, send time in ns), in order.
    var pending: [(seq: Int, at: UInt64)] = []
    var session: String?
    /// When the last `up` went on the wire (the drop the next own commit is for).
    var upSentNs: UInt64 = 0
    var timer: UnsafeMutablePointer<clws_timer>?

    init(index: Int, board: String, generator: LoadGenerator) {
        self.index = index
        self.board = board
        self.generator = generator
        timer = clws_timer_new(Unmanaged.passUnretained(self).toOpaque())
    }

    deinit {
        if let timer { lws_sul_cancel(&timer.pointee.sul); free(timer) }
    }

    func connect() {
        var info = lws_client_connect_info()
        info.context = generator.context
        info.address = generator.cString(generator.config.host)
        info.port = Int32(generator.config.port(ofSession: index))
        info.path = generator.cString(generator.config.echo ? "/echo" : generator.config.path)
        info.host = info.address
        info.protocol = generator.cString(generator.config.echo ? "liftboard.echo" : "liftboard.v1")
        info.userdata = Unmanaged.passUnretained(self).toOpaque()
        wsi = lws_client_connect_via_info(&info)
    }

    func after(ms: Double) {
        guard let timer else { return }
        lws_sul_schedule(generator.context, 0, &timer.pointee.sul, loadClientTimerFired, lws_usec_t(max(0, ms * 1000)))
    }

    func send(_ object: [(String, JSONValue)], timed: Bool = false, isUp: Bool = false) {
        seq += 1
        var members = object
        members.append(("seq", .number(Double(seq))))
        members.append(("ms", .number(Double(generator.nowNs / 1000) / 1000)))
        var w = JSONWriter()
        w.value(.object(members))
        outbox.append((w.bytes, timed ? seq : (isUp ? -1 : nil)))
        if timed { pending.append((seq, 0)) }
        if let wsi { lws_callback_on_writable(wsi) }
    }

    // MARK: The gesture loop

    func established() {
        generator.connected += 1
        phase = .awaitingLayout
        var hello: [(String, JSONValue)] = [("t", .string("hello")), ("v", .number(1)), ("board", .string(board)),
              ("viewport", .object([("w", .number(LoadBoards.viewport.w)), ("h", .number(LoadBoards.viewport.h)), ("dpr", .number(1))]))]
        // Like the page: lift, moved and drop inside the frames (one message per move).
        if generator.config.inlineEvents { hello.append(("config", .object([("events", .string("inline"))]))) }
        send(hello)
        if generator.config.echo { phase = .idle; generator.ready(self) }
    }

    /// Sessions sharing a board start their drags spread over one drag's cycle, so that their
    /// drops do not all land at the same instant.
    var stagger: Double {
        let c = generator.config
        let cycle = c.pressWaitMs + 40 + Double(c.movesPerDrag + 1) * 1000 / c.rate + 100
        return Double(index % max(1, c.sessionsPerBoard)) * cycle / Double(max(1, c.sessionsPerBoard))
    }

    /// Sessions sharing a board each drag in their own band of rows: the script's rows, shifted.
    var bandOffset: Double { 57 * Double(LoadBoards.band * (index % max(1, generator.config.sessionsPerBoard))) }

    /// The gesture in progress, and how many have been made.
    var gesture: Gesture?
    var gestures = 0
    lazy var script = GestureScript(workload: generator.config.workload, movesPerDrag: generator.config.movesPerDrag,
                                    seed: generator.config.seed &* 1_000_003 &+ UInt64(index))

    func tick() {
        let pointer: (String, JSONValue) = ("p", .number(1))
        let frameMs = 1000 / generator.config.rate
        switch phase {
        case .idle:
            // No new gesture after the run's time (or its count): the ones in flight finish
            // and their commits drain.
            if generator.nowNs >= UInt64(generator.config.seconds * 1e9) || gestures >= (generator.config.gestures ?? .max) {
                phase = .closed
                return
            }
            gestures += 1
            let g = script.next()
            gesture = g
            send([("t", .string("down")), pointer, ("x", .number(g.start.x)), ("y", .number(g.start.y + bandOffset)), ("kind", .string("touch"))])
            phase = .pressing
            // A drag waits out the long press; a pan moves at once.
            after(ms: g.isDrag ? generator.config.pressWaitMs : frameMs)
        case .pressing:
            phase = .moving(1)
            tick()
        case .moving(let k):
            guard let g = gesture else { return }
            let p = g.moves[k - 1]
            // A pan's moves on a board that cannot scroll change nothing, so no frame acknowledges
            // them (contract §5: nothing is sent for nothing): only a drag's moves are timed.
            send([("t", .string("move")), pointer, ("x", .number(p.x)), ("y", .number(p.y + bandOffset))], timed: g.isDrag)
            generator.movesSent += 1
            phase = k < g.moves.count ? .moving(k + 1) : .releasing
            after(ms: frameMs)
        case .releasing:
            guard let g = gesture else { return }
            let p = g.moves.last ?? g.start
            send([("t", .string("up")), pointer, ("x", .number(p.x)), ("y", .number(p.y + bandOffset))], isUp: g.isDrag)
            if g.isDrag { generator.drops += 1 } else { generator.pans += 1 }
            gesture = nil
            phase = .idle
            after(ms: 100)
        case .connecting, .awaitingLayout, .closed:
            break
        }
    }

    // MARK: Traffic

    func writeable() -> Int32 {
        guard !outbox.isEmpty else { return 0 }
        let (bytes, timed) = outbox.removeFirst()
        let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: CLWS_PRE + bytes.count)
        defer { buffer.deallocate() }
        bytes.withUnsafeBufferPointer { (buffer + CLWS_PRE).update(from: $0.baseAddress!, count: bytes.count) }
        let now = generator.nowNs
        // The clock of a timed move starts when it goes on the wire.
        if let timed, let k = pending.lastIndex(where: { $0.seq == timed }) { pending[k].at = now }
        if timed == -1 { upSentNs = now }
        if clws_write_text(wsi, buffer + CLWS_PRE, bytes.count) < bytes.count { return -1 }
        generator.sent += 1
        if !outbox.isEmpty, let wsi { lws_callback_on_writable(wsi) }
        return 0
    }

    func receive(_ bytes: UnsafeRawBufferPointer) {
        generator.received += 1
        guard let msg = try? JSONParser.parse(bytes) else { generator.errors += 1; return }
        guard case .string(let t)? = msg["t"] else { return }
        if generator.config.echo {
            if t == "move", case .number(let s)? = msg["seq"] { acknowledge(upTo: Int(s)) }
            return
        }
        switch t {
        case "welcome":
            if case .string(let s)? = msg["session"] { session = s }
        case "layout":
            if case .awaitingLayout = phase {} else { generator.resyncs += 1 }
            if case .awaitingLayout = phase {
                generator.laidOut += 1
                phase = .idle
                generator.ready(self)
            }
        case "frame":
            if case .number(let a)? = msg["ack"] { acknowledge(upTo: Int(a)) }
        case "commit":
            guard case .string(let by)? = msg["by"], case .number(let v)? = msg["version"] else { break }
            if by == session {
                generator.commits += 1
                generator.ownCommit(board: board, version: Int(v), sentNs: upSentNs)
            } else {
                generator.othersCommit(board: board, version: Int(v))
            }
        case "error":
            generator.errors += 1
        default:
            break
        }
    }

    func acknowledge(upTo ack: Int) {
        let now = generator.nowNs
        var n = 0
        while n < pending.count, pending[n].seq <= ack, pending[n].at > 0 {
            generator.latenciesNs.append(now - pending[n].at)
            n += 1
        }
        pending.removeFirst(n)
    }
}

func loadClientTimerFired(_ sul: UnsafeMutablePointer<lws_sorted_usec_list_t>?) {
    guard let sul, let owner = clws_timer_owner(sul) else { return }
    Unmanaged<LoadClient>.fromOpaque(owner).takeUnretainedValue().tick()
}

func loadClientCallback(_ wsi: OpaquePointer?, _ reason: lws_callback_reasons, _ user: UnsafeMutableRawPointer?,
                        _ input: UnsafeMutableRawPointer?, _ len: Int) -> Int32 {
    guard let user else { return 0 }
    let client = Unmanaged<LoadClient>.fromOpaque(user).takeUnretainedValue()
    switch reason {
    case LWS_CALLBACK_CLIENT_ESTABLISHED:
        client.wsi = wsi
        client.established()
    case LWS_CALLBACK_CLIENT_RECEIVE:
        if let input { client.receive(UnsafeRawBufferPointer(start: input, count: len)) }
    case LWS_CALLBACK_CLIENT_WRITEABLE:
        return client.writeable()
    case LWS_CALLBACK_CLIENT_CONNECTION_ERROR:
        client.generator.errors += 1
        client.phase = .closed
        client.wsi = nil
    case LWS_CALLBACK_CLIENT_CLOSED:
        client.phase = .closed
        client.wsi = nil
    default:
        break
    }
    return 0
}
