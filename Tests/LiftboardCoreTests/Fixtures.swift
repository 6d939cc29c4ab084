@testable import LiftboardCore
import Testing

/// Boards and a small driver shared by the core tests.
enum Fixtures {
    /// A tree board's item: id (the label too, unless given), depth, and the tree's flags.
    static func node(_ id: String, _ depth: Int, label: String? = nil, leaf: Bool = false, movable: Bool = true) -> Item {
        var i = Item(id: id, label: label ?? id, movable: movable)
        i.depth = depth
        i.leaf = leaf
        return i
    }

    /// A list: "todo" with a, b (96 tall), c (pinned), d; "doing" with e; "done" empty.
    static func listBoard(pinned: Bool = true) -> Board {
        Board(id: "demo", layout: .list, sections: [
            Section(id: "todo", title: "To do", items: [
                Item(id: "a"), Item(id: "b", height: 96), Item(id: "c", movable: !pinned), Item(id: "d"),
            ]),
            Section(id: "doing", title: "Doing", items: [Item(id: "e")]),
            Section(id: "done", title: "Done", items: []),
        ])
    }

    /// A grid of `n` items in one section plus an empty one; 3 columns at width 400.
    static func gridBoard(_ n: Int = 6) -> Board {
        Board(id: "grid", layout: .grid, sections: [
            Section(id: "s", items: (0..<n).map { Item(id: "g\($0)") }),
            Section(id: "empty", items: []),
        ])
    }

    /// A long list of `n` rows of 56 in one section.
    static func longList(_ n: Int) -> Board {
        Board(id: "long", sections: [Section(id: "all", items: (0..<n).map { Item(id: "i\($0)") })])
    }
}

/// Drives a session like a client, recording every output.
struct Driver {
    var session = Session(id: "test")
    var board: Board
    var out: [ServerEvent] = []
    var now: Double = 0

    init(_ board: Board, viewport: Viewport = Viewport(w: 400, h: 600), config: SessionConfig = SessionConfig(), person: Person = .open) {
        self.board = board
        session = Session(id: "test", person: person)
        let b = board
        out = session.handle(.hello(Hello(board: b.id, viewport: viewport, config: config)), at: 0) { $0 == b.id ? b : nil }
    }

    @discardableResult
    mutating func send(_ e: ClientEvent, at t: Double) -> [ServerEvent] {
        now = t
        let b = board
        let o = session.handle(e, at: t) { $0 == b.id ? b : nil }
        out += o
        let v = session.invariantViolations()
        if !v.isEmpty { Issue.record("invariants broken after \(e): \(v)") }
        return o
    }

    /// Runs the timers until nothing is pending.
    @discardableResult
    mutating func settle() -> [ServerEvent] {
        let (o, settled) = session.drain()
        if !settled { Issue.record("timers still pending after a million firings") }
        now = max(now, o.compactMap(\.ms).max() ?? now)
        out += o
        return o
    }

    /// Long-press at `from` (viewport), wait for the lift, move in `steps` to `to`, release.
    mutating func drag(p: Int = 1, from: Point, to: Point, at t0: Double, steps: Int = 10, release: Bool = true) {
        send(.down(pointer: p, at: from, kind: .touch), at: t0)
        var t = t0 + 600
        send(.move(pointer: p, at: from), at: t)
        for k in 1...steps {
            t += 16
            let f = Double(k) / Double(steps)
            send(.move(pointer: p, at: Point(x: from.x + (to.x - from.x) * f, y: from.y + (to.y - from.y) * f)), at: t)
        }
        if release { send(.up(pointer: p, at: to), at: t + 16) }
    }

    var order: [[String]] { (session.liveOrder ?? []).map(\.items) }
    /// Every commit the client sees: this session's own (`.persist`) and other sessions'.
    var commits: [Commit] {
        out.compactMap {
            switch $0 {
            case .commit(let c), .persist(let c): c
            default: nil
            }
        }
    }
    /// This session's own commits only.
    var ownCommits: [Commit] { out.compactMap { if case .persist(let c) = $0 { c } else { nil } } }
    var lifts: Int { out.filter { if case .lift = $0 { true } else { false } }.count }
    var moves: [(Place, Place)] { out.compactMap { if case .moved(_, _, let f, let t) = $0 { (f, t) } else { nil } } }
    var announcements: [String] { out.compactMap { if case .announce(let s) = $0 { s } else { nil } } }
    var errors: [ErrorCode] { out.compactMap { if case .error(let c, _) = $0 { c } else { nil } } }
}

extension ServerEvent {
    /// The time a frame or pong carries, for drivers that follow the session's clock.
    var ms: Double? {
        switch self {
        case .frame(let f): f.ms
        case .pong(_, let ms): ms
        default: nil
        }
    }
}

extension Session {
    /// The committed board as this session knows it (edits included), attributes resolved.
    var committedBoard: Board? { liveBox?.session.committedBoard() }
}
