import CLibWebSockets
import Dispatch
import Foundation
import LiftboardCore
import LiftboardStore
import LiftboardWire
import Synchronization

/// Why the server did not start.
public enum ServerError: Error, CustomStringConvertible {
    /// The store could not be opened or seeded.
    case store(StoreError)
    /// libwebsockets refused the context or the listening socket.
    case listen(String)
    /// `--host` is not an address this machine can listen on.
    case host(ListenAddressError)
    /// `--max-sessions` does not fit in the file descriptor limit.
    case budget(FileDescriptorBudgetError)

    public var description: String {
        switch self {
        case .store(let e): "store: \(e)"
        case .listen(let m): m
        case .host(let e): "\(e)"
        case .budget(let e): "\(e)"
        }
    }
}

/// `liftboard serve`: one libwebsockets service thread that owns every connection, hub and
/// timer; one store thread that makes commits durable.
///
/// The server holds lws's context and a few parts, each a type of its own (issue 39): the
/// boards (`Hubs`), the sessions and their send buffer, the boards API (`BoardsAPI`), the
/// change feeds (`EventFeeds`), the store's link, the endpoint, the run state and the log.
/// The deciding parts (`StartPlan`, `BoardsAPI`, `EventFeeds`, `FanOutPlan`, `HeapTrims`,
/// `BoardLookups`) decide and return what to do, tested without sockets; the `Server+`
/// extensions and the lws callbacks perform it.
public final class Server {
    /// lws 4.1 allocates this much (plus LWS_PRE and 4) per WebSocket connection, for its life,
    /// for what it reads: one RECEIVE chunk at most; `ConnectionMachine` reassembles longer
    /// messages and enforces its own limit. A drag's moves are 100-200 bytes; an idle watcher
    /// sends nothing after its hello (issue 28: 64 KiB, then 4 KiB, now 512 bytes).
    static let rxBufferSize = 512
    /// How much lws hands the socket in one write. Left at 0, lws 4.1 takes `rx_buffer_size`
    /// (output.c, `lws_issue_raw`): a frame longer than that went out in pieces, the rest copied
    /// into the connection's buffered output to wait for a writeable callback. The kernel takes
    /// what it can of the whole frame now.
    static let txPacketSize = 1 << 20
    let config: ServerConfig
    private(set) var context: OpaquePointer?
    /// The boards served, and hellos waiting for one (Server+BoardLifecycle).
    var boards = Hubs()
    /// Every session, the send buffer they share, and what lws holds.
    var sessions: Sessions
    /// The boards API's writes in flight and the answers they wait for (Server+BoardsAPI).
    var api = BoardsAPI()
    /// Change feed clients (Server+Events), their store reads, and their heartbeat timer.
    var events = EventFeeds()
    /// The store thread, the listener and what they report.
    var store = StoreLink()
    /// The service loop and its heap trims, the address bound, the descriptor budget, the
    /// hosts and files served.
    var endpoint: Endpoint
    /// The send buffer of every connection (issue 28: was one each, 4-5 KiB an idle watcher
    /// kept): LWS_PRE bytes of room, then the message. The service thread writes one message at
    /// a time and lws copies whatever the socket does not take, so nothing of it outlives a write.
    /// Stored here, not in `Sessions`: swapped in and out for every write, and through an
    /// accessor each swap was an exclusivity check (two a write, 130 instructions a message).
    var sendBuffer = [UInt8](repeating: 0, count: CLWS_PRE)
    /// The stop flag, the signals, and whether a shutdown began. Not checked for overlapping
    /// accesses at run time: `now` reads it on every message (a `swift_beginAccess`, about 65 Ir),
    /// and every access is the service thread's (or a test's, with no loop running) and brief.
    @exclusivity(unchecked) var running = RunState()
    /// The log's limiter, kept line and sink.
    var logger = ServerLog()
    /// Who requests and sessions act for: `--auth-keys`, `--token`, `--admin-token` (issue 42).
    var auth: Authenticator

    /// Where `now` counts from (uptime ns); a test moves it back to let time pass at once.
    var started: UInt64 {
        get { running.started }
        set { running.started = newValue }
    }

