import Testing
@testable import LiftboardCore


enum RandomStreams {
    static func board(_ rng: inout SplitMix64) -> Board {
        let kind: LayoutKind = Bool.random(using: &rng) ? .list : .grid
        var n = 0
        let sections = (0..<Int.random(in: 1...4, using: &rng)).map { s in
            Section(id: "s\(s)", items: (0..<Int.random(in: 0...8, using: &rng)).map { _ in
                defer { n += 1 }
                return Item(id: "i\(n)", height: Bool.random(using: &rng) ? Double(Int.random(in: 20...140, using: &rng)) : nil,
                            movable: Int.random(in: 0..<6, using: &rng) != 0)
            })
        }
        return Board(id: "r", layout: kind, sections: sections)
    }

    /// A random board with placement rules (issue 23): kinds, sections that accept some kinds,
    /// WIP limits, palettes, trash sections and drag handles, valid as a board file must be.
    static func ruledBoard(_ rng: inout SplitMix64) -> Board {
        var b = board(&rng)
        let kinds = ["bug", "feature", "chore"]
        for s in b.sections.indices {
            for i in b.sections[s].items.indices {
                if Int.random(in: 0..<4, using: &rng) != 0 { b.sections[s].items[i].kind = kinds.randomElement(using: &rng) }
                if Int.random(in: 0..<4, using: &rng) == 0 { b.sections[s].items[i].handle = Bool.random(using: &rng) ? .leading : .trailing }
            }
            let items = b.sections[s].items
            switch Int.random(in: 0..<7, using: &rng) {
            case 0:
                // Accepts what it holds (an item without a kind gets one) and maybe one more kind.
                for i in items.indices where items[i].kind == nil { b.sections[s].items[i].kind = kinds[i % kinds.count] }
                var accepts = Set(b.sections[s].items.compactMap(\.kind))
                if Bool.random(using: &rng) { accepts.insert(kinds.randomElement(using: &rng)!) }
                b.sections[s].accepts = accepts.sorted()
            case 1: b.sections[s].max = items.count + Int.random(in: 0...1, using: &rng)
            case 2: b.sections[s].copy = true
            case 3 where items.isEmpty: b.sections[s].drop = .remove
            case 4:
                b.sections[s].max = items.count + 1
                b.sections[s].accepts = kinds
                for i in items.indices where items[i].kind == nil { b.sections[s].items[i].kind = "chore" }
            default: break
            }
        }
        return b
    }

    /// `b` as a columns board (issue 24) with random metrics, narrow enough that a 400-wide
    /// viewport shows two or three columns and scrolls sideways to the rest.
    static func asColumns(_ b: Board, _ rng: inout SplitMix64) -> Board {
        var c = b
        c.layout = .columns
        c.columns = ColumnMetrics(width: Double(Int.random(in: 100...220, using: &rng)), gap: Double(Int.random(in: 0...16, using: &rng)),
                                  headerHeight: Double(Int.random(in: 0...48, using: &rng)), rowHeight: Double(Int.random(in: 30...70, using: &rng)),
                                  spacing: Double(Int.random(in: 0...10, using: &rng)))
        return c
    }

    /// Columns streams: wheels carry a place and a sideways delta (the page always sends them).
    static func columnEvents(_ rng: inout SplitMix64, board: Board, count: Int) -> [(ClientEvent, Double)] {
        events(&rng, board: board, count: count).map { e, t in
            guard case .wheel(_, let dy, _) = e else { return (e, t) }
            let at = Bool.random(using: &rng) ? Point(x: Double.random(in: -20...420, using: &rng), y: Double.random(in: -20...620, using: &rng)) : nil
            return (.wheel(dx: Double.random(in: -300...300, using: &rng), dy: dy, at: at), t)
        }
    }

    static func config(_ rng: inout SplitMix64) -> SessionConfig {
        var c = SessionConfig()
        c.mode = Bool.random(using: &rng) ? .insert : .swap
        c.pressMs = [0, 100, 500].randomElement(using: &rng)!
        c.reducedMotion = Int.random(in: 0..<4, using: &rng) == 0
        c.idleResetMs = Bool.random(using: &rng) ? 0 : 2000
        return c
    }

