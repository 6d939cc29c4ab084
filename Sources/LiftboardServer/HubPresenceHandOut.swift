/// The sessions a board's `presence` is still owed to, handed out a chunk at a time, one chunk a
/// turn of the service loop (issue 44's fan-out tail): a presence of about 10 KB to a thousand
/// sessions written in one turn held up a commit arriving in that turn by the whole of it (about
/// 11 MB through the sockets); between two chunks a commit's fan-out goes out. A chunk is a
/// budget: a session that takes its leader's answer costs 1, one that steps its own engine
/// `stepCost`.
///
/// A value, decided apart from the sockets: the chunk size and the order (the order `start` is
/// given, the order the sessions joined) are what a test drives. A newer presence started before
/// the last one was handed out is owed to every session again, so that a session not yet reached
/// gets only the newest one (presences are coalesced per session anyway, `OutgoingQueue`); what a
/// session queued is never reordered: each is handed one presence after another, in order.
struct PresenceHandOut<Member, Message> {
    /// Bytes of presence a chunk writes: about a millisecond of writes on a quiet machine (a
    /// presence of 10 KB to 1,100 sessions took 10-40 ms in one turn; see docs/performance.md).
    static var bytesPerChunk: Int { 1 << 20 }
    /// Sessions a chunk, at least and at most: each session also costs its step (or its
    /// adoption of the leader's) and a system call.
    static var chunks: ClosedRange<Int> { 32...256 }

    /// Sessions a chunk for a presence of `bytes` (as encoded): `bytesPerChunk / bytes`, within
    /// `chunks`; a presence of 10 KB goes to 102 sessions a turn.
    static func chunk(forBytes bytes: Int) -> Int {
        min(chunks.upperBound, max(chunks.lowerBound, bytesPerChunk / max(1, bytes)))
    }

    /// A fixed chunk (tests, measurements); nil: `chunk(forBytes:)` of each presence.
    let fixedChunk: Int?
    /// The budget of each chunk of the presence being handed out.
    private(set) var chunk = 1
    /// The presence being handed out (nil when none is owed).
    private(set) var message: Message?
    /// The sessions owed it, in order; `next` is the first not reached.
    private(set) var owed: [Member] = []
    private(set) var next = 0

    init(chunk: Int? = nil) {
        precondition((chunk ?? 1) > 0, "a chunk holds at least one session")
        fixedChunk = chunk
    }

    /// Whether some session is still owed the presence.
    var isPending: Bool { next < owed.count }

    /// The first session of the next chunk.
    var nextMember: Member? { isPending ? owed[next] : nil }

    /// A new presence of `bytes` for `members` (in order): replaces what was owed of the last one.
    mutating func start(_ message: Message, bytes: Int, to members: [Member]) {
        chunk = fixedChunk ?? Self.chunk(forBytes: bytes)
        self.message = members.isEmpty ? nil : message
        owed = members
        next = 0
    }

    /// What a session that steps its own engine on the presence costs a chunk, in sessions that
    /// take a leader's answer: a dragging session steps alone and encodes its own frame (about
    /// 110 µs against 8 µs for a watcher that follows, measured at 1,000 watchers and 100
    /// dragging). Counted by sessions alone, a chunk holding the hundred dragging sessions held
    /// the loop 8-13 ms, and the commits behind it made the fan-out's tail.
    static var stepCost: Int { 16 }

    /// What the chunk being handed out may still spend (sessions that follow; `stepCost` a
    /// session that steps).
    private(set) var left = 0

    /// Starts the next chunk: `chunk` to spend. Returns the presence, nil when none is owed.
    mutating func startChunk() -> Message? {
        left = chunk
        return isPending ? message : nil
    }

    /// The next session of the chunk, charged as `steps` says it will be handed the presence
    /// (its own step, or a leader's answer); nil when the chunk is spent or no one is owed.
    mutating func next(steps: (Member) -> Bool) -> Member? {
        guard left > 0, isPending else { return nil }
        let m = owed[next]
        left -= steps(m) ? Self.stepCost : 1
        next += 1
        if next == owed.count {
            owed.removeAll(keepingCapacity: true)
            next = 0
            message = nil
        }
        return m
    }

    /// A session left: it is owed nothing.
    mutating func remove(where gone: (Member) -> Bool) {
        guard isPending, let k = owed[next...].firstIndex(where: gone) else { return }
        owed.remove(at: k)
    }
}
