import Testing
@testable import LiftboardCore

/// A palette (`copy: true`, issue 23): a drag out of it drops a copy (`copyItem`, id `X~V`)
/// and leaves the original; its own order never changes by drags; a copy dropped back over it
/// is a cancel. Board (list): templates (palette) t1 (bug), t2 (feature); todo a; doing
/// (max 1), empty.
@Suite struct PaletteTests {
    static let board = Board(id: "palette", sections: [
        Section(id: "templates", items: [Item(id: "t1", kind: "bug"), Item(id: "t2", kind: "feature")], copy: true),
        Section(id: "todo", items: [Item(id: "a")]),
        Section(id: "doing", items: [], max: 1),
    ])

    @Test func aDragOutOfThePaletteDropsACopyAndLeavesTheOriginal() {
        var d = Driver(Self.board)
        d.drag(from: Point(x: 50, y: 60), to: Point(x: 50, y: 220), at: 0)
        #expect(d.ownCommits.map(\.change) == [.copyItem(id: "t1", as: "t1~1", section: "todo", after: "a", index: 1)])
        #expect(d.order == [["t1", "t2"], ["a", "t1~1"], []])
        // Its undo removes the copy.
        d.send(.undo, at: 2000)
        #expect(d.ownCommits.last?.change == .removeItem("t1~1"))
        #expect(d.order == [["t1", "t2"], ["a"], []])
        // A second copy at version 3 is t1~3.
        d.drag(from: Point(x: 50, y: 60), to: Point(x: 50, y: 220), at: 3000)
        #expect(d.ownCommits.last?.change == .copyItem(id: "t1", as: "t1~3", section: "todo", after: "a", index: 1))
    }

    @Test func thePalettesOrderNeverChangesAndACopyBackIsACancel() {
        var d = Driver(Self.board)
        d.drag(from: Point(x: 50, y: 60), to: Point(x: 50, y: 125), at: 0)  // t1 down over t2: no pass
        #expect(d.commits.isEmpty)
        #expect(d.order == [["t1", "t2"], ["a"], []])
        d.drag(from: Point(x: 50, y: 117), to: Point(x: 50, y: 200), at: 2000, release: false)  // t2 out...
        #expect(d.order == [["t1"], ["t2", "a"], []])
        d.send(.move(pointer: 1, at: Point(x: 50, y: 40)), at: 3000)  // ...and back over the palette
        #expect(d.out.allSatisfy { if case .frame(let f) = $0 { f.snapshots.allSatisfy { $0.forbidden != true } } else { true } })
        d.send(.up(pointer: 1, at: Point(x: 50, y: 40)), at: 3100)
        #expect(d.commits.isEmpty)
        #expect(d.out.contains { if case .drop(1, "t2", Place(section: "templates", index: 1), true) = $0 { true } else { false } })
        // Nothing from elsewhere enters it.
        d.drag(from: Point(x: 50, y: 177 + 28), to: Point(x: 50, y: 40), at: 5000)
        #expect(d.commits.isEmpty && d.order == [["t1", "t2"], ["a"], []])
    }

    @Test func aCopyIntoAFullSectionIsRefusedAsAnyItemWouldBe() {
        var d = Driver(Self.board)
        d.drag(from: Point(x: 50, y: 60), to: Point(x: 50, y: 300), at: 0)  // t1 into doing (max 1, empty)
        #expect(d.ownCommits.last?.change == .copyItem(id: "t1", as: "t1~1", section: "doing", after: nil, index: 0))
        let board = d.board.applying(d.ownCommits[0].change!)!.board
        #expect(board.sections[2].items.map(\.id) == ["t1~1"] && board.sections[2].items[0].kind == "bug")
        // doing is full now: the next copy is forbidden over it and lands in todo.
        d.drag(from: Point(x: 50, y: 60), to: Point(x: 50, y: 330), at: 2000)
        #expect(d.ownCommits.last?.change == .copyItem(id: "t1", as: "t1~2", section: "todo", after: "a", index: 1))
    }
}
