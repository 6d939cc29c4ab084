import Testing
@testable import LiftboardCore

/// Issue 44: items other sessions hold reach a session as `presence` inputs; they do not lift
/// here, their cells carry `heldBy`, and the session passes the presence on.
/// Board: todo a, b (96 tall), c (pinned), d; doing e; done (empty).
@Suite struct OthersHoldsTests {
    static func presence(_ holds: [String], mine: [String] = []) -> Presence {
        Presence(board: "demo", people: [
            Presence.Entry(session: "test", name: "Guest 1", color: Presence.color(for: "test"), role: .edit, holds: mine),
            Presence.Entry(session: "s2", user: "ana", name: "Ana", color: Presence.color(for: "ana"), role: .move, holds: holds),
        ], watching: 3)
    }

    /// The `heldBy` a message says of cell `id`: `.some(name)` set, `.some(nil)` cleared.
    static func heldBy(_ id: String, in events: [ServerEvent]) -> String?? {
        for e in events {
            if case .layout(let l) = e, let c = l.cells.first(where: { $0.id == id }) { return .some(c.heldBy) }
            if case .frame(let f) = e, let c = f.cells.first(where: { $0.id == id }) {
                if let h = c.heldBy { return h }
                if let i = c.info { return .some(i.heldBy) }
            }
        }
        return nil
    }

    @Test func aPresenceMarksTheHeldCellsAndIsPassedOnAfterTheFrame() {
        var d = Driver(Fixtures.listBoard())
        let out = d.send(.presence(Self.presence(["a"], mine: ["b"])), at: 10)
        #expect(Self.heldBy("a", in: out) == .some("Ana"))
        #expect(Self.heldBy("b", in: out) == nil, "this session's own holds are not others'")
        guard case .presence(let p)? = out.last else { Issue.record("no presence last: \(out)"); return }
        #expect(p == Self.presence(["a"], mine: ["b"]))
        // The same again: no frame, only the presence.
        let again = d.send(.presence(Self.presence(["a"], mine: ["b"])), at: 20)
        #expect(again.count == 1)
        // The hold ends: the cell is told.
        let ended = d.send(.presence(Self.presence([])), at: 30)
        #expect(Self.heldBy("a", in: ended) == .some(nil))
    }

    @Test func aLongPressOnAHeldItemLiftsNothingAndSaysWhoMovesIt() {
        var d = Driver(Fixtures.listBoard())
        d.send(.presence(Self.presence(["a"])), at: 10)
        d.send(.down(pointer: 1, at: Point(x: 50, y: 60), kind: .touch), at: 100)
        d.send(.move(pointer: 1, at: Point(x: 50, y: 60)), at: 700)
        d.send(.move(pointer: 1, at: Point(x: 50, y: 140)), at: 720)
        d.send(.up(pointer: 1, at: Point(x: 50, y: 140)), at: 740)
        d.settle()
        #expect(d.lifts == 0)
        #expect(d.announcements == ["Ana is moving a."])
        #expect(d.commits.isEmpty && d.order[0] == ["a", "b", "c", "d"])
        // Released: the same press lifts.
        d.send(.presence(Self.presence([])), at: 800)
        d.drag(from: Point(x: 50, y: 60), to: Point(x: 50, y: 140), at: 900)
        #expect(d.lifts == 1 && d.ownCommits.count == 1)
    }