    /// The boards served, by id.
    var hubs: [String: Hub] {
        get { boards.byID }
        _modify { yield &boards.byID }
    }
    var serviceLoop: ServiceLoop { endpoint.serviceLoop }
    var recordingRate: RecordingRate { sessions.recordingRate }
    var draining: Bool { running.draining }
    /// Called on the service thread when a shutdown begins (`serve --workers`: the other
    /// workers are told to stop at once, so that they drain alongside this one).
    public var onStopping: (() -> Void)? {
        get { running.onStopping }
        set { running.onStopping = newValue }
    }

    public init(config: ServerConfig) {
        self.config = config
        sessions = Sessions(recordBytesPerSecond: config.recordMaxBytesPerSecond)
        auth = Authenticator(keys: config.authKeys, keysPath: config.authKeysPath, audience: config.authAudience,
                             sharedToken: config.token, adminToken: config.adminToken, warningSeconds: config.tokenWarningSeconds)
        endpoint = Endpoint(staticFiles: StaticFiles(root: config.publicDir), mediaFiles: config.mediaDir.map { StaticFiles(root: $0) })
    }

    /// Milliseconds since the server started, to the microsecond (so that recordings replay
    /// with the very same times).
    var now: Double {
        let ns = Self.uptimeNanoseconds() - started
        return Double(ns / 1000) / 1000
    }

