/// One connection's state machine: client events in (with the time), server events out,
/// timers as a next deadline. The server and `liftboard replay` drive the very same type.
///
/// - `handle(_:seq:at:boards:)` first fires every timer due at or before `now`, then handles
///   the event. `boards` is asked only for `hello`, for the board it names.
/// - `fire(at:)` fires the timers due at or before `now`; drivers call it at `nextDeadline`
///   (`drain(until:)` does that in a loop).
/// - A `.persist(commit)` among the outputs is this session's own new commit (`version` = the
///   session's board version + 1, `change` set). The driver persists it, hands it to the other
///   sessions on the board as `.external(commit)` (they answer with `.commit`), and sends it to
///   this client as `.commit` once it is durable.
public struct Session: Sendable {
    private enum State: Sendable {
        /// Nothing but `hello` can start it; errors leave it waiting (a replay goes on).
        case awaitingHello
        case live(LiveBox)
        /// The driver closed it: every event is ignored.
        case closed
    }

    /// The live session behind a reference, copied on write: an input mutates it in place
    /// instead of copying its thirty-odd arrays out of the enum and back (a retain and a
    /// release each, on every input), and reading one property reads just that property.
    final class LiveBox: @unchecked Sendable {
        // Unchecked: `withLive` mutates only a box no other Session shares (copy on write),
        // as Array does with its storage. Nor checked at run time for overlapping accesses
        // (`@exclusivity(unchecked)`): every access is the service thread's, and none calls
        // out while it lasts; the check cost about 150 instructions an input (two accesses).
        @exclusivity(unchecked) var session: LiveSession
        init(_ session: LiveSession) { self.session = session }
    }

    public let id: String
    /// Who the session acts for (issue 42): `.open` (no user, role `edit`) without tokens.
    public internal(set) var person: Person
    private var state: State = .awaitingHello
    /// A watcher that took a leader's view (`adoptView`) shares the leader's box until it next
    /// changes; meanwhile its own facts (its id, frame count, last `seq`, last input) are kept
    /// here, and written into its own copy of the box when it changes (`withLive`) or is
    /// replaced (`replaceLive`). Nil when the box holds them.
    private var pendingIdentity: LiveSession.Identity?

    public init(id: String, person: Person = .open) {
        self.id = id
        self.person = person
    }

    /// The live session's box, to read single properties from without copying the session
    /// (never to mutate: see `withLive`).
    var liveBox: LiveBox? {
        if case .live(let b) = state { return b }
        return nil
    }

    /// Runs `body` on the live session in place, copying it first only when another copy of
    /// this Session shares it.
    mutating func withLive<R>(_ body: (inout LiveSession) -> R) -> R? {
        guard case .live(var box) = state else { return nil }
        state = .closed  // drops the enum's reference, so `box` is unique unless shared
        if !isKnownUniquelyReferenced(&box) { box = LiveBox(box.session) }
        if case .some = pendingIdentity {  // its case only: `if let`, or `!= nil` (Identity is Equatable), copied it
            box.session.identity = pendingIdentity!
            pendingIdentity = nil
        }
        defer { state = .live(box) }
        return body(&box.session)
    }

    /// This session's own facts, wherever they are kept (`pendingIdentity` or its box).
    func ownIdentity() -> LiveSession.Identity? { pendingIdentity ?? liveBox?.session.identity }

    /// Takes `box` (another session's, shared until either changes) as the live session, with
    /// `own` as this session's own facts (`adoptView`): a reference taken, no copy made.
    mutating func shareLive(_ box: LiveBox, keeping own: LiveSession.Identity) {
        state = .live(box)
        pendingIdentity = own
    }

    /// `shareLive` counting `frames` frames as sent (`adoptView`): its own facts taken out of its
    /// box once, then its frame count moved on in place (a watcher's usual: no copy of its id and
    /// person). Returns its first frame's `seq` and its last `seq`; nil, nothing done, if not live.
    mutating func shareLive(_ box: LiveBox, advancingFrames frames: Int) -> (firstSeq: Int, ack: Int?)? {
        if case .none = pendingIdentity { pendingIdentity = liveBox?.session.identity }
        guard let seq = pendingIdentity?.frameSeq else { return nil }
        pendingIdentity?.frameSeq = seq + frames
        state = .live(box)
        return (seq + 1, pendingIdentity?.lastSeq)
    }