    static func events(_ rng: inout SplitMix64, board: Board, count: Int) -> [(ClientEvent, Double)] {
        var t = 0.0
        var down: Set<Int> = []
        var out: [(ClientEvent, Double)] = []
        var version = 0
        var edits = 0
        let keys = ["ArrowUp", "ArrowDown", "ArrowLeft", "ArrowRight", " ", "Enter", "Escape", "Tab"]
        func point() -> Point { Point(x: Double.random(in: -20...420, using: &rng), y: Double.random(in: -20...620, using: &rng)) }
        for _ in 0..<count {
            t += [0, 1, 16, 100, 700].randomElement(using: &rng)!
            let p = Int.random(in: 0...2, using: &rng)
            switch Int.random(in: 0..<20, using: &rng) {
            case 0..<3:
                // Clicks with modifiers edit the selection; taps while another pointer drags add to its drag.
                let mods: Modifiers = [[], [], [.ctrl], [.meta], [.shift]].randomElement(using: &rng)!
                if !down.contains(p) { down.insert(p); out.append((.down(pointer: p, at: point(), kind: .touch, mods: mods), t)) }
            case 3..<11:
                out.append((.move(pointer: p, at: point()), t))
            case 11..<13:
                down.remove(p); out.append((.up(pointer: p, at: point()), t))
            case 13:
                down.remove(p); out.append((.cancel(pointer: p), t))
            case 14:
                out.append((.wheel(dx: 0, dy: Double.random(in: -300...300, using: &rng)), t))
            case 15:
                out.append((.resize(Viewport(w: Double.random(in: 100...900, using: &rng), h: Double.random(in: 100...900, using: &rng))), t))
            case 16, 17:
                let key = keys.randomElement(using: &rng)!
                out.append((.key(key, mods: key == " " && Bool.random(using: &rng) ? .shift : []), t))
            case 18 where Int.random(in: 0..<3, using: &rng) == 0:
                // An edit from elsewhere: the board's content changes under the drags.
                let items = board.sections.flatMap(\.items).map(\.id)
                let sections = board.sections.map(\.id)
                edits += 1
                let change: Change
                switch Int.random(in: 0..<6, using: &rng) {
                case 0: change = .addItem(Item(id: "new\(edits)", height: Bool.random(using: &rng) ? 90 : nil),
                                         section: sections.randomElement(using: &rng)!, after: items.randomElement(using: &rng))
                case 1: change = .removeItem(items.randomElement(using: &rng) ?? "none")
                case 2: change = .updateItem(ItemUpdate(id: items.randomElement(using: &rng) ?? "none", label: "L\(edits)",
                                                        height: Bool.random(using: &rng) ? 30 : nil))
                case 3: change = .addSection(id: "sec\(edits)", title: "S", after: Bool.random(using: &rng) ? nil : sections.randomElement(using: &rng))
                case 4: change = .renameSection(id: sections.randomElement(using: &rng)!, title: "T\(edits)")
                default: change = .removeSection(sections.randomElement(using: &rng)!)
                }
                out.append((.external(Commit(board: board.id, version: 0, by: "admin", moves: [], order: [], change: change)), t))
            case 18 where Bool.random(using: &rng):
                // Another session's change, made on whatever the committed order is then.
                let items = board.sections.flatMap(\.items).map(\.id)
                guard let x = items.randomElement(using: &rng), let y = items.randomElement(using: &rng) else { break }
                let change: Change = Bool.random(using: &rng) ? .swap(x, y)
                    : .insert(id: x, section: board.sections.randomElement(using: &rng)!.id,
                              after: Bool.random(using: &rng) ? nil : y, index: Int.random(in: 0...5, using: &rng))
                out.append((.external(Commit(board: board.id, version: 0, by: "other", moves: [], order: [], change: change)), t))
            case 18:
                var order = board.sections.map { SectionOrder(section: $0.id, items: $0.items.map(\.id)) }
                var all = order.flatMap(\.items)
                all.shuffle(using: &rng)
                for k in order.indices {
                    let n = order[k].items.count
                    order[k].items = Array(all.prefix(n)); all.removeFirst(n)
                }
                version += Int.random(in: 1...3, using: &rng)
                out.append((.external(Commit(board: board.id, version: version, by: "other", moves: [], order: order)), t))
            default:
                switch Int.random(in: 0..<4, using: &rng) {
                case 0:
                    // A tap where a cell may be (a drag under way takes it along).
                    guard !down.contains(p) else { break }
                    let at = point()
                    out.append((.down(pointer: p, at: at, kind: .touch), t))
                    out.append((.up(pointer: p, at: at), t + 50))
                    t += 50
                case 1:
                    out.append((.undo, t))
                case 2:
                    // "Move to…" any item, to any section's first or last place, or up or down.
                    let items = board.sections.flatMap(\.items).map(\.id)
                    guard let x = items.randomElement(using: &rng) else { break }
                    out.append((.moveTo(id: x, section: board.sections.randomElement(using: &rng)!.id,
                                        place: [MovePlace.first, .last, .up, .down].randomElement(using: &rng)!), t))
                default:
                    out.append((.ping(id: .int(Int.random(in: 0...9, using: &rng))), t))
                }
            }
        }
        return out
    }

