import CLibWebSockets
import Foundation
import LiftboardCore
import LiftboardWire

/// One WebSocket connection on the service thread: performs what its `ConnectionMachine`
/// decides (writes, timers, the close, commits handed to the hub, the board lookup, the
/// recording) and feeds it the inputs lws and the hub give. Only the server's callbacks and
/// the hub touch it.
final class Connection {
    typealias Mode = ConnectionMachine.Mode
    typealias Action = ConnectionMachine.Action

    let id: String
    let wsi: OpaquePointer
    /// The server, which outlives its connections (it closes them before it goes): read with no
    /// reference count (`unowned(unsafe)`). A checked `unowned` read cost a strong retain and its
    /// release on every message, and captured by `receive`'s board lookup, a retain of its own
    /// in each function the lookup was passed through (about 120 Ir a message; docs/performance.md,
    /// "ir40r").
    unowned(unsafe) let server: Server
    /// Not checked for overlapping accesses at run time (`@exclusivity(unchecked)`): every
    /// access is the service thread's, and none of the machine's inputs calls back into this
    /// connection while it runs (what it decides comes back as actions, performed after). The
    /// check cost about 90 Ir a message (a `swift_beginAccess` and its end; docs/performance.md,
    /// "ir40r").
    @exclusivity(unchecked) var machine: ConnectionMachine
    private(set) var hub: Hub?
    private var recorder: Recorder?
    /// Whether this session's inputs are recorded (`serve --record`): a stored reference read,
    /// not the machine's computed `recording` (a read through this class copied the machine).
    var records: Bool { recorder != nil }
    /// The session's timer, made when first armed.
    private(set) var timer: LoopTimer?
    /// The token's expiry timer (issue 42), made when first armed.
    private var expiryTimer: LoopTimer?
    /// The timer that has lws close the connection (`closeSoon`).
    var closeTimer: UnsafeMutablePointer<clws_timer>?
    /// The actions buffer, reused (an input performed inside another's actions takes a new one).
    private var spare: [Action] = []
    /// The server holds this connection among the hellos waiting for a board lookup.
    private(set) var awaitingLookup = false

    var mode: Mode { machine.mode }

    /// `admission`: who the upgrade's token admitted (with `--auth-keys`); nil: `Person.open`.
    init(id: String, wsi: OpaquePointer, mode: Mode, server: Server, authorized: Bool = true, admission: Admission? = nil) {
        self.id = id
        self.wsi = wsi
        self.server = server
        var bounds = ConnectionMachine.Bounds()
        bounds.helloTimeout = server.config.helloTimeout
        let auth = SessionAuth(person: admission?.person ?? .open, board: admission?.board,
                               expiresAt: admission?.expiresAt.map(server.serverTime(unix:)), warningMs: server.auth.warningSeconds * 1000)
        machine = ConnectionMachine(id: id, mode: mode, authorized: authorized, auth: auth, bounds: bounds)
    }

    deinit {
        if let t = closeTimer {
            lws_sul_cancel(&t.pointee.sul)
            free(t)
        }
    }

    /// LWS_CALLBACK_CLOSED: no timer fires for this connection any more.
    func stopTimers() {
        timer?.release()
        timer = nil
        expiryTimer?.release()
        expiryTimer = nil
        if let t = closeTimer { lws_sul_cancel(&t.pointee.sul) }
    }

    // MARK: Inputs

    /// One fragment of a message arrived. Returns -1 to close.
    func receive(_ bytes: UnsafeRawBufferPointer, final: Bool, binary: Bool) -> Int32 {
        var out = takeActions()
        unowned(unsafe) let server = self.server
        machine.received(bytes, final: final, binary: binary, now: server.now, boards: { server.hubs[$0]?.board }, into: &out)
        return perform(&out)
    }

    /// The listener answered about the board the hello waits for.
    func boardLookupAnswered() {
        awaitingLookup = false
        var out = takeActions()
        unowned(unsafe) let server = self.server
        machine.boardLookupAnswered(now: server.now, boards: { server.hubs[$0]?.board }, into: &out)
        perform(&out)
    }

    /// An upgraded WebSocket has `--hello-timeout` to send `hello` (lws's per-connection timer,
    /// which goes with the connection when it closes).
    func startHelloDeadline() {
        lws_set_timer_usecs(wsi, lws_usec_t(machine.bounds.helloTimeout * 1_000_000))
    }

    /// LWS_CALLBACK_TIMER: the hello deadline.
    func helloDeadlinePassed() {
        var out = takeActions()
        machine.helloDeadlinePassed(now: server.now, into: &out)
        perform(&out)
    }

    /// The session started: its token's expiry timer is armed.
    func startAuth() {
        var out = takeActions()
        machine.startAuth(now: server.now, into: &out)
        perform(&out)
    }

    /// The token's expiry timer fired.
    func expiryFired() {
        var out = takeActions()
        machine.expiryFired(now: server.now, into: &out)
        perform(&out)
    }