    /// The monotonic clock in ns (what `DispatchTime.now().uptimeNanoseconds` reads on Linux),
    /// read straight: through Dispatch it cost about 65 Ir a message, for every input.
    static func uptimeNanoseconds() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
    }

    // MARK: Logging

    /// One line on stderr. Lines of one kind (level, event and the detail's first word) are
    /// limited to 20 a second, so that no flood of connections can fill a disk with them.
    func log(_ level: LogLevel, _ event: String, session: String?, _ detail: String) {
        guard level <= config.logLevel else { return }
        // A kind is the level, the event and the detail's first word ("commit board").
        var kind = level.name
        kind.reserveCapacity(kind.utf8.count + event.utf8.count + 24)
        kind += " "; kind += event; kind += " "; kind += detail.prefix { $0 != " " }
        let (allowed, suppressed) = logger.limiter.admit(kind, now: now)
        guard allowed else { return }
        Self.compose(logger.line, level, session: session, suppressed: suppressed, event: { $0.append(event) }, detail: { $0.append(detail) })
        logger.write(logger.line.bytes)
    }

    /// A line whose detail `detail` writes, of a kind named in advance: the commit's line,
    /// written for every commit at the default level, so neither through Strings nor through a
    /// kind taken from its text. `kind` is what `log` would take from the line
    /// ("info commit board"), so both limit the same lines together.
    func log(_ level: LogLevel, _ event: StaticString, session: String?, kind: String, _ detail: (LogLine) -> Void) {
        guard level <= config.logLevel else { return }
        let (allowed, suppressed) = logger.limiter.admit(kind, now: now)
        guard allowed else { return }
        Self.compose(logger.line, level, session: session, suppressed: suppressed, event: { $0.append(event) }, detail: detail)
        logger.write(logger.line.bytes)
    }

    /// The limiter's kinds of the disconnect's info line (`log`'s: its level, event and
    /// detail's first word), mid-drag or not.
    static let disconnectLogKinds = (plain: "info disconnect ", midDrag: "info disconnect mid-drag:")

    /// `liftboard LEVEL EVENT [session=S] DETAIL [(N similar lines left out)]` and a newline,
    /// as `line`'s only bytes.
    static func compose(_ line: LogLine, _ level: LogLevel, session: String?, suppressed: Int,
                        event: (LogLine) -> Void, detail: (LogLine) -> Void) {
        line.removeAll()
        line.append("liftboard ")
        line.append(level.staticName)
        line.append(byte: 0x20)
        event(line)
        if let session {
            line.append(" session=")
            line.append(session)
        }
        line.append(byte: 0x20)
        detail(line)
        if suppressed > 0 {
            line.append(" (")
            line.appendDecimal(suppressed)
            line.append(" similar lines left out)")
        }
        line.append(byte: 0x0A)
    }

    /// Writes all of `bytes` to stderr (through short writes and interrupts; a closed stderr
    /// drops the line).
    static func writeStandardError(_ bytes: UnsafeRawBufferPointer) {
        guard let start = bytes.baseAddress else { return }
        var done = 0
        while done < bytes.count {
            let n = write(2, start + done, bytes.count - done)
            if n > 0 { done += n } else if n < 0 && errno == EINTR { continue } else { return }
        }
    }

    static func writeStandardError(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { writeStandardError($0) }
    }

    // MARK: Start and stop

    /// Opens the store, seeds the boards, listens, as its `StartPlan` says; returns the port
    /// actually bound.
    public func start() throws(ServerError) -> Int {
        let plan = try StartPlan(config: config, setLimit: FileDescriptorBudget.setLimit)
        let address = plan.address
        endpoint.budget = plan.budget
        endpoint.allowedHosts = plan.allowedHosts
        let opened: any Store
        switch plan.store {
        case .postgres(let url):
            do { opened = try PostgresStore(url: url, edits: .wire) } catch { throw .store(error) }
        case .sqlite(let directory, let path):
            do {
                try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            } catch {
                throw .listen("cannot create data directory \(directory): \(error)")
            }
            do { opened = try SQLiteStore(path: path, edits: .wire) } catch { throw .store(error) }
        }
        do {
            for b in config.boards { try opened.seed(b) }
            for b in try opened.boards() {
                hubs[b.id] = Hub(board: b, server: self)
                // Made before the limits (BoardLimits): served as it is, and said once.
                do throws(BoardError) { try BoardLimits.check(b) } catch {
                    log(.warn, "board", session: nil, "\(b.id) in the store breaks the board limits (\(error)): served as it is")
                }
            }
        } catch {
            throw .store(error)
        }
        let reports = store.reports
        let contextBox = ContextBox()
        store.writer = CommitWriter(store: opened, onDurable: { outcomes in
            reports.add(outcomes)
            contextBox.wake()
        }, onFailure: { records, error in
            reports.add(records.map { .failed(board: $0.commit.board, token: $0.token, reason: "\(error)") })
            contextBox.wake()
        }, onHealth: { up in
            reports.setWriterUp(up)
            Server.writeStandardError(Array("liftboard \(up ? "info" : "error") store: \(up ? "up again" : "down")\n".utf8))
            contextBox.wake()
        })
        if let url = config.storeURL {
            store.listener = CommitListener(url: url, origin: store.origin, versions: hubs.mapValues(\.board.version), edits: .wire, onCommits: { commits in
                reports.add(commits.map { StoreReports.Report.landed($0) })
                contextBox.wake()
            }, onHealth: { up in
                reports.setListenerUp(up)
                contextBox.wake()
            }, onBoards: { news in
                reports.add([.boards(news)])
                contextBox.wake()
            })
            startClaims(url: url, wake: contextBox)
        }

        lws_set_log_level(Int32(LLL_ERR | LLL_WARN), lwsLogEmit)
        var info = lws_context_creation_info()
        info.options = CLWS_CONTEXT_OPTIONS
        // Room for a 4 KB token in the query or the Authorization header beside a browser's
        // usual headers. Past this lws closes the connection without a status (see
        // docs/limitations.md).
        info.max_http_header_data = 8192
        info.user = Unmanaged.passUnretained(self).toOpaque()
        info.port = Int32(CONTEXT_PORT_NO_LISTEN)
        endpoint.serviceLoop = ServiceLoop(kind: try ServiceLoop.requested())
        var loopInfo = info
        endpoint.serviceLoop.configure(&loopInfo)
        var created = lws_create_context(&loopInfo)
        if created == nil && serviceLoop.kind == .epoll {
            endpoint.serviceLoop.fallBackToPoll()
            log(.warn, "event-loop", session: nil, "libwebsockets' libuv plugin did not load (libwebsockets-evlib-uv): using poll")
            created = lws_create_context(&info)
        }
        guard let ctx = created else { throw .listen("libwebsockets: cannot create a context") }
        context = ctx
        contextBox.set(ctx)
        boards.releaseChunk = try Self.releaseChunk(for: serviceLoop.kind)
        startHeapTrims()

        var vh = lws_context_creation_info()
        // Sharing the port: the server listens itself (Server+ListenShare.swift).
        vh.port = plan.vhostPort
        // A numeric address of the socket's own family (see ListenAddress), and a failed bind
        // is an error rather than a vhost silently waiting for its interface to appear.
        vh.iface = endpoint.allocations.string(address.numeric)
        vh.protocols = UnsafePointer(endpoint.allocations.protocols(echo: config.echo, listener: config.sharePort))
        // A client naming no subprotocol is bound to liftboard.v1's callback, which routes it
        // by path (/ws: a session; /echo with --echo: the echo).
        vh.pvo = UnsafePointer(endpoint.allocations.defaultProtocol("liftboard.v1"))
        vh.vhost_name = endpoint.allocations.string("liftboard")
        vh.retry_and_idle_policy = UnsafePointer(endpoint.allocations.retryPolicy(pingAfter: 30, hangUpAfter: 45))
        vh.keepalive_timeout = 5
        vh.timeout_secs = 10
        vh.options = plan.vhostOptions
        if let cert = config.tlsCert, let key = config.tlsKey {
            vh.ssl_cert_filepath = endpoint.allocations.string(cert)
            vh.ssl_private_key_filepath = endpoint.allocations.string(key)
            // HTTP/1.1 only, and no WebSocket extension offered: `Connection.writeReady` writes several
            // messages as whole frames of its own (LWS_WRITE_RAW), which WebSocket over h2 or
            // permessage-deflate would not frame that way.
            vh.alpn = endpoint.allocations.string("http/1.1")
        }
        guard let vhost = lws_create_vhost(ctx, &vh) else {
            throw .listen("cannot listen on \(address.urlHost):\(config.port)")
        }
        let port = config.sharePort ? try listenShared(vhost, host: address.numeric) : Int(lws_get_vhost_listen_port(vhost))
        guard let bound = ListeningSockets.current().first(where: { $0.port == port }) else {
            throw .listen("cannot listen on \(address.urlHost):\(config.port): no listening socket")
        }
        endpoint.boundAddress = bound.description
        let budget = endpoint.budget
        log(.info, "limits", session: nil, "fds=\(budget.limit) max-sessions=\(budget.maxSessions) max-other-connections=\(budget.maxOtherConnections) hello-timeout=\(config.helloTimeout)s event-loop=\(serviceLoop.kind.rawValue)")
        log(.info, "listen", session: nil, "\(config.tlsCert == nil ? "http" : "https")://\(bound)/ bound=\(bound) boards=\(hubs.keys.sorted().joined(separator: ","))")
        if plan.exposed {
            log(.warn, "exposed", session: nil, "listening on \(address.isWildcard ? "every interface" : "a public address") (\(bound)) without --token: anyone who can reach this machine can read and reorder the boards")
        }
        return port
    }

    /// How long a shutdown waits for sessions to take their close and answer it, and for
    /// change feeds to end, before it closes what is left without them.
    static let drainMs = 1000.0

    /// Services until SIGINT or SIGTERM, then drains: `/healthz` says so and new sessions are
    /// refused, every session gets its 1001 close and every change feed ends, for at most
    /// `drainMs` whatever the clients do (a client that never reads, or never answers the
    /// close, or never said hello, is closed without it); then the store's queued writes are
    /// finished (every commit a client was told of was durable before it was told) and the
    /// process is done, within 2 s of the signal.
    public func run() {
        installSignalHandlers()
        // Held here: read through `running` each turn, the flag was retained and released.
        let stop = running.stopFlag
        while !stop.isSet {
            // A release pass waiting for its next chunk: the turn reads what came, without
            // waiting, and the pass goes on (`Hub+Release.swift`).
            let releasing = !boards.releasing.isEmpty
            if !serviceLoop.turn(context, wait: !releasing) { break }
            if releasing { continueReleases() }
        }
        finishReleases()
        running.draining = true
        running.onStopping?()
        log(.info, "shutdown", session: nil, "closing \(sessions.connections.count) sessions and \(events.count) change feeds")
        for c in sessions.connections.values { c.close(1001, "server shutting down") }
        for board in events.boards { closeEvents(board: board) }
        // A turn waits for the next event or timer, and with silent clients the next timer is
        // libwebsockets' own close timeout (5 s): this one wakes the loop at the deadline.
        let wake = clws_timer_new(nil)
        if let wake { lws_sul_schedule(context, 0, &wake.pointee.sul, shutdownDeadlinePassed, lws_usec_t(Self.drainMs * 1000)) }
        let deadline = now + Self.drainMs
        while (!sessions.connections.isEmpty || !events.isEmpty) && now < deadline {
            _ = serviceLoop.turn(context)
            finishReleases()
        }
        if let wake { lws_sul_cancel(&wake.pointee.sul); free(wake) }
        if !sessions.connections.isEmpty {
            log(.info, "shutdown", session: nil, "\(sessions.connections.count) sessions did not take their close in \(Int(Self.drainMs)) ms: closed without it")
        }
        for c in sessions.connections.values { c.stopTimers() }
        events.heartbeat?.release()
        endpoint.heap.timer?.release()
        store.writer?.close()
        store.listener?.close()
        store.claims?.close()
        lws_context_destroy(context)
        endpoint.serviceLoop.destroy()
        context = nil
        log(.info, "stopped", session: nil, "bye")
    }

    /// Asks `run()` to stop, from any thread.
    public func stop() {
        running.stopFlag.set()
        if let context { lws_cancel_service(context) }
    }

    /// SIGINT and SIGTERM set the stop flag; SIGHUP the reload flag (`--auth-keys` read again
    /// on the service thread, Server+Auth.swift). Each wakes the service loop.
    private func installSignalHandlers() {
        for (sig, flag) in [(SIGINT, running.stopFlag), (SIGTERM, running.stopFlag), (SIGHUP, running.reloadFlag)] {
            signal(sig, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: sig, queue: .global())
            let box = ContextBox()
            if let context { box.set(context) }
            source.setEventHandler { @Sendable in
                flag.set()
                box.wake()
            }
            source.resume()
            running.signalSources.append(source)
        }
    }

    // MARK: Connections

    /// The store thread and the listener reported: durable commits release the messages
    /// that waited for them, refusals and surprises resync the boards concerned.
    func drainDurableReports() {
        drainBoardJobs()
        drainEventCatchUps()
        drainClaims()
        // Each board once, in the order first reported, with its hub as found then: looked up
        // again at the end only when boards were created or deleted meanwhile.
        // The first apart: a drain's reports are usually of one board, and an array of one
        // cost an allocation and a free a drop.
        var first: (board: String, hub: Hub?)?
        var touched: [(board: String, hub: Hub?)] = []
        var boardsChanged = false
        func touch(_ board: String, _ hub: Hub?) {
            guard let f = first else { first = (board, hub); return }
            if f.board != board && !touched.contains(where: { $0.board == board }) { touched.append((board, hub)) }
        }
        var reports = store.reports.take()
        var k = 0
        while k < reports.count {
            // Moved out, not copied (a retain and a release of each of its strings): swapped
            // with a payload-free placeholder.
            var r = StoreReports.Report.unchanged(board: "", token: 0)
            swap(&r, &reports[k])
            k += 1
            switch r {
            case .landed:
                // The commit moved out of the report (`consume`): bound from a copy of the report,
                // it was copied, and the report destroyed (about 550 Ir a drop).
                guard case .landed(let d) = consume r else { continue }
                let board = d.board
                // With the ones after it on the same board (one store transaction, one read of
                // the listener): a session gets what they release in one write.
                var batch = [consume d]
                while k < reports.count, case .landed(let next) = reports[k], next.board == board {
                    batch.append(next)
                    k += 1
                }
                // Only a landing starts a release pass, which may take newer reports
                // (`StoreReports.takeLanded`): not while older ones wait here.
                store.reports.setInHand(reports.count - k)
                let hub = hubs[board]
                handLanded(batch, to: hub)
                touch(board, hub)
                continue
            case .unchanged(let board, let token): hubs[board]?.unchanged(token: token)
            case .refused(let board, let token, let reason): hubs[board]?.refused(token: token, reason: reason)
            case .failed(let board, let token, let reason): hubs[board]?.failed(token: token, reason: reason)
            case .boards(let news):
                apply(news)
                boardsChanged = true
                continue
            }
            touch(r.board, hubs[r.board])
            answerWrite(r)
        }
        store.reports.setInHand(0)
        store.reports.giveBack(consume reports)
        if let (board, hub) = first { (boardsChanged ? hubs[board] : hub)?.settle() }
        for (board, hub) in touched { (boardsChanged ? hubs[board] : hub)?.settle() }
    }

    /// `--token` in `Authorization: Bearer` or `?token=`, compared in constant time.
    func tokenAccepted(wsi: OpaquePointer, expected: String) -> Bool {
        if let auth = header(wsi, WSI_TOKEN_HTTP_AUTHORIZATION), Authenticator.same(auth, "Bearer \(expected)") { return true }
        return queryValue(wsi, "token").map { Authenticator.same($0, expected) } ?? false
    }
}

