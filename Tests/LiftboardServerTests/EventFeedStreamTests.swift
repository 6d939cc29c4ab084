import LiftboardCore
import LiftboardStore
import Testing
@testable import LiftboardServer

@Suite struct EventFeedStreamTests {
    func commit(_ v: Int, _ change: Change? = .swap("a", "b")) -> DurableCommit {
        DurableCommit(board: "demo", version: v, by: "s1", at: 1000, change: change, origin: "p", token: v)
    }

    /// The `id:` lines of what is queued, in order.
    func ids(_ s: inout EventFeedStream) -> [Int] {
        String(decoding: s.takeQueued(), as: UTF8.self).split(separator: "\n").compactMap { line in
            line.hasPrefix("id: ") ? Int(line.dropFirst(4)) : nil
        }
    }

    @Test("a stream at the board's version is live: each commit goes once, in order, none at or below what was sent")
    func live() {
        var s = EventFeedStream(board: "demo", after: 3, current: 3)
        #expect(!s.isCatchingUp)
        #expect(String(decoding: s.takeQueued(), as: UTF8.self) == ": liftboard events for board demo after version 3\n\n")
        for v in [2, 3, 4, 4, 5] { s.live(commit(v)) }
        #expect(ids(&s) == [4, 5])
        #expect(s.takeQueued().isEmpty)
    }

    @Test("a resumed stream sends what the store read first, then the live commits held meanwhile, without a gap or a repeat")
    func catchUp() {
        var s = EventFeedStream(board: "demo", after: 1, current: 4)
        #expect(s.isCatchingUp)
        _ = s.takeQueued()
        s.live(commit(4))
        s.live(commit(5))
        #expect(s.takeQueued().isEmpty)
        s.caughtUp([commit(2), commit(3), commit(4)])
        #expect(!s.isCatchingUp && ids(&s) == [2, 3, 4, 5])
        s.live(commit(6))
        #expect(ids(&s) == [6])
    }

    @Test("a store that could not read the missed versions ends the stream")
    func catchUpFailed() {
        var s = EventFeedStream(board: "demo", after: 0, current: 2)
        s.caughtUp(nil)
        #expect(s.closing)
    }

    @Test("a client that does not read is closed past the queue's bound")
    func bound() {
        var s = EventFeedStream(board: "demo", after: 0, current: 0)
        let big = Item(id: "x", label: String(repeating: "l", count: 1000), color: "#fff")
        var v = 0
        while !s.closing && v < 10_000 {
            v += 1
            s.live(commit(v, .addItem(big, section: "s", after: nil)))
        }
        #expect(s.closing && s.queued.count > EventFeedStream.maxQueuedBytes)
    }

    @Test("an event is id, event (commit or edit) and the commit as data; a heartbeat is a comment")
    func frames() {
        #expect(String(decoding: EventFeedStream.event(commit(7, .swap("a", "b"))), as: UTF8.self)
            == "id: 7\nevent: commit\ndata: {\"board\":\"demo\",\"version\":7,\"by\":\"s1\",\"user\":null,\"name\":null,\"at\":1000,\"change\":{\"swap\":[\"a\",\"b\"]}}\n\n")
        // Issue 42: a signed commit names its user and their name.
        var signed = commit(9)
        signed.user = "u-ada"; signed.name = "Ada"
        #expect(String(decoding: EventFeedStream.event(signed), as: UTF8.self).contains(#""by":"s1","user":"u-ada","name":"Ada","at":1000"#))
        #expect(String(decoding: EventFeedStream.event(commit(8, .removeItem("a"))), as: UTF8.self).hasPrefix("id: 8\nevent: edit\n"))
        var s = EventFeedStream(board: "demo", after: 0, current: 0)
        _ = s.takeQueued()
        s.heartbeat()
        #expect(String(decoding: s.takeQueued(), as: UTF8.self) == ": heartbeat\n\n")
        s.close()
        #expect(s.closing)
    }
}
