import Testing
@testable import LiftboardCore

/// A commit from elsewhere is applied where it changed the order (the sections it touched),
/// not by rebuilding the whole live arrangement (issue 28): on random streams with drags in
/// flight, a session doing that answers byte for byte what a session doing the whole rebuild
/// answers, and ends every step in the same state.
@Suite struct ExternalInPlaceTests {
    /// `RandomStreams.events` with many more changes from elsewhere: inserts, swaps, groups and
    /// batches of them, each made on whatever the committed order is when it arrives (the
    /// runner gives it its version), half of them sent without their order.
    static func events(_ rng: inout SplitMix64, board: Board, count: Int) -> [(ClientEvent, Double)] {
        let stream = RandomStreams.events(&rng, board: board, count: count)
        let items = board.sections.flatMap(\.items).map(\.id)
        let sections = board.sections.map(\.id)
        guard !items.isEmpty else { return stream }
        func change() -> Change {
            let x = items.randomElement(using: &rng)!, y = items.randomElement(using: &rng)!
            switch Int.random(in: 0..<8, using: &rng) {
            case 0..<4:
                return .insert(id: x, section: sections.randomElement(using: &rng)!, after: Bool.random(using: &rng) ? nil : y,
                               index: Int.random(in: 0...6, using: &rng))
            case 4, 5:
                return .swap(x, y)
            case 6:
                let ids = (0..<Int.random(in: 1...3, using: &rng)).map { _ in items.randomElement(using: &rng)! }
                return .group(ids: ids, section: sections.randomElement(using: &rng)!, after: Bool.random(using: &rng) ? nil : y,
                              index: Int.random(in: 0...6, using: &rng))
            default:
                return .batch([.insert(id: x, section: sections.randomElement(using: &rng)!, after: nil, index: 0), .swap(y, x)])
            }
        }
        var out: [(ClientEvent, Double)] = []
        for (e, t) in stream {
            out.append((e, t))
            if Int.random(in: 0..<4, using: &rng) == 0 {
                let byOrder = Bool.random(using: &rng)
                // Version 0: the runner makes it the next version on the committed order.
                out.append((.external(Commit(board: board.id, version: 0, by: byOrder ? "order" : "other", moves: [], order: [],
                                             change: change())), t))
            }
        }
        return out
    }

    struct Tally {
        var failures: [String] = []
        /// Changes from elsewhere that moved something while a drag was in flight.
        var midDrag = 0
        /// Of those, the ones the in-place session shifted into its live order
        /// (`LiveSession.shiftLive`) rather than remade the sections of.
        var shifted = 0
    }