/// The shutdown's deadline timer: firing is all it does (the service loop's turn returns).
func shutdownDeadlinePassed(_ sul: UnsafeMutablePointer<lws_sorted_usec_list_t>?) {}

/// A flag set from a signal handler's queue and read by the service loop, once a turn: an
/// atomic load, not a lock taken and given back (an `NSLock` pair, with the flag's retain and
/// release through `running`, cost about 115 Ir a turn, 1.4 turns a message in `realistic`;
/// docs/performance.md, "srv57").
final class StopFlag: Sendable {
    private let value = Atomic<Bool>(false)
    func set() { value.store(true, ordering: .releasing) }
    func clear() { value.store(false, ordering: .releasing) }
    var isSet: Bool { value.load(ordering: .acquiring) }
}

/// The context pointer for other threads, whose only permitted call is lws_cancel_service.
final class ContextBox: @unchecked Sendable {
    // @unchecked: guarded by `lock`; lws_cancel_service is the one thread-safe lws call.
    private let lock = NSLock()
    private var ctx: OpaquePointer?
    func set(_ c: OpaquePointer) { lock.lock(); ctx = c; lock.unlock() }
    func wake() { lock.lock(); if let ctx { lws_cancel_service(ctx) }; lock.unlock() }
}

/// C strings and arrays handed to lws must live as long as the context.
struct CAllocations {
    private var strings: [UnsafeMutablePointer<CChar>] = []

