import Testing
import LiftboardCore
import LiftboardWire
@testable import LiftboardServer

/// `OutgoingQueue` alone: barriers, merging, what is held, and the bytes each entry writes.
@Suite struct OutgoingQueueTests {
    typealias Q = OutgoingQueue

    static func frame(_ seq: Int, scrollY: Double, commit: Commit? = nil) -> FrameMessage {
        var f = FrameMessage(seq: seq, ms: Double(seq))
        f.scroll = Point(x: 0, y: scrollY)
        f.commit = commit
        return f
    }

    static func entry(_ m: Q.Message, barrier: Int = 0, size: Int = 10) -> Q.Entry {
        Q.Entry(message: m, barrier: barrier, size: size)
    }

    static func pong(_ id: Int) -> Q.Message { .event(.pong(id: .int(id), ms: 0)) }

    /// Everything ready at `durable`, as the client gets it.
    static func written(_ q: inout Q, durable: Int?, commitOrder: CommitOrderMode = .full) -> [JSONValue] {
        var buffer = [UInt8](repeating: 0, count: 4)
        var out: [JSONValue] = []
        q.durable = durable
        while q.hasReady, let (_, end) = q.writeNext(over: &buffer, headroom: 4, commitOrder: commitOrder) {
            out.append((try? JSONParser.parse(buffer[4..<end])) ?? .null)
        }
        return out
    }

    @Test func messagesGoInOrderEachOnceTheVersionItFollowsIsDurable() {
        var q = Q()
        q.append(Self.entry(Self.pong(1)))
        q.append(Self.entry(Self.pong(2), barrier: 3))
        q.append(Self.entry(Self.pong(3)))
        #expect(q.count == 3 && q.pendingBytes == 30)
        #expect(Self.written(&q, durable: 2).map { $0["id"] } == [.number(1)], "the second waits, and the third behind it")
        #expect(q.count == 2 && q.pendingBytes == 20)
        #expect(Self.written(&q, durable: 3).map { $0["id"] } == [.number(2), .number(3)])
        #expect(q.isEmpty && q.pendingBytes == 0 && !q.hasReady)
    }

    @Test func onNoHubsVersionsEveryMessageIsReady() {
        var q = Q()
        q.append(Self.entry(Self.pong(1), barrier: 7))
        q.durable = 6
        #expect(!q.hasReady)
        q.durable = nil
        #expect(q.hasReady)
    }

    @Test func plainFramesBehindTheSameBarrierMergeKeepingTheFirstsSize() {
        var q = Q()
        q.append(Self.entry(.event(.frame(Self.frame(1, scrollY: 100))), size: 40))
        q.append(Self.entry(.event(.frame(Self.frame(2, scrollY: 250))), size: 70))
        #expect(q.count == 1 && q.pendingBytes == 40)
        // Behind another barrier: not merged.
        q.append(Self.entry(.event(.frame(Self.frame(3, scrollY: 300))), barrier: 1, size: 5))
        #expect(q.count == 2 && q.pendingBytes == 45)
        let frames = Self.written(&q, durable: 1)
        #expect(frames.map { $0["scroll"]?["y"] } == [.number(250), .number(300)])
        #expect(frames.first?["seq"] == .number(2), "the latest frame's number")
    }

    @Test func aFrameCarryingACommitNeitherMergesNorIsMergedInto() {
        let c = MachineDriver.commitFromElsewhere()
        var q = Q()
        q.append(Self.entry(.event(.frame(Self.frame(1, scrollY: 100, commit: c))), barrier: 1))
        q.append(Self.entry(.event(.frame(Self.frame(2, scrollY: 200))), barrier: 1))
        q.append(Self.entry(.event(.frame(Self.frame(3, scrollY: 300, commit: c))), barrier: 1))
        #expect(q.count == 3)
        // Nor anything not a frame.
        q.append(Self.entry(Self.pong(1), barrier: 1))
        q.append(Self.entry(.event(.frame(Self.frame(4, scrollY: 400))), barrier: 1))
        #expect(q.count == 5)
    }

    @Test func aSharedFrameMergedIsWrittenAsTheMergedFrameNotItsSharedBytes() {
        let shared = SharedEncoding()
        let first = shared.frame(Self.frame(0, scrollY: 100), mode: .full)
        var q = Q()
        q.append(Self.entry(.shared(first, head: Q.FrameHead(seq: 4, ms: 12, ack: 2))))
        q.append(Self.entry(.event(.frame(Self.frame(5, scrollY: 260)))))
        #expect(q.count == 1)
        let got = Self.written(&q, durable: nil)
        #expect(got.count == 1 && got[0]["scroll"]?["y"] == .number(260) && got[0]["seq"] == .number(5))
    }

    @Test func aSharedFrameIsWrittenWithItsOwnHeadOverTheRoom() {
        let shared = SharedEncoding()
        var f = Self.frame(0, scrollY: 100)
        let body = shared.frame(f, mode: .full)
        var q = Q()
        q.append(Self.entry(.shared(body, head: Q.FrameHead(seq: 7, ms: 1.5, ack: 3))))
        var buffer = [UInt8](repeating: 0xFF, count: 4 + 512)
        guard let (binary, end) = q.writeNext(over: &buffer, headroom: 4, commitOrder: .full) else {
            Issue.record("one message queued")
            return
        }
        f.seq = 7; f.ms = 1.5; f.ack = 3
        #expect(!binary && Array(buffer[4..<end]) == Wire.encode(.frame(f), commitOrder: .full))
        #expect(buffer.count == 4 + 512, "the room past the message is kept")
    }

