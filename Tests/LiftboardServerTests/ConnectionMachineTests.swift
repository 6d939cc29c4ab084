import Testing
import LiftboardCore
import LiftboardWire
@testable import LiftboardServer

/// `ConnectionMachine` driven without a socket: each input's actions are compared whole (an
/// action the test did not expect fails it), and what it writes is read back as the client
/// would get it.
struct MachineDriver {
    var machine: ConnectionMachine
    var boards: [String: Board]
    var now = 0.0

    init(mode: ConnectionMachine.Mode = .liftboard, authorized: Bool = true, bounds: ConnectionMachine.Bounds = .init(),
         boards: [String: Board] = ["b": MachineDriver.board()]) {
        machine = ConnectionMachine(id: "s1", mode: mode, authorized: authorized, bounds: bounds)
        self.boards = boards
    }

    /// "todo": a, b, c, d; "done": empty.
    /// Another session's commit of `d` to the top of `todo`, v1 on `board()`.
    static func commitFromElsewhere(by: String = "s2") -> Commit {
        var board = board()
        let change = Change.insert(id: "d", section: "todo", after: nil, index: 0)
        return Commit(board: "b", version: 1, by: by, moves: board.apply(change)!, order: board.order, change: change)
    }

    static func board(items: Int = 4) -> Board {
        Board(id: "b", sections: [
            Section(id: "todo", items: (0..<items).map { Item(id: items <= 4 ? ["a", "b", "c", "d"][$0] : "i\($0)") }),
            Section(id: "done", items: []),
        ])
    }

    static let hello = #"{"t":"hello","v":1,"board":"b","viewport":{"w":400,"h":600,"dpr":1},"ms":0}"#

    /// A whole message in one frame, at `now`.
    mutating func receive(_ text: String, final: Bool = true, binary: Bool = false) -> [ConnectionMachine.Action] {
        var out: [ConnectionMachine.Action] = []
        let boards = self.boards
        Array(text.utf8).withUnsafeBytes { bytes in
            machine.received(bytes, final: final, binary: binary, now: now, boards: { boards[$0] }, into: &out)
        }
        return out
    }

    /// Runs `input` and returns its actions.
    mutating func input(_ input: (inout ConnectionMachine, inout [ConnectionMachine.Action]) -> Void) -> [ConnectionMachine.Action] {
        var out: [ConnectionMachine.Action] = []
        input(&machine, &out)
        return out
    }

    /// The hello answered and the session on its board, durable at `durable`.
    mutating func start(durable: Int = 0) {
        let out = receive(Self.hello)
        #expect(out == [.join(board: "b", hello: Array(Self.hello.utf8), ms: 0), .writeNow])
        machine.joined(durable: durable, recording: false)
        #expect(written() == ["welcome", "layout"])
    }

    /// Everything the socket takes now, as the client gets it: each message's type (`t`).
    mutating func written() -> [String] { writtenMessages().map { $0["t"].flatMap { if case .string(let s) = $0 { s } else { nil } } ?? "?" } }

    mutating func writtenMessages() -> [JSONValue] {
        var buffer = [UInt8](repeating: 0, count: 16)
        var out: [JSONValue] = []
        while machine.nextMessage(into: &buffer, headroom: 16) != nil {
            out.append((try? JSONParser.parse(buffer[16...])) ?? .null)
        }
        return out
    }
}

@Suite struct ConnectionMachineTests {
    // MARK: Hello

    @Test func aHelloForABoardThisProcessHasJoinsItAndIsAnsweredFromTheReceive() {
        var d = MachineDriver()
        d.start()
        #expect(d.machine.afterWriting() == .nothing)
        #expect(d.machine.session.boardID == "b")
    }

    @Test func aFirstMessageOtherThanHelloIsRefusedThenTheConnectionClosesWith1008() {
        var d = MachineDriver()
        #expect(d.receive(#"{"t":"ping","id":1,"ms":0}"#) == [.log(.warn, event: "refusal", detail: "no_hello"), .requestWritable])
        #expect(d.written() == ["error"])
        #expect(d.machine.afterWriting() == .sendClose(code: 1008, reason: "no_hello"))
        // Nothing the client says is acted on any more.
        #expect(d.receive(MachineDriver.hello) == [])
    }

