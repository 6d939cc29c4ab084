import Testing
@testable import LiftboardCore

/// Issue 44, holds across processes: a keyboard lift, `moveTo` and tap-to-add go through the
/// claim as a press does (`ClaimWait`), and a press claims what its lift would carry (a
/// selection, a subtree) at the `down`. Board: todo a (y 32-88), b (88-144), c (pinned), d;
/// doing e; done (empty).
@Suite struct ClaimWaitTests {
    static let onA = Point(x: 50, y: 60), onB = Point(x: 50, y: 116)

    @Test func aKeyboardLiftWaitsForItsClaimAndLiftsWhenItIsWon() {
        var d = ClaimTests.driver()
        d.send(.key("Tab"), at: 10)   // focuses a
        d.send(.key(" "), at: 20)
        #expect(d.lifts == 0, "no answer yet: nothing lifts")
        #expect(d.session.takeClaimAsks() == ["a"] && d.session.claimsWanted == ["a"])
        d.send(.claim(.answer(item: "a", holder: nil)), at: 30)
        #expect(d.lifts == 1 && d.errors.isEmpty)
        #expect(d.announcements.last?.hasPrefix("Lifted a,") == true, "\(d.announcements)")
        #expect(d.session.claimsWanted == ["a"], "held: still wanted")
        d.send(.key("ArrowDown"), at: 40)
        d.send(.key(" "), at: 50)
        d.settle()
        #expect(d.ownCommits.count == 1 && d.session.claimsWanted.isEmpty)
    }

    @Test func aKeyboardLiftWhoseClaimIsLostGetsHeld() {
        var d = ClaimTests.driver()
        d.send(.key("Tab"), at: 10)
        d.send(.key(" "), at: 20)
        let out = d.send(.claim(.answer(item: "a", holder: "Ana")), at: 30)
        #expect(d.lifts == 0 && d.errors == [.held])
        #expect(out.contains { if case .error(.held, "keyboard lift: a is held by Ana") = $0 { true } else { false } })
        #expect(d.announcements.last == "Ana is moving a.")
        #expect(OthersHoldsTests.heldBy("a", in: out) == .some("Ana"))
        #expect(d.session.claimsWanted.isEmpty, "nothing waits: nothing wanted")
    }

    @Test func aMoveToWaitsForItsClaimAndCommitsWhenItIsWonOrIsRefusedWhenLost() {
        var d = ClaimTests.driver()
        d.send(.moveTo(id: "a", section: "done", place: .first), at: 10)
        #expect(d.ownCommits.isEmpty && d.session.claimsWanted == ["a"])
        d.send(.claim(.answer(item: "a", holder: nil)), at: 20)
        #expect(d.ownCommits.count == 1 && d.errors.isEmpty)
        #expect(d.session.claimsWanted.isEmpty, "committed: given up")
        d.send(.moveTo(id: "b", section: "done", place: .first), at: 30)
        let out = d.send(.claim(.answer(item: "b", holder: "Bo")), at: 40)
        #expect(d.ownCommits.count == 1 && d.errors == [.held])
        #expect(out.contains { if case .error(.held, "moveTo: b is held by Bo") = $0 { true } else { false } })
        #expect(d.session.claimsWanted.isEmpty)
        // Bo's drop reaches the session; then the store is down: b moves as on one process.
        d.send(.presence(OthersHoldsTests.presence([])), at: 45)
        d.send(.moveTo(id: "b", section: "done", place: .last), at: 50)
        d.send(.claim(.failed(item: "b")), at: 60)
        #expect(d.ownCommits.count == 2 && d.errors == [.held])
    }

    @Test func aMoveToIsCheckedAgainWhenTheAnswerComes() {
        // While the answer was on its way an edit from elsewhere removed the item.
        var d = ClaimTests.driver()
        d.send(.moveTo(id: "a", section: "done", place: .first), at: 10)
        var board = d.board
        let change = Change.removeItem("a")
        let moves = board.apply(change)!
        d.send(.external(Commit(board: board.id, version: board.version, by: "s2", moves: moves, order: board.order, change: change)), at: 20)
        d.board = board
        d.send(.claim(.answer(item: "a", holder: nil)), at: 30)
        #expect(d.ownCommits.isEmpty && d.errors == [.cannotMove])
    }

    @Test func aTapToAddWaitsForTheTappedItemsClaim() {
        var d = ClaimTests.driver()
        d.send(.down(pointer: 1, at: Self.onB, kind: .touch), at: 100)
        d.send(.claim(.answer(item: "b", holder: nil)), at: 110)
        d.send(.move(pointer: 1, at: Self.onB), at: 700)
        #expect(d.lifts == 1)
        _ = d.session.takeClaimAsks()
        // A tap on d, lost: error held (one answer to the press's ask, one to the tap's).
        d.send(.down(pointer: 3, at: Point(x: 50, y: 268), kind: .touch), at: 702)
        d.send(.up(pointer: 3, at: Point(x: 50, y: 268)), at: 704)
        d.send(.claim(.answer(item: "d", holder: "Ana")), at: 706)
        let out = d.send(.claim(.answer(item: "d", holder: "Ana")), at: 708)
        #expect(d.lifts == 1 && d.errors == [.held])
        #expect(out.contains { if case .error(.held, "tap-to-add: d is held by Ana") = $0 { true } else { false } })
        d.send(.down(pointer: 2, at: Self.onA, kind: .touch), at: 710)
        d.send(.up(pointer: 2, at: Self.onA), at: 720)
        #expect(d.lifts == 1, "the tap waits for a's claim")
        #expect(d.session.claimsWanted == ["a", "b"])
        d.send(.claim(.answer(item: "a", holder: nil)), at: 730)   // the press's
        d.send(.claim(.answer(item: "a", holder: nil)), at: 740)   // the tap's
        #expect(d.lifts == 2 && d.announcements.last == "2 items lifted.")
    }

