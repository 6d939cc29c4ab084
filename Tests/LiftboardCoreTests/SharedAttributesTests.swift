import Testing
@testable import LiftboardCore

/// Sessions on one board that see it differently (issue 28, memory sized to need) hold one
/// copy of the board's item attributes between them, and answer as they did.
@Suite struct SharedAttributesTests {
    static func storage<T>(_ a: [T]) -> UnsafeRawPointer? { a.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) } }

    @Test func twoSessionsWithOtherViewportsShareTheItemAttributesAndAnswerAsBefore() {
        let board = Fixtures.longList(300)
        func hello(_ s: inout Session, w: Double) {
            _ = s.handle(.hello(Hello(board: board.id, viewport: Viewport(w: w, h: 500))), at: 0) { _ in board }
        }
        var a = Session(id: "a"), b = Session(id: "b"), alone = Session(id: "b")
        hello(&a, w: 400)
        hello(&b, w: 300)
        hello(&alone, w: 300)
        let before = b.liveBox!.session.arr
        #expect(Self.storage(before.labels) != Self.storage(a.liveBox!.session.arr.labels), "each built its own")
        let tookView = b.shareView(with: a)
        #expect(!tookView, "not the same view")
        let after = b.liveBox!.session.arr
        for (x, y) in [(Self.storage(after.labels), Self.storage(a.liveBox!.session.arr.labels)),
                       (Self.storage(after.ids), Self.storage(a.liveBox!.session.arr.ids)),
                       (Self.storage(after.cards), Self.storage(a.liveBox!.session.arr.cards)),
                       (Self.storage(after.heights), Self.storage(a.liveBox!.session.arr.heights))] {
            #expect(x == y, "shared")
        }
        // The session that shares answers a drag and a commit from elsewhere as one that does not.
        let events: [(ClientEvent, Double)] = [
            (.down(pointer: 1, at: Point(x: 100, y: 100), kind: .touch), 10), (.move(pointer: 1, at: Point(x: 100, y: 110)), 700),
            (.move(pointer: 1, at: Point(x: 100, y: 300)), 720), (.up(pointer: 1, at: Point(x: 100, y: 300)), 740),
        ]
        for (e, t) in events {
            let shared = b.handle(e, at: t), own = alone.handle(e, at: t)
            #expect(shared == own)
        }
        #expect(b.committedOrder == alone.committedOrder)
        #expect(b.committedOrder != a.committedOrder, "the drag committed")
    }
}