    /// The committed board as the session knows it.
    static func committed(_ s: Session, _ board: Board) -> Board { s.committedBoard ?? board }

    /// Runs a stream to quiescence, checking after every step the session's invariants, that
    /// with no drag in flight the live order is the committed order, and that every commit of
    /// its own is exactly one change on the order before it, with pinned items at their indexes.
    /// `checkFrames`: also that the frames said all the whole differ would (`FrameReference`).
    static func run(board: Board, config: SessionConfig, events: [(ClientEvent, Double)],
                    violations: inout [String], checkFrames: Bool = false) -> [ServerEvent] {
        var s = Session(id: "prop")
        var out = s.handle(.hello(Hello(board: board.id, viewport: Viewport(w: 400, h: 600), config: config)), at: 0) { _ in board }
        var reference = FrameReference()
        if checkFrames { reference.absorb(out) }
        func check(_ o: [ServerEvent], before: Board, after what: String) {
            if checkFrames {
                reference.absorb(o)
                violations += reference.violations(s).map { "\(what): \($0)" }
            }
            var prev = before
            for case .persist(let c) in o {
                guard let change = c.change, let (next, _) = prev.applying(change) else {
                    violations.append("\(what): commit v\(c.version) is not one change on v\(prev.version)"); return
                }
                if next.order != c.order || c.version != prev.version + 1 {
                    violations.append("\(what): commit v\(c.version) differs from its change applied to v\(prev.version)")
                }
                violations += pinnedViolations(from: prev, to: next).map { "\(what): \($0)" }
                violations += ruleViolations(change, from: prev, to: next).map { "\(what): commit v\(c.version): \($0)" }
                prev = next
            }
            let v = s.invariantViolations()
            if !v.isEmpty { violations.append("\(what): \(v)") }
            if !s.isDragging, s.liveOrder != s.committedOrder {
                violations.append("\(what): no drag in flight, live \(s.liveOrder!) != committed \(s.committedOrder!)")
            }
        }
        for (e, t) in events {
            var e = e
            if case .external(let c) = e, c.order.isEmpty, let change = c.change {
                let current = committed(s, board)
                guard let (next, moves) = current.applying(change) else { continue }
                if change.isEdit {
                    // Sent as change only, as the hub sends edits.
                    e = .external(Commit(board: board.id, version: next.version, by: "admin", moves: [], order: [], change: change))
                    let o = s.handle(e, at: t) { _ in board }
                    out += o
                    if case .commit(let got)? = o.last(where: { if case .commit = $0 { true } else { false } }), got.order != next.order {
                        violations.append("after \(e) at \(t): the session's order after the edit differs from the board's")
                    }
                    check(o, before: next, after: "after \(e) at \(t)")
                    if !violations.isEmpty { break }
                    continue
                }
                e = .external(Commit(board: board.id, version: next.version, by: "other", moves: moves, order: next.order, change: change))
            }
            let before = committed(s, board)
            let o = s.handle(e, at: t) { _ in board }
            out += o
            check(o, before: before, after: "after \(e) at \(t)")
            if case .move = e, let still = s.stillPointMoved(repeating: e, at: t) {
                violations.append("after \(e) at \(t): the same point again moved \(still)")
            }
            if !violations.isEmpty { break }
        }
        let before = committed(s, board)
        let (tail, settled) = s.drain(maxSteps: 100_000)
        out += tail
        if !settled { violations.append("timers never settle") }
        check(tail, before: before, after: "settling")
        return out
    }