    @Test func rawBytesGoAsTheyCameBinaryOrText() {
        var q = Q()
        q.append(Self.entry(.raw([0, 1, 2], binary: true)))
        q.append(Self.entry(.raw(Array("text".utf8), binary: false)))
        var buffer = [UInt8](repeating: 9, count: 8)
        #expect(q.writeNext(over: &buffer, headroom: 2, commitOrder: .full)! == (true, 5))
        #expect(buffer == [9, 9, 0, 1, 2])
        #expect(q.writeNext(over: &buffer, headroom: 2, commitOrder: .full)! == (false, 6))
        #expect(Array(buffer[2...]) == Array("text".utf8))
        #expect(q.writeNext(over: &buffer, headroom: 2, commitOrder: .full) == nil)
    }

    @Test func heldEntriesPickedAreRemovedAndTheirBytesNoLongerCount() {
        let c = MachineDriver.commitFromElsewhere()
        var q = Q()
        q.append(Self.entry(Self.pong(1), size: 10))
        q.append(Self.entry(.event(.commit(c)), barrier: 1, size: 100))
        q.append(Self.entry(.event(.frame(Self.frame(1, scrollY: 5))), barrier: 1, size: 50))
        q.removeAll { $0.message.isCommit }
        #expect(q.count == 2 && q.pendingBytes == 60)
        q.removeAll { _ in false }
        #expect(q.count == 2 && q.pendingBytes == 60)
        q.removeAll()
        #expect(q.isEmpty && q.pendingBytes == 0 && q.capacity == 0)
    }

    @Test func aRebaseStripsTheCommitFromHeldFramesAfterItsVersionOnly() {
        let c1 = MachineDriver.commitFromElsewhere()
        var c2 = c1
        c2.version = 2
        var q = Q()
        q.append(Self.entry(.event(.frame(Self.frame(1, scrollY: 10, commit: c1))), barrier: 1))
        q.append(Self.entry(.event(.frame(Self.frame(2, scrollY: 20, commit: c2))), barrier: 2))
        q.stripCommits(after: 1)
        let frames = Self.written(&q, durable: 2)
        #expect(frames.map { $0["commit"]?["version"] } == [.number(1), nil])
    }

    @Test func aDrainedQueueGivesItsSlotsAndMemoryBack() {
        var q = Q()
        for k in 0..<100 { q.append(Self.entry(Self.pong(k))) }
        #expect(Self.written(&q, durable: nil).count == 100)
        #expect(q.capacity >= 100)
        q.compact()
        #expect(q.isEmpty && q.capacity == 0)
        // A watcher's usual: one message, written, its slot kept.
        q.append(Self.entry(Self.pong(1)))
        _ = Self.written(&q, durable: nil)
        q.compact()
        #expect(q.isEmpty && q.capacity >= 1 && q.capacity <= 4)
    }

    @Test func writtenSlotsAreDroppedOnceMostOfALongQueue() {
        var q = Q()
        for k in 0..<200 { q.append(Self.entry(Self.pong(k), barrier: k < 120 ? 0 : 1)) }
        #expect(Self.written(&q, durable: 0).count == 120)
        let capacity = q.capacity
        q.compact()
        #expect(q.count == 80 && q.capacity == capacity, "the slots dropped, the memory kept")
        #expect(Self.written(&q, durable: 1).first?["id"] == .number(120), "what is left, in order")
    }

    @Test func aWholeSharedMessageAloneReadyIsTakenAsTheFrameMadeOnceForEverySession() {
        let commits = BatchedWritesTests.commits(2, on: MachineDriver.board(items: 4))
        let encoding = SharedEncoding()
        let first = encoding.commit(commits[0], mode: .full), second = encoding.commit(commits[1], mode: .full)
        var q = Q()
        q.append(Self.entry(.shared(first, head: Q.FrameHead()), barrier: 1))
        q.append(Self.entry(.shared(second, head: Q.FrameHead()), barrier: 2))
        q.durable = 1
        // Alone ready: one final text frame, its payload the bytes lws was handed before.
        let frames = BatchedWritesTests.frames((q.takeFramed(lone: true) ?? [])[...])
        #expect(frames.count == 1 && frames.first?.fin == true && frames.first?.opcode == 1)
        #expect(frames.first?.payload == Wire.encode(.commit(commits[0]), commitOrder: .full))
        #expect(q.count == 1 && q.pendingBytes == 10 && !q.hasReady)
        // Another ready behind it: nothing taken alone (both leave in one write, in order).
        q.append(Self.entry(Self.pong(1), barrier: 2))
        q.durable = 2
        #expect(q.takeFramed(lone: true) == nil && q.count == 2)
        #expect(Self.written(&q, durable: 2).map { $0["t"] } == [.string("commit"), .string("pong")])
        // An event (encoded when written) is not framed ahead.
        q.append(Self.entry(Self.pong(2)))
        #expect(q.takeFramed(lone: true) == nil && q.count == 1)
        #expect(Self.written(&q, durable: 2).map { $0["id"] } == [.number(2)])
    }
}
