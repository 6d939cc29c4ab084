import Testing
@testable import LiftboardCore

/// Grid geometry of `Fixtures.gridBoard(6)` at width 400: 3 columns of 120 with 8 between;
/// header 0-32; row 0 at 32-152, row 1 at 160-280; "empty" header 280-312, slot 312-432.
@Suite struct SessionModesTests {
    @Test func aGridDragTakesThePlaceOfTheCellItsCenterEnters() {
        var d = Driver(Fixtures.gridBoard())
        // g0 (center 60, 92) into g4's frame (x 128-248, y 160-280).
        d.drag(from: Point(x: 60, y: 92), to: Point(x: 190, y: 220), at: 0)
        #expect(d.commits.last?.order.first?.items == ["g1", "g2", "g3", "g4", "g0", "g5"])
    }

    @Test func aGridDragIntoAnEmptySectionsSlot() {
        var d = Driver(Fixtures.gridBoard())
        d.drag(from: Point(x: 60, y: 92), to: Point(x: 60, y: 380), at: 0)
        #expect(d.commits.last?.order.map(\.items) == [["g1", "g2", "g3", "g4", "g5"], ["g0"]])
    }

    @Test func gridMovesFreelyAndHoldingStillMovesNothing() {
        var d = Driver(Fixtures.gridBoard())
        d.drag(from: Point(x: 60, y: 92), to: Point(x: 190, y: 92), at: 0, release: false)
        let n = d.moves.count
        for k in 0..<20 { d.send(.move(pointer: 1, at: Point(x: 190, y: 92)), at: 2000 + Double(k)) }
        #expect(d.moves.count == n)
        #expect(d.order[0] == ["g1", "g0", "g2", "g3", "g4", "g5"])
    }

    @Test func swapModeExchangesTheDraggedItemWithTheTarget() {
        var config = SessionConfig()
        config.mode = .swap
        var d = Driver(Fixtures.listBoard(pinned: false), config: config)
        // a onto d (243-299): a and d exchange, b and c stay.
        d.drag(from: Point(x: 50, y: 60), to: Point(x: 50, y: 270), at: 0)
        #expect(d.commits.last?.order.first?.items == ["d", "b", "c", "a"])
        #expect(d.commits.last?.moves.count == 2)
    }

    @Test func swapModeBackOverItsOwnPlaceRestoresTheLiftOrder() {
        var config = SessionConfig()
        config.mode = .swap
        var d = Driver(Fixtures.listBoard(pinned: false), config: config)
        d.drag(from: Point(x: 50, y: 60), to: Point(x: 50, y: 270), at: 0, release: false)
        d.send(.move(pointer: 1, at: Point(x: 50, y: 60)), at: 3000)
        d.send(.up(pointer: 1, at: Point(x: 50, y: 60)), at: 3016)
        #expect(d.commits.isEmpty)
    }

    @Test func keyboardReorderingAnnouncesEveryStepAndCommits() {
        var d = Driver(Fixtures.listBoard())
        d.send(.key("Tab"), at: 0)            // focuses a
        d.send(.key("ArrowDown"), at: 10)     // focus b
        d.send(.key(" "), at: 20)             // lift b
        d.send(.key("ArrowUp"), at: 30)       // b before a
        d.send(.key("Enter"), at: 40)         // drop
        #expect(d.commits.last?.order.first?.items == ["b", "a", "c", "d"])
        #expect(d.announcements.count == 5)
        #expect(d.announcements[2].hasPrefix("Lifted b"))
        #expect(d.announcements[3] == "b moved to position 1 of 4 in To do.")
        #expect(d.announcements[4] == "Dropped b, position 1 of 4 in To do.")
    }

    @Test func keyboardMovesHopPinnedItemsCrossSectionsAndEscapeCancels() {
        var d = Driver(Fixtures.listBoard())
        d.send(.key("Tab"), at: 0)
        d.send(.key("ArrowDown"), at: 1)      // b
        d.send(.key(" "), at: 2)
        d.send(.key("ArrowDown"), at: 3)      // past pinned c: after d
        #expect(d.order[0] == ["a", "d", "c", "b"])
        d.send(.key("ArrowDown"), at: 4)      // into "doing" at 0
        #expect(d.order[1] == ["b", "e"])
        d.send(.key("Escape"), at: 5)
        #expect(d.order == [["a", "b", "c", "d"], ["e"], []])
        #expect(d.commits.isEmpty)
        #expect(d.announcements.last?.hasPrefix("Cancelled.") == true)
    }

