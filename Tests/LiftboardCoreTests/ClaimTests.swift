import Testing
@testable import LiftboardCore

/// Issue 44, holds across processes: with `ClaimInput.required` a press asks for its item's
/// claim at the `down`, and the long press lifts only on a won answer (an input).
/// Board: todo a (y 32-88), b, c (pinned), d; doing e; done (empty).
@Suite struct ClaimTests {
    static let onA = Point(x: 50, y: 60)

    static func driver() -> Driver {
        var d = Driver(Fixtures.listBoard())
        d.send(.claim(.required), at: 1)
        return d
    }

    @Test func aPressAsksAtTheDownAndLiftsAtTheDeadlineWhenTheClaimWasWonFirst() {
        var d = Self.driver()
        d.send(.down(pointer: 1, at: Self.onA, kind: .touch), at: 100)
        let r1 = d.session.takeClaimAsks()
        #expect(r1 == ["a"])
        #expect(d.session.claimsWanted == ["a"])
        d.send(.claim(.answer(item: "a", holder: nil)), at: 110)
        #expect(d.lifts == 0, "the long press has not begun")
        d.send(.move(pointer: 1, at: Self.onA), at: 700)
        #expect(d.lifts == 1)
        #expect(d.session.claimsWanted == ["a"], "held: still wanted")
        d.send(.up(pointer: 1, at: Self.onA), at: 800)
        d.settle()
        #expect(d.session.claimsWanted.isEmpty, "dropped: given up")
    }

    @Test func aLiftWaitsForItsClaimAndGoesWhenItIsWon() {
        var d = Self.driver()
        d.send(.down(pointer: 1, at: Self.onA, kind: .touch), at: 100)
        d.send(.move(pointer: 1, at: Self.onA), at: 700)
        #expect(d.lifts == 0, "no answer yet: nothing lifts")
        #expect(d.session.claimsWanted == ["a"], "still waiting: still wanted")
        let out = d.send(.claim(.answer(item: "a", holder: nil)), at: 900)
        #expect(out.contains { if case .lift = $0 { true } else { false } })
        #expect(d.lifts == 1)
    }

    @Test func aClaimWonAfterItsRowWasHiddenLiftsNothing() {
        // Found by the tree fuzzer: a press on milk waits for its claim, a collapse of
        // groceries hides milk's row, then the claim is won. Rows (44, header 32): groceries,
        // milk (76 ..< 120), eggs, garden (collapsed), bills.
        var d = Driver(TreeSpringTests.board())
        d.send(.claim(.required), at: 1)
        let onMilk = Point(x: 200, y: 98)
        d.send(.down(pointer: 1, at: onMilk, kind: .touch), at: 100)
        d.send(.move(pointer: 1, at: onMilk), at: 700)
        #expect(d.lifts == 0, "no answer yet: nothing lifts")
        d.send(.toggle(id: "groceries"), at: 750)
        #expect(!(d.session.liveOrder?[0].items.contains("milk") ?? true), "milk's row is hidden")
        d.send(.claim(.answer(item: "milk", holder: nil)), at: 900)
        #expect(d.lifts == 0, "the row under the pointer is no longer milk's")
        #expect(d.session.claimsWanted.isEmpty, "the pointer asks for nothing more")
    }

    @Test func aClaimAnsweredAfterAnEditRenumberedTheItemsNamesItsItemById() {
        // Found by the tree fuzzer: the pointer kept the item's handle; an edit from elsewhere
        // removed an item before it, and the answer read a handle past the end (a crash).
        var d = Self.driver()
        let onD = Point(x: 50, y: 268)
        d.send(.down(pointer: 1, at: onD, kind: .touch), at: 100)
        #expect(d.session.takeClaimAsks() == ["d"])
        d.send(.move(pointer: 1, at: onD), at: 700)
        var board = d.board
        let change = Change.removeItem("a")
        let moves = board.apply(change)!
        d.send(.external(Commit(board: board.id, version: board.version, by: "s2", moves: moves, order: board.order, change: change)), at: 710)
        d.board = board
        #expect(d.session.claimsWanted == ["d"], "still waiting for d, by its id")
        d.send(.claim(.answer(item: "d", holder: nil)), at: 900)
        #expect(d.lifts == 0, "d moved up from under the pointer: nothing lifts")
    }

