#if canImport(Glibc)
import Glibc
#endif
import LiftboardCore
import LiftboardWire
import Foundation

/// What the fuzz targets have seen, printed at exit.
nonisolated(unsafe) var messagesTried = 0
nonisolated(unsafe) var engineInputs = 0
/// LIFTBOARD_FUZZ_TRACE=1 prints every engine input (to read a crash's input).
nonisolated(unsafe) var traceEvents = false

/// At exit: what this process checked. A crash or an invariant break traps before this, and
/// the fuzzer reports it (libFuzzer: a `crash-` artifact and a nonzero exit).
func printSummary() {
    let line = "liftboard-fuzz: \(messagesTried) messages decoded, \(engineInputs) engine inputs checked, " +
        "\(tokensTried) token inputs (\(tokensSignedAndRead) signed and read, \(tokensAccepted) accepted and checked)\n"
    line.withCString { _ = write(2, $0, strlen($0)) }
}

/// `Wire.decodeClient` on arbitrary bytes: it must return (a message or an error), never trap,
/// and decide the same way twice.
func fuzzWireDecode(_ bytes: UnsafeRawBufferPointer) {
    messagesTried += 1
    let first = Wire.decodeClient(bytes)
    let second = Wire.decodeClient(bytes)
    if first != second { fatalError("decodeClient is not deterministic") }
}

/// The boards a session fuzz input plays on: a list with a pinned item, varied heights and an
/// empty section (the golden list.json), and a grid (the golden grid.json).
let fuzzBoards: [Board] = [
    try! Wire.decodeBoard(Array("""
    {"id":"demo","layout":"list","sections":[{"id":"todo","title":"To do","items":[{"id":"a"},{"id":"b","height":96},\
    {"id":"c","movable":false},{"id":"d"}]},{"id":"doing","items":[{"id":"e"}]},{"id":"done","items":[]}]}
    """.utf8)),
    try! Wire.decodeBoard(Array("""
    {"id":"demo","layout":"grid","sections":[{"id":"album","items":[{"id":"g0"},{"id":"g1"},{"id":"g2","movable":false},\
    {"id":"g3"},{"id":"g4"},{"id":"g5"}]},{"id":"trash","items":[]}]}
    """.utf8)),
    // Rules (issue 23): a palette, kinds a section accepts, a WIP limit, a trash, drag handles.
    try! Wire.decodeBoard(Array("""
    {"id":"demo","layout":"list","sections":[{"id":"palette","copy":true,"items":[{"id":"t1","kind":"bug"},\
    {"id":"t2","kind":"feature","handle":"trailing"}]},{"id":"todo","items":[{"id":"a","kind":"feature","handle":"leading"},\
    {"id":"b","kind":"bug"},{"id":"p","movable":false,"kind":"bug"},{"id":"c"}]},\
    {"id":"bugs","accepts":["bug"],"max":3,"items":[{"id":"x","kind":"bug"}]},{"id":"doing","max":1,"items":[]},\
    {"id":"bin","drop":"remove","items":[]}]}
    """.utf8)),
    // Columns (issue 24): the golden columns.json's shape with a pinned item, a tall card and
    // narrow columns (a 200-wide viewport shows one, scrolling sideways to the rest).
    try! Wire.decodeBoard(Array("""
    {"id":"kanban","layout":"columns","columns":{"width":150,"gap":10,"headerHeight":30,"rowHeight":40,"spacing":6},\
    "sections":[{"id":"todo","items":[{"id":"a"},{"id":"b","height":96},{"id":"c","movable":false},{"id":"d"}]},\
    {"id":"doing","items":[{"id":"e"},{"id":"f"},{"id":"g"},{"id":"h"},{"id":"i"},{"id":"j"},{"id":"k"},{"id":"l"}]},\
    {"id":"done","items":[]}]}
    """.utf8)),
    // Columns with rules: a palette column, a WIP limit, a column that accepts bugs, a trash.
    try! Wire.decodeBoard(Array("""
    {"id":"tall","layout":"columns","sections":[{"id":"palette","copy":true,"items":[{"id":"t1","kind":"bug"}]},\
    {"id":"todo","items":[{"id":"a","kind":"feature"},{"id":"b","kind":"bug"},{"id":"p","movable":false},{"id":"c"}]},\
    {"id":"bugs","accepts":["bug"],"items":[{"id":"x","kind":"bug"}]},{"id":"doing","max":1,"items":[]},\
    {"id":"bin","drop":"remove","items":[]}]}
    """.utf8)),
]

