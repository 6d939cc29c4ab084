import Dispatch
import Foundation
import LiftboardCore
import LiftboardWire

/// Writes one session's client messages as a replay stream on the session's clock (the
/// client's `ms` as `ClientClock` bounded it), with
/// `advance` lines where timers fired, `external` lines for other sessions' commits, `resync`
/// lines where the hub reset the session to the store's order and `rebase` lines where it
/// told a rebase as commits (the `external` lines after it), `person` lines where a renewed
/// token made the session act for another person (issue 42; never the token), and the board as
/// it was at the session's start beside it.
///
/// A recording has a budget: it holds the decoded message (keys the protocol does not know are
/// dropped, so padding costs nothing), stops with a final `#` line (which a replay skips) past
/// `maxBytes`, and draws on the server-wide `RecordingRate`.
final class Recorder {
    private let handle: FileHandle
    private let maxBytes: Int
    private let rate: RecordingRate
    private(set) var written = 0
    private(set) var stopped = false

    /// `person`: who the session acts for (issue 42), written first as a `# person` line that
    /// keeps the token's `sub`, `name` and role, never the token; nil: `Person.open`, no line.
    init?(dir: String, session: String, board: Board, hello: [UInt8], ms: Double, maxBytes: Int, rate: RecordingRate,
          person: Person? = nil, log: (LogLevel, String, String?, String) -> Void) {
        self.maxBytes = maxBytes
        self.rate = rate
        let base = URL(fileURLWithPath: dir)
        try? FileManager.default.createDirectory(at: base, withIntermediateDirectories: true)
        let stream = base.appendingPathComponent("\(session).jsonl")
        do {
            try Data(Wire.encodeBoard(board)).write(to: base.appendingPathComponent("\(session).board.json"))
            guard FileManager.default.createFile(atPath: stream.path, contents: nil) else {
                throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: stream.path])
            }
            handle = try FileHandle(forWritingTo: stream)
        } catch {
            log(.error, "error", session, "cannot record to \(dir): \(error)")
            return nil
        }
        if let person, person != .open { write(Wire.encodePersonLine(person)) }
        record(hello, ms: ms)
    }

    deinit { try? handle.close() }

    private func write(_ bytes: [UInt8]) {
        guard !stopped else { return }
        let size = bytes.count + 1
        if written + size > maxBytes {
            return stop("over --record-max-bytes (\(maxBytes) bytes)")
        }
        if !rate.take(size) {
            return stop("the server's recordings are over \(rate.bytesPerSecond) bytes a second")
        }
        handle.write(Data(bytes + [0x0A]))
        written += size
    }

    /// The last line: a comment, which a replay skips, saying why the stream ends here.
    private func stop(_ why: String) {
        stopped = true
        handle.write(Data("# recording stopped: \(why)\n".utf8))
    }

    /// A client message as received, keys the protocol does not know left out, with its `ms`
    /// replaced by the time the session used.
    func record(_ message: [UInt8], ms: Double) {
        guard !stopped, case .object(var members)? = try? JSONParser.parse(message) else { return }
        members = RecordedKeys.known(members)
        members.removeAll { $0.0 == "ms" }
        members.append(("ms", .number(ms)))
        var w = JSONWriter()
        w.value(.object(members))
        write(w.bytes)
    }

    func recordAdvance(ms: Double) {
        var w = JSONWriter()
        w.value(.object([("t", .string("advance")), ("ms", .number(ms))]))
        write(w.bytes)
    }

    func recordResync(version: Int, order: [SectionOrder], ms: Double) {
        write(Wire.encodeOrderLine("resync", version: version, order: order, ms: ms))
    }

    func recordRebase(version: Int, order: [SectionOrder], ms: Double) {
        write(Wire.encodeOrderLine("rebase", version: version, order: order, ms: ms))
    }

    /// Issue 44: a `presence` input, as the server's message with its time.
    func recordPresence(_ p: Presence, ms: Double) {
        var w = JSONWriter()
        w.beginObject()
        w.key("t"); w.string("presence")
        w.key("ms"); w.number(ms)
        Wire.presenceBody(p, &w)
        w.endObject()
        write(w.bytes)
    }

    /// Issue 44: a claim input (`ClaimInput`): `claims`, `claimed`.
    func recordClaim(_ input: ClaimInput, ms: Double) {
        write(Wire.encodeClaimInput(input, ms: ms))
    }

    /// Issue 42: an `auth` message renewed the session's token as another person, applied at
    /// `ms`: a `person` input line (never the token).
    func recordPerson(_ p: Person, ms: Double) {
        write(Wire.encodePersonInput(p, ms: ms))
    }

    func recordExternal(_ c: Commit, ms: Double) {
        var w = JSONWriter()
        w.beginObject()
        w.key("t"); w.string("external")
        w.key("ms"); w.number(ms)
        w.key("commit"); w.beginObject()
        w.key("t"); w.string("commit")
        Wire.commitBody(c, &w)
        w.endObject()
        w.endObject()
        write(w.bytes)
    }
}