    /// Rules (issue 23) across one of the session's own commits: no rule broken that the order
    /// before kept (a limit never exceeded), no item lost or doubled (a reorder keeps the same
    /// items; a removal takes exactly its ids; a copy adds exactly its new id).
    static func ruleViolations(_ change: Change, from a: Board, to b: Board) -> [String] {
        var v: [String] = []
        if let why = b.ruleViolation(since: a) { v.append("breaks a rule: \(why)") }
        let before = a.sections.flatMap(\.items).map(\.id), after = b.sections.flatMap(\.items).map(\.id)
        if Set(after).count != after.count { v.append("an item is there twice") }
        var expected = Set(before)
        switch change {
        case .removeItem(let id): expected.remove(id)
        case .batch(let cs) where change.isEdit:
            for c in cs {
                if case .removeItem(let id) = c { expected.remove(id) }
                if case .addItem(let item, _, _, _) = c { expected.insert(item.id) }
            }
        case .copyItem(let id, let new, _, _, _, _):
            expected.insert(new)
            // A tree's copy brings its item's descendants, each under a new id.
            if a.layout == .tree, let (s, i) = a.locate(item: id) {
                let items = a.sections[s].items
                let added = Set(after).subtracting(before).subtracting([new])
                let descendants = TreeOrder.subtreeEnd(from: i, count: items.count, depth: { items[$0].depth }) - i - 1
                if added.count == descendants { expected.formUnion(added) }
            }
        case .addItem(let item, _, _, _): expected.insert(item.id)
        default: break
        }
        if Set(after) != expected { v.append("items lost or added: \(Set(before).symmetricDifference(Set(after)).sorted())") }
        return v
    }

    /// Pinned items keep their indexes across a commit, unless their section became too short.
    static func pinnedViolations(from a: Board, to b: Board) -> [String] {
        var v: [String] = []
        for (sa, sb) in zip(a.sections, b.sections) {
            let pinned = sa.items.enumerated().filter { !$0.element.movable }
            for (j, p) in pinned.enumerated() {
                let want = min(p.offset, sb.items.count - pinned.count + j)
                let got = sb.items.firstIndex { $0.id == p.element.id }
                if got != want { v.append("pinned \(p.element.id) went from \(sa.id)[\(p.offset)] to \(got.map(String.init) ?? "nowhere"), expected \(want)") }
            }
        }
        return v
    }
}

@Suite struct SessionPropertyTests {
    static let trace = false
    @Test func thousandsOfRandomStreamsKeepEveryInvariantAndReplayByteIdentically() {
        var failures: [String] = []
        for seed in 0..<2000 as Range<UInt64> {
            if Self.trace { print("seed", seed) }
            var rng = SplitMix64(seed: seed)
            let board = RandomStreams.board(&rng)
            let config = RandomStreams.config(&rng)
            let events = RandomStreams.events(&rng, board: board, count: 60)
            var violations: [String] = []
            let a = RandomStreams.run(board: board, config: config, events: events, violations: &violations)
            let b = RandomStreams.run(board: board, config: config, events: events, violations: &violations)
            if a != b { failures.append("seed \(seed): two runs differ") }
            failures += violations.map { "seed \(seed): \($0)" }
            failures += Self.protocolViolations(a, board: board).map { "seed \(seed): \($0)" }
            if failures.count > 5 { break }
        }
        #expect(failures.isEmpty, "\(failures.prefix(5))")
    }

