import Testing
@testable import LiftboardCore

/// What the `tree` fuzz target found (issue 43), each a case the session's tree invariants
/// (`treeInvariantViolations`, checked by `Driver.send` after every event) broke on before its fix.
/// Rows (44 tall, header 32): groceries(0) milk(1) eggs(1) garden(0, collapsed: seeds) bills(0).
@Suite struct TreeFuzzFindingsTests {
    /// An item of a board built by hand, at `depth`.
    func item(_ id: String, _ depth: Int, movable: Bool = true) -> Item { Fixtures.node(id, depth, movable: movable) }

    func order(_ ids: [String], parents: [String?]) -> SectionOrder {
        var o = SectionOrder(section: "home", items: ids)
        o.parents = parents
        return o
    }

    var work: SectionOrder {
        var o = SectionOrder(section: "work", items: [])
        o.parents = []
        return o
    }

    /// Garden lifted by a pointer (its row 164 ..< 208), seeds carried with it.
    func gardenLifted() -> Driver {
        var d = Driver(TreeSpringTests.board())
        d.send(.down(pointer: 1, at: Point(x: 200, y: 186), kind: .touch), at: 0)
        d.send(.move(pointer: 1, at: Point(x: 200, y: 186)), at: 600)
        #expect(d.session.holds == ["garden", "seeds"])
        return d
    }

    /// A pinned row held its index among the visible rows: collapsing an item above it moved it
    /// away from its parent and children. In a tree it keeps its place in the forest.
    @Test func aPinnedRowKeepsItsPlaceInTheForestWhenRowsAboveCollapse() {
        let board = Board(id: "t", layout: .tree, sections: [
            Section(id: "s", items: [item("a", 0), item("b", 1), item("c", 2), item("p", 0, movable: false), item("f", 1)]),
        ])
        var d = Driver(board)
        d.send(.toggle(id: "b"), at: 10)
        #expect(d.session.liveOrder?[0].items == ["a", "b", "p", "f"])
        d.send(.toggle(id: "a"), at: 20)
        #expect(d.session.liveOrder?[0].items == ["a", "p", "f"])
    }

    /// A commit from elsewhere took a descendant out of a lifted subtree: the drag kept
    /// carrying it (it was a row, and a toggle on it was refused).
    @Test func aDragCarriesItsSubtreeAsTheLatestCommitHasIt() {
        var d = gardenLifted()
        d.send(.resync(version: 1, order: [order(["groceries", "milk", "eggs", "garden", "bills", "seeds"],
                                                 parents: [nil, "groceries", "groceries", nil, nil, nil]), work]), at: 700)
        #expect(d.session.liveOrder?[0].items.contains("seeds") == true)
    }

    /// An edit rebuilt the session under new handles during a drag: the subtree the drag
    /// carries named the old handles (another item stood for seeds).
    @Test func aDragsSubtreeSurvivesAnEditsRebuild() {
        var d = gardenLifted()
        d.send(.external(Commit(board: "outline", version: 1, by: "other", moves: [], order: [], change: .removeItem("milk"))), at: 700)
        #expect(d.session.liveOrder.map { Set($0[0].items) } == ["groceries", "eggs", "garden", "bills"])
        d.send(.up(pointer: 1, at: Point(x: 200, y: 142)), at: 800)
        d.settle()
        #expect(d.session.invariantViolations().isEmpty)
    }

    /// A commit from elsewhere put a deeper row right below a drag's: its depth stayed below
    /// the row under it (that row would have become its child). It is projected again.
    @Test func aCommitFromElsewhereProjectsEachDragsDepthAgain() {
        var d = gardenLifted()
        d.send(.resync(version: 1, order: [order(["groceries", "milk", "bills", "eggs", "garden", "seeds"],
                                                 parents: [nil, "groceries", "milk", "groceries", nil, "garden"]), work]), at: 700)
        let rows = d.session.liveTree?[0].map { "\($0.id):\($0.depth)" }
        #expect(rows == ["groceries:0", "milk:1", "bills:2", "garden:1", "eggs:1"])
    }