    /// An `auth` message's token, verified for the session's board.
    private func verify(_ token: String) {
        // Before the hello found its board (and with no board in the URL) no token can be
        // checked against one: refused as not naming it.
        let board = machine.auth.board ?? hub?.board.id
        let outcome = board.map { server.renewal(token, board: $0) } ?? .failure(.token(.boardForbidden))
        var out = takeActions()
        machine.renewed(outcome, now: server.now, into: &out)
        perform(&out)
    }

    /// The session's timer fired.
    func fireTimer() {
        var out = takeActions()
        machine.timerFired(now: server.now, socketHasInput: socketHasInput, into: &out)
        perform(&out)
    }

    func peerSentClose() { machine.peerSentClose() }

    /// Asks for the connection to close with `code` once what is queued is out.
    func close(_ code: Int32, _ reason: String) {
        var out = takeActions()
        machine.close(code, reason, into: &out)
        perform(&out)
    }

    // MARK: From the hub

    func durableAdvanced(to version: Int, direct: Bool = true) {
        // Its one action performed here: no actions buffer taken, filled and walked for each
        // session on the board at each release.
        switch machine.durableAdvanced(to: version, direct: direct) {
        case .writeNow?:
            // Written from outside this connection's callbacks: a failed write cannot return -1,
            // so lws is told to drop the connection (as a reader too slow for its close).
            if writeNow() < 0 { drop() }
        case .requestWritable?:
            lws_callback_on_writable(wsi)
        default:
            break
        }
    }

    /// The hub applied a commit made elsewhere on this board, handed to this session as
    /// `delivery` says (`ConnectionMachine.external(_:delivery:now:into:)`). Returns the answer
    /// for the others of its view when it leads it.
    @discardableResult
    func external(_ c: Commit, delivery: ConnectionMachine.Delivery) -> ConnectionMachine.SharedAnswer? {
        var out = takeActions()
        let answer = machine.external(c, delivery: delivery, now: server.now, into: &out)
        // Mostly nothing to perform: a watcher's messages wait for the commit to be durable.
        if !out.isEmpty { perform(&out) } else { spare = out }
        return answer
    }

    /// Takes `other`'s session state when their views are the same (`Session.shareView`).
    func shareView(with other: Connection) {
        machine.shareView(with: other.machine.session)
    }

    /// The session's shared-view key (`Session.sharedViewKey`), read in place.
    func sharedViewKey() -> SharedViewKey? { machine.sharedViewKey() }

    /// Whether the session's shared-view key is `key`, made from a session in the live state
    /// `state` (`Session.hasSharedView(_:madeFrom:)`: sharing that state says it without
    /// comparing).
    func hasSharedView(_ key: SharedViewKey, madeFrom state: AnyObject?) -> Bool { machine.hasSharedView(key, madeFrom: state) }

    /// The session's live state (`Session.sharedState`).
    func sharedState() -> AnyObject? { machine.sharedState() }

    func resync(to board: Board, droppingHeldAbove version: Int) {
        var out = takeActions()
        machine.resync(to: board, droppingHeldAbove: version, now: server.now, into: &out)
        perform(&out)
    }

    func rebase(to base: HubState.RebaseBase, commits: [Commit]) {
        guard let hub else { return }
        var out = takeActions()
        machine.rebase(to: base, commits: commits, board: hub.board, now: server.now, into: &out)
        perform(&out)
    }

    /// Who the session acts for (issue 42): a session without a token's name is "Guest N" in
    /// `presence`.
    var person: Person { machine.auth.person }

    /// Issue 44: the items the session holds now, and where its latest drag would drop.
    var holds: [String] { machine.session.holds }
    var holdTarget: Place? { machine.session.holdTarget }

    /// Issue 44: the board's presence, an input of the session (recorded).
    /// With `encoding`, the session's frames are shared (looked up by content), and with
    /// `answer` (the last answer a session of the board made), it takes that answer when it
    /// was in the same state. `direct`: sent from outside every connection's callbacks (the
    /// hub's timer), so written at once. Returns the answer it made, for the sessions after it.
    @discardableResult
    func presence(_ p: Presence, shared: SharedMessage, encoding: SharedEncoding? = nil,
                  following answer: ConnectionMachine.PresenceAnswer? = nil, direct: Bool = false) -> ConnectionMachine.PresenceAnswer? {
        var out = takeActions()
        let made = machine.presence(p, shared: shared, encoding: encoding, following: answer, direct: direct,
                                    now: server.now, into: &out)
        // Written from outside this connection's callbacks (as `durableAdvanced`): a failed write
        // cannot return -1, so lws is told to drop the connection.
        if perform(&out) < 0 { drop() }
        return made
    }

    /// A message for the client from outside its own input (the hub's refusals).
    func send(_ e: ServerEvent) {
        var out = takeActions()
        machine.tell(e, now: server.now, into: &out)
        perform(&out)
    }

    // MARK: Performing

    func takeActions() -> [Action] {
        var out: [Action] = []
        swap(&out, &spare)
        // Most inputs leave none or one action behind (a quiet move; a timer armed): removed one
        // by one, as `removeAll(keepingCapacity:)` goes through `replaceSubrange` (about 500 Ir).
        while !out.isEmpty { out.removeLast() }
        return out
    }

