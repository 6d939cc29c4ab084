import LiftboardCore
import LiftboardWire

/// Runs a parsed script: sends its `hello`, turns each gesture into client messages through a
/// `StreamDriver` (the drags by `DragPilot`'s closed loop), and checks each expectation against
/// the session as it is at that line.
public struct ScriptRunner {
    /// The pointer every scripted gesture uses (one finger at a time).
    static let pointer = 1
    /// 60 Hz, the pace of a finger's moves.
    static let stepMs = 1000.0 / 60

    var driver: StreamDriver
    let config: SessionConfig
    let isGrid: Bool
    /// The last gesture's line, what it lifted, and the number of commits before it.
    var gesture: (line: ScriptLine, lifted: String?, commitsBefore: Int)?
    /// When the last pointer gesture's drop has landed.
    var readyAt = 0.0

    /// Starts the session: `config` members are merged, in order, into `hello.config`. The
    /// stream starts with `header` as a `#` line, when given, and the session acts for `person`
    /// (a `# person` line before the hello, unless it is `Person.open`).
    public init(board: Board, viewport: Size, config: [(String, JSONValue)], header: String? = nil,
                person: Person = .open) throws(ScriptReadError) {
        driver = StreamDriver(board: board, viewport: viewport)
        if let header { driver.send(Array("# \(header)".utf8)) }
        if person != .open { driver.send(Wire.encodePersonLine(person)) }
        var hello: [(String, JSONValue)] = [
            ("t", .string("hello")), ("v", .number(1)), ("board", .string(board.id)),
            ("viewport", .object([("w", .number(viewport.w)), ("h", .number(viewport.h)), ("dpr", .number(1))])),
        ]
        if !config.isEmpty { hello.append(("config", .object(config))) }
        let out = driver.send(hello, ms: 0)
        guard let c = driver.session.config else {
            let why = out.compactMap { if case .error(_, let m) = $0 { m } else { nil } }.first ?? "no welcome"
            throw .noHello(why)
        }
        self.config = c
        isGrid = board.layout == .grid
    }

    /// The stream so far.
    public var stream: [[UInt8]] { driver.lines }

    /// Adds a `#` line to the stream (a replay skips it).
    public mutating func comment(_ text: String) {
        driver.send(Array("# \(text)".utf8))
    }

    /// Runs one line. Throws `ScriptProblem` for a script that is wrong here (an unknown item),
    /// returns a failure when the engine did not do what the line expects.
    public mutating func run(_ line: ScriptLine) throws(ScriptProblem) -> ScriptFailure? {
        do { return try perform(line) } catch { throw ScriptProblem(line: line.number, error: error) }
    }