    /// Steps two sessions in lockstep, one of them doing the whole rebuild, and compares their
    /// answers and states after every event.
    static func lockstep(board: Board, config: SessionConfig, events: [(ClientEvent, Double)], seed: UInt64, into tally: inout Tally) {
        var a = Session(id: "in-place"), b = Session(id: "in-place")
        let hello = ClientEvent.hello(Hello(board: board.id, viewport: Viewport(w: 400, h: 600), config: config))
        _ = a.handle(hello, at: 0) { _ in board }
        _ = b.handle(hello, at: 0) { _ in board }
        for (k, (e, t)) in events.enumerated() {
            var e = e
            if case .external(let c) = e, c.version == 0, let change = c.change {
                // Made on the committed order as it is now; sent with or without the order.
                let current = a.committedBoard ?? board
                guard let (next, moves) = current.applying(change) else { continue }
                let withOrder = !change.isEdit && c.by == "order"
                e = .external(Commit(board: board.id, version: next.version, by: "other", moves: moves,
                                     order: withOrder ? next.order : [], change: change))
                if a.isDragging && !change.isEdit && next.order != current.order { tally.midDrag += 1 }
            }
            let liveBefore = a.liveOrder?.map(\.items), baseBefore = a.committedOrder?.map(\.items)
            let oa: [ServerEvent], ob: [ServerEvent]
            if case .external(let c) = e {
                // `a` as the planner chooses, `b` by the whole rebuild: the reference.
                let dragging = a.isDragging
                let plan: ExternalPlan
                (oa, plan) = a.applyExternal(c, at: t)
                ob = b.applyExternal(c, at: t, wholeRebuild: true).events
                if plan == .shift && dragging { tally.shifted += 1 }
            } else {
                oa = a.handle(e, at: t) { _ in board }
                ob = b.handle(e, at: t) { _ in board }
            }
            var why: String? = nil
            if oa != ob {
                let i = oa.indices.first { $0 >= ob.count || oa[$0] != ob[$0] } ?? ob.count
                if i < oa.count, i < ob.count, case .frame(let fa) = oa[i], case .frame(let fb) = ob[i] {
                    why = "live \(a.liveOrder!.map(\.items)) against \(b.liveOrder!.map(\.items)); base \(a.committedOrder!.map(\.items)); frame \(i) differs: cells \(fa.cells.map(\.id)) against \(fb.cells.map(\.id)), gone \(fa.gone) against \(fb.gone)"
                } else {
                    why = "answer \(i) differs: \(i < oa.count ? "\(oa[i])" : "none") against \(i < ob.count ? "\(ob[i])" : "none")"
                }
            } else if a.liveOrder != b.liveOrder {
                why = "live orders differ: \(a.liveOrder!) against \(b.liveOrder!)"
            } else if a.committedOrder != b.committedOrder {
                why = "committed orders differ"
            } else if case let v = a.invariantViolations(), !v.isEmpty {
                why = "invariants: \(v)"
            }
            if let why {
                tally.failures.append("seed \(seed), event \(k) \(e) at \(t): \(why) [before: live \(liveBefore ?? []) base \(baseBefore ?? []); after: live \(a.liveOrder!.map(\.items)) against \(b.liveOrder!.map(\.items))]")
                return
            }
        }
        let (ta, _) = a.drain(maxSteps: 100_000), (tb, _) = b.drain(maxSteps: 100_000)
        if ta != tb { tally.failures.append("seed \(seed): the drained timers differ") }
    }

    @Test func externalChangesAppliedInPlaceEqualTheWholeRebuildOnRandomStreams() {
        var tally = Tally()
        for seed in 0..<1500 as Range<UInt64> {
            var rng = SplitMix64(seed: seed &+ 2_800_000)
            let board = RandomStreams.board(&rng)
            let config = RandomStreams.config(&rng)
            let events = Self.events(&rng, board: board, count: 80)
            Self.lockstep(board: board, config: config, events: events, seed: seed, into: &tally)
            if tally.failures.count > 3 { break }
        }
        #expect(tally.failures.isEmpty, "\(tally.failures.prefix(3))")
        // The streams reach the case: changes from elsewhere that move items under drags.
        #expect(tally.midDrag > 500, "\(tally.midDrag) changes from elsewhere mid-drag")
        #expect(tally.shifted > 100, "\(tally.shifted) of them shifted in place")
    }

    /// Boards with rules (refusals follow the committed order) and columns boards.
    @Test func externalChangesAppliedInPlaceEqualTheWholeRebuildOnRuledAndColumnsBoards() {
        var tally = Tally()
        for seed in 0..<1200 as Range<UInt64> {
            var rng = SplitMix64(seed: seed &+ 2_810_000)
            let ruled = seed % 2 == 0 ? RandomStreams.ruledBoard(&rng) : RandomStreams.board(&rng)
            let board = seed % 3 == 0 ? RandomStreams.asColumns(ruled, &rng) : ruled
            let config = RandomStreams.config(&rng)
            let events = seed % 3 == 0 ? RandomStreams.columnEvents(&rng, board: board, count: 80) : Self.events(&rng, board: board, count: 80)
            Self.lockstep(board: board, config: config, events: seed % 3 == 0 ? Self.withChanges(events, board: board, &rng) : events,
                          seed: seed, into: &tally)
            if tally.failures.count > 3 { break }
        }
        #expect(tally.failures.isEmpty, "\(tally.failures.prefix(3))")
        #expect(tally.midDrag > 300, "\(tally.midDrag) changes from elsewhere mid-drag")
        #expect(tally.shifted > 50, "\(tally.shifted) of them shifted in place")
    }