    /// Boards with kinds, limits, palettes, trash and handles (issue 23): every invariant, and
    /// no commit of the session breaks a rule, loses or doubles an item.
    @Test func randomStreamsOnBoardsWithRulesKeepEveryRule() {
        var failures: [String] = []
        var commits = 0, refusals = 0, forbidden = 0
        for seed in 0..<1000 as Range<UInt64> {
            var rng = SplitMix64(seed: seed ^ 0x23)
            let board = RandomStreams.ruledBoard(&rng)
            let config = RandomStreams.config(&rng)
            let events = RandomStreams.events(&rng, board: board, count: 80)
            var violations: [String] = []
            let out = RandomStreams.run(board: board, config: config, events: events, violations: &violations)
            for e in out {
                if case .persist = e { commits += 1 }
                if case .error(.ruleRefused, _) = e { refusals += 1 }
                if case .frame(let f) = e, f.snapshots.contains(where: { $0.forbidden == true }) { forbidden += 1 }
            }
            failures += violations.map { "seed \(seed): \($0)" }
            failures += Self.protocolViolations(out, board: board).map { "seed \(seed): \($0)" }
            if failures.count > 5 { break }
        }
        #expect(failures.isEmpty, "\(failures.prefix(5))")
        // The streams reach the rules: drags are refused places and commits land.
        #expect(commits > 100 && forbidden > 10, "commits \(commits), forbidden frames \(forbidden), refusals \(refusals)")
    }

    /// Columns (issue 24): random streams on columns boards, with and without rules, both
    /// modes: every invariant (column offsets clamped to their rows included), every commit one
    /// change, the same point again never moves anything, two runs give the same bytes.
    @Test func randomStreamsOnColumnsBoardsKeepEveryInvariant() {
        var failures: [String] = []
        var commits = 0, crossings = 0
        for seed in 0..<1000 as Range<UInt64> {
            var rng = SplitMix64(seed: seed &+ 240_000)
            let plain = seed % 3 == 0 ? RandomStreams.ruledBoard(&rng) : RandomStreams.board(&rng)
            let board = RandomStreams.asColumns(plain, &rng)
            let config = RandomStreams.config(&rng)
            let events = RandomStreams.columnEvents(&rng, board: board, count: 80)
            var violations: [String] = []
            let a = RandomStreams.run(board: board, config: config, events: events, violations: &violations)
            let b = RandomStreams.run(board: board, config: config, events: events, violations: &violations)
            if a != b { failures.append("seed \(seed): two runs differ") }
            for e in a {
                if case .persist = e { commits += 1 }
                if case .moved(_, _, let from, let to) = e, from.section != to.section { crossings += 1 }
            }
            failures += violations.map { "seed \(seed): \($0)" }
            failures += Self.protocolViolations(a, board: board).map { "seed \(seed): \($0)" }
            if failures.count > 5 { break }
        }
        #expect(failures.isEmpty, "\(failures.prefix(5))")
        // The streams reach the columns: items cross between them and commits land.
        #expect(commits > 100 && crossings > 100, "commits \(commits), crossings \(crossings)")
    }

    /// Timers fire at their own due times whoever asks: a stream with `advance`s inserted at
    /// random times (what a live server's clock does between messages) gives the same output.
    @Test func aStreamSplitByAdvancesAtAnyPointGivesTheSameOutput() {
        var failures: [String] = []
        for seed in 0..<1000 as Range<UInt64> {
            var rng = SplitMix64(seed: seed &+ 50_000)
            let board = RandomStreams.board(&rng)
            let config = RandomStreams.config(&rng)
            let events = RandomStreams.events(&rng, board: board, count: 60)
            var split: [(ClientEvent, Double)] = []
            var last = 0.0
            for (e, t) in events {
                if t > last, Int.random(in: 0..<3, using: &rng) == 0 {
                    split.append((.advance, Double.random(in: last...t, using: &rng)))
                }
                split.append((e, t))
                last = t
            }
            var violations: [String] = []
            let a = RandomStreams.run(board: board, config: config, events: events, violations: &violations)
            let b = RandomStreams.run(board: board, config: config, events: split, violations: &violations)
            if a != b { failures.append("seed \(seed): the split stream's output differs") }
            failures += violations.map { "seed \(seed): \($0)" }
            if failures.count > 5 { break }
        }
        #expect(failures.isEmpty, "\(failures.prefix(5))")
    }