    @Test func aHelloWithoutTheTokenIsRefusedWith4401() {
        var d = MachineDriver(authorized: false)
        #expect(d.receive(MachineDriver.hello) == [.requestWritable])
        #expect(d.written() == ["error"])
        #expect(d.machine.afterWriting() == .sendClose(code: 4401, reason: "unauthorized"))
    }

    @Test func messagesThatComeWhileTheBoardIsLookedUpAreHeldThenHandledInOrder() {
        var d = MachineDriver(boards: [:])
        #expect(d.receive(MachineDriver.hello) == [.lookUpBoard("b")])
        #expect(d.receive(#"{"t":"ping","id":7,"ms":5}"#) == [])
        #expect(d.machine.isWaitingForBoard && d.written() == [])
        // Another process created it a moment ago: the listener found it.
        d.boards["b"] = MachineDriver.board()
        d.now = 40
        let out = d.input { m, out in m.boardLookupAnswered(now: 40, boards: { $0 == "b" ? MachineDriver.board() : nil }, into: &out) }
        #expect(out == [.join(board: "b", hello: Array(MachineDriver.hello.utf8), ms: 0), .requestWritable])
        #expect(d.written() == ["welcome", "layout", "pong"])
    }

    @Test func aLookupThatFindsNoBoardAnswersNoBoardAndCloses() {
        var d = MachineDriver(boards: [:])
        #expect(d.receive(MachineDriver.hello) == [.lookUpBoard("b")])
        let out = d.input { m, out in m.boardLookupAnswered(now: 10, boards: { _ in nil }, into: &out) }
        #expect(out == [.log(.warn, event: "refusal", detail: "no_board"), .requestWritable])
        #expect(d.written() == ["error"])
        #expect(d.machine.afterWriting() == .sendClose(code: 1008, reason: "no_board"))
    }

    @Test func tooManyMessagesBeforeTheBoardIsFoundCloseWith1008() {
        var bounds = ConnectionMachine.Bounds()
        bounds.heldBeforeBoard = 2
        var d = MachineDriver(bounds: bounds, boards: [:])
        _ = d.receive(MachineDriver.hello)
        #expect(d.receive(#"{"t":"ping","id":1,"ms":1}"#) == [])
        #expect(d.receive(#"{"t":"ping","id":2,"ms":2}"#) == [.forgetLookup, .requestWritable])
        #expect(d.written() == ["error"])
        #expect(d.machine.afterWriting() == .sendClose(code: 1008, reason: "too many messages before welcome"))
    }

    // MARK: Deadlines

    @Test func noHelloByTheDeadlineClosesWith1008() {
        var d = MachineDriver()
        let out = d.input { m, out in m.helloDeadlinePassed(now: 10_000, into: &out) }
        #expect(out == [.log(.warn, event: "refusal", detail: "no hello within 10.0 s, closing"), .requestWritable])
        #expect(d.written() == ["error"])
        #expect(d.machine.afterWriting() == .sendClose(code: 1008, reason: "no hello"))
    }

    @Test func aLookupUnansweredByTheHelloDeadlineClosesWith1011() {
        var d = MachineDriver(boards: [:])
        _ = d.receive(MachineDriver.hello)
        let out = d.input { m, out in m.helloDeadlinePassed(now: 10_000, into: &out) }
        #expect(out == [.forgetLookup, .log(.warn, event: "refusal", detail: "board lookup unanswered within 10.0 s, closing"), .requestWritable])
        #expect(d.writtenMessages().first?["code"] == .string("store_unavailable"))
        #expect(d.machine.afterWriting() == .sendClose(code: 1011, reason: "store unavailable"))
    }

    @Test func theHelloDeadlineDoesNothingOnceTheSessionStarted() {
        var d = MachineDriver()
        d.start()
        #expect(d.input { m, out in m.helloDeadlinePassed(now: 10_000, into: &out) } == [])
    }