    /// Makes `s` the live session (`adoptView`).
    mutating func replaceLive(with s: LiveSession) {
        var s = s
        if let own = pendingIdentity { s.identity = own }
        pendingIdentity = nil
        state = .live(LiveBox(s))
    }

    /// The board this session is on, after a successful `hello`.
    public var boardID: String? { liveBox?.session.boardID }

    /// The board's committed version as this session knows it.
    public var version: Int? { liveBox?.session.version }

    /// The config in force, after `hello`.
    public var config: SessionConfig? { liveBox?.session.config }

    /// When the session next needs `fire(at:)`, or `nil` when nothing is pending.
    public var nextDeadline: Double? { liveBox?.session.nextDeadlineInPlace() }

    /// Whether any item is lifted right now.
    public var isDragging: Bool { liveBox.map { !$0.session.drags.isEmpty } ?? false }

    /// Whether `hello` started the session and it is not closed: a check that costs nothing,
    /// where `committedOrder != nil` builds the whole order (a million ids on a big board).
    public var isLive: Bool { liveBox != nil }

    /// The live order (dragged items at their live places).
    public var liveOrder: [SectionOrder]? { liveBox?.session.arr.order }

    /// The committed order as this session knows it.
    public var committedOrder: [SectionOrder]? { liveBox?.session.baseOrder }

    /// The content's scroll offset.
    public var scrollY: Double? { liveBox?.session.scrolling.y }

    /// Columns: the board's sideways offset, and each column's own vertical offset.
    public var scrollX: Double? { liveBox?.session.scrolling.x }
    public var columnScrolls: [Double]? { liveBox?.session.scrolling.columns }

    public mutating func handle(_ event: ClientEvent, seq: Int? = nil, at now: Double,
                                boards: (String) -> Board?) -> [ServerEvent] {
        switch state {
        case .awaitingHello:
            return start(event, seq: seq, at: now, boards: boards)
        case .closed:
            return []
        case .live:
            if case .hello = event {
                return [.error(code: .badMessage, message: "hello: the session has already started")]
            }
            if case .resync(let version, let order) = event {
                // As the live hub does it: no timers fired, no step flushed.
                return resync(to: order, version: version)
            }
            if case .rebase(let version, let order) = event {
                // Nothing fired, flushed or sent: the commits that follow tell the client.
                return withLive { $0.rebase(to: order, version: version) } ?? []
            }
            var out: [ServerEvent] = []
            withLive { $0.handle(event, seq: seq, at: now, into: &out) }
            return out
        }
    }

    /// `handle` for a session that has started (every event but `hello`).
    public mutating func handle(_ event: ClientEvent, seq: Int? = nil, at now: Double) -> [ServerEvent] {
        handle(event, seq: seq, at: now, boards: { _ in nil })
    }

    /// `handle(_:seq:at:)`, appending what it answers to `out`: a driver handling input after
    /// input (the server, for each move) reuses one buffer instead of a new array each time.
    public mutating func handle(_ event: ClientEvent, seq: Int? = nil, at now: Double, into out: inout [ServerEvent]) {
        switch event {
        case .hello, .resync, .rebase:
            out += handle(event, seq: seq, at: now)
        default:
            guard case .live = state else { return out += handle(event, seq: seq, at: now) }
            withLive { $0.handle(event, seq: seq, at: now, into: &out) }
        }
    }

    /// A `move` straight from the decoder into the engine's step, with no `ClientEvent` made:
    /// what `handle(.move(pointer:at:), seq:at:into:)` does, for the server's most frequent input.
    public mutating func move(_ pointer: Int, to at: Point, seq: Int?, at now: Double, into out: inout [ServerEvent]) {
        guard case .live = state else { return out += handle(.move(pointer: pointer, at: at), seq: seq, at: now) }
        withLive { $0.move(pointer, to: at, seq: seq, at: now, into: &out) }
    }