/// The fuzz board a golden stream's first line names.
func fuzzBoard(named head: some Sequence<UInt8>) -> Board {
    let name = String(decoding: Array(head), as: UTF8.self)
    if name == "# board: grid.json" { return fuzzBoards[1] }
    if name == "# board: outline.json" { return treeBoards[0] }
    if name == "# board: outline-shallow.json" { return treeBoards[1] }
    if name == "# board: columns.json" { return fuzzBoards[3] }
    if name.hasPrefix("# board: columns") { return fuzzBoards[4] }
    if ["rules", "trash", "palette", "handles"].contains(where: { name.hasPrefix("# board: \($0)") }) { return fuzzBoards[2] }
    return fuzzBoards[0]
}

/// A `Session` fed a decoded stream, with the engine's invariants checked after every event:
/// the board stays a permutation and pinned items keep their index (`invariantViolations`),
/// with no drag in flight the live order is the committed order, and a move to the point a
/// pointer is at already, with no timer due, moves nothing (no flip-flop under a still finger).
///
/// An input starting with `{` or `#` is a JSON-lines stream, as `liftboard replay` reads it
/// (the golden streams are the seed corpus); any other input is read as compact binary
/// events, which reach deep gestures far more often than mutated JSON does.
func fuzzSession(_ bytes: UnsafeRawBufferPointer) { fuzzSession(bytes, on: fuzzBoards) }

/// The session target on `boards` (a binary input's first byte picks one).
func fuzzSession(_ bytes: UnsafeRawBufferPointer, on boards: [Board]) {
    guard let first = bytes.first else { return }
    if first == UInt8(ascii: "{") || first == UInt8(ascii: "#") {
        // A golden stream names its board in its first comment line.
        let head = bytes.prefix { $0 != 0x0A }
        // A role (issue 42): the stream's `# person` line's, else one its length picks.
        let person = bytes.split(separator: 0x0A).lazy.compactMap { try? Wire.decodePersonLine($0)?.get() }.first
        var driver = SessionUnderTest(board: fuzzBoard(named: head), role: person?.role ?? Role.allCases[bytes.count % Role.allCases.count])
        var now = 0.0
        for line in bytes.split(separator: 0x0A) where !line.isEmpty && line.first != UInt8(ascii: "#") {
            guard case .success(let m) = Wire.decodeClient(line) else { continue }
            now = max(now, min(m.ms ?? now, now + 10_000))
            driver.step(m.event, seq: m.seq, at: now)
        }
        driver.settle(at: now)
        return
    }
    // The first byte picks the board and the role (issue 42) apart.
    var driver = SessionUnderTest(board: boards[Int(first) % boards.count],
                                  role: Role.allCases[Int(first) / boards.count % Role.allCases.count])
    var reader = ByteReader(bytes: bytes.dropFirst())
    driver.step(.hello(Hello(board: driver.board.id, viewport: Viewport(w: 200 + reader.double(600), h: 200 + reader.double(900)),
                             config: reader.config())), at: 0)
    var now = 0.0
    while !reader.atEnd {
        now += reader.double(700)
        let p = Int(reader.byte() % 3)
        let point = Point(x: reader.double(700) - 50, y: reader.double(1400) - 100)
        let event: ClientEvent
        switch reader.byte() % 17 {
        case 0, 1: event = .down(pointer: p, at: point, kind: .touch, mods: Modifiers(rawValue: reader.byte() & 0x0F))
        case 2, 3, 4: event = .move(pointer: p, at: point)
        case 5: event = .up(pointer: p, at: point)
        case 6: event = .cancel(pointer: p)
        case 7:
            // Columns read dx and the place (dy scrolls the column under it); lists ignore them.
            let dx = reader.byte() % 2 == 0 ? 0 : reader.double(800) - 400
            event = .wheel(dx: dx, dy: reader.double(800) - 400, at: reader.byte() % 2 == 0 ? point : nil)
        case 8: event = .key(["ArrowUp", "ArrowDown", "ArrowLeft", "ArrowRight", " ", "Enter", "Escape", "Tab"][Int(reader.byte() % 8)],
                             mods: reader.byte() % 4 == 0 ? .shift : [])
        case 9: event = .resize(Viewport(w: 100 + reader.double(900), h: 100 + reader.double(900)))
        case 10: event = .ping(id: .int(Int(reader.byte())))
        case 11:
            // Another process's commit came first: the hub resyncs the session to the store's
            // order, this board with one more change.
            let tree = driver.board.layout == .tree
            guard let next = tree ? driver.board.withAnotherProcessesTreeMove(&reader) : driver.board.withAnotherProcessesMove(&reader)
            else { continue }
            driver.board = next
            event = .resync(version: next.version, order: next.order)
        case 12:
            // "Move to…": any item, any section, any place (most are refused; that is checked too).
            let items = driver.board.sections.flatMap(\.items)
            guard !items.isEmpty, !driver.board.sections.isEmpty else { continue }
            event = .moveTo(id: items[Int(reader.byte()) % items.count].id,
                            section: driver.board.sections[Int(reader.byte()) % driver.board.sections.count].id,
                            place: [MovePlace.first, .last, .up, .down, .indent, .outdent][Int(reader.byte() % 6)])
        case 13:
            // Issue 44: another session holds a few items (none: its holds end).
            let items = driver.board.sections.flatMap(\.items)
            let held = items.isEmpty ? [] : (0..<Int(reader.byte() % 4)).map { _ in items[Int(reader.byte()) % items.count].id }
            event = .presence(Presence(board: driver.board.id, people: [
                Presence.Entry(session: "other", name: "Ana", color: Presence.color(for: "other"), role: .move, holds: held),
            ], watching: Int(reader.byte() % 3)))
        case 14:
            // Trees: a tap on a chevron (any item: those without children change nothing).
            let items = driver.board.sections.flatMap(\.items)
            guard !items.isEmpty else { continue }
            event = .toggle(id: items[Int(reader.byte()) % items.count].id)
        case 15:
            // Issue 44, holds across processes: the store's claims, asked for or not.
            let items = driver.board.sections.flatMap(\.items)
            let id = items.isEmpty ? "none" : items[Int(reader.byte()) % items.count].id
            event = .claim([ClaimInput.required, .answer(item: id, holder: nil), .answer(item: id, holder: "Bo"),
                            .failed(item: id)][Int(reader.byte() % 4)])
        default: event = .advance
        }
        driver.step(event, at: now)
    }
    driver.settle(at: now)
}