    @Test func aLongPressArmsTheTimerWhichFiresOnlyWhenNoMessageWaits() {
        var d = MachineDriver()
        d.start()
        d.now = 100
        // Pressed at client time 100 (server 100): due at 600, fired 50 ms after (the allowance).
        #expect(d.receive(#"{"t":"down","p":1,"x":50,"y":250,"ms":100,"kind":"touch"}"#) == [.armTimer(afterMs: 550)])
        _ = d.written()
        // A message is waiting on the socket: it fires the press itself; try again in 2 ms.
        #expect(d.input { m, out in m.timerFired(now: 650, socketHasInput: { true }, into: &out) } == [.armTimer(afterMs: 2)])
        let out = d.input { m, out in m.timerFired(now: 652, socketHasInput: { false }, into: &out) }
        // The lift tells the hub that what the session holds changed (issue 44), then the write;
        // the hub reads them from the session.
        #expect(out == [.holdsChanged, .requestWritable])
        #expect(d.machine.session.holds == ["d"])
        #expect(d.machine.session.holdTarget == Place(section: "todo", index: 3))
        #expect(d.written().contains("lift"))
        // Released: nothing pending, the timer is cancelled once.
        d.now = 700
        #expect(d.receive(#"{"t":"cancel","p":1,"ms":700}"#) == [.holdsChanged, .writeNow], "the press fired: no timer is armed")
        #expect(d.machine.session.holds.isEmpty)
        #expect(d.machine.session.holdTarget == nil)
        #expect(d.written() == ["drop", "frame"])
    }

