import Testing
@testable import LiftboardCore

/// Geometry of `Fixtures.listBoard()` at width 400: header 0-32; a 32-88; b 89-185 (96 tall);
/// c 186-242 (pinned); d 243-299; "doing" header 299-331; e 331-387; "done" header 387-419 and
/// its empty slot 419-475.
@Suite struct SessionGestureTests {
    @Test func helloGetsWelcomeThenTheWholeLayout() {
        let d = Driver(Fixtures.listBoard())
        #expect(d.out.count == 2)
        guard case .welcome(let w) = d.out[0], case .layout(let l) = d.out[1] else {
            Issue.record("expected welcome then layout, got \(d.out)"); return
        }
        #expect(w.session == "test" && w.board == "demo")
        #expect(l.cells.map(\.id) == ["a", "b", "c", "d", "e"])
        #expect(l.cells[1].frame == Rect(x: 0, y: 89, w: 400, h: 96))
        #expect(l.sections.map(\.frame.y) == [0, 299, 387])
        #expect(l.content == Size(w: 400, h: 475))
    }

    @Test func aMessageBeforeHelloIsRefusedAndUnknownBoardsToo() {
        var s = Session(id: "x")
        let e1 = s.handle(.move(pointer: 1, at: .zero), at: 0) { _ in nil }
        #expect(e1 == [.error(code: .noHello, message: "the first message must be hello")])
        let e2 = s.handle(.hello(Hello(board: "nope", viewport: Viewport(w: 100, h: 100))), at: 0) { _ in nil }
        guard case .error(.noBoard, _) = e2.first else { Issue.record("\(e2)"); return }
        let e3 = s.handle(.hello(Hello(v: 2, board: "nope", viewport: Viewport(w: 100, h: 100))), at: 0) { _ in nil }
        guard case .error(.version, _) = e3.first else { Issue.record("\(e3)"); return }
    }

    @Test func aQuickTapLiftsNothing() {
        var d = Driver(Fixtures.listBoard())
        d.send(.down(pointer: 1, at: Point(x: 50, y: 60), kind: .touch), at: 100)
        d.send(.up(pointer: 1, at: Point(x: 50, y: 60)), at: 200)
        d.settle()
        #expect(d.lifts == 0)
        #expect(d.session.nextDeadline == nil)
    }

    @Test func pressingAndReleasingLiftsAndDropsWithoutCommit() {
        var d = Driver(Fixtures.listBoard())
        d.send(.down(pointer: 1, at: Point(x: 50, y: 60), kind: .touch), at: 100)
        let lifted = d.session.fire(at: 600)
        guard case .lift(1, "a", let from, _, false) = lifted.first else { Issue.record("\(lifted)"); return }
        #expect(from == Place(section: "todo", index: 0))
        d.send(.up(pointer: 1, at: Point(x: 50, y: 60)), at: 700)
        #expect(d.commits.isEmpty)
        #expect(d.out.contains { if case .drop(1, "a", _, false) = $0 { true } else { false } })
    }

    @Test func theLiftFiresFromTheTimerEvenWithNoFurtherEvent() {
        var d = Driver(Fixtures.listBoard())
        d.send(.down(pointer: 1, at: Point(x: 50, y: 60), kind: .touch), at: 100)
        #expect(d.session.nextDeadline == 600)
        let o = d.send(.ping(id: .int(7)), at: 600)
        guard case .lift = o.first else { Issue.record("the due timer must fire before the line: \(o)"); return }
        #expect(o.last == .pong(id: .int(7), ms: 600))
    }

    @Test func draggingAPastBsMidpointCommitsTheNewOrder() {
        var d = Driver(Fixtures.listBoard())
        d.drag(from: Point(x: 50, y: 60), to: Point(x: 50, y: 140), at: 100)
        #expect(d.commits.count == 1)
        #expect(d.commits.first?.order.first?.items == ["b", "a", "c", "d"])
        #expect(d.commits.first?.version == 1)
        #expect(d.commits.first?.moves == [Move(id: "a", from: Place(section: "todo", index: 0), to: Place(section: "todo", index: 1))])
    }

