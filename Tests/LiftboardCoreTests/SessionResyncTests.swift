import Testing
@testable import LiftboardCore

/// A recorded `resync` line, replayed through `handle`, does what the live hub's
/// `Session.resync(to:)` does: the same events, no timers fired, the drag kept.
@Suite struct SessionResyncTests {
    static let storeOrder = [SectionOrder(section: "todo", items: ["b", "a", "c", "d"]),
                             SectionOrder(section: "doing", items: ["e"]),
                             SectionOrder(section: "done", items: [])]

    @Test func aResyncEventAnswersWhatTheHubsResyncAnswersAndFiresNoTimer() {
        var d = Driver(Fixtures.listBoard())
        // d is pressed on but not yet lifted: its long press is due at 600.
        d.send(.down(pointer: 1, at: Point(x: 50, y: 250), kind: .touch), at: 100)
        var live = d.session
        var board = Fixtures.listBoard()
        let items = Dictionary(uniqueKeysWithValues: board.sections[0].items.map { ($0.id, $0) })
        board.sections[0].items = ["b", "a", "c", "d"].map { items[$0]! }
        board.version = 3
        #expect(board.order == Self.storeOrder)
        let fromHub = live.resync(to: board)
        let fromLine = d.send(.resync(version: 3, order: Self.storeOrder), at: 900)
        #expect(fromLine == fromHub)
        #expect(fromLine.count == 1)
        guard case .layout(let l)? = fromLine.first else { Issue.record("\(fromLine)"); return }
        #expect(l.version == 3)
        #expect(d.session.committedOrder == Self.storeOrder)
        #expect(d.session.nextDeadline == 600, "the long press has not fired: a resync moves no clock")
        #expect(d.lifts == 0)
    }

    @Test func aResyncToAnOrderThatIsNotTheBoardsChangesNothing() {
        var d = Driver(Fixtures.listBoard())
        let before = d.session.committedOrder
        let out = d.send(.resync(version: 2, order: [SectionOrder(section: "todo", items: ["a"])]), at: 10)
        #expect(out.isEmpty)
        #expect(d.session.committedOrder == before)
        #expect(d.session.version == 0)
    }
}

@Suite struct SessionResyncScrollTests {
    /// Found by the session fuzzer: a resync to a shorter order left the scroll offset past the
    /// end of the content.
    @Test func aResyncToAShorterOrderKeepsTheScrollInsideTheContent() {
        var d = Driver(Fixtures.listBoard(), viewport: Viewport(w: 400, h: 300))
        d.send(.wheel(dx: 0, dy: 10_000), at: 10)
        guard case .layout(let before)? = d.session.resync(to: Fixtures.listBoard().order, version: 0).first else {
            Issue.record("no layout"); return
        }
        let bottom = before.content.h - 300
        #expect(before.scroll.y == bottom && bottom > 0, "scrolled to the end")
        // b (96 tall) leaves "To do" for the empty "Done", whose drop slot (56) it replaces.
        let shorter = [SectionOrder(section: "todo", items: ["a", "c", "d"]), SectionOrder(section: "doing", items: ["e"]),
                       SectionOrder(section: "done", items: ["b"])]
        guard case .layout(let after)? = d.send(.resync(version: 1, order: shorter), at: 20).first else {
            Issue.record("no layout"); return
        }
        #expect(after.content.h < before.content.h, "the order is shorter")
        #expect(after.scroll.y == max(0, after.content.h - 300))
    }
}
