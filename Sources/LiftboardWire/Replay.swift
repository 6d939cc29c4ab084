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
            for e in events {
                var e = e
                // No store here: the session's own commit is durable at once.
                if case .persist(let c) = e { e = .commit(c) }
                if case .commit(let c) = e { _ = current.apply(c) }
                Wire.encode(e, line: line, commitOrder: commitOrder, into: &output)
                output.append(0x0A)
            }
        }
        for (k, line) in stream.split(separator: 0x0A, omittingEmptySubsequences: false).enumerated() {
            let lineNumber = k + 1
            let slice = line.last == 0x0D ? line.dropLast() : line
            let trimmed = slice.drop { $0 == 0x20 || $0 == 0x09 }
            if let person = Wire.decodePersonLine(trimmed) {
                emit(personLine(person, &session), line: lineNumber)
                continue
            }
            if trimmed.isEmpty || trimmed.first == UInt8(ascii: "#") { continue }
            let message: ClientMessage
            switch Wire.decodeClient(slice) {
            case .failure(let e) where e.code == .unknownType:
                emit(personInput(slice, unknown: e, &session, clock: &clock), line: lineNumber)
                continue
            case .failure(let e):
                emit([.error(code: e.code, message: e.message)], line: lineNumber)
                continue
            case .success(let m):
                message = m
            }
            let ms = message.ms ?? clock
            guard ms >= clock else {
                emit([backInTime(ms, clock: clock)], line: lineNumber)
                continue
            }
            clock = ms
            let b = current
            let out = session.handle(message.event, seq: message.seq, at: clock) { $0 == b.id ? b : nil }
            emit(out, line: lineNumber)
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