    /// A commit from elsewhere put a dragged item inside the subtree another drag carries: its
    /// drop found no row for it (an index out of range). It settles where the carrier's row is.
    @Test func aDropInsideASubtreeAnotherDragCarriesSettlesOnThatDragsRow() {
        var d = gardenLifted()
        d.send(.down(pointer: 2, at: Point(x: 200, y: 230), kind: .touch), at: 700)
        d.send(.move(pointer: 2, at: Point(x: 200, y: 230)), at: 1300)
        #expect(Set(d.session.holds) == ["garden", "seeds", "bills"])
        d.send(.resync(version: 1, order: [order(["groceries", "milk", "eggs", "garden", "seeds", "bills"],
                                                 parents: [nil, "groceries", "groceries", nil, "garden", "garden"]), work]), at: 1400)
        d.send(.up(pointer: 2, at: Point(x: 200, y: 230)), at: 1500)
        #expect(d.session.holds == ["garden", "seeds"])
        #expect(d.out.contains { if case .drop(2, "bills", _, _) = $0 { true } else { false } })
        d.send(.up(pointer: 1, at: Point(x: 200, y: 186)), at: 1600)
        d.settle()
        #expect(d.session.invariantViolations().isEmpty)
    }

    /// "Move to…" put an item under a lifted one (or moved one inside a lifted subtree): it had
    /// no row, and its announcement read past the rows. Refused, committing nothing.
    @Test func moveToIntoASubtreeADragCarriesIsRefused() {
        var d = gardenLifted()
        d.send(.moveTo(id: "bills", section: "home", place: .indent), at: 700)
        d.send(.moveTo(id: "seeds", section: "home", place: .up), at: 800)
        #expect(d.ownCommits.isEmpty)
        #expect(d.out.filter { if case .error(.cannotMove, _) = $0 { true } else { false } }.count == 2)
    }

    /// A keyboard step put a row below a pointer drag's, deeper than it: that drag's depth was
    /// not projected again (only the stepping drag's was). Now every drag's is.
    @Test func aKeyboardStepProjectsTheOtherDragsDepthAgain() {
        var d = Driver(TreeSpringTests.board())
        d.send(.down(pointer: 1, at: Point(x: 200, y: 230), kind: .touch), at: 0)
        d.send(.move(pointer: 1, at: Point(x: 200, y: 230)), at: 600)  // bills lifted
        d.send(.key("Tab"), at: 700)
        for t in [800.0, 900] { d.send(.key("ArrowDown"), at: t) }  // the focus on eggs
        d.send(.key(" "), at: 1000)
        #expect(Set(d.session.holds) == ["bills", "eggs"])
        for t in [1100.0, 1200] { d.send(.key("ArrowDown"), at: t) }
        let rows = d.session.liveTree?[0].map { "\($0.id):\($0.depth)" }
        #expect(rows == ["groceries:0", "milk:1", "garden:0", "bills:1", "eggs:1"])
    }

    /// The list rule hopped a pinned row and held it at its index: dragging a down past the
    /// pinned p put p's child f above p. In a tree a drag passes a pinned row as any row.
    @Test func aDragPassesAPinnedTreeRowAsAnyRow() {
        var board = Board(id: "t", layout: .tree, sections: [
            Section(id: "s", items: [item("a", 0), item("p", 0, movable: false), item("f", 1), item("g", 0)]),
        ])
        board.list = ListMetrics(rowHeight: 44, headerHeight: 32, spacing: 0)
        var d = Driver(board)
        d.send(.down(pointer: 1, at: Point(x: 100, y: 54), kind: .touch), at: 0)
        d.send(.move(pointer: 1, at: Point(x: 100, y: 54)), at: 600)
        d.send(.move(pointer: 1, at: Point(x: 100, y: 150)), at: 700)  // past p's midpoint (98) and f's (142)
        #expect(d.session.liveOrder?[0].items == ["p", "f", "a", "g"])
    }