    /// Two pointers on the demo board's shape (a pinned item in the first section), both
    /// modes: no commit ever moves the pinned item (a stream like this one moved it before).
    @Test func twoPointerStreamsNeverMoveAPinnedItem() {
        var failures: [String] = []
        let board = Fixtures.listBoard()
        for seed in 0..<1500 as Range<UInt64> {
            var rng = SplitMix64(seed: seed &+ 90_000)
            var config = SessionConfig()
            config.pressMs = 100
            config.mode = seed % 2 == 0 ? .insert : .swap
            var t = 0.0
            var events: [(ClientEvent, Double)] = []
            var down: Set<Int> = []
            for _ in 0..<40 {
                t += [16, 50, 150].randomElement(using: &rng)!
                let p = Int.random(in: 0...1, using: &rng)
                let at = Point(x: Double.random(in: 0...400, using: &rng), y: Double.random(in: 0...600, using: &rng))
                if !down.contains(p) {
                    down.insert(p); events.append((.down(pointer: p, at: at, kind: .touch), t))
                } else {
                    switch Int.random(in: 0..<10, using: &rng) {
                    case 0: down.remove(p); events.append((.up(pointer: p, at: at), t))
                    case 1: down.remove(p); events.append((.cancel(pointer: p), t))
                    default: events.append((.move(pointer: p, at: at), t))
                    }
                }
            }
            var violations: [String] = []
            _ = RandomStreams.run(board: board, config: config, events: events, violations: &violations)
            failures += violations.map { "seed \(seed): \($0)" }
            if failures.count > 5 { break }
        }
        #expect(failures.isEmpty, "\(failures.prefix(5))")
    }

    /// What the contract promises about any output: contiguous frame seqs, commits that name
    /// every item once with versions that only grow, drops only for lifted items; an item added
    /// to a drag (`added`) is lifted by that drag's pointer and ends with its drop.
    static func protocolViolations(_ out: [ServerEvent], board: Board) -> [String] {
        var v: [String] = []
        var seq = 0, version = 0
        var lifted: Set<String> = []
        var carried: [Int: [String]] = [:]
        var edited = false
        let allItems = Set(board.sections.flatMap { $0.items.map(\.id) })
        for e in out {
            switch e {
            case .frame(let f):
                if f.seq != seq + 1 { v.append("frame seq \(f.seq) after \(seq)") }
                seq = f.seq
            case .commit(let c), .persist(let c):
                if c.version <= version { v.append("commit version \(c.version) after \(version)") }
                version = c.version
                let items = c.order.flatMap(\.items)
                if Set(items).count != items.count { v.append("commit order names an item twice") }
                if c.change?.isEdit == true { edited = true }
                if !edited && (Set(items) != allItems || items.count != allItems.count) { v.append("commit order is not a permutation") }
            case .lift(let p, let id, _, _, let added):
                if added {
                    if carried[p] == nil { v.append("\(id) added to pointer \(p), which drags nothing") }
                    if carried[p, default: []].contains(id) || lifted.contains(id) { v.append("\(id) added twice") }
                    carried[p, default: []].append(id)
                } else {
                    if !lifted.insert(id).inserted { v.append("\(id) lifted twice") }
                    if carried[p] != nil { v.append("pointer \(p) lifted \(id) while it drags") }
                    carried[p] = []
                }
            case .drop(let p, let id, _, _):
                if lifted.remove(id) == nil { v.append("\(id) dropped but not lifted") }
                carried[p] = nil
            default: break
            }
        }
        return v
    }
}
