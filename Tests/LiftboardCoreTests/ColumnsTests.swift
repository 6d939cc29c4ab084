import Testing
@testable import LiftboardCore

/// Kanban columns (docs/protocol.md, "Columns"): sections side by side, the board scrolling
/// sideways and each column on its own, drags in both axes.
@Suite struct ColumnsTests {
    /// Three columns of the default metrics (280 wide, 12 apart, 40 header, rows of 56, 8 apart):
    /// "todo" a b c d, "doing" e f g h, "done" empty. Content 864 wide.
    static func board() -> Board {
        Board(id: "kanban", layout: .columns, columns: ColumnMetrics(), sections: [
            Section(id: "todo", title: "To do", items: ["a", "b", "c", "d"].map { Item(id: $0) }),
            Section(id: "doing", title: "Doing", items: ["e", "f", "g", "h"].map { Item(id: $0) }),
            Section(id: "done", title: "Done", items: []),
        ])
    }

    /// Three tall columns: 20, 20 and 2 rows (a column of 20 is 1312 tall).
    static func tallBoard() -> Board {
        Board(id: "tall", layout: .columns, columns: ColumnMetrics(), sections: [
            Section(id: "todo", title: "To do", items: (0..<20).map { Item(id: "t\($0)") }),
            Section(id: "doing", title: "Doing", items: (0..<20).map { Item(id: "u\($0)") }),
            Section(id: "done", title: "Done", items: [Item(id: "v0"), Item(id: "v1")]),
        ])
    }

    static func change(_ d: Driver) -> Change? { d.ownCommits.last?.change }

    // MARK: Geometry and the wire