/// The keys of each client message type (contract §3): what a recording keeps.
enum RecordedKeys {
    static let envelope: Set<String> = ["t", "ms", "seq"]
    static let byType: [String: Set<String>] = [
        "hello": ["v", "board", "viewport", "config"], "down": ["p", "x", "y", "kind", "mods", "button"], "move": ["p", "x", "y"],
        "up": ["p", "x", "y"], "cancel": ["p"], "wheel": ["dx", "dy", "x", "y"], "resize": ["w", "h", "dpr"], "key": ["key", "mods"],
        "ping": ["id"],
    ]
    static let viewport: Set<String> = ["w", "h", "dpr"]
    static let config: Set<String> = ["pressMs", "springMs", "allowableMovement", "mode", "edgeScrollRange", "edgeScrollSpeed", "liftScale",
                                      "liftRotation", "liftAlpha", "liftMs", "shiftMs", "dropMs", "idleResetMs", "reducedMotion",
                                      // The output's shape: a replay prints what the client was sent.
                                      "commitOrder", "events", "follow", "commits", "layouts", "presence"]

    static func known(_ members: [(String, JSONValue)]) -> [(String, JSONValue)] {
        guard case .string(let t)? = members.first(where: { $0.0 == "t" })?.1, let keys = byType[t] else { return members }
        return members.compactMap { key, value in
            guard envelope.contains(key) || keys.contains(key) else { return nil }
            switch (key, value) {
            case ("viewport", .object(let inner)) where t == "hello": return (key, .object(inner.filter { viewport.contains($0.0) }))
            case ("config", .object(let inner)): return (key, .object(inner.filter { config.contains($0.0) }))
            default: return (key, value)
            }
        }
    }
}

/// The server-wide bound on recording: `bytesPerSecond` bytes in each second (a `RateLimiter`),
/// shared by every session's recorder.
final class RecordingRate {
    let bytesPerSecond: Int
    /// Bytes a second; nil when `bytesPerSecond` is 0 (no limit).
    private var limiter: RateLimiter?
    /// Milliseconds, never going back: the monotonic clock, or a test's.
    private let clock: () -> Double

    init(bytesPerSecond: Int, clock: (() -> Double)? = nil) {
        self.bytesPerSecond = bytesPerSecond
        limiter = bytesPerSecond > 0 ? RateLimiter(limit: bytesPerSecond) : nil
        let started = DispatchTime.now().uptimeNanoseconds
        self.clock = clock ?? { Double((DispatchTime.now().uptimeNanoseconds - started) / 1000) / 1000 }
    }

    /// Takes `bytes` from this second's allowance; false when there are not that many left.
    func take(_ bytes: Int) -> Bool {
        guard limiter != nil else { return true }
        return limiter!.admit(bytes, now: clock()).admitted
    }
}
