@testable import LiftboardCore
import Testing

/// `events: "inline"` is a pure rewrite of each step's messages: the same information in
/// fewer messages, in the contract's order.
struct InlineEventsTests {
    /// Each step of a long-press drag past b's midpoint, then a release, then the timers.
    static func dragSteps(board: Board = Fixtures.listBoard(), to: Point = Point(x: 50, y: 140)) -> [[ServerEvent]] {
        var d = Driver(board)
        var steps: [[ServerEvent]] = []
        let from = Point(x: 50, y: 60)
        steps.append(d.send(.down(pointer: 1, at: from, kind: .touch), at: 100))
        steps.append(d.send(.move(pointer: 1, at: from), at: 700))
        for k in 1...10 {
            let f = Double(k) / 10
            steps.append(d.send(.move(pointer: 1, at: Point(x: 50, y: from.y + (to.y - from.y) * f)), at: 700 + 16 * Double(k)))
        }
        steps.append(d.send(.up(pointer: 1, at: to), at: 900))
        steps.append(d.settle())
        return steps
    }

    /// Takes the events back out of the frames, as a client that reads `events` first does.
    static func flattened(_ step: [ServerEvent]) -> [ServerEvent] {
        step.flatMap { e -> [ServerEvent] in
            guard case .frame(var f) = e, !f.events.isEmpty else { return [e] }
            let events = f.events
            f.events = []
            return events + [.frame(f)]
        }
    }

    static func isGestureEvent(_ e: ServerEvent) -> Bool {
        switch e {
        case .lift, .moved, .drop: true
        default: false
        }
    }

    @Test func everyStepOfADragSaysTheSameWithItsEventsInsideTheFrame() {
        let steps = Self.dragSteps()
        #expect(steps.joined().contains { if case .persist = $0 { true } else { false } })
        for step in steps {
            let inline = step.inliningEvents()
            #expect(Self.flattened(inline) == step)
            if step.contains(where: { if case .frame = $0 { true } else { false } }) {
                #expect(!inline.contains(where: Self.isGestureEvent), "\(step)")
            }
        }
    }

    @Test func theLiftEachMovedAndTheDropRideInFramesAndTheCommitFollowsTheDropsFrame() {
        let inline = Self.dragSteps().flatMap { $0.inliningEvents() }
        let riding = inline.flatMap { e -> [ServerEvent] in if case .frame(let f) = e { f.events } else { [] } }
        #expect(riding.filter { if case .lift = $0 { true } else { false } }.count == 1)
        #expect(riding.contains { if case .moved(_, "a", _, _) = $0 { true } else { false } })
        #expect(riding.filter { if case .drop = $0 { true } else { false } }.count == 1)
        let dropFrame = inline.firstIndex { if case .frame(let f) = $0 { f.events.contains { if case .drop = $0 { true } else { false } } } else { false } }
        let commit = inline.firstIndex { if case .persist = $0 { true } else { false } }
        #expect(dropFrame != nil && commit != nil && dropFrame! < commit!)
    }

    @Test func anEventWithNoFrameAfterItStaysAMessageInItsPlace() {
        let lift = ServerEvent.lift(p: 1, id: "a", from: Place(section: "todo", index: 0))
        let announce = ServerEvent.announce("Lifted a")
        #expect([lift, announce].inliningEvents() == [lift, announce])
        #expect([lift].inliningEvents() == [lift])
    }

    /// Two updates of one snapshot merged (frames coalesced for a slow reader, or one step's
    /// updates): every key of the later one wins, a tree lift's `subtree` ("+N") with the rest.
    @Test func aMergedSnapshotUpdateKeepsEveryKeyOfTheLaterOne() {
        let first = SnapshotUpdate(p: 1, id: "a", center: Point(x: 1, y: 2), scale: 1.05, alpha: 0.9)
        let later = SnapshotUpdate(p: 1, id: "a", center: Point(x: 3, y: 4), count: 2, forbidden: true, subtree: 3)
        let m = first.merging(later)
        #expect(m.center == Point(x: 3, y: 4) && m.scale == 1.05 && m.alpha == 0.9)
        #expect(m.count == 2 && m.forbidden == true && m.subtree == 3)
        #expect(later.merging(first).subtree == 3, "a key the later update lacks stays")
    }