    @Test func justShortOfTheMidpointNothingMoves() {
        var d = Driver(Fixtures.listBoard())
        d.drag(from: Point(x: 50, y: 60), to: Point(x: 50, y: 136), at: 100)
        #expect(d.moves.isEmpty && d.commits.isEmpty)
    }

    @Test func theDraggedItemHopsOverAPinnedItem() {
        var d = Driver(Fixtures.listBoard())
        // b (center 137) dragged down past d's midpoint (271): c stays at index 2.
        d.drag(from: Point(x: 50, y: 137), to: Point(x: 50, y: 280), at: 100)
        #expect(d.commits.last?.order.first?.items == ["a", "d", "c", "b"])
    }

    @Test func movingPastTheNextHeaderGoesIntoThatSectionAndIntoAnEmptyOne() {
        var d = Driver(Fixtures.listBoard())
        // d (center 271) down past the "doing" header midpoint (315): doing index 0.
        d.drag(from: Point(x: 50, y: 271), to: Point(x: 50, y: 320), at: 100)
        #expect(d.commits.last?.order.map(\.items) == [["a", "b", "c"], ["d", "e"], []])
        // e (now at doing index 1) down into the empty "done" section.
        var e = Driver(Fixtures.listBoard())
        e.drag(from: Point(x: 50, y: 359), to: Point(x: 50, y: 440), at: 100)
        #expect(e.commits.last?.order.map(\.items) == [["a", "b", "c", "d"], [], ["e"]])
    }

    @Test func cancellingPutsTheItemBackAndCommitsNothing() {
        var d = Driver(Fixtures.listBoard())
        d.drag(from: Point(x: 50, y: 60), to: Point(x: 50, y: 320), at: 100, release: false)
        #expect(d.order[0].first != "a")
        d.send(.cancel(pointer: 1), at: 2000)
        #expect(d.order == [["a", "b", "c", "d"], ["e"], []])
        #expect(d.commits.isEmpty)
        #expect(d.out.contains { if case .drop(1, "a", Place(section: "todo", index: 0), true) = $0 { true } else { false } })
    }

    @Test func panningBeforeThePressScrollsAndLiftsNothing() {
        var d = Driver(Fixtures.longList(40))
        d.send(.down(pointer: 1, at: Point(x: 50, y: 300), kind: .touch), at: 0)
        d.send(.move(pointer: 1, at: Point(x: 50, y: 280)), at: 50)
        d.send(.move(pointer: 1, at: Point(x: 50, y: 200)), at: 100)
        #expect(d.session.scrollY == 100)
        d.send(.up(pointer: 1, at: Point(x: 50, y: 200)), at: 116)
        d.settle()
        #expect(d.lifts == 0)
        #expect((d.session.scrollY ?? 0) > 100)  // the fling decelerated onwards
    }

    @Test func holdingStillOverCellsOfMixedHeightsNeverMovesAnything() {
        var d = Driver(Fixtures.listBoard())
        // Lift a and park its center in every band between b's top and bottom, holding still.
        d.send(.down(pointer: 1, at: Point(x: 50, y: 60), kind: .touch), at: 0)
        d.settle()
        var t = 600.0
        for y in stride(from: 60.0, through: 300, by: 3) {
            t += 16
            d.send(.move(pointer: 1, at: Point(x: 50, y: y)), at: t)
            let before = d.moves.count
            for k in 1...5 { d.send(.move(pointer: 1, at: Point(x: 50, y: y)), at: t + Double(k)) }
            #expect(d.moves.count == before, "moved while holding still at \(y)")
            t += 5
        }
    }