    @Test func aLostClaimLiftsNothingMarksTheCellAndSaysWhoMovesIt() {
        var d = Self.driver()
        d.send(.down(pointer: 1, at: Self.onA, kind: .touch), at: 100)
        d.send(.move(pointer: 1, at: Self.onA), at: 700)
        let out = d.send(.claim(.answer(item: "a", holder: "Ana")), at: 720)
        #expect(d.lifts == 0)
        #expect(d.announcements == ["Ana is moving a."])
        #expect(OthersHoldsTests.heldBy("a", in: out) == .some("Ana"))
        #expect(d.session.claimsWanted.isEmpty)
        // Lost before the deadline: refused at the deadline.
        d.send(.up(pointer: 1, at: Self.onA), at: 730)
        d.send(.presence(OthersHoldsTests.presence([])), at: 740)
        d.send(.down(pointer: 1, at: Self.onA, kind: .touch), at: 800)
        d.send(.claim(.answer(item: "a", holder: "Bo")), at: 810)
        d.send(.move(pointer: 1, at: Self.onA), at: 1400)
        #expect(d.lifts == 0 && d.announcements == ["Ana is moving a.", "Bo is moving a."])
    }

    @Test func anEarlierPressesLateAnswerDoesNotLiftALaterPress() {
        var d = Self.driver()
        d.send(.down(pointer: 1, at: Self.onA, kind: .touch), at: 100)
        d.send(.up(pointer: 1, at: Self.onA), at: 150)   // a tap: its claim is still out
        d.send(.down(pointer: 1, at: Self.onA, kind: .touch), at: 200)
        let r2 = d.session.takeClaimAsks()
        #expect(r2 == ["a", "a"])
        d.send(.claim(.answer(item: "a", holder: nil)), at: 210)   // the tap's
        d.send(.move(pointer: 1, at: Self.onA), at: 800)
        #expect(d.lifts == 0, "the second press's claim is not answered yet")
        d.send(.claim(.answer(item: "a", holder: "Ana")), at: 820)
        #expect(d.lifts == 0 && d.announcements == ["Ana is moving a."])
    }

    @Test func aClaimTheStoreCouldNotMakeLiftsAsOnOneProcess() {
        var d = Self.driver()
        d.send(.down(pointer: 1, at: Self.onA, kind: .touch), at: 100)
        d.send(.claim(.failed(item: "a")), at: 120)
        d.send(.move(pointer: 1, at: Self.onA), at: 700)
        #expect(d.lifts == 1 && d.errors.isEmpty)
        // Answered after the deadline: it lifts then.
        d.send(.up(pointer: 1, at: Self.onA), at: 710)
        d.settle()
        d.send(.down(pointer: 1, at: Self.onA, kind: .touch), at: 2000)
        d.send(.move(pointer: 1, at: Self.onA), at: 2600)
        #expect(d.lifts == 1)
        d.send(.claim(.failed(item: "a")), at: 3000)
        #expect(d.lifts == 2 && d.errors.isEmpty)
    }

    @Test func aViewSessionsPressAsksForNothing() {
        var d = Driver(Fixtures.listBoard(), person: Person(user: "v", name: "Vi", role: .view))
        d.send(.claim(.required), at: 1)
        d.send(.down(pointer: 1, at: Self.onA, kind: .touch), at: 100)
        let asks = d.session.takeClaimAsks()
        #expect(asks.isEmpty && d.session.claimsWanted.isEmpty)
    }

    @Test func withoutClaimsRequiredNothingIsAskedAndThePressLiftsAtOnce() {
        var d = Driver(Fixtures.listBoard())
        d.send(.down(pointer: 1, at: Self.onA, kind: .touch), at: 100)
        let r3 = d.session.takeClaimAsks()
        #expect(r3.isEmpty)
        d.send(.move(pointer: 1, at: Self.onA), at: 700)
        #expect(d.lifts == 1)
    }
}
