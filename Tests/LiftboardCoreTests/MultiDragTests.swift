import Testing
@testable import LiftboardCore

/// Several items in one drag (issue 29): UIKit's tap-to-add, Finder's selections, the
/// keyboard, one `group` change, cancel, undo, and the drag's neighbours (edits, other
/// sessions' commits, swap mode). Board: todo a, b (96 tall), c (pinned), d; doing e; done.
@Suite struct MultiDragTests {
    /// Lifts a with pointer 1 (its center y 60) and taps d with pointer 2.
    static func liftAAndTapD(_ d: inout Driver, config: SessionConfig = SessionConfig()) {
        d.send(.down(pointer: 1, at: Point(x: 50, y: 60), kind: .touch), at: 0)
        d.send(.advance, at: 500)
        d.send(.down(pointer: 2, at: Point(x: 50, y: 270), kind: .touch), at: 600)
        d.send(.up(pointer: 2, at: Point(x: 50, y: 270)), at: 650)
    }

    /// A mouse click (down, up 50 ms later) at (50, y), with `mods`.
    static func click(_ d: inout Driver, y: Double, _ mods: Modifiers = [], at t: Double) {
        d.send(.down(pointer: 0, at: Point(x: 50, y: y), kind: .mouse, mods: mods), at: t)
        d.send(.up(pointer: 0, at: Point(x: 50, y: y)), at: t + 50)
    }

    /// The ids that frames marked `selected: value`, in order.
    static func marks(_ out: [ServerEvent], _ value: Bool) -> [String] {
        var ids: [String] = []
        for case .frame(let f) in out { ids += f.cells.filter { $0.selected == value }.map(\.id) }
        return ids
    }

    @Test func aTapWhileDraggingAddsTheItemAndTheDropCommitsOneGroupChange() {
        var d = Driver(Fixtures.listBoard())
        Self.liftAAndTapD(&d)
        let added = d.out.compactMap { if case .lift(1, let id, let from, nil, true) = $0 { (id, from) } else { nil } }
        #expect(added.count == 1 && added[0].0 == "d" && added[0].1 == Place(section: "todo", index: 3))
        // d is out of the live order (the cells close the gap); the snapshot says two items.
        #expect(d.order[0] == ["a", "b", "c"])
        #expect(d.out.contains { if case .frame(let f) = $0 { f.snapshots.contains { $0.p == 1 && $0.count == 2 } && f.gone.contains("d") } else { false } })
        // Down into "doing", after e.
        d.send(.move(pointer: 1, at: Point(x: 50, y: 200)), at: 700)
        d.send(.move(pointer: 1, at: Point(x: 50, y: 330)), at: 800)
        d.send(.up(pointer: 1, at: Point(x: 50, y: 330)), at: 900)
        #expect(d.ownCommits.count == 1)
        let c = d.ownCommits[0]
        #expect(c.change == .group(ids: ["a", "d"], section: "doing", after: "e", index: 1))
        #expect(c.order.map(\.items) == [["b", "c"], ["e", "a", "d"], []])
        #expect(Set(c.moves.map(\.id)) == ["a", "d", "c"])  // c: its section became too short for index 2
        #expect(d.order == c.order.map(\.items))
    }

    @Test func aCancelledGroupCommitsNothingAndSendsEveryItemHome() {
        var d = Driver(Fixtures.listBoard())
        Self.liftAAndTapD(&d)
        d.send(.move(pointer: 1, at: Point(x: 50, y: 330)), at: 800)
        d.send(.cancel(pointer: 1), at: 900)
        #expect(d.commits.isEmpty)
        #expect(d.order == [["a", "b", "c", "d"], ["e"], []])
        // d comes back whole (it had left the window), at its place.
        let last = d.out.compactMap { if case .frame(let f) = $0 { f } else { nil } }.last!
        #expect(last.cells.contains { $0.id == "d" && $0.info?.index == 3 && !$0.hidden })
        #expect(d.announcements.last == "Cancelled. 2 items are back where they were.")
    }