/// One session and the board it commits to, as the hub would keep it.
struct SessionUnderTest {
    var session: Session
    var board: Board
    /// Issue 44: the items another session holds that this one did not hold when told: none
    /// of them may lift here.
    var heldElsewhere: Set<String> = []
    /// The last `presence` sent whole or rebuilt (`config.presence: "delta"`): the next difference applies to it.
    var presenceSent: Presence?
    /// Trees: the live rows at the drop the current event may make (`checkTreeCommit`).
    var atDrop: [[(id: String, depth: Int)]]? = nil
    /// Trees: what the session's drags hold then (their rows are no parents at the drop).
    var heldAtDrop: Set<String> = []

    /// `role`: what the session may do (issue 42), checked on every commit it makes.
    init(board: Board, role: Role = .edit) {
        self.board = board
        session = Session(id: "fuzz", person: Person(user: "fuzzer", name: "Fuzz", role: role))
    }

    mutating func step(_ event: ClientEvent, seq: Int? = nil, at now: Double) {
        // A resync comes only from the hub, to the store's order (made by the structured
        // target); one read from a mutated stream may name an order no store makes.
        if case .resync(let version, let order) = event, version != board.version || order != board.order { return }
        // A rebase comes only from the hub, with the commits it tells after it (an older order
        // of the store's); a mutated stream's names one this driver's board never had.
        if case .rebase = event { return }
        if case .external(let c) = event {
            // The hub hands a session only commits that follow its board: others' commits
            // that a mutated stream made inconsistent are not something a session can get.
            // Nor its own commits back (one a mutated stream signs with this session's id).
            guard session.boardID != nil, c.board == board.id, c.version == board.version + 1, c.by != session.id,
                  let next = board.applying(c) else { return }
            board = next
        }
        engineInputs += 1
        if traceEvents { FileHandle.standardError.write(Data("trace \(now) \(event)\n".utf8)) }
        let board = self.board
        // Trees: the live rows at a drop this event may make (a pointer's at its last point).
        if session.liveTree != nil {
            atDrop = nil
            if case .up(let p, let at) = event {
                var copy = session
                _ = copy.handle(.move(pointer: p, at: at), at: now) { id in id == board.id ? board : nil }
                atDrop = copy.liveTree
                heldAtDrop = Set(copy.holds)
            } else if case .key = event {
                atDrop = session.liveTree
                heldAtDrop = Set(session.holds)
            }
        }
        let out: [ServerEvent]
        if case .advance = event {
            out = session.fire(at: now)
        } else {
            out = session.handle(event, seq: seq, at: now) { id in id == board.id ? board : nil }
        }
        absorb(out)
        if case .presence(let p) = event, session.liveOrder != nil {
            // After the step: a timer it fired first may have lifted one of them here (then it
            // is this session's, as it would be in the hub's order of events). A presence before
            // the session started (refused `no_hello`) tells it nothing.
            heldElsewhere = Set(p.people.filter { $0.session != session.id }.flatMap(\.holds)).subtracting(session.holds)
        }
        check(after: event)
        if case .move = event, let still = session.stillPointMoved(repeating: event, at: now) {
            fatalError("after \(event): the same point again moved \(still)")
        }
    }

