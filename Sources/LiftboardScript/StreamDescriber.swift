import LiftboardCore
import LiftboardWire

/// Turns a recorded stream (`serve --record`) into a gesture script: each drop as the step its
/// commit's change names, presses, taps, pans, wheels and keys as their steps with `wait`s
/// between, and what has no step (other sessions' commits, resyncs, overlapping pointers) as
/// `send` lines. After each drop it writes the orders the recording committed as `expect
/// order` lines, so the script checks that it commits what the live session did.
///
/// The script is run as it is written (a `ScriptRunner` beside the recording's replay), so each
/// `wait` is the recording's time less the time the script's own gestures take.
public struct StreamDescriber {
    /// A pointer between its `down` and its `up` or `cancel`.
    private struct OpenPointer {
        var p: Int
        var downMs: Double
        var downAt: Point
        var farthest = 0.0
        var lastAt: Point
        var lifted: String?
        /// The cell under the `down`, in the recording's picture.
        var cell: String?
        /// The live order just before the pointer's last line (where a cancel left the item).
        var liveBefore: [SectionOrder]?
        /// How many commits the recording had made when the pointer went down.
        var commitsAtDown = 0
        /// The modifier keys held at the `down` (a click's selection).
        var mods: Modifiers = []
    }

    private var recorded: StreamDriver
    private var script: ScriptRunner?
    private var out: [String] = []
    private var open: OpenPointer?
    /// Lines held while a pointer is down: they are the gesture's, or `send`s when it has none.
    private var held: [(line: [UInt8], ms: Double, message: ClientMessage)] = []
    private var tangled = false
    /// Pointers still down after a gesture that had to be written as `send` lines: the rest
    /// of their lines are `send`s too.
    private var rawPointers: Set<Int> = []
    private let boardPath: String
    /// Who the session acts for: the stream's `# person` line's (issue 42), else nil (`edit`).
    private var person: Person?

    private init(board: Board, boardPath: String) {
        recorded = StreamDriver(board: board, viewport: Size(w: 400, h: 800))
        self.boardPath = boardPath
    }

    /// The script of `stream` on `board`; `boardPath` is what its `board` line says.
    public static func describe(stream: [UInt8], board: Board, boardPath: String) -> String {
        var d = StreamDescriber(board: board, boardPath: boardPath)
        var start = 0
        while start < stream.count {
            var end = start
            while end < stream.count, stream[end] != 0x0A { end += 1 }
            var line = Array(stream[start..<end])
            start = end + 1
            if line.last == 0x0D { line.removeLast() }
            if case .success(let p)? = Wire.decodePersonLine(line), d.recorded.session.boardID == nil { d.person = p }
            guard let first = line.first(where: { $0 != 0x20 && $0 != 0x09 }), first != UInt8(ascii: "#") else { continue }
            d.take(line)
        }
        d.flushOpen()
        d.emit("expect commits \(d.recorded.ownCommits)")
        return d.out.joined(separator: "\n") + "\n"
    }