    mutating func string(_ s: String) -> UnsafePointer<CChar> {
        let p = strdup(s)!
        strings.append(p)
        return UnsafePointer(p)
    }

    mutating func protocols(echo: Bool, listener: Bool) -> UnsafeMutablePointer<lws_protocols> {
        let p = UnsafeMutablePointer<lws_protocols>.allocate(capacity: 5)
        let ptrSize = MemoryLayout<UnsafeMutableRawPointer>.size
        p[0] = lws_protocols(name: string("http"), callback: httpCallback, per_session_data_size: 0,
                             rx_buffer_size: 0, id: 0, user: nil, tx_packet_size: 0)
        p[1] = lws_protocols(name: string("liftboard.v1"), callback: wsCallback, per_session_data_size: ptrSize,
                             rx_buffer_size: Server.rxBufferSize, id: 1, user: nil, tx_packet_size: Server.txPacketSize)
        p[2] = echo ? lws_protocols(name: string("liftboard.echo"), callback: wsCallback, per_session_data_size: ptrSize,
                                    rx_buffer_size: Server.rxBufferSize, id: 2, user: nil, tx_packet_size: Server.txPacketSize)
                    : lws_protocols()
        p[3] = lws_protocols()
        p[4] = lws_protocols()
        if listener {
            p[echo ? 3 : 2] = lws_protocols(name: string(Server.listenProtocol), callback: listenCallback, per_session_data_size: 0,
                                            rx_buffer_size: 0, id: 3, user: nil, tx_packet_size: 0)
        }
        return p
    }