    private mutating func perform(_ line: ScriptLine) throws(ScriptReadError) -> ScriptFailure? {
        let errorsBefore = driver.errors.count
        var kind: FailureKind?
        switch line.step {
        case .board, .viewport, .config, .person:
            return nil  // read before the session started
        case .drag(let item, let target, let cancel):
            try requireItem(item, step: "drag")
            switch target {
            case .after(let y):
                try requireItem(y, step: "drag")
                // A drop's change never names a pinned item (it keeps an index, not a neighbour).
                if driver.board.sections.contains(where: { $0.items.contains { $0.id == y && !$0.movable } }) {
                    throw .pinnedAnchor(step: "drag", id: y)
                }
            case .onto(let y): try requireItem(y, step: "drag")
            case .first(let s): try requireSection(s, step: "drag")
            }
            startGesture(line)
            settle()
            var pilot = DragPilot(item: item, target: target, cancel: cancel, config: config, isGrid: isGrid)
            kind = pilot.run(&driver)
            gesture?.lifted = pilot.lifted
            readyAt = DragPilot.ceilMs(driver.clock + config.dropMs)
        case .press(let item):
            try requireItem(item, step: "press")
            startGesture(line)
            settle()
            let lifted = press(item, holdMs: config.pressMs)
            gesture?.lifted = lifted
            readyAt = DragPilot.ceilMs(driver.clock + config.dropMs)
        case .tap(let item):
            try requireItem(item, step: "tap")
            startGesture(line)
            settle()
            let lifted = press(item, holdMs: config.pressMs > 100 ? 100 : config.pressMs / 2)
            gesture?.lifted = lifted
            readyAt = DragPilot.ceilMs(driver.clock + config.dropMs)
        case .click(let item, let mods):
            try requireItem(item, step: "click")
            startGesture(line)
            settle()
            click(item, mods: mods)
        case .pan(let direction, let px):
            startGesture(line)
            settle()
            pan(direction, px)
        case .wheel(let dx, let dy, let at):
            startGesture(line)
            var m: [(String, JSONValue)] = [("t", .string("wheel")), ("dx", .number(dx)), ("dy", .number(dy))]
            if let at { m += [("x", .number(at.x)), ("y", .number(at.y))] }
            driver.send(m, ms: driver.clock)
        case .key(let keys):
            startGesture(line)
            for k in keys {
                for e in driver.send([("t", .string("key")), ("key", .string(k))], ms: driver.clock) {
                    if case .lift(_, let id, _, _, false) = e { gesture?.lifted = id }
                }
            }
        case .wait(let ms):
            if ms > 0 { driver.send([("t", .string("advance"))], ms: driver.clock + ms) }
        case .send(let message):
            var w = JSONWriter()
            w.value(Step.timed(message, at: driver.clock))
            driver.send(w.bytes)
            // What a hand-written message makes the session answer, errors included, is the
            // script's business: it has no step to expect them with yet.
            return nil
        case .expectOrder(let section, let items):
            guard let order = driver.session.committedOrder?.first(where: { $0.section == section }) else {
                throw .noSection(step: "expect order", id: section)
            }
            if order.items != items {
                kind = .expectation(expected: Self.orderText(section, items), got: Self.orderText(section, order.items))
            }
        case .expectCommits(let n):
            if driver.ownCommits != n {
                kind = .expectation(expected: "\(n) commit\(n == 1 ? "" : "s")",
                                    got: "\(driver.ownCommits) commit\(driver.ownCommits == 1 ? "" : "s")")
            }
        case .expectLifted(let item):
            let lifted = gesture?.lifted
            if lifted != item {
                kind = .expectation(expected: "lifted \(item)", got: lifted.map { "lifted \($0)" } ?? "lifted nothing")
            }
        case .expectSelected(let items):
            let got = driver.view.selected
            if got != Set(items) {
                kind = .expectation(expected: "selected " + (items.sorted().joined(separator: " ")),
                                    got: "selected " + (got.isEmpty ? "nothing" : got.sorted().joined(separator: " ")))
            }
        case .expectAnnounce(let text):
            let last = driver.lastAnnounce
            if !(last?.contains(text) ?? false) {
                kind = .expectation(expected: "announce \"\(text)\"", got: last.map { "announce \"\($0)\"" } ?? "no announcement")
            }
        }
        if kind == nil, driver.errors.count > errorsBefore {
            kind = .sessionError(driver.errors[errorsBefore].message)
        }
        guard let kind else { return nil }
        return ScriptFailure(line: line, kind: kind, gesture: gesture?.line, commits: gestureCommits())
    }

    private mutating func startGesture(_ line: ScriptLine) {
        gesture = (line, nil, driver.commits.count)
    }

    /// Lets the last drop land before a finger comes down again: a landing item cannot be
    /// lifted (nor pressed through to the cell under it) until its snapshot has settled.
    private mutating func settle() {
        if driver.clock < readyAt { driver.send([("t", .string("advance"))], ms: readyAt) }
    }

    private func gestureCommits() -> [String] {
        guard let g = gesture else { return [] }
        return driver.commits[g.commitsBefore...].map(Self.commitText)
    }

    private func requireItem(_ id: String, step: String) throws(ScriptReadError) {
        let known = driver.session.committedOrder?.contains { $0.items.contains(id) } ?? false
        if !known { throw .noItem(step: step, id: id) }
    }

    private func requireSection(_ id: String, step: String) throws(ScriptReadError) {
        let known = driver.session.committedOrder?.contains { $0.section == id } ?? false
        if !known { throw .noSection(step: step, id: id) }
    }

    static func orderText(_ section: String, _ items: [String]) -> String {
        ([ScriptToken.written(section) + ":"] + items.map(ScriptToken.written)).joined(separator: " ")
    }

    /// A commit in a script's words: `version 2: a after c in todo`, and the orders it left.
    static func commitText(_ c: Commit) -> String {
        let what: String
        switch c.change {
        case .insert(let id, let section, let after, _)?:
            what = after.map { "\(id) after \($0) in \(section)" } ?? "\(id) first in \(section)"
        case .swap(let x, let y)?:
            what = "\(x) onto \(y)"
        case let other?:
            what = "an edit (\(Wire.encodeChange(other)))"
        case nil:
            what = c.moves.map { "\($0.id) to \($0.to)" }.joined(separator: ", ")
        }
        let touched = Set(c.moves.flatMap { [$0.from.section, $0.to.section] })
        let orders = c.order.filter { touched.contains($0.section) }.map { orderText($0.section, $0.items) }
        return "version \(c.version) by \(c.by): \(what)" + (orders.isEmpty ? "" : " -> " + orders.joined(separator: "; "))
    }
}