    private mutating func take(_ line: [UInt8]) {
        guard case .success(let m) = Wire.decodeClient(line) else {
            recorded.send(line)  // the replay reports it; a script has nothing to say
            return
        }
        let ms = m.ms ?? recorded.clock
        if case .hello(let h) = m.event {
            let before = recorded.session.config
            recorded = StreamDriver(board: recorded.board, viewport: Size(w: h.viewport.w, h: h.viewport.h))
            if let person { recorded.send(Wire.encodePersonLine(person)) }
            recorded.send(line)
            guard before == nil, recorded.session.config != nil else { return }
            startScript(h, line)
            return
        }
        if let o = open {
            var o = o
            o.liveBefore = recorded.session.liveOrder
            open = o
        }
        let commitsBefore = recorded.commits.count
        let events = DragPilot.unwrapped(recorded.send(line))
        switch m.event {
        case .down(let p, let at, _, let mods, let button):
            if open != nil { tangled = true; held.append((line, ms, m)); return }
            // A secondary button presses nothing: no step says it, so it goes as is.
            if !rawPointers.isEmpty || button != 0 { rawPointers.insert(p); send(line, ms: ms); return }
            open = OpenPointer(p: p, downMs: ms, downAt: at, lastAt: at, cell: recorded.view.cell(at: at),
                               commitsAtDown: recorded.commits.count, mods: mods)
            held = [(line, ms, m)]
            tangled = false
            noteLift(events)
        case .move(let p, _) where open == nil, .up(let p, _) where open == nil, .cancel(let p) where open == nil:
            guard rawPointers.contains(p) else { return }  // a hovering mouse
            send(line, ms: ms)
            if case .move = m.event { return }
            rawPointers.remove(p)
            expectOrders(recorded.commits[commitsBefore...].filter { $0.by == Replay.sessionID })
        case .move(let p, let at), .up(let p, let at):
            guard var o = open else { return }
            if p != o.p { tangled = true; held.append((line, ms, m)); return }
            held.append((line, ms, m))
            o.lastAt = at
            o.farthest = max(o.farthest, ((at.x - o.downAt.x) * (at.x - o.downAt.x) + (at.y - o.downAt.y) * (at.y - o.downAt.y)).squareRoot())
            open = o
            noteLift(events)
            if case .up = m.event { closeGesture(cancelled: false) }
        case .cancel(let p):
            guard let o = open else { return }
            if p != o.p { tangled = true; held.append((line, ms, m)); return }
            held.append((line, ms, m))
            closeGesture(cancelled: true)
        default:
            if open != nil {
                noteLift(events)
                held.append((line, ms, m))
                return
            }
            describeAlone(m, line, ms: ms)
        }
    }

    private mutating func noteLift(_ events: [ServerEvent]) {
        guard var o = open else { return }
        for e in events { if case .lift(o.p, let id, _, _, false) = e { o.lifted = id } }
        open = o
    }

    /// A line outside any pointer gesture.
    private mutating func describeAlone(_ m: ClientMessage, _ line: [UInt8], ms: Double) {
        switch m.event {
        case .advance:
            return
        case .wheel(let dx, let dy, let at):
            waitUntil(ms)
            emit("wheel \(Self.number(dx)) \(Self.number(dy))" + (at.map { " at \(Self.number($0.x)) \(Self.number($0.y))" } ?? ""))
        case .key(let k, let mods) where mods.isEmpty:
            waitUntil(ms)
            emit("key \(ScriptToken.written(k))")
        default:
            send(line, ms: ms)
        }
    }

    private mutating func closeGesture(cancelled: Bool) {
        guard let o = open else { return }
        open = nil
        let lines = held
        held = []
        // The session's own commits during the gesture (the down's line is already in).
        let own = recorded.commits[min(o.commitsAtDown, recorded.commits.count)...].filter { $0.by == Replay.sessionID }
        let config = recorded.session.config ?? SessionConfig()
        var step: String?
        // An item an edit took off the board mid-gesture has no step that could name it.
        let gone = o.lifted.map { x in !recorded.board.sections.contains { $0.items.contains { $0.id == x } } } ?? false
        if !tangled, !gone {
            let item = o.lifted
            if let x = item, let c = own.first, let change = c.change {
                switch change {
                case .insert(let id, let section, let after, _) where id == x:
                    step = "drag \(w(x)) " + (after.map { "after \(w($0))" } ?? "first in \(w(section))")
                case .swap(let a, let b) where a == x || b == x:
                    step = "drag \(w(x)) onto \(w(a == x ? b : a))"
                default: break
                }
            } else if let x = item, cancelled {
                step = cancelStep(x, o.liveBefore)
            } else if let x = item {
                step = "press \(w(x))"
            } else if o.farthest > config.allowableMovement {
                let dy = o.lastAt.y - o.downAt.y
                // A columns board's pan scrolls what was under its down, on the axis its first
                // move chose: no `pan` step (from the viewport's center) says that; its lines
                // stay as they are.
                if recorded.board.layout != .columns, abs(dy) >= 1 {
                    step = "pan \(dy > 0 ? "down" : "up") \(Self.number(abs(dy).rounded()))"
                }
            } else if let cell = o.cell, !cancelled {
                let held = (lines.last?.ms ?? o.downMs) - o.downMs
                if held >= config.pressMs {
                    step = "press \(w(cell))"
                } else if !o.mods.isEmpty {
                    // A click that edits the selection.
                    step = "click \(w(cell)) with " + o.mods.names.joined(separator: " ")
                } else {
                    step = "tap \(w(cell))"
                }
            }
        }
        guard let step else {
            var down: Set<Int> = []
            for l in lines {
                send(l.line, ms: l.ms)
                switch l.message.event {
                case .down(let p, _, _, _, _): down.insert(p)
                case .up(let p, _), .cancel(let p): down.remove(p)
                default: break
                }
            }
            rawPointers = down
            expectOrders(own)
            return
        }
        // Other sessions' commits and resyncs that came during the gesture go first: the drop's
        // change applies on top of them, as it did live.
        for l in lines {
            switch l.message.event {
            case .down, .move, .up, .cancel, .advance: continue
            default: send(l.line, ms: l.ms)
            }
        }
        waitUntil(o.downMs)
        emit(step)
        expectOrders(own)
    }