    /// Columns streams get their changes from elsewhere the same way.
    static func withChanges(_ stream: [(ClientEvent, Double)], board: Board, _ rng: inout SplitMix64) -> [(ClientEvent, Double)] {
        let items = board.sections.flatMap(\.items).map(\.id), sections = board.sections.map(\.id)
        guard !items.isEmpty else { return stream }
        var out: [(ClientEvent, Double)] = []
        for (e, t) in stream {
            out.append((e, t))
            guard Int.random(in: 0..<4, using: &rng) == 0 else { continue }
            let change: Change = Bool.random(using: &rng)
                ? .insert(id: items.randomElement(using: &rng)!, section: sections.randomElement(using: &rng)!,
                          after: Bool.random(using: &rng) ? nil : items.randomElement(using: &rng)!, index: Int.random(in: 0...6, using: &rng))
                : .swap(items.randomElement(using: &rng)!, items.randomElement(using: &rng)!)
            out.append((.external(Commit(board: board.id, version: 0, by: Bool.random(using: &rng) ? "order" : "other", moves: [],
                                         order: [], change: change)), t))
        }
        return out
    }

    /// A long board, many drags: a change far from every drag leaves the live order of the
    /// sections it did not touch as it was (shared with the committed order's storage), and
    /// the drags keep their places.
    @Test func aChangeElsewhereLeavesTheDragsWhereTheyAre() {
        let board = Board(id: "b", layout: .list, sections: (0..<4).map { s in
            Section(id: "s\(s)", items: (0..<50).map { Item(id: "i\(s)-\($0)") })
        })
        var a = Session(id: "a")
        _ = a.handle(.hello(Hello(board: "b", viewport: Viewport(w: 400, h: 600), config: SessionConfig())), at: 0) { _ in board }
        // Lift the second row and drag it down past three rows.
        _ = a.handle(.down(pointer: 1, at: Point(x: 100, y: 100), kind: .touch), at: 0)
        _ = a.handle(.move(pointer: 1, at: Point(x: 100, y: 110)), at: 600)
        _ = a.handle(.move(pointer: 1, at: Point(x: 100, y: 290)), at: 700)
        let live = a.liveOrder!
        let dragged = live[0].items.firstIndex(of: "i0-1")!
        #expect(dragged > 1, "the drag moved its item")
        // Another session moves an item of the last section.
        let change = Change.insert(id: "i3-40", section: "s3", after: "i3-2", index: 3)
        let (next, moves) = board.applying(change)!
        let out = a.handle(.external(Commit(board: "b", version: next.version, by: "other", moves: moves, order: [], change: change)), at: 800)
        #expect(out.contains { if case .commit(let c) = $0 { c.order == next.order } else { false } })
        #expect(!out.contains { if case .moved = $0 { true } else { false } }, "the drag did not move")
        let after = a.liveOrder!
        #expect(after[0] == live[0] && after[1] == live[1] && after[2] == live[2])
        #expect(after[3].items == next.order[3].items)
        #expect(a.committedOrder == next.order)
        #expect(a.invariantViolations().isEmpty)
    }
}

