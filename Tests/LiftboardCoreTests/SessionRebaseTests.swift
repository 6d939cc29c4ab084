import Testing
@testable import LiftboardCore

/// A rebase told as commits (another process's drop came first, this session's landed after
/// it): the committed order goes back with nothing sent, then both drops come as commits at
/// the store's versions, the session's own with its `by`.
@Suite struct SessionRebaseTests {
    static let aLast = Change.insert(id: "a", section: "todo", after: "d", index: 3)
    static let eFirst = Change.insert(id: "e", section: "todo", after: nil, index: 0)

    static func commit(_ change: Change, on board: inout Board, by: String) -> Commit {
        let moves = board.apply(change)!
        return Commit(board: board.id, version: board.version, by: by, moves: moves, order: [], change: change)
    }

    @Test func aRebaseSendsNothingAndTheCommitsAfterItComeAtTheStoresVersionsInOrder() {
        var d = Driver(Fixtures.listBoard(pinned: false))
        var told = Fixtures.listBoard(pinned: false)
        // The session was told its own drop as v1 (made elsewhere here, as the hub hands it on).
        d.send(.external(Self.commit(Self.aLast, on: &told, by: "test")), at: 100)
        #expect(d.session.version == 1)
        let base = Fixtures.listBoard(pinned: false).order
        #expect(d.send(.rebase(version: 0, order: base), at: 200) == [])
        #expect(d.session.version == 0)
        var store = Fixtures.listBoard(pinned: false)
        let theirs = Self.commit(Self.eFirst, on: &store, by: "s9-x")
        let mine = Self.commit(Self.aLast, on: &store, by: "test")
        d.out = []
        d.send(.external(theirs), at: 200)
        d.send(.external(mine), at: 200)
        #expect(d.commits.map(\.version) == [1, 2])
        #expect(d.commits.map(\.by) == ["s9-x", "test"])
        #expect(d.commits.last?.order == store.order)
        #expect(d.session.committedOrder == store.order)
        let frames = d.out.compactMap { if case .frame(let f) = $0 { f } else { nil } }
        #expect(frames.contains { !$0.cells.isEmpty }, "the cells move to the merged order")
        #expect(!d.out.contains { if case .layout = $0 { true } else { false } })
    }

    @Test func aRebaseToANewerVersionOrAnotherBoardsOrderIsRefusedAndChangesNothing() {
        var d = Driver(Fixtures.listBoard())
        let order = Fixtures.listBoard().order
        #expect(d.send(.rebase(version: 1, order: order), at: 10).count == 1)
        #expect(d.send(.rebase(version: 0, order: [SectionOrder(section: "todo", items: ["a"])]), at: 10).count == 1)
        #expect(d.errors == [.badMessage, .badMessage])
        #expect(d.session.version == 0 && d.session.committedOrder == order)
    }
}