    @Test func aPressOnASelectedItemClaimsTheSelectionAtTheDownAndLeavesOutWhatWasLost() {
        var d = ClaimTests.driver()
        MultiDragTests.click(&d, y: 60, .ctrl, at: 0)     // a
        MultiDragTests.click(&d, y: 268, .ctrl, at: 100)  // d
        // The clicks' presses asked too: answered, and given up.
        d.send(.claim(.answer(item: "a", holder: nil)), at: 150)
        d.send(.claim(.answer(item: "d", holder: nil)), at: 160)
        _ = d.session.takeClaimAsks()
        d.send(.down(pointer: 1, at: Self.onA, kind: .touch), at: 200)
        #expect(d.session.takeClaimAsks() == ["a", "d"], "the selection is claimed with the pressed item")
        #expect(d.session.claimsWanted == ["a", "d"])
        d.send(.claim(.answer(item: "a", holder: nil)), at: 210)
        d.send(.move(pointer: 1, at: Self.onA), at: 800)
        #expect(d.lifts == 0, "d's answer is not back: the lift waits")
        d.send(.claim(.answer(item: "d", holder: "Ana")), at: 820)
        #expect(d.lifts == 1, "a lifts alone: d is Ana's")
        #expect(d.session.claimsWanted == ["a"])
    }

    @Test func aPressOnATreeItemClaimsItsSubtreeAndLiftsNothingWhenADescendantIsHeld() {
        // Rows (44, header 32): groceries 32-76 (milk, eggs under it), milk, eggs, garden, bills.
        var d = Driver(TreeSpringTests.board())
        d.send(.claim(.required), at: 1)
        let onGroceries = Point(x: 200, y: 54)
        d.send(.down(pointer: 1, at: onGroceries, kind: .touch), at: 100)
        #expect(d.session.takeClaimAsks() == ["groceries", "milk", "eggs"])
        d.send(.claim(.answer(item: "groceries", holder: nil)), at: 110)
        d.send(.claim(.answer(item: "milk", holder: nil)), at: 120)
        let out = d.send(.claim(.answer(item: "eggs", holder: "Ana")), at: 130)
        #expect(OthersHoldsTests.heldBy("eggs", in: out) == nil, "not told before the long press")
        d.send(.move(pointer: 1, at: onGroceries), at: 700)
        #expect(d.lifts == 0 && d.announcements == ["Ana is moving Eggs."])
        #expect(d.session.claimsWanted.isEmpty)
        // Ana's drop reaches the session; then won, all of it: the subtree lifts and is wanted
        // whole.
        d.send(.up(pointer: 1, at: onGroceries), at: 710)
        d.send(.presence(OthersHoldsTests.presence([])), at: 720)
        d.send(.down(pointer: 1, at: onGroceries, kind: .touch), at: 800)
        for id in ["groceries", "milk", "eggs"] { d.send(.claim(.answer(item: id, holder: nil)), at: 810) }
        d.send(.move(pointer: 1, at: onGroceries), at: 1400)
        #expect(d.lifts == 1)
        #expect(d.session.claimsWanted == ["groceries", "milk", "eggs"])
    }

    @Test func onOneProcessASubtreeWithADescendantHeldByAnotherSessionLiftsNothing() {
        var d = Driver(TreeSpringTests.board())
        d.send(.presence(OthersHoldsTests.presence(["eggs"])), at: 5)
        let onGroceries = Point(x: 200, y: 54)
        d.send(.down(pointer: 1, at: onGroceries, kind: .touch), at: 100)
        d.send(.move(pointer: 1, at: onGroceries), at: 700)
        #expect(d.lifts == 0 && d.announcements == ["Ana is moving Eggs."])
        d.send(.up(pointer: 1, at: onGroceries), at: 710)
        d.send(.moveTo(id: "groceries", section: "work", place: .first), at: 720)
        #expect(d.errors == [.held] && d.ownCommits.isEmpty)
        #expect(d.out.contains { if case .error(.held, "moveTo: eggs is held by Ana") = $0 { true } else { false } })
        // Bills, with no held descendant, lifts.
        d.send(.down(pointer: 1, at: Point(x: 200, y: 230), kind: .touch), at: 800)
        d.send(.move(pointer: 1, at: Point(x: 200, y: 230)), at: 1400)
        #expect(d.lifts == 1)
    }
}