    /// `expect order` lines for the sections the commits touched, as the recording left them.
    private mutating func expectOrders(_ commits: some Collection<Commit>) {
        for c in commits {
            let touched = Set(c.moves.flatMap { [$0.from.section, $0.to.section] })
            for s in c.order where touched.contains(s.section) {
                emit("expect order " + ScriptRunner.orderText(s.section, s.items))
            }
        }
    }

    /// `drag X after Y then cancel`, Y being where the item was when the pointer went away.
    private func cancelStep(_ x: String, _ live: [SectionOrder]?) -> String {
        guard let live, let sec = live.first(where: { $0.items.contains(x) }), let i = sec.items.firstIndex(of: x) else {
            return "press \(w(x))"
        }
        var movable: [String: Bool] = [:]
        for s in recorded.board.sections { for item in s.items { movable[item.id] = item.movable } }
        let before = sec.items[..<i].last { movable[$0] ?? true }
        return "drag \(w(x)) " + (before.map { "after \(w($0))" } ?? "first in \(w(sec.section))") + " then cancel"
    }

    /// Leaves whatever is still open as `send` lines.
    private mutating func flushOpen() {
        guard open != nil else { return }
        open = nil
        for l in held { send(l.line, ms: l.ms) }
        held = []
    }

    private mutating func startScript(_ h: Hello, _ line: [UInt8]) {
        emit("board \(ScriptToken.written(boardPath))")
        emit("viewport \(Self.number(h.viewport.w)) \(Self.number(h.viewport.h))")
        if let p = person {
            emit((["person", p.role.rawValue] + [p.user, p.user == nil ? nil : p.name].compactMap { $0.map(ScriptToken.written) })
                .joined(separator: " "))
        }
        var config: [(String, JSONValue)] = []
        if case .object(let members)? = (try? JSONParser.parse(line))?["config"], !members.isEmpty {
            config = members
            var wr = JSONWriter()
            wr.value(.object(members))
            emit("config " + String(decoding: wr.bytes, as: UTF8.self))
        }
        script = try? ScriptRunner(board: recorded.board, viewport: Size(w: h.viewport.w, h: h.viewport.h), config: config,
                                   person: person ?? .open)
    }

    /// A recorded line as a `send` line, without its `ms` (the script's clock gives it one).
    private mutating func send(_ line: [UInt8], ms: Double) {
        waitUntil(ms)
        guard case .object(let members)? = try? JSONParser.parse(line) else { return }
        var w = JSONWriter()
        w.value(.object(members.filter { $0.0 != "ms" }))
        emit("send " + String(decoding: w.bytes, as: UTF8.self))
    }

    private mutating func waitUntil(_ ms: Double) {
        guard let clock = script?.driver.clock else { return }
        let gap = (ms - clock).rounded()
        if gap >= 1 { emit("wait \(Self.number(gap))") }
    }

    /// Writes a line and runs it on the script's side, whose clock the next `wait` counts from.
    private mutating func emit(_ text: String) {
        out.append(text)
        guard script != nil, let step = try? ScriptParser.parseStep(Substring(text)), !step.isSetup else { return }
        _ = try? script?.run(ScriptLine(number: out.count, text: text, step: step))
    }

    private func w(_ s: String) -> String { ScriptToken.written(s) }

    static func number(_ d: Double) -> String {
        var w = JSONWriter()
        w.number(d)
        return String(decoding: w.bytes, as: UTF8.self)
    }
}
