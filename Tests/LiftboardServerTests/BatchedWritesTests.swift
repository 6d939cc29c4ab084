import Testing
import LiftboardCore
import LiftboardWire
@testable import LiftboardServer

/// Several ready messages leave in one write as whole WebSocket frames (`nextBatch`): what a
/// client reads from that write is, frame by frame, what one write a message would have given.
@Suite struct BatchedWritesTests {
    /// The frames in `bytes` (RFC 6455 §5.2, server to client: unmasked), each as (final,
    /// opcode, payload). Fails the test on a frame that is cut or masked.
    static func frames(_ bytes: ArraySlice<UInt8>) -> [(fin: Bool, opcode: UInt8, payload: [UInt8])] {
        var out: [(Bool, UInt8, [UInt8])] = []
        var i = bytes.startIndex
        while i < bytes.endIndex {
            let b0 = bytes[i], b1 = bytes[i + 1]
            #expect(b1 & 0x80 == 0, "a server's frame is not masked")
            var length = Int(b1 & 0x7F)
            var at = i + 2
            if length == 126 {
                length = Int(bytes[at]) << 8 | Int(bytes[at + 1])
                at += 2
            } else if length == 127 {
                length = (0..<8).reduce(0) { $0 << 8 | Int(bytes[at + $1]) }
                at += 8
            }
            guard at + length <= bytes.endIndex else {
                Issue.record("a frame runs past the write's end")
                return out
            }
            out.append((b0 & 0x80 != 0, b0 & 0x0F, Array(bytes[at..<at + length])))
            i = at + length
        }
        return out
    }

    /// Commits made elsewhere at versions 1...n of `board`, each moving the section's last item
    /// to its top.
    static func commits(_ n: Int, on start: Board) -> [Commit] {
        var board = start
        return (0..<n).map { _ in
            let last = board.sections[0].items.last!.id
            let change = Change.insert(id: last, section: board.sections[0].id, after: nil, index: 0)
            let moves = board.apply(change)!
            return Commit(board: board.id, version: board.version, by: "s2", moves: moves, order: board.order, change: change)
        }
    }