    /// `handle(.external(c), at: now)`, with the plan the session took to apply it.
    /// `wholeRebuild`: by the whole rebuild, whatever the commit: the reference every other
    /// plan equals (the suites compare against it, `liftboard bench engine` times it).
    public mutating func applyExternal(_ c: Commit, at now: Double, wholeRebuild: Bool = false) -> (events: [ServerEvent], plan: ExternalPlan) {
        guard case .live = state else { return (handle(.external(c), at: now), .refused) }
        var out: [ServerEvent] = []
        let plan = withLive { s in
            s.fire(at: now, into: &out)
            let plan = s.applyExternal(c, now: now, wholeRebuild: wholeRebuild)
            s.flushStep(at: now, into: &out)
            return plan
        }
        return (out, plan ?? .refused)
    }

    /// Fires the timers due at or before `now`, earliest first.
    public mutating func fire(at now: Double) -> [ServerEvent] {
        var out: [ServerEvent] = []
        withLive { $0.fire(at: now, into: &out) }
        return out
    }

    /// Fires timers at their deadlines until none is due at or before `limit` (`nil`: until
    /// nothing is pending). `settled` is false when `maxSteps` firings did not get there (a
    /// bug, not a stream).
    public mutating func drain(until limit: Double? = nil, maxSteps: Int = 1_000_000) -> (events: [ServerEvent], settled: Bool) {
        var out: [ServerEvent] = []
        var steps = 0
        while let d = nextDeadline, limit.map({ d <= $0 }) ?? true {
            steps += 1
            if steps > maxSteps { return (out, false) }
            out += fire(at: d)
        }
        return (out, true)
    }

    /// Makes `board`'s order and version the committed order, whatever the session had (the
    /// store's truth after a failed write, or after another process committed first); drags
    /// in flight keep their live places. Returns the `layout` to send, or nothing when the
    /// board's items are not this session's.
    public mutating func resync(to board: Board) -> [ServerEvent] {
        resync(to: board.order, version: board.version)
    }

    /// `resync(to:)` with the order and version only (a recorded `resync` line).
    public mutating func resync(to order: [SectionOrder], version: Int) -> [ServerEvent] {
        withLive { s in
            guard s.resync(to: order, version: version) else { return [] }
            return [s.makeLayout()]
        } ?? []
    }

    /// Ends the session (the connection went away): every drag in flight is cancelled, and
    /// nothing is handled afterwards.
    public mutating func close() {
        state = .closed
        pendingIdentity = nil
    }

    /// Everything that is wrong with the session's state, for tests: empty when sound.
    public func invariantViolations() -> [String] {
        liveBox?.session.invariantViolations() ?? []
    }

    /// For tests and the fuzzer: handles `move` (the move this session just handled at `now`)
    /// once more on a copy, and returns the `moved` it yields, if any. Holding still never
    /// moves anything, so any answer but `nil` is a flip-flop. `nil` as well when a timer is
    /// due by `now` (it would fire first, and may move things by right).
    public func stillPointMoved(repeating move: ClientEvent, at now: Double) -> ServerEvent? {
        guard case .move = move, liveBox != nil else { return nil }
        if let due = nextDeadline, due <= now { return nil }
        var copy = self
        return copy.handle(move, at: now) { _ in nil }.first { if case .moved = $0 { true } else { false } }
    }

    private mutating func start(_ event: ClientEvent, seq: Int?, at now: Double,
                                boards: (String) -> Board?) -> [ServerEvent] {
        guard case .hello(let hello) = event else {
            return [.error(code: .noHello, message: "the first message must be hello")]
        }
        guard hello.v == 1 else {
            return [.error(code: .version, message: "protocol version \(hello.v) is not supported (expected 1)")]
        }
        guard let board = boards(hello.board) else {
            return [.error(code: .noBoard, message: "no board \"\(hello.board)\"")]
        }
        var session = LiveSession(sessionID: id, person: person, board: board, hello: hello, at: now)
        let out = session.start(seq: seq, at: now)
        state = .live(LiveBox(session))
        return out
    }
}