    /// Lets time run until nothing is pending, as `liftboard replay` does after its last line.
    mutating func settle(at start: Double) {
        var now = start
        for _ in 0..<10_000 {
            guard let d = session.nextDeadline else { return }
            now = max(now, d)
            absorb(session.fire(at: now))
            engineInputs += 1
            check(after: .advance)
        }
    }

    /// Issue 44: a difference follows from the last presence sent and, applied to it by the
    /// contract's rules, gives the presence.
    private mutating func checkPresence(_ d: PresenceDelta) {
        if let base = d.base {
            guard let last = presenceSent, base == last.digest else { fatalError("a presence difference from \(base), not the last sent") }
            if d.applied(to: last) != d.presence { fatalError("a presence difference does not rebuild the presence: \(d)") }
        }
        if d.v != d.presence.digest { fatalError("a presence numbered \(d.v), not its digest") }
        presenceSent = d.presence
    }

    private mutating func absorb(_ out: [ServerEvent]) {
        for e in out {
            if case .lift(_, let id, _, _, _) = e, heldElsewhere.contains(id) { fatalError("\(id), held by another session, lifted") }
            if case .presenceDelta(let d) = e { checkPresence(d) }
            if case .frame(let f) = e {
                for case .lift(_, let id, _, _, _) in f.events where heldElsewhere.contains(id) { fatalError("\(id), held by another session, lifted") }
            }
            guard case .commit(let c) = e, c.by == session.id else { continue }
            // Roles (issue 42): a view session never commits; a move session never removes or
            // copies (a trash, a palette); every commit is signed by the session's user.
            let role = session.person.role
            if role == .view { fatalError("a view session committed v\(c.version): \(String(describing: c.change))") }
            if role == .move, c.change?.isEdit == true { fatalError("a move session made an edit: \(String(describing: c.change))") }
            if c.user != session.person.user || c.name != session.person.name { fatalError("commit v\(c.version) is not signed by its session's person") }
            guard c.version == board.version + 1, let next = board.applying(c) else {
                fatalError("commit v\(c.version) does not follow board v\(board.version)")
            }
            // Rules (issue 23): no commit of the session breaks one, loses or doubles an item.
            if let why = next.ruleViolation(since: board) { fatalError("commit v\(c.version) breaks a rule: \(why)") }
            checkTreeCommit(c, from: board, to: next, atDrop: atDrop)
            let ids = next.sections.flatMap(\.items).map(\.id)
            if Set(ids).count != ids.count { fatalError("commit v\(c.version) doubles an item") }
            if let change = c.change, !change.isEdit, Set(ids) != Set(board.sections.flatMap(\.items).map(\.id)) {
                fatalError("commit v\(c.version) lost or added an item")
            }
            board = next
        }
    }

    private func check(after event: ClientEvent) {
        let broken = session.invariantViolations()
        if !broken.isEmpty { fatalError("after \(event): \(broken.joined(separator: "; "))") }
        if session.liveTree == nil, !session.isDragging, let live = session.liveOrder, let committed = session.committedOrder, live != committed {
            fatalError("after \(event): no drag in flight, but live \(live) != committed \(committed)")
        }
    }
}

/// Reads fuzz bytes as bounded numbers; past the end it reads zeros.
struct ByteReader {
    var bytes: Slice<UnsafeRawBufferPointer>
    var atEnd: Bool { bytes.isEmpty }

    mutating func byte() -> UInt8 { bytes.popFirst() ?? 0 }

    /// A number in [0, max), from two bytes.
    mutating func double(_ max: Double) -> Double {
        let v = UInt16(byte()) << 8 | UInt16(byte())
        return Double(v) / 65_536 * max
    }

    mutating func config() -> SessionConfig {
        var c = SessionConfig()
        let flags = byte()
        if flags & 1 != 0 { c.mode = .swap }
        if flags & 2 != 0 { c.pressMs = double(1000) }
        if flags & 4 != 0 { c.reducedMotion = true }
        if flags & 8 != 0 { c.edgeScrollRange = 10 + double(190) }
        if flags & 16 != 0 { c.presence = .delta }
        return c
    }
}

extension Board {
    /// This board after a move of one of its items that another process might have made
    /// (an item after another, or first in a section, as a drop would); nil when the bytes
    /// pick a move the board refuses.
    func withAnotherProcessesMove(_ reader: inout ByteReader) -> Board? {
        let items = sections.flatMap(\.items)
        guard !items.isEmpty else { return nil }
        let id = items[Int(reader.byte()) % items.count].id
        let section = sections[Int(reader.byte()) % sections.count]
        let others = section.items.filter { $0.id != id }
        let after: String? = others.isEmpty || reader.byte() % 4 == 0 ? nil : others[Int(reader.byte()) % others.count].id
        var next = self
        guard next.apply(.insert(id: id, section: section.id, after: after, index: 0)) != nil else { return nil }
        return next
    }
}