    /// "Move to…" out of a palette copied a nested item with its depth, under nothing (the
    /// forest broken). A tree's copy goes to the top level.
    @Test func aCopyOutOfATreePaletteLandsAtTheTopLevel() {
        var palette = Section(id: "palette", items: [item("t1", 0), item("t2", 1)])
        palette.copy = true
        let board = Board(id: "t", layout: .tree, sections: [palette, Section(id: "main", items: [item("a", 0), item("b", 1)])])
        var d = Driver(board)
        d.send(.moveTo(id: "t2", section: "main", place: .last), at: 10)
        let main = d.session.committedBoard?.sections[1].items.map { "\($0.id):\($0.depth)" }
        #expect(main?.count == 3 && main?.last?.hasSuffix(":0") == true, "\(String(describing: main))")
    }

    /// A row lifted just above another drag's row deeper than its own was left at its depth:
    /// the drag below bounds it (nothing is orphaned), so it is projected at the lift.
    @Test func aRowLiftedAboveADeeperDragIsProjectedAtTheLift() {
        var b = Board(id: "t", layout: .tree, sections: [Section(id: "home", title: "Home",
            items: [item("x", 0), item("y", 1), item("z", 0), item("w", 1), item("q", 0)])])
        b.list = ListMetrics(rowHeight: 44, headerHeight: 32, spacing: 0)
        var d = Driver(b)
        // y (76 ..< 120) lifted and taken below q, straight down: depth 1, under q.
        d.send(.down(pointer: 1, at: Point(x: 200, y: 98), kind: .touch), at: 0)
        d.send(.move(pointer: 1, at: Point(x: 200, y: 98)), at: 600)
        d.send(.move(pointer: 1, at: Point(x: 200, y: 262)), at: 700)
        #expect(d.session.liveTree?[0].map(\.id) == ["x", "z", "w", "q", "y"])
        // q (now 164 ..< 208) lifted by a second finger's long press, the timer firing before
        // a message that moves nothing (no retarget after it): y below at depth 1 bounds q to 1.
        d.send(.down(pointer: 2, at: Point(x: 200, y: 186), kind: .touch), at: 800)
        d.send(.ping(id: .int(1)), at: 1400)
        #expect(d.lifts == 2)
        #expect(d.session.liveTree?[0].first { $0.id == "q" }?.depth == 1)
    }

    /// A keyboard drop one level under a row the finger lifts hid the row it landed
    /// in (inside the finger's subtree): its announcement read the row's live place, which it
    /// no longer had (an index out of range), and the focus, left on the hidden row, read its
    /// frame (a crash). The finger's row is no parent now (docs/protocol.md, "Trees", the
    /// drop): garden lands at the top level, a row, says so, and Space lifts it again.
    @Test func aKeyboardDropUnderARowTheFingerLiftsLandsAsARowAndSaysWhere() {
        var d = Driver(TreeSpringTests.board())
        d.send(.down(pointer: 1, at: Point(x: 100, y: 54), kind: .touch), at: 0)
        for (key, t) in [("ArrowRight", 1000.0), ("ArrowRight", 1100), ("ArrowDown", 1100), (" ", 1100),
                         ("ArrowRight", 1100), ("ArrowRight", 1100), ("ArrowRight", 1100), (" ", 1400)] {
            d.send(.key(key, mods: []), at: t)
        }
        // Groceries is the finger's, held since 500 ms; garden lifted, drawn one indent under
        // it, dropped: the nearest row above that no drag holds is none, so the top level.
        #expect(d.ownCommits.map(\.change) == [.move("garden", section: "home", parent: nil, after: nil, index: 0)])
        #expect(d.announcements.last == "Dropped Garden, position 1 of 2 in Home, level 1.")
        #expect(d.session.holds == ["groceries", "milk", "eggs"], "garden is no part of the finger's drag")
        d.send(.key(" ", mods: []), at: 1500)
        #expect(d.announcements.last == "Lifted Garden, position 1 of 2 in Home, level 1. Arrow keys move it, Space drops it, Escape cancels.")
    }
}
