import Testing
@testable import LiftboardCore

/// A pinned item never changes section by a drag, but an order from elsewhere can put it in
/// another one (a board replaced through the API, a whole order after a gap): it keeps its
/// place there as it did where it started.
@Suite struct PinnedElsewhereTests {
    static func board() -> Board {
        Board(id: "p", layout: .columns, columns: ColumnMetrics(), sections: [
            Section(id: "a", items: [Item(id: "x"), Item(id: "y")]),
            Section(id: "b", items: [Item(id: "pin", movable: false), Item(id: "z")]),
        ])
    }

    @Test(arguments: [false, true])
    func aPinnedItemAnOrderFromElsewhereMovedKeepsItsPlaceInItsNewSection(inPlace: Bool) {
        var d = Driver(Self.board(), viewport: Viewport(w: 700, h: 600))
        // "pin" is now second in "a" (a whole order, no change to replay).
        let c = Commit(board: "p", version: 1, by: "admin", moves: [],
                       order: [SectionOrder(section: "a", items: ["x", "pin", "y"]), SectionOrder(section: "b", items: ["z"])],
                       change: nil)
        if inPlace {
            d.send(.external(c), at: 10)
        } else {
            d.now = 10
            #expect(d.session.applyExternal(c, at: 10, wholeRebuild: true).plan == .whole)
        }
        #expect(d.order == [["x", "pin", "y"], ["z"]])
        // x dragged out of "a" into "b": "pin" keeps index 1, y fills the place x left.
        d.drag(from: Point(x: 140, y: 68), to: Point(x: 430, y: 130), at: 100, release: false)
        #expect(d.order == [["y", "pin"], ["z", "x"]])
        d.send(.up(pointer: 1, at: Point(x: 430, y: 130)), at: d.now + 16)
        #expect(d.session.committedOrder?.map(\.items) == [["y", "pin"], ["z", "x"]])
    }
}