    @Test func columnsStandSideBySideWithTheirOwnScrollAndContentHeight() {
        let d = Driver(Self.board(), viewport: Viewport(w: 700, h: 600))
        guard case .layout(let l) = d.out[1] else { Issue.record("no layout"); return }
        #expect(l.layout == .columns)
        #expect(l.content == Size(w: 864, h: 600))
        #expect(l.sections.map(\.frame) == [Rect(x: 0, y: 0, w: 280, h: 288), Rect(x: 292, y: 0, w: 280, h: 288),
                                            Rect(x: 584, y: 0, w: 280, h: 96)])
        #expect(l.sections.map(\.scroll) == [0, 0, 0])
        #expect(l.sections.map(\.contentHeight) == [288, 288, 96])
        #expect(l.sections[2].slot == Rect(x: 584, y: 40, w: 280, h: 56))
        let f = l.cells.first { $0.id == "g" }?.frame
        #expect(f == Rect(x: 292, y: 168, w: 280, h: 56))
    }

    @Test func theTargetColumnTakesGapsAndOutsidesByTheRules() {
        let a = Arrangement(board: Self.board(), width: 700)
        let l = ColumnsLayout(metrics: Self.board().columns)
        #expect(l.targetColumn(atX: 100, current: 2, in: a) == 0)
        #expect(l.targetColumn(atX: 300, current: 0, in: a) == 1)
        // The gap between 0 and 1 (280..292): a bordering current column stays, else the left one.
        #expect(l.targetColumn(atX: 285, current: 0, in: a) == 0)
        #expect(l.targetColumn(atX: 285, current: 1, in: a) == 1)
        #expect(l.targetColumn(atX: 285, current: 2, in: a) == 0)
        #expect(l.targetColumn(atX: -50, current: 2, in: a) == 0)
        #expect(l.targetColumn(atX: 5000, current: 0, in: a) == 2)
        #expect(l.column(atX: 285, in: a) == nil && l.column(atX: 864, in: a) == nil && l.column(atX: 583.9, in: a) == nil && l.column(atX: 584, in: a) == 2)
    }

    @Test func theEntryIndexIsTheFirstRowWhoseMidpointIsBelowTheCenterWithoutTheItem() {
        // Rows of random heights; the binary search agrees with a scan of the layout without h.
        var rng = SplitMix64(seed: 24)
        for _ in 0..<200 {
            let n = Int(rng.next() % 12) + 1
            let items = (0..<n).map { Item(id: "r\($0)", height: Double(rng.next() % 90) + 10) }
            let b = Board(id: "x", layout: .columns, columns: ColumnMetrics(), sections: [Section(id: "s", items: items)])
            let a = Arrangement(board: b, width: 500)
            let h = Int(rng.next() % UInt64(n))
            let y = Double(rng.next() % 1200)
            var without = a.members[0]
            without.remove(at: a.indexOf[h])
            var top = 40.0, expected = without.count
            for (k, x) in without.enumerated() {
                if top + a.heights[x] / 2 > y { expected = k; break }
                top += a.heights[x] + 8
            }
            #expect(ColumnsLayout(metrics: b.columns).entryIndex(column: 0, y: y, without: h, in: a) == expected)
        }
    }

    // MARK: Done when: drags across columns

    @Test func aDragFromColumnZeroIntoColumnOneBetweenItsSecondAndThirdCardsCommitsExactlyThat() {
        var d = Driver(Self.board(), viewport: Viewport(w: 700, h: 600))
        // b's center (140, 132) to (430, 160): column 1, below f's midpoint (132), above g's (196).
        d.drag(from: Point(x: 140, y: 132), to: Point(x: 430, y: 160), at: 100)
        #expect(Self.change(d) == .insert(id: "b", section: "doing", after: "f", index: 2))
        #expect(d.order == [["a", "c", "d"], ["e", "f", "b", "g", "h"], []])
        #expect(d.ownCommits.count == 1)
    }

    @Test func aDragIntoAnEmptyColumnCommitsIndexZero() {
        var d = Driver(Self.board(), viewport: Viewport(w: 900, h: 600))
        d.drag(from: Point(x: 140, y: 68), to: Point(x: 700, y: 400), at: 100)
        #expect(Self.change(d) == .insert(id: "a", section: "done", after: nil, index: 0))
        #expect(d.order == [["b", "c", "d"], ["e", "f", "g", "h"], ["a"]])
    }

    @Test func aDragReleasedInTheGapBetweenColumnsStaysInItsColumn() {
        var d = Driver(Self.board(), viewport: Viewport(w: 700, h: 600))
        d.drag(from: Point(x: 140, y: 196), to: Point(x: 286, y: 196), at: 100)
        #expect(d.ownCommits.isEmpty)
        #expect(d.moves.isEmpty)
        #expect(d.order == [["a", "b", "c", "d"], ["e", "f", "g", "h"], []])
    }

    @Test func withinItsColumnADragMovesByTheListRule() {
        var d = Driver(Self.board(), viewport: Viewport(w: 700, h: 600))
        // a (center y 68) down to y 196: past b's (132) and c's (196) midpoints.
        d.drag(from: Point(x: 140, y: 68), to: Point(x: 140, y: 196), at: 100)
        #expect(Self.change(d) == .insert(id: "a", section: "todo", after: "c", index: 2))
    }

    @Test func holdingStillAfterEnteringAColumnMovesNothing() {
        var d = Driver(Self.board(), viewport: Viewport(w: 700, h: 600))
        d.drag(from: Point(x: 140, y: 132), to: Point(x: 430, y: 132), at: 100, release: false)
        let before = d.moves.count
        // The drag lifted and entered the second column (a still hold proves nothing otherwise).
        #expect(before > 0)
        #expect(d.order[1].contains("b"))
        for k in 1...5 { d.send(.move(pointer: 1, at: Point(x: 430, y: 132)), at: d.now + Double(k) * 16) }
        #expect(d.moves.count == before)
    }

    // MARK: Done when: auto-scroll

    @Test func aDragHeldAtTheRightEdgeScrollsTheBoardAndLandsInAColumnThatWasOffScreen() {
        // Viewport 500 wide: "done" (584..864) is off screen; the board scrolls at most 364.
        var d = Driver(Self.board(), viewport: Viewport(w: 500, h: 600))
        d.drag(from: Point(x: 140, y: 68), to: Point(x: 490, y: 100), at: 100, release: false)
        d.settle()
        #expect(d.session.scrollX == 364)
        #expect(d.session.columnScrolls == [0, 0, 0])
        #expect(d.order[2] == ["a"])
        d.send(.up(pointer: 1, at: Point(x: 490, y: 100)), at: d.now + 16)
        #expect(Self.change(d) == .insert(id: "a", section: "done", after: nil, index: 0))
    }

    @Test func aDragHeldAtAColumnsBottomEdgeScrollsThatColumnAlone() {
        var d = Driver(Self.tallBoard(), viewport: Viewport(w: 500, h: 400))
        d.drag(from: Point(x: 140, y: 68), to: Point(x: 140, y: 390), at: 100, release: false)
        d.settle()
        // 40 + 20 × 56 + 19 × 8 = 1312 tall: at most 912.
        #expect(d.session.columnScrolls == [912, 0, 0])
        #expect(d.session.scrollX == 0)
        #expect(d.order[0].last == "t0")
        d.send(.up(pointer: 1, at: Point(x: 140, y: 390)), at: d.now + 16)
        #expect(Self.change(d) == .insert(id: "t0", section: "todo", after: "t19", index: 19))
    }

    @Test func aPointerInTheHeaderScrollsItsColumnUpAtFullDepth() {
        var d = Driver(Self.tallBoard(), viewport: Viewport(w: 500, h: 400))
        d.send(.wheel(dx: 0, dy: 500, at: Point(x: 100, y: 200)), at: 10)
        #expect(d.session.columnScrolls == [500, 0, 0])
        // Lift t9 (at column y 40 + 9 × 64 + 28 = 644, viewport 144), hold it in the header.
        d.drag(from: Point(x: 140, y: 144), to: Point(x: 140, y: 10), at: 100, release: false)
        let scrolled = d.session.columnScrolls?[0] ?? 0
        // Far from the top still: 100 ms at full depth (1200 px/s) scrolls 120 px, give or take
        // the tick in flight (20 px at 60 Hz); halfway into the band (the body's top is y 40, the
        // band 60 deep) half of that: the band is measured from the header's bottom, and a
        // pointer inside the header counts the full depth, no more.
        #expect(scrolled >= 300)
        d.send(.move(pointer: 1, at: Point(x: 140, y: 10)), at: d.now + 100)
        let full = scrolled - (d.session.columnScrolls?[0] ?? 0)
        #expect(full >= 100 && full <= 140, "full depth scrolled \(full)")
        // (Ticks due before an input run at the pointer's previous place: move first, then wait.)
        d.send(.move(pointer: 1, at: Point(x: 140, y: 70)), at: d.now)
        let mid = d.session.columnScrolls?[0] ?? 0
        d.send(.move(pointer: 1, at: Point(x: 140, y: 70)), at: d.now + 100)
        let half = mid - (d.session.columnScrolls?[0] ?? 0)
        #expect(half >= 50 && half <= 70, "half depth scrolled \(half)")
        // Held in the header until the top: clamped there, the item first.
        d.send(.move(pointer: 1, at: Point(x: 140, y: 10)), at: d.now + 1000)
        #expect((d.session.columnScrolls?[0] ?? 0) == 0)
        #expect(d.order[0].first == "t9")
    }

    // MARK: Done when: pans

    @Test func aSidewaysPanScrollsTheBoardAndNoColumn() {
        var d = Driver(Self.tallBoard(), viewport: Viewport(w: 500, h: 400))
        d.send(.down(pointer: 1, at: Point(x: 400, y: 200), kind: .touch), at: 0)
        for k in 1...10 { d.send(.move(pointer: 1, at: Point(x: 400 - 10 * Double(k), y: 200 + Double(k) / 2)), at: 10 * Double(k)) }
        #expect(d.session.scrollX == 100)
        #expect(d.session.columnScrolls == [0, 0, 0])
        d.send(.up(pointer: 1, at: Point(x: 300, y: 205)), at: 100)
        d.settle()
        #expect((d.session.scrollX ?? 0) > 100)   // it flung on
        #expect(d.session.columnScrolls == [0, 0, 0])
    }

    @Test func aVerticalPanScrollsOneColumnAndNotTheBoard() {
        var d = Driver(Self.tallBoard(), viewport: Viewport(w: 500, h: 400))
        // Down over "doing" (292..572); up by 150 with a little sideways drift.
        d.send(.down(pointer: 1, at: Point(x: 400, y: 300), kind: .touch), at: 0)
        for k in 1...10 { d.send(.move(pointer: 1, at: Point(x: 400 + Double(k) / 2, y: 300 - 15 * Double(k))), at: 10 * Double(k)) }
        #expect(d.session.columnScrolls == [0, 150, 0])
        #expect(d.session.scrollX == 0)
        d.send(.up(pointer: 1, at: Point(x: 405, y: 150)), at: 100)
        d.settle()
        #expect((d.session.columnScrolls?[1] ?? 0) > 150)
        #expect(d.session.columnScrolls?[0] == 0 && d.session.columnScrolls?[2] == 0)
        #expect(d.session.scrollX == 0)
    }

    @Test func aNewDownStopsEveryFling() {
        var d = Driver(Self.tallBoard(), viewport: Viewport(w: 500, h: 400))
        d.send(.down(pointer: 1, at: Point(x: 400, y: 300), kind: .touch), at: 0)
        for k in 1...10 { d.send(.move(pointer: 1, at: Point(x: 400, y: 300 - 15 * Double(k))), at: 10 * Double(k)) }
        d.send(.up(pointer: 1, at: Point(x: 400, y: 150)), at: 100)
        d.send(.down(pointer: 2, at: Point(x: 450, y: 200), kind: .touch), at: 110)
        for k in 1...10 { d.send(.move(pointer: 2, at: Point(x: 450 - 10 * Double(k), y: 200)), at: 110 + 10 * Double(k)) }
        d.send(.up(pointer: 2, at: Point(x: 350, y: 200)), at: 210)
        d.send(.down(pointer: 3, at: Point(x: 100, y: 100), kind: .touch), at: 230)
        let (x, ys) = (d.session.scrollX, d.session.columnScrolls)
        #expect(d.session.nextDeadline == 730)   // only pointer 3's press is pending
        d.send(.up(pointer: 3, at: Point(x: 100, y: 100)), at: 240)
        d.settle()
        #expect(d.session.scrollX == x && d.session.columnScrolls == ys)
    }

    @Test func aWheelScrollsTheColumnUnderItWithDyAndTheBoardWithDx() {
        var d = Driver(Self.tallBoard(), viewport: Viewport(w: 500, h: 400))
        d.send(.wheel(dx: 0, dy: 300), at: 10)   // no place: dy does nothing
        #expect(d.session.columnScrolls == [0, 0, 0])
        d.send(.wheel(dx: 50, dy: 300, at: Point(x: 400, y: 200)), at: 20)
        // dx first: the board is at 50, so x 400 is content 450, column "doing".
        #expect(d.session.scrollX == 50)
        #expect(d.session.columnScrolls == [0, 300, 0])
        d.send(.wheel(dx: 0, dy: 300, at: Point(x: 236, y: 200)), at: 30)   // content 286: a gap
        #expect(d.session.columnScrolls == [0, 300, 0])
    }

    @Test func aColumnScrollResendsNoCellButTheSectionsAndTheCellsEnteringTheWindow() {
        var d = Driver(Self.tallBoard(), viewport: Viewport(w: 500, h: 400))
        let o = d.send(.wheel(dx: 0, dy: 100, at: Point(x: 100, y: 200)), at: 10)
        guard case .frame(let f) = o.first else { Issue.record("\(o)"); return }
        #expect(f.scroll == nil)
        #expect(f.sections?.map(\.scroll) == [100, 0, 0])
        // Cells already sent keep their frames: only new ones (whole) come.
        #expect(f.cells.allSatisfy { $0.info != nil })
    }

    // MARK: Done when: the keyboard

    @Test func theKeyboardMovesACardToTheNextColumnWithRightAndCommitsIt() {
        var d = Driver(Self.board(), viewport: Viewport(w: 700, h: 600))
        d.send(.key("ArrowDown"), at: 10)   // focuses a
        d.send(.key("ArrowDown"), at: 20)   // b
        d.send(.key(" "), at: 30)           // lift b
        d.send(.key("ArrowRight"), at: 40)  // doing, index 1
        #expect(d.announcements.last == "b moved to position 2 of 5 in Doing.")
        d.send(.key("Enter"), at: 50)
        #expect(Self.change(d) == .insert(id: "b", section: "doing", after: "e", index: 1))
    }

    @Test func theKeyboardFocusWalksColumnsAndScrollsThemIntoView() {
        var d = Driver(Self.board(), viewport: Viewport(w: 500, h: 600))
        d.send(.key("ArrowDown"), at: 10)
        d.send(.key("ArrowDown"), at: 20)   // b (index 1)
        d.send(.key("ArrowRight"), at: 30)  // f
        d.send(.key("ArrowRight"), at: 40)  // "done" is empty: nothing further
        #expect(d.announcements.last == "f, position 2 of 4 in Doing.")
        d.send(.key("ArrowUp"), at: 50)
        d.send(.key("ArrowUp"), at: 60)     // nothing above e
        #expect(d.announcements.last == "e, position 1 of 4 in Doing.")
        // Lift e and take it right into "done", off screen: the board scrolls to show it.
        d.send(.key(" "), at: 70)
        d.send(.key("ArrowRight"), at: 80)
        #expect(d.session.scrollX == 364)
        d.send(.key("Enter"), at: 90)
        #expect(Self.change(d) == .insert(id: "e", section: "done", after: nil, index: 0))
    }

    // MARK: Item 7 on columns

    @Test func swapModeExchangesWithinAColumnAndInsertsAcross() {
        var config = SessionConfig()
        config.mode = .swap
        var d = Driver(Self.board(), viewport: Viewport(w: 700, h: 600), config: config)
        d.drag(from: Point(x: 140, y: 68), to: Point(x: 140, y: 250), at: 100)   // a over d
        #expect(Self.change(d) == .swap("a", "d"))
        // d into "doing": it enters at the row the center meets first, then passes h's midpoint.
        d.drag(from: Point(x: 140, y: 68), to: Point(x: 430, y: 400), at: 2000)
        #expect(Self.change(d) == .insert(id: "d", section: "doing", after: "h", index: 4))
    }

    @Test func aColumnsScrollIsClampedWhenItsRowsLeave() {
        var d = Driver(Self.tallBoard(), viewport: Viewport(w: 900, h: 400))
        d.send(.wheel(dx: 0, dy: 5000, at: Point(x: 100, y: 200)), at: 10)
        #expect(d.session.columnScrolls == [912, 0, 0])
        // Take t19 (viewport y 1312 - 28 - 912 = 372) into "done": todo loses 64 px.
        d.drag(from: Point(x: 140, y: 372), to: Point(x: 700, y: 300), at: 100)
        #expect(d.order[2].contains("t19"))
        #expect(d.session.columnScrolls?[0] == 848)
    }

    @Test func aResyncThatShortensAScrolledColumnClampsItsScrollInTheLayout() {
        var d = Driver(Self.tallBoard(), viewport: Viewport(w: 900, h: 400))
        d.send(.wheel(dx: 0, dy: 5000, at: Point(x: 100, y: 200)), at: 10)
        var order = Self.tallBoard().order
        order[2].items += order[0].items.suffix(5)
        order[0].items.removeLast(5)
        let o = d.session.resync(to: order, version: 3)
        // 15 rows: 40 + 15 × 56 + 14 × 8 = 992 tall, so at most 592.
        guard case .layout(let l)? = o.first else { Issue.record("\(o)"); return }
        #expect(l.sections.map(\.scroll) == [592, 0, 0])
        #expect(d.session.invariantViolations().isEmpty)
    }

    @Test func pinnedItemsKeepTheirIndexWhenAnItemEntersTheirColumn() {
        let b = Board(id: "p", layout: .columns, columns: ColumnMetrics(), sections: [
            Section(id: "a", items: [Item(id: "x"), Item(id: "y")]),
            Section(id: "b", items: [Item(id: "pin", movable: false), Item(id: "z")]),
        ])
        var d = Driver(b, viewport: Viewport(w: 700, h: 600))
        // x enters before "pin" (midpoint 68 below the center), which takes its index back;
        // a pinned item is never an anchor: first among the movable ones, at index 1.
        d.drag(from: Point(x: 140, y: 68), to: Point(x: 430, y: 50), at: 100)
        #expect(d.order == [["y"], ["pin", "x", "z"]])
        #expect(Self.change(d) == .insert(id: "x", section: "b", after: nil, index: 1))
    }

    @Test func twoPointersDragInTwoColumnsAtOnce() {
        var d = Driver(Self.board(), viewport: Viewport(w: 900, h: 600))
        d.send(.down(pointer: 1, at: Point(x: 140, y: 68), kind: .touch), at: 0)
        d.send(.down(pointer: 2, at: Point(x: 430, y: 68), kind: .touch), at: 0)
        d.send(.move(pointer: 1, at: Point(x: 700, y: 100)), at: 600)
        d.send(.move(pointer: 2, at: Point(x: 140, y: 300)), at: 616)
        d.send(.up(pointer: 1, at: Point(x: 700, y: 100)), at: 632)
        d.send(.up(pointer: 2, at: Point(x: 140, y: 300)), at: 648)
        #expect(d.order == [["b", "c", "d", "e"], ["f", "g", "h"], ["a"]])
        #expect(d.ownCommits.count == 2)
    }

    @Test func anotherSessionsCommitMidDragKeepsTheDragsLivePlace() {
        var d = Driver(Self.board(), viewport: Viewport(w: 700, h: 600))
        d.drag(from: Point(x: 140, y: 132), to: Point(x: 430, y: 160), at: 100, release: false)
        let other = Commit(board: "kanban", version: 1, by: "other", moves: [],
                           order: [SectionOrder(section: "todo", items: ["a", "b", "c", "d"]),
                                   SectionOrder(section: "doing", items: ["h", "e", "f", "g"]),
                                   SectionOrder(section: "done", items: [])],
                           change: .insert(id: "h", section: "doing", after: nil, index: 0))
        d.send(.external(other), at: d.now + 10)
        #expect(d.order[1].contains("b"))
        d.send(.up(pointer: 1, at: Point(x: 430, y: 160)), at: d.now + 10)
        // b kept its live index 2 (the commit put h first), so it lands after e.
        #expect(d.session.committedOrder?.map(\.items) == [["a", "c", "d"], ["h", "e", "b", "f", "g"], []])
    }

    @Test func editsMidDragKeepTheDragAndTheColumnsOffsetsByID() {
        var d = Driver(Self.tallBoard(), viewport: Viewport(w: 900, h: 400))
        d.send(.wheel(dx: 0, dy: 100, at: Point(x: 400, y: 200)), at: 10)   // "doing" at 100
        d.drag(from: Point(x: 140, y: 68), to: Point(x: 430, y: 200), at: 100, release: false)
        let held = d.order[1]
        // A new column before the others: "doing" keeps its offset; the drag its live place.
        d.send(.external(Commit(board: "tall", version: 1, by: "admin", moves: [], order: [],
                                change: .addSection(id: "backlog", title: "Backlog", after: nil))), at: d.now + 10)
        #expect(d.session.columnScrolls == [0, 0, 100, 0])
        #expect(d.order[2] == held)
        // An item added to the column the drag is in.
        d.send(.external(Commit(board: "tall", version: 2, by: "admin", moves: [], order: [],
                                change: .addItem(Item(id: "n"), section: "doing", after: nil))), at: d.now + 10)
        #expect(d.order[2].first == "n")
        // "doing" is the third column now (584 to 864): the pointer follows it there.
        d.send(.move(pointer: 1, at: Point(x: 720, y: 200)), at: d.now + 10)
        #expect(d.order[2].contains("t0"))
        d.send(.up(pointer: 1, at: Point(x: 720, y: 200)), at: d.now + 10)
        #expect(Self.change(d).map { if case .insert("t0", "doing", _, _) = $0 { true } else { false } } == true)
    }

    @Test func undoPutsACardBackInItsColumn() {
        var d = Driver(Self.board(), viewport: Viewport(w: 700, h: 600))
        d.drag(from: Point(x: 140, y: 132), to: Point(x: 430, y: 160), at: 100)
        d.send(.undo, at: 2000)
        #expect(d.order == [["a", "b", "c", "d"], ["e", "f", "g", "h"], []])
        #expect(d.ownCommits.count == 2)
    }

    @Test func aSelectionDraggedAcrossColumnsCommitsOneGroup() {
        var d = Driver(Self.board(), viewport: Viewport(w: 700, h: 600))
        for (y, t) in [(68.0, 0.0), (196.0, 100.0)] {
            d.send(.down(pointer: 0, at: Point(x: 140, y: y), kind: .mouse, mods: .meta), at: t)
            d.send(.up(pointer: 0, at: Point(x: 140, y: y)), at: t + 50)
        }
        d.drag(from: Point(x: 140, y: 68), to: Point(x: 430, y: 100), at: 300)
        #expect(Self.change(d) == .group(ids: ["a", "c"], section: "doing", after: "e", index: 1))
        #expect(d.order == [["b", "d"], ["e", "a", "c", "f", "g", "h"], []])
    }

    @Test func aColumnThatRefusesTheDragIsNoTargetAndShowsForbidden() {
        let b = Board(id: "r", layout: .columns, columns: ColumnMetrics(), sections: [
            Section(id: "todo", items: [Item(id: "a", kind: "feature"), Item(id: "b", kind: "bug")]),
            Section(id: "bugs", items: [Item(id: "x", kind: "bug")], accepts: ["bug"]),
            Section(id: "bin", items: [], drop: .remove),
        ])
        var d = Driver(b, viewport: Viewport(w: 900, h: 600))
        d.drag(from: Point(x: 140, y: 68), to: Point(x: 430, y: 68), at: 100, release: false)
        #expect(d.order[0].contains("a"))
        #expect(d.out.contains { if case .frame(let f) = $0 { f.snapshots.contains { $0.forbidden == true } } else { false } })
        // On into the trash beyond: the drop removes a.
        d.send(.move(pointer: 1, at: Point(x: 700, y: 68)), at: d.now + 16)
        d.send(.up(pointer: 1, at: Point(x: 700, y: 68)), at: d.now + 16)
        #expect(Self.change(d) == .removeItem("a"))
    }

    @Test func aCopyOutOfAPaletteColumnDropsACopy() {
        let b = Board(id: "p", layout: .columns, columns: ColumnMetrics(), sections: [
            Section(id: "palette", items: [Item(id: "tpl")], copy: true),
            Section(id: "todo", items: [Item(id: "a")]),
        ])
        var d = Driver(b, viewport: Viewport(w: 700, h: 600))
        d.drag(from: Point(x: 140, y: 68), to: Point(x: 430, y: 120), at: 100)
        #expect(Self.change(d) == .copyItem(id: "tpl", as: "tpl~1", section: "todo", after: "a", index: 1))
    }

    @Test func aResizeKeepsEveryOffsetInsideItsRange() {
        var d = Driver(Self.tallBoard(), viewport: Viewport(w: 500, h: 400))
        d.send(.wheel(dx: 0, dy: 800, at: Point(x: 100, y: 200)), at: 10)
        d.send(.wheel(dx: 300, dy: 0), at: 15)
        #expect(d.session.scrollX == 300)
        d.send(.resize(Viewport(w: 800, h: 1000)), at: 20)
        #expect(d.session.scrollX == 64)                    // 864 - 800
        #expect(d.session.columnScrolls == [312, 0, 0])     // 1312 - 1000
    }
}