    @Test func mergedFramesKeepEveryEventInOrder() {
        let a = FrameMessage(seq: 1, ms: 10)
        var b = FrameMessage(seq: 2, ms: 20)
        var first = a
        first.events = [.lift(p: 1, id: "a", from: Place(section: "todo", index: 0))]
        b.events = [.moved(p: 1, id: "a", from: Place(section: "todo", index: 0), to: Place(section: "todo", index: 1))]
        #expect(first.merged(with: b).events == first.events + b.events)
    }

    /// With `events: "inline"` the engine puts the events in its frames itself; the output is
    /// what the driver's `inliningEvents()` makes of the separate form, on random streams, and
    /// `inliningEvents()` then finds nothing left to move.
    @Test func inlineSessionsAnswerWhatInliningTheSeparateOutputGives() {
        var failures: [String] = []
        for seed in 0..<800 as Range<UInt64> {
            var rng = SplitMix64(seed: seed &+ 70_000)
            let board = RandomStreams.board(&rng)
            var config = RandomStreams.config(&rng)
            let events = RandomStreams.events(&rng, board: board, count: 60)
            var violations: [String] = []
            config.events = .separate
            let separate = RandomStreams.run(board: board, config: config, events: events, violations: &violations)
            config.events = .inline
            let inline = RandomStreams.run(board: board, config: config, events: events, violations: &violations)
            // The welcome says which mode is in force; the rest must agree.
            let expected = Array(separate.dropFirst()).inliningEvents()
            let got = Array(inline.dropFirst())
            if got != expected { failures.append("seed \(seed): \(got.count) messages against \(expected.count) expected") }
            if got.inliningEvents() != got { failures.append("seed \(seed): events left outside frames") }
            failures += violations.map { "seed \(seed): \($0)" }
            if failures.count > 3 { break }
        }
        #expect(failures.isEmpty, "\(failures.prefix(3))")
    }
}

/// A slow reader's merged frame keeps a tree row's changes (docs/protocol.md, "Trees"): the
/// reader reaches the picture the frames one by one give.
@Suite struct MergedTreeFramesTests {
    static let r = Rect(x: 0, y: 0, w: 100, h: 44)
    static func update(_ tree: TreeChange? = nil, info: CellInfo? = nil, y: Double = 0) -> CellUpdate {
        var u = CellUpdate(id: "b", frame: Rect(x: 0, y: y, w: 100, h: 44), hidden: false, dur: 0.2, ease: .easeInOut, info: info)
        u.tree = tree
        return u
    }
    static func frame(_ seq: Int, _ cells: [CellUpdate]) -> FrameMessage {
        var f = FrameMessage(seq: seq, ms: Double(seq) * 16)
        f.cells = cells
        return f
    }

    @Test func aDepthChangeSurvivesALaterFrameThatOnlyMovesTheRow() {
        var t = TreeChange(); t.depth = 2; t.parent = .some("a")
        let merged = Self.frame(1, [Self.update(t)]).merged(with: Self.frame(2, [Self.update(y: 44)]))
        #expect(merged.cells.count == 1)
        #expect(merged.cells[0].frame.y == 44)
        #expect(merged.cells[0].tree?.depth == 2 && merged.cells[0].tree?.parent == .some("a"))
    }

    @Test func twoChangesOfOneRowFollowEachOtherKeyByKey() {
        var t1 = TreeChange(); t1.depth = 2; t1.collapsed = true
        var t2 = TreeChange(); t2.depth = 1; t2.parent = .some(nil)
        let merged = Self.frame(1, [Self.update(t1)]).merged(with: Self.frame(2, [Self.update(t2)]))
        let t = merged.cells[0].tree
        #expect(t?.depth == 1 && t?.collapsed == true && t?.parent == .some(nil) && t?.hasChildren == nil)
    }

    @Test func aChangeAfterWholeFactsLandsInTheFactsAndIsNotSentTwice() {
        var info = CellInfo(id: "b", label: "B", color: "#fff", section: "s", index: 1, movable: true, frame: Self.r)
        info.tree = TreeFacts(depth: 0, parent: nil, hasChildren: false, collapsed: false)
        var t = TreeChange(); t.depth = 1; t.parent = .some("a")
        let merged = Self.frame(1, [Self.update(info: info)]).merged(with: Self.frame(2, [Self.update(t, y: 44)]))
        #expect(merged.cells[0].tree == nil)
        #expect(merged.cells[0].info?.tree == TreeFacts(depth: 1, parent: "a", hasChildren: false, collapsed: false))
        #expect(merged.cells[0].frame.y == 44)
    }
}
