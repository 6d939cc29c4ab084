import Testing
import LiftboardCore
import LiftboardWire
@testable import LiftboardServer

/// The outgoing queue's rule for `presence` (issue 44, item 5): a presence still queued is
/// replaced by a newer one, which goes last; nothing else changes its place.
@Suite struct OutgoingPresenceTests {
    typealias Q = OutgoingQueue

    static func presence(watching: Int, holds: [String] = []) -> Q.Message {
        let ana = Presence.Entry(session: "s1", user: "ana", name: "Ana", color: Presence.color(for: "ana"), role: .move, holds: holds)
        return .event(.presence(Presence(board: "b", people: [ana], watching: watching)))
    }

    @Test func aQueuedPresenceIsReplacedByTheNewerWhichGoesLast() {
        var q = Q()
        q.append(OutgoingQueueTests.entry(Self.presence(watching: 1), size: 50))
        q.append(OutgoingQueueTests.entry(OutgoingQueueTests.pong(1)))
        q.append(OutgoingQueueTests.entry(Self.presence(watching: 2, holds: ["a"]), size: 60))
        #expect(q.count == 2 && q.pendingBytes == 70, "the older presence and its bytes are gone")
        let out = OutgoingQueueTests.written(&q, durable: nil)
        #expect(out.map { $0["t"] } == [.string("pong"), .string("presence")])
        #expect(out.last?["watching"] == .number(2))
        guard case .array(let people)? = out.last?["people"] else { Issue.record("no people"); return }
        #expect(people.first?["holds"] == .array([.string("a")]))
    }

    @Test func aPresenceBehindABarrierIsReplacedAndTheOthersKeepTheirOrder() {
        var q = Q()
        q.append(OutgoingQueueTests.entry(OutgoingQueueTests.pong(1), barrier: 3))
        q.append(OutgoingQueueTests.entry(Self.presence(watching: 1)))
        q.append(OutgoingQueueTests.entry(OutgoingQueueTests.pong(2)))
        q.append(OutgoingQueueTests.entry(Self.presence(watching: 5)))
        #expect(OutgoingQueueTests.written(&q, durable: 2).isEmpty, "everything waits behind the commit")
        let out = OutgoingQueueTests.written(&q, durable: 3)
        #expect(out.map { $0["t"] } == [.string("pong"), .string("pong"), .string("presence")])
        #expect(Array(out.map { $0["id"] ?? .null }.prefix(2)) == [.number(1), .number(2)])
        #expect(out.last?["watching"] == .number(5))
    }

    @Test func aWrittenPresenceIsNotTakenBackAndOtherMessagesDoNotMerge() {
        var q = Q()
        q.append(OutgoingQueueTests.entry(Self.presence(watching: 1)))
        #expect(OutgoingQueueTests.written(&q, durable: nil).count == 1)
        q.append(OutgoingQueueTests.entry(Self.presence(watching: 2)))
        q.append(OutgoingQueueTests.entry(OutgoingQueueTests.pong(1)))
        q.append(OutgoingQueueTests.entry(OutgoingQueueTests.pong(2)))
        #expect(q.count == 3, "pongs stay one message each")
        let out = OutgoingQueueTests.written(&q, durable: nil)
        #expect(out.map { $0["t"] } == [.string("presence"), .string("pong"), .string("pong")])
    }
}