    @Test func aSessionAloneOnItsBoardTellsTheHubNothingOfItsHolds() {
        var d = MachineDriver()
        d.start()
        // The hub says so (`Hub.join`, `leave`): nobody else to tell, and the hub reads a lone
        // session's holds when someone joins.
        d.machine.othersOnBoard = false
        d.now = 100
        #expect(d.receive(#"{"t":"down","p":1,"x":50,"y":250,"ms":100,"kind":"touch"}"#) == [.armTimer(afterMs: 550)])
        let out = d.input { m, out in m.timerFired(now: 652, socketHasInput: { false }, into: &out) }
        #expect(out == [.requestWritable], "the lift makes no .holdsChanged")
        #expect(d.machine.session.holds == ["d"], "the holds are there to be read")
        #expect(d.written().contains("lift"))
        d.now = 700
        #expect(d.receive(#"{"t":"cancel","p":1,"ms":700}"#) == [.writeNow])
        #expect(d.machine.session.holds.isEmpty)
        // Someone joined: a lift is told again.
        d.machine.othersOnBoard = true
        d.now = 800
        _ = d.receive(#"{"t":"down","p":1,"x":50,"y":250,"ms":800,"kind":"touch"}"#)
        #expect(d.input { m, out in m.timerFired(now: 1352, socketHasInput: { false }, into: &out) } == [.holdsChanged, .requestWritable])
    }

    // MARK: Barriers and merging

    @Test func aCommitFromElsewhereIsHeldUntilDurableAndWhatFollowsWaitsBehindIt() {
        var d = MachineDriver()
        d.start(durable: 0)
        let c = MachineDriver.commitFromElsewhere()
        d.now = 50
        #expect(d.input { m, out in m.external(c, delivery: .alone(nil), now: 50, into: &out) } == [], "held until durable: nothing to write yet")
        #expect(d.receive(#"{"t":"ping","id":3,"ms":60}"#) == [.writeNow])
        #expect(d.written() == [], "the commit is not durable: nothing overtakes it")
        #expect(d.machine.afterWriting() == .nothing)
        #expect(d.input { m, out in m.durableAdvanced(to: 1, into: &out) } == [.writeNow])
        #expect(d.written() == ["frame", "commit", "pong"])
    }

    @Test func whatADurableVersionReleasesIsWrittenAtOnceUnlessTheClientIsMidMessageOrClosing() {
        var d = MachineDriver()
        d.start(durable: 0)
        let c = MachineDriver.commitFromElsewhere()
        #expect(d.input { m, out in m.external(c, delivery: .alone(nil), now: 50, into: &out) } == [], "held until durable: nothing to write yet")
        // Nothing was ready before: nothing to write.
        #expect(d.input { m, out in m.durableAdvanced(to: 0, into: &out) } == [])
        // The first fragment of a message came: lws may owe the client a pong, so the writeable
        // callback writes (it answers pings first).
        #expect(d.receive(#"{"t":"ping","#, final: false) == [])
        #expect(d.input { m, out in m.durableAdvanced(to: 1, into: &out) } == [.requestWritable])
        #expect(d.written() == ["frame", "commit"])
    }

    @Test func whatAVersionReleasesWhileTheHubIsAboutToRebaseWaitsForTheWriteableCallback() {
        var d = MachineDriver()
        d.start(durable: 0)
        let c = MachineDriver.commitFromElsewhere()
        _ = d.input { m, out in m.external(c, delivery: .alone(nil), now: 50, into: &out) }
        #expect(d.input { m, out in m.durableAdvanced(to: 1, direct: false, into: &out) } == [.requestWritable])
    }

    @Test func framesQueuedBehindEachOtherForASlowReaderMergeIntoOne() {
        var d = MachineDriver(boards: ["b": MachineDriver.board(items: 40)])
        d.start()
        d.now = 10
        #expect(d.receive(#"{"t":"wheel","dx":0,"dy":100,"ms":10}"#) == [.writeNow])
        // The socket took nothing (the action is not performed): the next frame merges.
        d.now = 20
        #expect(d.receive(#"{"t":"wheel","dx":0,"dy":150,"ms":20}"#) == [.writeNow])
        #expect(d.machine.queuedCount == 1)
        let frames = d.writtenMessages()
        #expect(frames.count == 1 && frames.first?["scroll"]?["y"] == .number(250))
    }

    @Test func aReaderBehindForLongerThanTheBoundIsAbandonedWithoutItsQueue() {
        var d = MachineDriver(boards: ["b": MachineDriver.board(items: 40)])
        d.start()
        _ = d.receive(#"{"t":"wheel","dx":0,"dy":100,"ms":0}"#)
        // The socket took part of a write at 0 and no writeable callback came since.
        d.machine.socketStalled(now: 0)
        d.machine.socketStalled(now: 3000)
        d.now = 5001
        let out = d.receive(#"{"t":"ping","id":1,"ms":5001}"#)
        #expect(out == [.log(.warn, event: "refusal", detail: "slow reader: 540 bytes pending"), .abandon, .requestWritable])
        #expect(d.machine.queuedCount == 0)
        #expect(d.machine.afterWriting() == .sendClose(code: 1008, reason: "too far behind"))
    }

    /// One big message (a whole order on a huge board) is no slow reader, nor are the small
    /// ones queued behind it while it is written: the byte bound leaves room for twice the
    /// largest message queued. More than that behind it is.
    @Test func smallMessagesBehindABigOneAreNoSlowReaderUntilTheyOutweighIt() {
        var bounds = ConnectionMachine.Bounds()
        bounds.maxPendingBytes = 300
        var d = MachineDriver(bounds: bounds, boards: ["b": MachineDriver.board(items: 40)])
        d.start()
        // A frame estimated at 420 bytes: over the bound, but the message queued.
        #expect(!d.receive(#"{"t":"wheel","dx":0,"dy":100,"ms":0}"#).contains(.abandon))
        var k = 0
        var out: [ConnectionMachine.Action] = []
        while !out.contains(.abandon) && k < 20 {
            k += 1
            out = d.receive("{\"t\":\"ping\",\"id\":\(k),\"ms\":0}")
        }
        // Three pongs (120 bytes each) fit beside the frame (780 ≤ 840); the fourth does not
        // (900). Before, the first did (540 over the 300-byte bound).
        #expect(k == 4, "abandoned after \(k) pings")
    }

    @Test func timeTheServerSpentBeforeTheSocketWasOfferedTheQueueIsNotTheReadersDelay() {
        // A million-item session starting on the same loop kept it busy for seconds after this
        // connection's message was queued: the client never had the chance to read it.
        var d = MachineDriver(boards: ["b": MachineDriver.board(items: 40)])
        d.start()
        _ = d.receive(#"{"t":"wheel","dx":0,"dy":100,"ms":0}"#)
        d.now = 9000
        let out = d.receive(#"{"t":"ping","id":1,"ms":9000}"#)
        #expect(!out.contains(.abandon), "\(out)")
        #expect(d.machine.queuedCount == 2)
    }

    @Test func aWriteableCallbackStopsTheSlowReaderClock() {
        var d = MachineDriver(boards: ["b": MachineDriver.board(items: 40)])
        d.start()
        _ = d.receive(#"{"t":"wheel","dx":0,"dy":100,"ms":0}"#)
        d.machine.socketStalled(now: 0)
        d.machine.socketDrained()  // lws wrote what it held: the client reads
        d.machine.socketStalled(now: 4000)
        d.now = 5001
        #expect(!d.receive(#"{"t":"ping","id":1,"ms":5001}"#).contains(.abandon), "stalled 1,001 ms, not 5,001")
        d.now = 9001
        #expect(d.receive(#"{"t":"ping","id":2,"ms":9001}"#).contains(.abandon), "stalled 5,001 ms since 4,000")
    }

    // MARK: Limits

    /// A session started on a machine allowing 2 messages a second, closing after 2 seconds over.
    static func limitedToTwoASecondForTwoSeconds() -> MachineDriver {
        var bounds = ConnectionMachine.Bounds()
        bounds.messagesPerSecond = 2
        bounds.sustainedSeconds = 2
        var d = MachineDriver(bounds: bounds)
        d.start()
        return d
    }

    @Test func overTheRateMessagesAreDroppedWithOneWarningAndASustainedFloodCloses() {
        var d = Self.limitedToTwoASecondForTwoSeconds()
        d.now = 1000
        for id in 1...2 { #expect(d.receive(#"{"t":"ping","id":\#(id),"ms":1000}"#) == [.writeNow]) }
        #expect(d.receive(#"{"t":"ping","id":3,"ms":1000}"#) == [.writeNow])
        #expect(d.receive(#"{"t":"ping","id":4,"ms":1000}"#) == [])
        #expect(d.writtenMessages().map { $0["t"] == .string("error") ? "error" : "pong" } == ["pong", "pong", "error"])
        // The next second over the rate too: closed, what was queued thrown away.
        d.now = 2000
        for id in 5...6 { _ = d.receive(#"{"t":"ping","id":\#(id),"ms":2000}"#) }
        #expect(d.receive(#"{"t":"ping","id":7,"ms":2000}"#) == [.log(.warn, event: "refusal", detail: "rate limited, closing"), .requestWritable])
        #expect(d.written() == ["error"])
        #expect(d.machine.afterWriting() == .sendClose(code: 1008, reason: "rate limited"))
    }

    /// "Seconds over the rate in a row" (`Limits.sustainedSeconds`): a second with no message
    /// between two floods breaks the row. The machine's own limiter counted any two windows
    /// over the rate as a row, however far apart, and closed a bursty client that never
    /// sustained a flood (found moving it onto `RateLimiter`, which has the row right).
    @Test func floodsWithAQuietSecondBetweenAreNotSustainedAndDoNotClose() {
        var d = Self.limitedToTwoASecondForTwoSeconds()
        for (second, firstID) in [(1000.0, 1), (3500.0, 10)] {
            d.now = second
            for id in firstID..<firstID + 2 { #expect(d.receive(#"{"t":"ping","id":\#(id),"ms":\#(second)}"#) == [.writeNow]) }
            #expect(d.receive(#"{"t":"ping","id":\#(firstID + 2),"ms":\#(second)}"#) == [.writeNow], "over the rate: warned, not closed")
            #expect(d.writtenMessages().map { $0["t"] == .string("error") ? "error" : "pong" } == ["pong", "pong", "error"])
        }
        #expect(!d.machine.isClosing)
        #expect(d.machine.afterWriting() == .nothing)
    }

    @Test func aMessageOverTheSizeLimitIsRefusedAndClosesWith1009() {
        var bounds = ConnectionMachine.Bounds()
        bounds.maxMessageBytes = 200
        var d = MachineDriver(bounds: bounds)
        d.start()
        let padded = #"{"t":"ping","id":1,"ms":0,"pad":""# + String(repeating: "x", count: 200) + #""}"#
        #expect(d.receive(String(padded.prefix(100)), final: false) == [])
        #expect(d.receive(String(padded.dropFirst(100))) == [.log(.warn, event: "refusal", detail: "message over 200 bytes"), .requestWritable])
        #expect(d.writtenMessages().first?["code"] == .string("too_large"))
        #expect(d.machine.afterWriting() == .sendClose(code: 1009, reason: "message too large"))
    }

    @Test func aMessageInFragmentsIsAnsweredByAWriteableCallbackNotFromTheReceive() {
        var d = MachineDriver()
        d.start()
        let ping = #"{"t":"ping","id":9,"ms":0}"#
        #expect(d.receive(String(ping.prefix(10)), final: false) == [])
        #expect(d.receive(String(ping.dropFirst(10))) == [.requestWritable])
        #expect(d.written() == ["pong"])
    }

    // MARK: Close

    @Test func aCloseWaitsForWhatIsQueuedThenSendsTheCloseFrame() {
        var d = MachineDriver()
        d.start()
        _ = d.receive(#"{"t":"ping","id":1,"ms":0}"#)
        #expect(d.input { m, out in m.close(1001, "server shutting down", into: &out) } == [.requestWritable])
        #expect(d.input { m, out in m.close(1008, "again", into: &out) } == [])
        #expect(d.machine.afterWriting() == .askAgain, "the pong first")
        #expect(d.written() == ["pong"])
        #expect(d.machine.afterWriting() == .sendClose(code: 1001, reason: "server shutting down"))
        #expect(d.receive(#"{"t":"ping","id":2,"ms":0}"#) == [])
    }

    @Test func anEchoConnectionSendsEachMessageBackAsItCame() {
        var d = MachineDriver(mode: .echo)
        #expect(d.receive("not json at all", binary: true) == [.writeNow])
        var buffer = [UInt8](repeating: 0, count: 4)
        #expect(d.machine.nextMessage(into: &buffer, headroom: 4) == true)
        #expect(String(decoding: buffer[4...], as: UTF8.self) == "not json at all")
    }

    // MARK: Rebase

    @Test func aRebaseDropsTheHeldCommitKeepsTheHeldFramesAndTellsBothCommitsInVersionOrder() {
        var d = MachineDriver()
        d.start(durable: 0)
        // The session was told a commit as v1 (held, not durable yet)...
        var told = MachineDriver.board()
        let bToDone = Change.insert(id: "b", section: "done", after: nil, index: 0)
        let moves = told.apply(bToDone)!
        let ours = Commit(board: "b", version: 1, by: "s2", moves: moves, order: [], change: bToDone)
        _ = d.input { m, out in m.external(ours, delivery: .alone(nil), now: 10, into: &out) }
        #expect(d.machine.queuedCount == 2)
        // ...but another process's commit came first: ours is v2.
        var store = MachineDriver.board()
        let dFirst = Change.insert(id: "d", section: "todo", after: nil, index: 0)
        let theirs = Commit(board: "b", version: 1, by: "s9-x", moves: store.apply(dFirst)!, order: [], change: dFirst)
        let again = Commit(board: "b", version: 2, by: "s2", moves: store.apply(bToDone)!, order: [], change: bToDone)
        let base = HubState.RebaseBase(version: 0, order: MachineDriver.board().order)
        let out = d.input { m, out in
            m.durableAdvanced(to: 2, into: &out)
            m.rebase(to: base, commits: [theirs, again], board: store, now: 20, into: &out)
        }
        #expect(out == [.writeNow, .requestWritable])
        let messages = d.writtenMessages()
        // The held frame and the first commit's merge (one barrier); the held v1 commit is gone.
        #expect(messages.map { $0["t"] } == [.string("frame"), .string("commit"), .string("frame"), .string("commit")])
        let commits = messages.filter { $0["t"] == .string("commit") }
        #expect(commits.map { $0["version"] } == [.number(1), .number(2)])
        #expect(commits.map { $0["by"] } == [.string("s9-x"), .string("s2")])
        #expect(d.machine.session.committedOrder == store.order)
    }
}
