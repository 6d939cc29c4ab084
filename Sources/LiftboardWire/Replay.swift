import LiftboardCore

/// Runs a replay stream (contract §6) through a `Session` on the stream's own clock, with no
/// sockets and no files: the same board and stream give the same bytes.
public struct Replay {
    /// The fixed session id of every replay, so that outputs are reproducible.
    public static let sessionID = "replay"
    /// Timers fired after the last line before the replay gives up (a bug, not a stream).
    public static let maxSettleSteps = 1_000_000

    public enum Outcome: Equatable, Sendable {
        /// The stream was read to its end and time ran until nothing was pending.
        case finished
        /// Timers were still pending after `maxSettleSteps` firings.
        case neverSettled
    }

    /// Runs `stream` (UTF-8 JSON lines) against `board`, appending one JSON line per server
    /// message to `output`. The session acts for `Person.open` (role `edit`) unless a `# person`
    /// line before its `hello` names another (`Wire.decodePersonLine`), and from a `person` input
    /// line on as the person it names (`Wire.decodePersonInput`: a renewed token, `Session.renew`).
    public static func run(board: Board, stream: [UInt8], output: inout [UInt8]) -> Outcome {
        var session = Session(id: sessionID)
        var current = board
        var clock = 0.0
        func emit(_ events: [ServerEvent], line: Int?) {
            let commitOrder = session.config?.commitOrder ?? .full
            for var e in events {
                // No store here: the session's own commit is durable at once.
                if case .persist(let c) = e { e = .commit(c) }
                if case .commit(let c) = e { _ = current.apply(c) }
                Wire.encode(e, line: line, commitOrder: commitOrder, into: &output)
                output.append(0x0A)
            }
        }
        /// What one line of the stream (its CR cut) is answered with; nil for a blank line or a comment.
        func answer(_ line: ArraySlice<UInt8>) -> [ServerEvent]? {
            let trimmed = line.drop { $0 == 0x20 || $0 == 0x09 }
            if let person = Wire.decodePersonLine(trimmed) { return personLine(person, &session) }
            if trimmed.isEmpty || trimmed.first == UInt8(ascii: "#") { return nil }
            let message: ClientMessage
            switch Wire.decodeClient(line) {
            case .failure(let e) where e.code == .unknownType: return personInput(line, unknown: e, &session, clock: &clock)
            case .failure(let e): return [.error(code: e.code, message: e.message)]
            case .success(let m): message = m
            }
            let ms = message.ms ?? clock
            guard ms >= clock else { return [backInTime(ms, clock: clock)] }
            clock = ms
            let b = current
            return session.handle(message.event, seq: message.seq, at: clock) { $0 == b.id ? b : nil }
        }
        for (k, line) in stream.split(separator: 0x0A, omittingEmptySubsequences: false).enumerated() {
            if let out = answer(line.last == 0x0D ? line.dropLast() : line) { emit(out, line: k + 1) }
        }
        let (tail, settled) = session.drain(maxSteps: maxSettleSteps)
        emit(tail, line: nil)
        return settled ? .finished : .neverSettled
    }

    /// The error for a line whose `ms` is before the clock.
    static func backInTime(_ ms: Double, clock: Double) -> ServerEvent {
        .error(code: .badMessage, message: "ms \(fmt(ms)) goes back in time (the clock is at \(fmt(clock)))")
    }
}