    /// Performs `actions` in order, and keeps their buffer for the next input (`takeActions`).
    /// Returns -1 when the connection must close now. Each action is moved out of the buffer,
    /// not copied (a `for a in actions` retained the buffer and copied each action, its own
    /// commit with it, then destroyed the copy): `Array.take`, as `Hub.perform` does.
    @discardableResult
    func perform(_ actions: inout [Action]) -> Int32 {
        var rc: Int32 = 0
        for k in actions.indices {
            switch actions.take(k, leaving: .cancelTimer) {
            case .writeNow:
                if writeNow() < 0 { rc = -1 }
            case .requestWritable:
                lws_callback_on_writable(wsi)
            case .armTimer(let afterMs):
                if timer == nil {
                    timer = LoopTimer(loop: server.serviceLoop.uvLoop, context: server.context) { [unowned self] in fireTimer() }
                }
                timer?.arm(afterMs: afterMs)
            case .cancelTimer:
                timer?.cancel()
            case .commit(let c):
                _ = hub?.commit(c, from: self)
            case .holdsChanged:
                holdsChanged()
            case .claims(let plan):
                claim(plan)
            case .lookUpBoard(let board):
                if server.lookUpBoard(board, for: self) { awaitingLookup = true } else { boardLookupAnswered() }
            case .forgetLookup:
                if awaitingLookup { server.forgetWaitingHello(self) }
                awaitingLookup = false
            case .join(let board, let hello, let ms):
                join(board, hello: hello, ms: ms)
            case .record(let line):
                record(line)
            case .log(let level, let event, let detail):
                server.log(level, event, session: id, detail)
            case .armExpiry(let afterMs):
                if expiryTimer == nil {
                    expiryTimer = LoopTimer(loop: server.serviceLoop.uvLoop, context: server.context) { [unowned self] in expiryFired() }
                }
                expiryTimer?.arm(afterMs: afterMs)
            case .cancelExpiry:
                expiryTimer?.cancel()
            case .verify(let token):
                verify(token)
            case .abandon:
                // Without the close frame it could not receive anyway.
                drop()
            }
        }
        if spare.capacity < actions.capacity { swap(&spare, &actions) }
        return rc
    }

    /// Stops reading the connection and has lws close it at its next timeout check (within a
    /// second), with no close frame: for a write failed outside its callbacks (where returning
    /// -1 cannot close it) and for a client abandoned.
    private func drop() {
        lws_rx_flow_control(wsi, 0)
        clws_kill_async(wsi)
    }

    /// Tells the hub (`Action.holdsChanged`). Out of line: inlined into `perform`, its read of
    /// `machine` (the session's holds) was checked for exclusivity on every call of `perform`
    /// (a `swift_beginAccess`, about 65 Ir, on every message), even when no action asked.
    @inline(never)
    private func holdsChanged() { hub?.holdsChanged(of: self) }

    private func join(_ board: String, hello: [UInt8], ms: Double) {
        guard let hub = server.hubs[board] else { return }
        self.hub = hub
        hub.join(self)
        if let dir = server.config.recordDir {
            recorder = Recorder(dir: dir, session: id, board: hub.board, hello: hello, ms: ms,
                                maxBytes: server.config.recordMaxBytes, rate: server.recordingRate, person: machine.auth.person, log: server.log)
        }
        machine.joined(durable: hub.durableVersion, recording: recorder != nil)
        // The hello came: its deadline is moot. Left armed, it fires anyway, and lws's libuv
        // plugin spins the loop for the last half millisecond before it (LIBWEBSOCKETS.md).
        clws_cancel_timer(wsi)
        server.log(.info, "hello", session: id, "board \(hub.board.id) v\(hub.board.version)")
        // Everyone hears of the join, this session too (after `joined`: it is recorded).
        hub.presenceChanged()
        if server.store.claims != nil { requireClaims() }
    }

    private func record(_ line: ConnectionMachine.RecordedLine) {
        guard let recorder else { return }
        switch line {
        case .message(let bytes, let ms): recorder.record(bytes, ms: ms)
        case .advance(let ms): recorder.recordAdvance(ms: ms)
        case .external(let c, let ms): recorder.recordExternal(c, ms: ms)
        case .resync(let version, let order, let ms): recorder.recordResync(version: version, order: order, ms: ms)
        case .rebase(let version, let order, let ms): recorder.recordRebase(version: version, order: order, ms: ms)
        case .presence(let p, let ms): recorder.recordPresence(p, ms: ms)
        case .claim(let input, let ms): recorder.recordClaim(input, ms: ms)
        case .person(let p, let ms): recorder.recordPerson(p, ms: ms)
        }
    }

    private func socketHasInput() -> Bool {
        var pending: Int32 = 0
        let fd = lws_get_socket_fd(wsi)
        return fd >= 0 && ioctl(fd, UInt(FIONREAD), &pending) == 0 && pending > 0
    }
}
