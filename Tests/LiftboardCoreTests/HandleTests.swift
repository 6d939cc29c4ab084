import Testing
@testable import LiftboardCore

/// Drag handles (issue 23): a press within 44 px of a cell's handle edge lifts at once, for
/// every pointer kind; elsewhere on the same cell the long press applies.
@Suite struct HandleTests {
    static let board = Board(id: "handles", sections: [
        Section(id: "todo", items: [Item(id: "a", handle: .trailing), Item(id: "b", handle: .leading),
                                    Item(id: "p", movable: false, handle: .leading), Item(id: "c")]),
    ])

    static func lifted(_ out: [ServerEvent]) -> [String] {
        out.compactMap { if case .lift(_, let id, _, _, _) = $0 { id } else { nil } }
    }

    @Test(arguments: [PointerKind.mouse, .touch, .pen])
    func aPressOnTheHandleLiftsInTheSameStep(kind: PointerKind) {
        var d = Driver(Self.board)
        #expect(Self.lifted(d.send(.down(pointer: 1, at: Point(x: 357, y: 60), kind: kind), at: 0)) == ["a"])  // 43 px from the right
        #expect(Self.lifted(d.send(.down(pointer: 2, at: Point(x: 43, y: 117), kind: kind), at: 10)) == ["b"])  // 43 px from the left
    }

    @Test func aPressElsewhereOnTheCellWaitsForTheLongPress() {
        var d = Driver(Self.board)
        #expect(Self.lifted(d.send(.down(pointer: 1, at: Point(x: 355, y: 60), kind: .mouse), at: 0)).isEmpty)  // 45 px from the right
        #expect(Self.lifted(d.send(.down(pointer: 2, at: Point(x: 44, y: 117), kind: .touch), at: 0)).isEmpty)  // the band's end
        #expect(Self.lifted(d.send(.advance, at: 499)).isEmpty)
        #expect(Self.lifted(d.send(.advance, at: 500)) == ["a", "b"])
    }

    @Test func aPinnedItemsHandleAndAHeldItemsHandleLiftNothing() {
        var d = Driver(Self.board)
        #expect(Self.lifted(d.send(.down(pointer: 1, at: Point(x: 10, y: 174), kind: .mouse), at: 0)).isEmpty)  // p is pinned
        d.send(.down(pointer: 2, at: Point(x: 390, y: 60), kind: .mouse), at: 10)
        d.send(.up(pointer: 2, at: Point(x: 390, y: 60)), at: 20)  // a lifted and dropped in place: nothing commits
        #expect(d.lifts == 1 && d.commits.isEmpty)
        #expect(d.out.contains { if case .layout(let l) = $0 { l.cells.map(\.handle) == [.trailing, .leading, .leading, nil] } else { false } })
    }
}
