import LiftboardCore
import LiftboardWire

/// Runs client messages through a `Session` one line at a time, exactly as `Replay` runs a
/// stream (decode the line's bytes, its `ms` or the clock, the session's own commit durable at
/// once), and keeps the lines: so the stream it writes replays to the same output.
struct StreamDriver {
    private(set) var session = Session(id: Replay.sessionID)
    /// The board as the replay's commits left it (what a `hello` would get).
    private(set) var board: Board
    private(set) var clock = 0.0
    /// The stream so far, one line each.
    private(set) var lines: [[UInt8]] = []
    private(set) var view: ClientView
    /// Every `commit` the session sent, its own and others'.
    private(set) var commits: [Commit] = []
    /// The session's own commits.
    private(set) var ownCommits = 0
    private(set) var lastAnnounce: String?
    /// Errors the session answered with, and the line that caused them.
    private(set) var errors: [(line: Int, message: String)] = []

    init(board: Board, viewport: Size) {
        self.board = board
        view = ClientView(viewport: viewport)
    }

    /// Sends one line (a JSON client message); returns what the session answered, own commits
    /// as `commit`. `comment` lines (starting with `#`) are kept and change nothing.
    @discardableResult
    mutating func send(_ line: [UInt8]) -> [ServerEvent] {
        lines.append(line)
        if let person = Wire.decodePersonLine(line) {
            // As `Replay` reads it: who the session acts for, before its hello.
            switch person {
            case .failure(let e):
                errors.append((lines.count, e.message))
                return [.error(code: e.code, message: e.message)]
            case .success(let p) where session.boardID == nil:
                session = Session(id: Replay.sessionID, person: p)
            case .success:
                let why = "# person: it goes before hello (the session has started)"
                errors.append((lines.count, why))
                return [.error(code: .badMessage, message: why)]
            }
            return []
        }
        if line.first == UInt8(ascii: "#") { return [] }
        let message: ClientMessage
        switch Wire.decodeClient(line) {
        case .failure(let e) where e.code == .unknownType:
            // As `Replay` reads it: a `person` line, a renewed token acting for another person.
            guard let renewal = Wire.decodePersonInput(line) else { fallthrough }
            return renew(renewal)
        case .failure(let e):
            errors.append((lines.count, e.message))
            return [.error(code: e.code, message: e.message)]
        case .success(let m):
            message = m
        }
        let ms = message.ms ?? clock
        guard ms >= clock else {
            let why = "ms \(ms) goes back in time (the clock is at \(clock))"
            errors.append((lines.count, why))
            return [.error(code: .badMessage, message: why)]
        }
        clock = ms
        let b = board
        var out = session.handle(message.event, seq: message.seq, at: clock) { $0 == b.id ? b : nil }
        for i in out.indices {
            var own = false
            if case .persist(let c) = out[i] {
                out[i] = .commit(c)
                ownCommits += 1
                own = true
            }
            switch out[i] {
            case .commit(var c):
                _ = board.apply(c)
                // The session's own commit has its change only where its client asked for no
                // order: the script's `expect order` lines read the board's.
                if own && c.order.isEmpty { c.order = board.order }
                commits.append(c)
            case .announce(let text):
                lastAnnounce = text
            case .error(.roleForbids, _):
                // The person the script chose may not do it (issue 42): its answer, not a bug
                // in the step; the session goes on, and `expect` lines say what came of it.
                break
            case .error(.held, _):
                // `held` (issue 44) is the session refusing an item another person holds, as
                // a pinned item's lift is refused: the world's doing, not a wrong step.
                break
            case .error(_, let m):
                errors.append((lines.count, m))
            default:
                break
            }
        }
        view.take(out)
        return out
    }

    /// A `person` line: the session acts for its person from its `ms` on, as `Replay` applies it.
    private mutating func renew(_ renewal: Result<(person: Person, ms: Double), WireError>) -> [ServerEvent] {
        let why: String
        switch renewal {
        case .failure(let e):
            errors.append((lines.count, e.message))
            return [.error(code: e.code, message: e.message)]
        case .success(let r) where r.ms >= clock:
            clock = r.ms
            let out = session.renew(person: r.person, at: clock)
            view.take(out)
            return out
        case .success(let r):
            why = "ms \(r.ms) goes back in time (the clock is at \(clock))"
        }
        errors.append((lines.count, why))
        return [.error(code: .badMessage, message: why)]
    }

    /// Sends a message built from its members; `ms` goes last, as the project's streams write it.
    @discardableResult
    mutating func send(_ members: [(String, JSONValue)], ms: Double) -> [ServerEvent] {
        var w = JSONWriter()
        w.value(.object(members + [("ms", .number(ms))]))
        return send(w.bytes)
    }
}