    @Test func twoPointersDragTwoItemsAtOnceAndEachCommitsItsOwnMove() {
        var d = Driver(Fixtures.listBoard(pinned: false))
        d.send(.down(pointer: 1, at: Point(x: 50, y: 60), kind: .touch), at: 0)     // a
        d.send(.down(pointer: 2, at: Point(x: 50, y: 359), kind: .touch), at: 10)   // e
        d.settle()
        #expect(d.lifts == 2)
        d.send(.move(pointer: 1, at: Point(x: 50, y: 140)), at: 700)   // a past b
        d.send(.move(pointer: 2, at: Point(x: 50, y: 440)), at: 710)   // e into done
        d.send(.up(pointer: 2, at: Point(x: 50, y: 440)), at: 720)
        #expect(d.commits.last?.order.map(\.items) == [["a", "b", "c", "d"], [], ["e"]])
        d.send(.up(pointer: 1, at: Point(x: 50, y: 140)), at: 730)
        #expect(d.commits.last?.order.map(\.items) == [["b", "a", "c", "d"], [], ["e"]])
        #expect(d.commits.map(\.version) == [1, 2])
    }

    /// docs/protocol.md, "Several pointers": a drag whose index another drag's pass shifted
    /// gets no `moved` for it (a `moved` is the moving drag's own); its cell shows the new place,
    /// its drop says it, and a drop there after the same item as committed commits nothing.
    @Test func aDragShiftedByAnotherDragsPassGetsNoMoved() {
        // One section of 4 rows, 56 tall, spacing 1, under a 32 px header: midpoints 60, 117, 174, 231.
        var d = Driver(Fixtures.longList(4))
        d.send(.down(pointer: 1, at: Point(x: 50, y: 60), kind: .touch), at: 0)    // i0
        d.send(.down(pointer: 2, at: Point(x: 50, y: 231), kind: .touch), at: 0)   // i3
        d.settle()
        #expect(d.lifts == 2)
        d.send(.move(pointer: 2, at: Point(x: 50, y: 211)), at: 600)   // 20 px up: passes nothing
        d.send(.move(pointer: 1, at: Point(x: 50, y: 150)), at: 700)   // i0 past i1
        // i0 past i2 and past i3 (held, its still center at 211 is short of i0's new midpoint
        // 231 and beyond i2's 117 the other way, so the pass stands): i3 goes from index 3 to 2.
        let out = d.send(.move(pointer: 1, at: Point(x: 50, y: 235)), at: 800)
        #expect(d.order == [["i1", "i2", "i3", "i0"]])
        let moved = out.compactMap { if case .moved(let p, let id, _, let to) = $0 { "\(p) \(id) \(to.index)" } else { nil } }
        #expect(moved == ["1 i0 3"])
        #expect(!d.out.contains { if case .moved(2, _, _, _) = $0 { true } else { false } })
        let dropped = d.send(.up(pointer: 2, at: Point(x: 50, y: 211)), at: 900)
        #expect(dropped.contains(.drop(p: 2, id: "i3", at: Place(section: "all", index: 2), cancelled: false)))
        #expect(d.commits.isEmpty)   // after i2, as committed: nothing changed
    }

    @Test func anItemLiftedByOnePointerCannotBeLiftedByAnother() {
        var d = Driver(Fixtures.listBoard())
        d.send(.down(pointer: 1, at: Point(x: 50, y: 60), kind: .touch), at: 0)
        d.settle()
        d.send(.down(pointer: 2, at: Point(x: 60, y: 60), kind: .touch), at: 700)
        d.settle()
        #expect(d.lifts == 1)
    }

    @Test func aSecondDownForTheSamePointerIsABadMessage() {
        var d = Driver(Fixtures.listBoard())
        d.send(.down(pointer: 1, at: Point(x: 50, y: 60), kind: .mouse), at: 0)
        d.send(.down(pointer: 1, at: Point(x: 50, y: 60), kind: .mouse), at: 1)
        #expect(d.errors == [.badMessage])
    }
}