    @Test func aLiftedTreeItemHoldsItsSubtreeAndAPressOnADescendantLiftsNothing() {
        // groceries(0) milk(1) eggs(1) garden(0, collapsed: seeds) bills(0); rows 44, header 32.
        var ana = Driver(TreeSpringTests.board())
        ana.send(.down(pointer: 1, at: Point(x: 200, y: 54), kind: .touch), at: 0)
        ana.send(.move(pointer: 1, at: Point(x: 200, y: 54)), at: 600)
        #expect(ana.lifts == 1)
        #expect(ana.session.holds == ["groceries", "milk", "eggs"])
        // Bo hears it and presses milk (row 2: 76 ..< 120): nothing lifts, Ana is named.
        var bo = Driver(TreeSpringTests.board())
        let out = bo.send(.presence(Self.presence(ana.session.holds)), at: 10)
        #expect(Self.heldBy("milk", in: out) == .some("Ana"))
        bo.send(.down(pointer: 1, at: Point(x: 200, y: 98), kind: .touch), at: 100)
        bo.send(.move(pointer: 1, at: Point(x: 200, y: 98)), at: 700)
        #expect(bo.lifts == 0)
        #expect(bo.announcements == ["Ana is moving Milk."])
    }

    @Test func aKeyboardLiftMoveToOrTapToAddOfAHeldItemGetsHeld() {
        var d = Driver(Fixtures.listBoard())
        d.send(.presence(Self.presence(["a", "e"])), at: 5)
        d.send(.key("Tab"), at: 10)   // focuses a
        d.send(.key(" "), at: 20)     // lift a: held
        #expect(d.errors == [.held] && d.lifts == 0)
        d.send(.moveTo(id: "a", section: "done", place: .first), at: 30)
        #expect(d.errors == [.held, .held] && d.ownCommits.isEmpty)
        // b lifted by a long press; a tap on e (held) adds nothing.
        d.send(.down(pointer: 1, at: Point(x: 50, y: 137), kind: .touch), at: 100)
        d.send(.move(pointer: 1, at: Point(x: 50, y: 137)), at: 700)
        #expect(d.lifts == 1)
        d.send(.down(pointer: 2, at: Point(x: 50, y: 60), kind: .touch), at: 710)
        d.send(.up(pointer: 2, at: Point(x: 50, y: 60)), at: 720)
        #expect(d.errors == [.held, .held, .held] && d.lifts == 1, "tap-to-add of a held a")
    }

    @Test func anEditFromElsewhereKeepsTheOthersHolds() {
        // Found by the session fuzzer: an edit rebuilt the lift table and forgot them.
        var d = Driver(Fixtures.listBoard())
        d.send(.presence(Self.presence(["a"])), at: 10)
        var board = d.board
        let change = Change.addItem(Item(id: "z"), section: "done", after: nil)
        let moves = board.apply(change)!
        d.send(.external(Commit(board: board.id, version: board.version, by: "s2", moves: moves, order: board.order, change: change)), at: 20)
        d.board = board
        d.send(.down(pointer: 1, at: Point(x: 50, y: 60), kind: .touch), at: 100)
        d.send(.move(pointer: 1, at: Point(x: 50, y: 60)), at: 700)
        #expect(d.lifts == 0 && d.announcements.last == "Ana is moving a.")
    }

    /// A watcher of a long board is sent a frame for a hold only when a cell of its window
    /// changed holder; a row held far below comes with its `heldBy` when it enters the window.
    @Test func aHoldOutsideTheWindowSendsNoFrameAndItsRowComesHeldWhenShown() {
        var d = Driver(Fixtures.longList(200))
        let far = d.send(.presence(Self.presence(["i150"])), at: 10)
        #expect(far.count == 1, "only the presence: \(far)")
        let near = d.send(.presence(Self.presence(["i150", "i1"])), at: 20)
        #expect(Self.heldBy("i1", in: near) == .some("Ana"))
        #expect(Self.heldBy("i150", in: near) == nil)
        // Scrolled down to it: i150's row enters the window held.
        guard case .layout(let l)? = d.out.first(where: { if case .layout = $0 { true } else { false } }) else {
            Issue.record("no layout"); return
        }
        var scrolled = d.send(.wheel(dx: 0, dy: l.content.h * 150 / 200), at: 30)
        scrolled += d.settle()
        #expect(Self.heldBy("i150", in: scrolled) == .some("Ana"), "\(scrolled.count) messages")
    }
}
