import Testing
@testable import LiftboardCore

/// A trash (`drop: "remove"`, issue 23): a drop there removes the item (`removeItem`) or the
/// group (an edit batch of `removeItem`s), and the session's `undo` brings it back where it
/// was. Board (list): todo a, b, c; done d; bin (the trash), empty.
@Suite struct TrashTests {
    static let board = Board(id: "trash", sections: [
        Section(id: "todo", items: [Item(id: "a"), Item(id: "b"), Item(id: "c")]),
        Section(id: "done", items: [Item(id: "d")]),
        Section(id: "bin", items: [], drop: .remove),
    ])

    @Test func aDropOnTheTrashRemovesTheItemAndUndoBringsItBack() {
        var d = Driver(Self.board)
        d.drag(from: Point(x: 50, y: 117), to: Point(x: 50, y: 340), at: 0)
        #expect(d.ownCommits.map(\.change) == [.removeItem("b")])
        #expect(d.order == [["a", "c"], ["d"], []])
        #expect(d.announcements.last == "b removed.")
        #expect(d.out.contains { if case .drop(1, "b", Place(section: "bin", index: 0), false) = $0 { true } else { false } })
        d.send(.undo, at: 2000)
        #expect(d.ownCommits.count == 2)
        if case .addItem(let item, "todo", "a", nil)? = d.ownCommits.last?.change { #expect(item.id == "b") } else { Issue.record("no addItem") }
        #expect(d.order == [["a", "b", "c"], ["d"], []])
    }

    @Test func aGroupGoesAsOneEditBatchAndComesBackAsOne() {
        var d = Driver(Self.board)
        d.send(.down(pointer: 1, at: Point(x: 50, y: 60), kind: .touch), at: 0)
        d.send(.down(pointer: 2, at: Point(x: 50, y: 174), kind: .touch), at: 600)
        d.send(.up(pointer: 2, at: Point(x: 50, y: 174)), at: 650)
        for (k, y) in [200.0, 300, 330].enumerated() { d.send(.move(pointer: 1, at: Point(x: 50, y: y)), at: 700 + Double(k) * 16) }
        d.send(.up(pointer: 1, at: Point(x: 50, y: 330)), at: 800)
        #expect(d.ownCommits.map(\.change) == [.batch([.removeItem("a"), .removeItem("c")])])
        #expect(d.order == [["b"], ["d"], []])
        d.send(.undo, at: 1000)
        #expect(d.order == [["a", "b", "c"], ["d"], []])
        #expect(d.ownCommits.last?.change?.isEdit == true)
    }

    @Test func undoOfARemovalIsRefusedOnceTheIdIsBackOnTheBoard() {
        var d = Driver(Self.board)
        d.drag(from: Point(x: 50, y: 117), to: Point(x: 50, y: 340), at: 0)
        // Another session adds an item with b's id meanwhile.
        let add = Change.addItem(Item(id: "b", label: "new b"), section: "done", after: nil)
        d.send(.external(Commit(board: "trash", version: 2, by: "other", moves: [], order: [], change: add)), at: 1000)
        d.send(.undo, at: 2000)
        #expect(d.errors == [.cannotUndo])
        #expect(d.order == [["a", "c"], ["b", "d"], []])
    }

    @Test func anEditBatchAppliesToABoardRevertsAndAnotherSessionSeesIt() throws {
        let change = Change.batch([.removeItem("a"), .removeItem("zz"), .removeItem("c")])
        let (after, moves) = try #require(Self.board.applying(change))
        #expect(moves.isEmpty && after.order.map(\.items) == [["b"], ["d"], []] && after.version == 1)
        let revert = try #require(Self.board.revert(of: change))
        #expect(after.applying(revert)?.board.order == Self.board.order)
        var other = Driver(Self.board)
        other.send(.external(Commit(board: "trash", version: 1, by: "s", moves: [], order: [], change: change)), at: 10)
        #expect(other.order == [["b"], ["d"], []])
    }
}
