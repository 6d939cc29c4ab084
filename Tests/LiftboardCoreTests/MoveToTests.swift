import Testing
@testable import LiftboardCore

/// "Move to…" (`moveTo`, issue 25): the single-pointer alternative to a drag commits what a drag
/// to that place would, announces where the item went, and refuses what it cannot do.
/// Board: todo a, b (96 tall), c (pinned), d; doing e; done (empty).
@Suite struct MoveToTests {
    @Test func moveToTheEndOfAnotherSectionCommitsTheInsertADragThereWould() {
        var d = Driver(Fixtures.listBoard())
        d.send(.moveTo(id: "a", section: "doing", place: .last), at: 10)
        #expect(d.ownCommits.map(\.change) == [.insert(id: "a", section: "doing", after: "e", index: 1)])
        #expect(d.order == [["b", "d", "c"], ["e", "a"], []])  // c: the last index of the shorter section
        #expect(d.announcements.last == "a moved to Doing, position 2 of 2.")
        // Into an empty section, first or last alike.
        d.send(.moveTo(id: "e", section: "done", place: .first), at: 20)
        #expect(d.order[2] == ["e"])
    }

    @Test func upAndDownHopPinnedItemsWithinTheSectionAndStopAtItsEnds() {
        var d = Driver(Fixtures.listBoard())
        d.send(.moveTo(id: "d", section: "todo", place: .up), at: 10)
        #expect(d.order[0] == ["a", "d", "c", "b"])
        d.send(.moveTo(id: "a", section: "todo", place: .down), at: 20)
        #expect(d.order[0] == ["d", "a", "c", "b"])
        d.send(.moveTo(id: "d", section: "todo", place: .up), at: 30)
        #expect(d.errors.last == .cannotMove)
        d.send(.moveTo(id: "b", section: "todo", place: .down), at: 40)
        #expect(d.errors.count == 2 && d.errors.last == .cannotMove)
        #expect(d.ownCommits.count == 2)
        // Undo takes a "Move to…" back like a drop.
        d.send(.undo, at: 50)
        #expect(d.order[0] == ["a", "d", "c", "b"])
        #expect(d.ownCommits.count == 3)
    }

    @Test func pinnedHeldUnknownOrMisplacedItemsAreRefusedWithCannotMove() {
        var d = Driver(Fixtures.listBoard())
        d.send(.moveTo(id: "c", section: "done", place: .first), at: 10)
        d.send(.moveTo(id: "zz", section: "done", place: .first), at: 20)
        d.send(.moveTo(id: "a", section: "nope", place: .first), at: 30)
        d.send(.moveTo(id: "a", section: "doing", place: .up), at: 40)
        d.send(.moveTo(id: "a", section: "todo", place: .first), at: 50)  // there already
        // Lifted by a pointer: not movable by the menu meanwhile.
        d.send(.down(pointer: 1, at: Point(x: 50, y: 60), kind: .touch), at: 60)
        d.send(.advance, at: 600)
        d.send(.moveTo(id: "a", section: "done", place: .first), at: 700)
        #expect(d.errors == Array(repeating: .cannotMove, count: 6))
        #expect(d.commits.isEmpty)
    }
}

@Suite struct SecondaryButtonTests {
    @Test func aSecondaryButtonLongPressLiftsNothingAndItsClickLeavesTheSelection() {
        var d = Driver(Fixtures.listBoard())
        d.send(.down(pointer: 0, at: Point(x: 50, y: 60), kind: .mouse, mods: .ctrl), at: 0)
        d.send(.up(pointer: 0, at: Point(x: 50, y: 60)), at: 50)
        // The right button held on a: no lift, no pan, and its up is no click.
        d.send(.down(pointer: 0, at: Point(x: 50, y: 60), kind: .mouse, button: 2), at: 100)
        d.send(.advance, at: 1000)
        d.send(.move(pointer: 0, at: Point(x: 50, y: 300)), at: 1100)
        d.send(.up(pointer: 0, at: Point(x: 50, y: 300)), at: 1200)
        #expect(d.lifts == 0)
        #expect(d.session.scrollY == 0)
        #expect(MultiDragTests.marks(d.out, false).isEmpty)  // still selected
        // The primary button still lifts.
        d.send(.down(pointer: 0, at: Point(x: 50, y: 60), kind: .mouse), at: 1300)
        d.send(.advance, at: 1900)
        #expect(d.lifts == 1)
    }
}

/// "Move to…" on a board with rules: out of a palette is a copy, into a trash a removal (undone
/// like a trash drop), into a palette or a full column a refusal with its words.
@Suite struct MoveToRulesTests {
    static let board = Board(id: "r", layout: .list, sections: [
        Section(id: "templates", title: "Templates", items: [Item(id: "t1")], copy: true),
        Section(id: "todo", title: "To do", items: [Item(id: "a"), Item(id: "b")]),
        Section(id: "doing", title: "Doing", items: [Item(id: "c")], max: 1),
        Section(id: "trash", title: "Trash", items: [], drop: .remove),
    ])

    @Test func outOfAPaletteIsACopyAndTheOriginalStays() {
        var d = Driver(Self.board)
        d.send(.moveTo(id: "t1", section: "todo", place: .last), at: 10)
        #expect(d.ownCommits.map(\.change) == [.copyItem(id: "t1", as: "t1~1", section: "todo", after: "b", index: 2)])
        #expect(d.order == [["t1"], ["a", "b", "t1~1"], ["c"], []])
        #expect(d.announcements.last == "Copied t1 to To do, position 3.")
        d.send(.moveTo(id: "t1", section: "templates", place: .last), at: 20)
        #expect(d.errors == [.cannotMove])
    }

    @Test func intoATrashIsARemovalThatUndoBringsBack() {
        var d = Driver(Self.board)
        d.send(.moveTo(id: "a", section: "trash", place: .first), at: 10)
        #expect(d.ownCommits.map(\.change) == [.removeItem("a")])
        #expect(d.order == [["t1"], ["b"], ["c"], []])
        d.send(.undo, at: 20)
        #expect(d.order == [["t1"], ["a", "b"], ["c"], []])
    }

    @Test func intoAPaletteOrAFullColumnIsRefusedWithTheRulesWords() {
        var d = Driver(Self.board)
        d.send(.moveTo(id: "a", section: "templates", place: .first), at: 10)
        d.send(.moveTo(id: "a", section: "doing", place: .first), at: 20)
        #expect(d.errors == [.ruleRefused, .ruleRefused])
        #expect(d.commits.isEmpty)
        #expect(d.announcements.count == 2)
    }
}