    @Test func undoOfAGroupDropRestoresEveryItemInOneCommit() {
        var d = Driver(Fixtures.listBoard(pinned: false))
        Self.liftAAndTapD(&d)
        d.send(.move(pointer: 1, at: Point(x: 50, y: 330)), at: 800)
        d.send(.up(pointer: 1, at: Point(x: 50, y: 330)), at: 900)
        #expect(d.order == [["b", "c"], ["e", "a", "d"], []])
        d.send(.undo, at: 1000)
        #expect(d.ownCommits.count == 2)
        let undo = d.ownCommits[1]
        guard case .batch(let changes) = undo.change else { Issue.record("undo: \(String(describing: undo.change))"); return }
        #expect(changes.count == 2)
        #expect(undo.order.map(\.items) == [["a", "b", "c", "d"], ["e"], []])
        #expect(Set(undo.moves.map(\.id)) == ["a", "d"])
        #expect(undo.moves.first { $0.id == "d" }?.from == Place(section: "doing", index: 2))
    }

    @Test func ctrlAndMetaClicksSelectAndALiftCarriesTheSelectionInCommittedOrder() {
        var d = Driver(Fixtures.listBoard())
        // Meta-click d, Ctrl-click a (the server treats them alike), with a mouse.
        Self.click(&d, y: 270, .meta, at: 0)
        Self.click(&d, y: 60, .ctrl, at: 100)
        let marked = Self.marks(d.out, true)
        #expect(marked == ["d", "a"])
        // A long press on d (selected) lifts d, carrying a: the group is in committed order.
        d.send(.down(pointer: 0, at: Point(x: 50, y: 270), kind: .mouse), at: 200)
        d.send(.advance, at: 700)
        d.send(.move(pointer: 0, at: Point(x: 50, y: 450)), at: 800)
        d.send(.up(pointer: 0, at: Point(x: 50, y: 450)), at: 900)
        #expect(d.ownCommits.map(\.change) == [.group(ids: ["a", "d"], section: "done", after: nil, index: 0)])
        #expect(d.order == [["b", "c"], ["e"], ["a", "d"]])
    }

    @Test func aPlainClickClearsTheSelectionAndLiftingAnUnselectedCellLiftsItAlone() {
        var d = Driver(Fixtures.listBoard())
        Self.click(&d, y: 60, .ctrl, at: 0)
        Self.click(&d, y: 350, at: 100)
        let cleared = Self.marks(d.out, false)
        #expect(cleared == ["a"])
        // Select a again, then lift e (not selected): e alone, and a leaves the selection.
        Self.click(&d, y: 60, .ctrl, at: 200)
        d.send(.down(pointer: 1, at: Point(x: 50, y: 350), kind: .touch), at: 300)
        d.send(.advance, at: 800)
        #expect(!d.out.contains { if case .lift(_, _, _, _, true) = $0 { true } else { false } })
        #expect(d.session.invariantViolations().isEmpty)
        d.send(.up(pointer: 1, at: Point(x: 50, y: 350)), at: 900)
        #expect(d.commits.isEmpty)
    }

    @Test func aShiftClickSelectsTheRangeFromTheAnchorWithinTheSectionLeavingPinnedItemsOut() {
        var d = Driver(Fixtures.listBoard())
        Self.click(&d, y: 60, .ctrl, at: 0)
        Self.click(&d, y: 270, .shift, at: 100)
        let marked = Set(Self.marks(d.out, true))
        #expect(marked == ["a", "b", "d"])
        // In another section there is no anchor: only that cell.
        Self.click(&d, y: 350, .shift, at: 200)
        let now = Set(Self.marks(d.out, true))
        #expect(now == ["a", "b", "d", "e"])
    }