    @Test func aPinnedItemCannotBeLiftedByKeyboardOrPointer() {
        var d = Driver(Fixtures.listBoard())
        d.send(.key("Tab"), at: 0)
        d.send(.key("ArrowDown"), at: 1)
        d.send(.key("ArrowDown"), at: 2)      // c, pinned
        d.send(.key(" "), at: 3)
        #expect(d.announcements.last == "c is pinned and cannot be moved.")
        d.send(.down(pointer: 1, at: Point(x: 50, y: 214), kind: .mouse), at: 10)
        d.settle()
        #expect(d.lifts == 0)
    }

    @Test func edgeAutoScrollMovesTheContentAndRetargetsEveryTickUntilTheEnd() {
        var d = Driver(Fixtures.longList(60))
        // Lift i0 and hold the pointer deep in the bottom band.
        d.send(.down(pointer: 1, at: Point(x: 50, y: 60), kind: .touch), at: 0)
        d.settle()
        d.send(.move(pointer: 1, at: Point(x: 50, y: 590)), at: 600)
        var last = d.session.scrollY ?? 0
        var t = 600.0
        for _ in 0..<20 {   // 1,000 px/s at this depth: 2,000 px of the 2,851 there are
            t += 100
            d.send(.move(pointer: 1, at: Point(x: 50, y: 590)), at: t)
            let now = d.session.scrollY ?? 0
            #expect(now > last)
            last = now
        }
        #expect(d.moves.count >= 20)   // the target follows the scrolling content
        d.settle()
        let maxScroll = 32 + 60 * 57 - 1 - 600.0
        #expect(d.session.scrollY == maxScroll)
        #expect(d.session.nextDeadline == nil)
        #expect(d.order[0].last == "i0")
    }

    @Test func aCommitFromAnotherSessionMidDragKeepsTheLiftedItem() {
        var d = Driver(Fixtures.listBoard(pinned: false))
        d.drag(from: Point(x: 50, y: 60), to: Point(x: 50, y: 140), at: 0, release: false)
        #expect(d.order[0] == ["b", "a", "c", "d"])
        let other = Commit(board: "demo", version: 1, by: "other", moves: [],
                           order: [SectionOrder(section: "todo", items: ["d", "c", "b", "a"]),
                                   SectionOrder(section: "doing", items: ["e"]),
                                   SectionOrder(section: "done", items: [])])
        d.send(.external(other), at: 2000)
        #expect(d.order[0][1] == "a")   // still where it was held
        d.send(.up(pointer: 1, at: Point(x: 50, y: 140)), at: 2100)
        #expect(d.commits.last?.version == 2)
        #expect(d.commits.last?.order.first?.items == ["d", "a", "c", "b"])
    }

    @Test func aStaleOrMalformedExternalCommitIsRefused() {
        var d = Driver(Fixtures.listBoard())
        let bad = Commit(board: "demo", version: 1, by: "x", moves: [], order: [SectionOrder(section: "todo", items: ["a"])])
        d.send(.external(bad), at: 10)
        #expect(d.errors == [.badMessage])
        #expect(d.session.version == 0)
    }

    @Test func resizeRelayoutsTheGridAndSendsAWholeLayout() {
        var d = Driver(Fixtures.gridBoard())
        let o = d.send(.resize(Viewport(w: 260, h: 600)), at: 10)
        guard case .layout(let l) = o.last else { Issue.record("\(o)"); return }
        #expect(l.cells[2].frame == Rect(x: 0, y: 160, w: 120, h: 120))  // 2 columns now
    }

    @Test func reducedMotionMakesEveryTransitionInstant() {
        var config = SessionConfig()
        config.reducedMotion = true
        var d = Driver(Fixtures.listBoard(), config: config)
        d.drag(from: Point(x: 50, y: 60), to: Point(x: 50, y: 140), at: 0)
        var cells = 0, snapshots = 0
        for case .frame(let f) in d.out {
            for c in f.cells { #expect(c.dur == 0); cells += 1 }
            for s in f.snapshots { #expect((s.dur ?? 0) == 0 && (s.moveDur ?? 0) == 0); snapshots += 1 }
        }
        // The drag shifted cells and moved, lifted and dropped a snapshot: all of it was checked.
        #expect(cells >= 2 && snapshots >= 3)
        #expect(d.commits.count == 1)
    }
}