    /// Two machines told the same: `held` commits from elsewhere (held until durable), a ping
    /// answered behind them, then the commits durable.
    /// `shared`: the first is handed the commits with the encoding a hub shares (`SharedEncoding`).
    static func twins(held: Int, items: Int = 4, shared: Bool = false) -> (MachineDriver, MachineDriver) {
        let board = MachineDriver.board(items: items)
        var a = MachineDriver(boards: ["b": board]), b = MachineDriver(boards: ["b": board])
        for k in 0..<2 {
            var d = k == 0 ? a : b
            d.start(durable: 0)
            let encoding = shared && k == 0 ? SharedEncoding() : nil
            for c in commits(held, on: board) { _ = d.input { m, out in m.external(c, delivery: .alone(encoding), now: 50, into: &out) } }
            _ = d.receive(#"{"t":"ping","id":3,"ms":60}"#)
            _ = d.input { m, out in m.durableAdvanced(to: held, into: &out) }
            if k == 0 { a = d } else { b = d }
        }
        return (a, b)
    }

    /// `d`'s next batch, checked to be the `expected` messages in one write of whole final text
    /// frames, in order; false (recorded) when it is not one batch.
    static func expectOneBatch(_ d: inout MachineDriver, _ expected: [[UInt8]], into buffer: inout [UInt8]) -> Bool {
        guard case .frames(let start, let count) = d.machine.nextBatch(into: &buffer, headroom: 16) else {
            Issue.record("several ready messages are one batch")
            return false
        }
        #expect(count == expected.count)
        let got = Self.frames(buffer[start...])
        #expect(got.map(\.payload) == expected, "the same messages in the same order")
        #expect(got.allSatisfy { $0.fin && $0.opcode == 1 }, "whole text frames")
        return true
    }

    /// What `nextMessage` gives, one message at a time: the bytes of one write each.
    static func oneByOne(_ d: inout MachineDriver) -> [[UInt8]] {
        var buffer = [UInt8](repeating: 0, count: 16)
        var out: [[UInt8]] = []
        while d.machine.nextMessage(into: &buffer, headroom: 16) != nil { out.append(Array(buffer[16...])) }
        return out
    }

    @Test func heldCommitsAndTheAnswerBehindThemLeaveInOneWriteAsTheFramesOneWriteEachWouldBe() {
        var (batched, single) = Self.twins(held: 3)
        let expected = Self.oneByOne(&single)
        #expect(expected.count == 7, "three commits (each a frame and a commit) and the pong")
        var buffer = [UInt8](repeating: 0, count: 16)
        guard Self.expectOneBatch(&batched, expected, into: &buffer) else { return }
        // Small messages and ones past 125 bytes both came (the 2- and the 4-byte header).
        #expect(expected.contains { $0.count < 126 } && expected.contains { $0.count >= 126 })
        #expect(batched.machine.nextBatch(into: &buffer, headroom: 16) == .none)
        #expect(batched.machine.afterWriting() == .nothing)
    }

    @Test func sharedCommitsInABatchAreTheirFramesMadeOnceAndALoneOneIsWrittenFromItsFrame() {
        var (batched, single) = Self.twins(held: 3, shared: true)
        let expected = Self.oneByOne(&single)
        var buffer = [UInt8](repeating: 0, count: 16)
        guard Self.expectOneBatch(&batched, expected, into: &buffer) else { return }
        // One more commit alone: its frame as it was made, the bytes one write would have had.
        let more = Self.commits(4, on: MachineDriver.board(items: 4))[3]
        for k in 0..<2 {
            var d = k == 0 ? batched : single
            let encoding = k == 0 ? SharedEncoding() : nil
            _ = d.input { m, out in m.external(more, delivery: .alone(encoding), now: 70, into: &out) }
            _ = d.input { m, out in m.durableAdvanced(to: 4, into: &out) }
            if k == 0 { batched = d } else { single = d }
        }
        let alone = Self.oneByOne(&single)
        var got: [[UInt8]] = []
        while true {
            switch batched.machine.nextBatch(into: &buffer, headroom: 16, maxMessages: 1) {
            case .none: break
            case .framed(let bytes): got += Self.frames(bytes[...]).map(\.payload); continue
            case .single(_, let end): got.append(Array(buffer[16..<end])); continue
            case .frames(let start, _): got += Self.frames(buffer[start...]).map(\.payload); continue
            }
            break
        }
        #expect(got == alone && alone.count == 2, "the frame and the commit, each in its own write")
    }

    @Test func aBatchStopsAtItsCountAndPastItsBytesAndTheRestFollowsInOrder() {
        var (batched, single) = Self.twins(held: 3)
        let expected = Self.oneByOne(&single)
        var buffer = [UInt8](repeating: 0, count: 16)
        var got: [[UInt8]] = []
        // Two messages a write; then no more than one once a byte is taken; then one a write.
        guard case .frames(let start, 2) = batched.machine.nextBatch(into: &buffer, headroom: 16, maxMessages: 2) else {
            Issue.record("two a batch")
            return
        }
        got += Self.frames(buffer[start...]).map(\.payload)
        guard case .single(false, let end) = batched.machine.nextBatch(into: &buffer, headroom: 16, maxBytes: 1) else {
            Issue.record("one text message once a byte is taken")
            return
        }
        got.append(Array(buffer[16..<end]))
        while true {
            let batch = batched.machine.nextBatch(into: &buffer, headroom: 16, maxMessages: 1)
            guard batch != .none else { break }
            guard case .single(false, let end) = batch else {
                Issue.record("one text message a write: \(batch)")
                break
            }
            got.append(Array(buffer[16..<end]))
        }
        #expect(got.count == expected.count)
        #expect(got == expected, "the same messages in the same order")
    }

    @Test func aMessagePast64KiBInABatchGetsTheLongHeader() {
        // A board big enough that the layout a resize answers is over 64 KiB, behind a pong.
        var (batched, single) = Self.twins(held: 0, items: 900)
        for k in 0..<2 {
            var d = k == 0 ? batched : single
            _ = d.receive(#"{"t":"resize","w":400,"h":100000,"dpr":1,"ms":70}"#)
            _ = d.receive(#"{"t":"ping","id":4,"ms":71}"#)
            if k == 0 { batched = d } else { single = d }
        }
        let expected = Self.oneByOne(&single)
        #expect(expected.contains { $0.count > 0xFFFF }, "one message needs the 64-bit length")
        var buffer = [UInt8](repeating: 0, count: 16)
        guard case .frames(let start, let count) = batched.machine.nextBatch(into: &buffer, headroom: 16, maxBytes: 1 << 20) else {
            Issue.record("several ready messages are one batch")
            return
        }
        #expect(count == expected.count)
        #expect(Self.frames(buffer[start...]).map(\.payload) == expected)
    }
}

/// Commits the store reports durable together are released once, after the last: each session
/// gets all they release in one write, the sessions whose drops they are first.
@Suite struct BatchedReleaseTests {
    typealias H = HubStateTests

    @Test func commitsDurableTogetherAreReleasedOnceTheirOriginatorsFirstInVersionOrder() {
        var h = H.hub()
        let c1 = H.commit(H.aToDone, on: H.board(), by: "s3")
        _ = h.commit(c1, by: "s3", at: 5, now: 0)
        let c2 = H.commit(H.dFirst, on: h.board, by: "s1")
        _ = h.commit(c2, by: "s1", at: 5, now: 1)
        let c3 = H.commit(H.cToDone, on: h.board, by: "s3")
        _ = h.commit(c3, by: "s3", at: 5, now: 2)
        let ds = [H.durable(H.aToDone, 1, by: "s3", origin: H.here, token: 1),
                  H.durable(H.dFirst, 2, by: "s1", origin: H.here, token: 2),
                  H.durable(H.cToDone, 3, by: "s3", origin: H.here, token: 3)]
        #expect(h.durable(ds) == ds.map { .publish($0) } + [.release(durable: 3, first: ["s3", "s1"])])
        #expect(h.settle() == [])
        #expect(h.truth == h.board)
        // Reported again (the listener read them back): nothing.
        #expect(h.durable(ds) == [])
    }

    @Test func anotherProcessesCommitsDurableTogetherAreDeliveredThenReleasedOnce() {
        var h = H.hub()
        let theirs = [H.durable(H.aToDone, 1, by: "s9", origin: H.there, token: 7),
                      H.durable(H.dFirst, 2, by: "s9", origin: H.there, token: 8)]
        var b = H.board()
        let c1 = Commit(board: "b", version: 1, by: "s9", moves: b.apply(H.aToDone)!, order: b.order, change: H.aToDone)
        let c2 = Commit(board: "b", version: 2, by: "s9", moves: b.apply(H.dFirst)!, order: b.order, change: H.dFirst)
        #expect(h.durable(theirs) == [.publish(theirs[0]), .deliver(c1, except: nil), .publish(theirs[1]), .deliver(c2, except: nil),
                                      .release(durable: 2)])
    }

    @Test func aWatcherGetsTheFramesOfCommitsReleasedTogetherInOneWrite() {
        // A watcher's machine told three commits from elsewhere, held, then durable at once.
        let board = MachineDriver.board()
        var d = MachineDriver(boards: ["b": board])
        d.start(durable: 0)
        for c in BatchedWritesTests.commits(3, on: board) { _ = d.input { m, out in m.external(c, delivery: .alone(nil), now: 50, into: &out) } }
        #expect(d.input { m, out in m.durableAdvanced(to: 3, into: &out) } == [.writeNow])
        var buffer = [UInt8](repeating: 0, count: 16)
        guard case .frames(let start, let count) = d.machine.nextBatch(into: &buffer, headroom: 16) else {
            Issue.record("one write")
            return
        }
        #expect(count == 6, "each commit's frame and its commit")
        let types = BatchedWritesTests.frames(buffer[start...]).map { f in
            (try? JSONParser.parse(f.payload[...])).flatMap { if case .string(let t)? = $0["t"] { t } else { nil } } ?? "?"
        }
        #expect(types == ["frame", "commit", "frame", "commit", "frame", "commit"])
    }
}