    @Test func shiftSpaceSelectsWithTheKeyboardAndSpaceLiftsTheGroupWithItsCount() {
        var d = Driver(Fixtures.listBoard())
        d.send(.key("Tab"), at: 0)                      // focus a
        d.send(.key(" ", mods: .shift), at: 10)         // select a
        d.send(.key("ArrowDown"), at: 20)               // b
        d.send(.key(" ", mods: .shift), at: 30)         // select b
        d.send(.key(" "), at: 40)                       // lift b with a
        #expect(d.announcements.last?.hasPrefix("2 items lifted with b") == true)
        d.send(.key("ArrowDown"), at: 50)
        d.send(.key("ArrowDown"), at: 60)
        d.send(.key(" "), at: 70)
        #expect(d.announcements.last == "2 items moved to Doing, position 1.")
        #expect(d.order == [["d", "c"], ["a", "b", "e"], []])  // c: the last index of the shorter section
        guard case .group(let ids, _, _, _)? = d.ownCommits.last?.change else { Issue.record("no group commit"); return }
        #expect(ids == ["a", "b"])
    }

    @Test func inSwapModeTapsAndSelectionsLiftNothingMore() {
        var config = SessionConfig()
        config.mode = .swap
        var d = Driver(Fixtures.listBoard(), config: config)
        Self.liftAAndTapD(&d)
        #expect(!d.out.contains { if case .lift(_, _, _, _, true) = $0 { true } else { false } })
        #expect(d.order == [["a", "b", "c", "d"], ["e"], []])
    }

    @Test func anEditThatRemovesACarriedItemLeavesTheRestOfTheGroupDragging() {
        var d = Driver(Fixtures.listBoard())
        Self.liftAAndTapD(&d)
        d.send(.external(Commit(board: "demo", version: 1, by: "admin", moves: [], order: [], change: .removeItem("d"))), at: 700)
        d.send(.move(pointer: 1, at: Point(x: 50, y: 330)), at: 800)
        d.send(.up(pointer: 1, at: Point(x: 50, y: 330)), at: 900)
        // A group of one is an insert.
        #expect(d.ownCommits.last?.change == .insert(id: "a", section: "doing", after: "e", index: 1))
    }

    @Test func anotherSessionsCommitMidGroupKeepsTheCarriedItemsOut() {
        var d = Driver(Fixtures.listBoard())
        Self.liftAAndTapD(&d)
        d.send(.external(Commit(board: "demo", version: 1, by: "other", moves: [], order: [
            SectionOrder(section: "todo", items: ["a", "b", "c"]), SectionOrder(section: "doing", items: ["d", "e"]),
            SectionOrder(section: "done", items: []),
        ], change: .insert(id: "d", section: "doing", after: nil, index: 0))), at: 700)
        #expect(d.order == [["a", "b", "c"], ["e"], []])
        d.send(.move(pointer: 1, at: Point(x: 50, y: 450)), at: 800)
        d.send(.up(pointer: 1, at: Point(x: 50, y: 450)), at: 900)
        #expect(d.ownCommits.last?.change == .group(ids: ["a", "d"], section: "done", after: nil, index: 0))
        #expect(d.order == [["b", "c"], ["e"], ["a", "d"]])
    }

    @Test func boardsApplyGroupsAndBatchesByTheSameRule() {
        var board = Fixtures.listBoard()
        let change = Change.group(ids: ["d", "a"], section: "doing", after: "e", index: 0)
        guard let (next, moves) = board.applying(change) else { Issue.record("no change"); return }
        #expect(next.order.map(\.items) == [["b", "c"], ["e", "d", "a"], []])
        #expect(moves.map(\.id) == ["d", "a", "c"])
        guard let revert = board.revert(of: change), let (back, _) = next.applying(revert) else { Issue.record("no revert"); return }
        // The pinned c was pushed to the shorter section's end, and keeps its new index, as after any change.
        #expect(back.order.map(\.items)[1] == ["e"])
        #expect(Set(back.order.map(\.items)[0]) == ["a", "b", "c", "d"])
        // An `after` that is one of the group counts as absent: the index places them.
        board = Fixtures.listBoard(pinned: false)
        #expect(board.applying(.group(ids: ["a", "b"], section: "todo", after: "a", index: 2))?.board.order.map(\.items)[0] == ["c", "d", "a", "b"])
    }
}