    mutating func defaultProtocol(_ name: String) -> UnsafeMutablePointer<lws_protocol_vhost_options> {
        let option = UnsafeMutablePointer<lws_protocol_vhost_options>.allocate(capacity: 1)
        option.pointee = lws_protocol_vhost_options(next: nil, options: nil, name: string("default"), value: string(""))
        let proto = UnsafeMutablePointer<lws_protocol_vhost_options>.allocate(capacity: 1)
        proto.pointee = lws_protocol_vhost_options(next: nil, options: UnsafePointer(option), name: string(name), value: string(""))
        return proto
    }

    mutating func retryPolicy(pingAfter: UInt16, hangUpAfter: UInt16) -> UnsafeMutablePointer<lws_retry_bo_t> {
        let p = UnsafeMutablePointer<lws_retry_bo_t>.allocate(capacity: 1)
        p.pointee = lws_retry_bo_t(retry_ms_table: nil, retry_ms_table_count: 0, conceal_count: 0,
                                   secs_since_valid_ping: pingAfter, secs_since_valid_hangup: hangUpAfter, jitter_percent: 0)
        return p
    }
}

extension EditCodec {
    /// Edits kept as the wire's JSON (`{"edit": KIND, ...}`, as a commit's `change` carries it).
    static let wire = EditCodec(encode: Wire.encodeChange, decode: Wire.decodeChange)
}
