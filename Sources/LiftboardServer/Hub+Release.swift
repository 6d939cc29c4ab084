/// What a durable version releases, written session by session (`ReleasePass`), a chunk at a
/// time: between two chunks the service loop turns once without waiting
/// (`Server.continueReleases`), so that what came meanwhile is read. The draggers' moves are
/// answered then, not after a thousand watchers' writes (about 5 ms; 50 ms for ten thousand).
/// A drop read there is committed and handed to every session at once; when the store makes it
/// durable before the pass ends, the pass extends to it and the sessions not reached yet write
/// both commits in one write. An extended pass writes the rest at once (docs/performance.md,
/// "The release pass yields to the loop").
extension Hub {
    /// Starts writing what `durable` releases: the sessions whose drops it made durable first
    /// (`first`), then every other. `direct`: each writes at once (`ConnectionMachine.durableAdvanced`).
    func release(to durable: Int, first: [String], direct: Bool) {
        releasing.start(ReleasePass(version: durable, first: first.compactMap { connection($0) }, members: connections),
                        direct: direct)
        if continueRelease(chunk: server.releaseChunk) { server.releaseWaits(self) }
    }

    /// Writes the next `chunk` sessions of the pass under way. Every 64 sessions it takes the
    /// store's reports of this board that came meanwhile (`Server.landedMeanwhile`): a newer
    /// commit made durable extends the pass, as one the loop's turn between two chunks made
    /// durable does. Once extended, a pass writes the rest at once: the loop reads nothing more
    /// until it ends, so that commits are not taken faster than they are written (a board too
    /// busy for its watchers slows its draggers down, as it did with whole passes, instead of
    /// falling further behind). Returns whether sessions are left for the next chunk.
    @discardableResult
    func continueRelease(chunk: Int) -> Bool {
        guard let next = releasing.nextChunk(chunk, member: { connection($0) }) else { return false }
        var pass = next.pass
        if let v = next.extendedTo {
            server.log(.debug, "release", session: nil, "board \(truth.id): a release pass extended to v\(v) between two chunks")
        }
        var direct = releasing.direct
        let extended = pass.run(limit: next.limit, write: { c, version in c.durableAdvanced(to: version, direct: direct) }, newer: {
            guard server.landedMeanwhile(on: self), let n = releasing.takeNewer() else { return nil }
            server.log(.debug, "release", session: nil, "board \(truth.id): a release pass extended to v\(n.durable)")
            direct = direct && n.direct
            return (n.durable, n.first.compactMap { connection($0) })
        })
        if releasing.put(back: pass, direct: direct, extended: extended) { return true }
        // The reports taken are a round of their own (`Server.drainDurableReports`).
        if releasing.finish() { settle() }
        return false
    }
}

/// A board's release pass as it is written (`Hub+Release.swift`): the pass, taken out while a
/// chunk of it runs and put back while it waits for the next; how its sessions write; whether a
/// report taken during it extended it; and the release a report handed to the hub meanwhile
/// made, which extends it.
struct ReleaseRun<Member: AnyObject> {
    /// The pass waiting for its next chunk (nil while a chunk runs, or when none is under way).
    private(set) var pass: ReleasePass<Member>?
    private(set) var direct = true
    private var underWay = false
    /// A report taken during a chunk extended it.
    private var reportsTaken = false
    private var newer: (durable: Int, first: [String], direct: Bool)?

    /// A pass is under way: a chunk of it is running or it waits for the next.
    var isUnderWay: Bool { underWay }

    /// `c` left while the pass waits for its next chunk: it is not written.
    mutating func remove(_ c: Member) { pass?.remove(c) }

    mutating func start(_ pass: ReleasePass<Member>, direct: Bool) {
        (self.pass, self.direct, underWay, reportsTaken, newer) = (pass, direct, true, false, nil)
    }

    /// The pass, taken out for its next chunk, and how many sessions that chunk writes:
    /// `chunk`, or every one left when a newer version was made durable while it waited. That
    /// version extends it here first (its droppers, found by `member`, go next), and is returned
    /// for the log. Nil when no pass waits.
    mutating func nextChunk(_ chunk: Int, member: (String) -> Member?) -> (pass: ReleasePass<Member>, limit: Int, extendedTo: Int?)? {
        guard var next = pass else { return nil }
        pass = nil
        guard let n = takeNewer() else { return (next, chunk, nil) }
        direct = direct && n.direct
        next.extend(to: n.durable, first: n.first.compactMap(member))
        return (next, .max, n.durable)
    }

    /// After a chunk: the pass is kept for the next one (true) unless every session is released.
    /// `extended`: a report taken during the chunk extended it.
    mutating func put(back run: ReleasePass<Member>, direct: Bool, extended: Bool) -> Bool {
        self.direct = direct
        if extended { reportsTaken = true }
        guard !run.isDone else { return false }
        pass = run
        return true
    }

    /// The pass is done; returns whether a report taken during a chunk extended it (those
    /// reports are a round of their own: the hub settles after them).
    mutating func finish() -> Bool {
        defer { (underWay, reportsTaken) = (false, false) }
        return reportsTaken
    }

    /// A newer version made durable during the pass: it extends the pass at its next chunk (or
    /// its next ask, within a chunk). Several add up: their droppers all go first.
    mutating func extend(to durable: Int, first: [String], direct: Bool) {
        newer = (durable, (newer?.first ?? []) + first, direct && newer?.direct != false)
    }

    mutating func takeNewer() -> (durable: Int, first: [String], direct: Bool)? {
        defer { newer = nil }
        return newer
    }
}