/// `LiveSession.shiftLive`: an insert from elsewhere within a section where drags are in
/// flight is shifted into the live order over the places between, the drags' items held
/// where they are, and answers what the whole rebuild answers.
@Suite struct ShiftLiveTests {
    @Test func insertsAcrossTheDragsLivePlacesAndHomesAnswerWhatTheWholeRebuildAnswers() {
        let board = Board(id: "b", layout: .list, sections: [
            Section(id: "s0", items: (0..<60).map { Item(id: "i\($0)", height: $0 % 4 == 0 ? 70 : nil) }),
            Section(id: "s1", items: (0..<5).map { Item(id: "j\($0)") }),
        ])
        var total = ExternalInPlaceTests.Tally()
        for seed in 0..<40 as Range<UInt64> {
            var rng = SplitMix64(seed: seed &+ 2_820_000)
            // One finger (even seeds) or two (odd: the step then settles both drags) lift rows
            // near the top and carry them down, past several rows each.
            let fingers = 1 + Int(seed % 2)
            var events: [(ClientEvent, Double)] = []
            for p in 1...fingers {
                let y = p == 1 ? 100.0 : 250.0
                events += [(.down(pointer: p, at: Point(x: 100, y: y), kind: .touch), 0),
                           (.move(pointer: p, at: Point(x: 100, y: y + 4)), 600),
                           (.move(pointer: p, at: Point(x: 100, y: y + Double(Int.random(in: 100...500, using: &rng)))), 700)]
            }
            var t = 700.0
            for _ in 0..<40 {
                // Rows of the dragged section moved a few places either way, across the
                // drags' live places and their committed ones; now and then a finger moves.
                let x = Int.random(in: 0..<60, using: &rng), d = Int.random(in: -12...12, using: &rng)
                let after = x + d
                t += 16
                let change = Change.insert(id: "i\(x)", section: "s0", after: after < 0 || after >= 60 || d == 0 ? nil : "i\(after)",
                                           index: max(0, min(59, after)))
                events.append((.external(Commit(board: "b", version: 0, by: "other", moves: [], order: [], change: change)), t))
                if Int.random(in: 0..<5, using: &rng) == 0 {
                    events.append((.move(pointer: Int.random(in: 1...fingers, using: &rng), at: Point(x: 100, y: Double(Int.random(in: 60...900, using: &rng)))), t))
                }
            }
            var tally = ExternalInPlaceTests.Tally()
            ExternalInPlaceTests.lockstep(board: board, config: SessionConfig(), events: events, seed: seed, into: &tally)
            total.failures += tally.failures
            total.midDrag += tally.midDrag
            total.shifted += tally.shifted
        }
        #expect(total.failures.isEmpty, "\(total.failures.prefix(2))")
        // Nearly every change moved something under the two drags, and was shifted in place.
        #expect(total.midDrag > 1_000, "\(total.midDrag) changes mid-drag")
        #expect(total.shifted * 10 > total.midDrag * 9, "\(total.shifted) of \(total.midDrag) shifted in place")
    }

    /// With no drag in flight the live section is shifted in place as the committed one is
    /// changed in place: each keeps its own storage, so no commit's write copies a section.
    /// (Taking the committed section's storage made the next commit's write to it copy the
    /// whole section, for every idle session on every commit.)
    @Test func withoutADragNoCommitCopiesASection() {
        let board = Board(id: "b", layout: .list, sections: [Section(id: "s0", items: (0..<60).map { Item(id: "i\($0)") })])
        var a = Session(id: "a")
        _ = a.handle(.hello(Hello(board: "b", viewport: Viewport(w: 400, h: 600), config: SessionConfig())), at: 0) { _ in board }
        var current = board
        var storage: (live: UnsafePointer<Int>?, committed: UnsafePointer<Int>?)?
        for (k, (x, after)) in [(3, 20), (40, 2), (7, 8), (12, 50)].enumerated() {
            let change = Change.insert(id: "i\(x)", section: "s0", after: "i\(after)", index: 0)
            guard let (next, moves) = current.applying(change) else { Issue.record("the change applies"); return }
            current = next
            _ = a.handle(.external(Commit(board: "b", version: next.version, by: "other", moves: moves, order: [], change: change)),
                         at: Double(100 * (k + 1)))
            #expect(a.liveOrder == next.order && a.committedOrder == next.order)
            let s = a.liveBox!.session
            let now = (live: s.arr.members[0].withUnsafeBufferPointer { $0.baseAddress },
                       committed: s.base[0].withUnsafeBufferPointer { $0.baseAddress })
            #expect(now.live != now.committed, "the live and the committed section each their own")
            if let was = storage {
                #expect(now.live == was.live && now.committed == was.committed, "commit \(k + 1): both sections written in place")
            }
            storage = now
            #expect(s.invariantViolations().isEmpty)
        }
    }

    /// The arrangement's shift: the item passes over the places not held, in either direction.
    @Test func theShiftPassesOverThePlacesNotHeld() {
        let board = Board(id: "b", layout: .list, sections: [Section(id: "s", items: (0..<8).map { Item(id: "i\($0)") })])
        var arr = Arrangement(board: board, width: 400)
        arr.clearChanges()
        arr.shift(section: 0, from: 1, over: 3, holding: [2, 4])
        #expect(arr.members[0] == [0, 3, 2, 5, 4, 6, 1, 7])
        #expect(arr.changes.section == 0 && arr.changes.lo == 1 && arr.changes.hi == 6 && !arr.changes.wide)
        arr.shift(section: 0, from: 6, over: -3, holding: [2, 4])
        #expect(arr.members[0] == [0, 1, 2, 3, 4, 5, 6, 7])
        #expect(arr.invariantViolations().isEmpty)
    }
}
