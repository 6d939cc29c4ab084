import Testing
import LiftboardCore
import LiftboardWire
@testable import LiftboardServer

/// A board's `presence` handed out a chunk of sessions a turn of the loop (`PresenceHandOut`,
/// `Hub.handOutChunk`): a commit's fan-out goes between two chunks; every session gets the
/// commit and the newest presence, each in the order it was handed them.
@Suite struct PresenceHandOutTests {
    @Test func chunksGoInOrderAndANewerPresenceIsOwedToEveryoneAgain() {
        var h = PresenceHandOut<Int, String>(chunk: 2)
        #expect(h.takeChunk() == nil, "nothing owed")
        h.start("p1", bytes: 1, to: [0, 1, 2, 3, 4])
        #expect(h.takeChunk().map { [$0.message] + $0.members.map(String.init) } == ["p1", "0", "1"])
        #expect(h.isPending)
        // A newer presence before 2, 3 and 4 were reached: they get only it, 0 and 1 get it too.
        h.start("p2", bytes: 1, to: [0, 1, 2, 3, 4])
        var got: [String] = []
        while let (m, members) = h.takeChunk() { got.append(m + ":" + members.map(String.init).joined(separator: ",")) }
        #expect(got == ["p2:0,1", "p2:2,3", "p2:4"])
        #expect(!h.isPending && h.message == nil)
        // A session that left before its chunk is owed nothing; one already reached is not
        // looked for.
        h.start("p3", bytes: 1, to: [0, 1, 2, 3])
        _ = h.takeChunk()
        h.remove { $0 == 0 }
        h.remove { $0 == 3 }
        #expect(h.takeChunk()?.members.map { $0 } == [2])
        #expect(h.takeChunk() == nil)
        h.start("p4", bytes: 1, to: [])
        #expect(!h.isPending && h.message == nil, "no one to tell")
    }

    @Test func aChunkWritesAboutAMegabyteWithinItsBounds() {
        typealias H = PresenceHandOut<Int, String>
        #expect(H.chunk(forBytes: 10_240) == 102)
        #expect(H.chunk(forBytes: 300) == 256, "a small presence: at most 256 sessions a turn")
        #expect(H.chunk(forBytes: 200_000) == 32, "a big one: at least 32")
        #expect(H.chunk(forBytes: 0) == 256)
        var h = H()
        h.start("p", bytes: 200_000, to: Array(0..<100))
        #expect(h.takeChunk()?.members.count == 32)
        h.start("q", bytes: 10_240, to: Array(0..<300))
        #expect(h.takeChunk()?.members.count == 102, "each presence's own chunk")
    }

    @Test func aSessionThatStepsItsOwnEngineCostsTheChunkStepCost() {
        typealias H = PresenceHandOut<Int, String>
        #expect(H.stepCost == 16)
        var h = H(chunk: 40)
        // Sessions 0-4 step alone (dragging); 5-99 take a leader's answer.
        let steps: (Int) -> Bool = { $0 < 5 }
        h.start("p", bytes: 1, to: Array(0..<100))
        var chunks: [[Int]] = []
        while let (_, members) = h.takeChunk(steps: steps) { chunks.append(members) }
        // 16 + 16 = 32 < 40, a third makes 48: a chunk ends once its budget is spent (a
        // session is never split, so a chunk reaches at least one).
        #expect(chunks[0] == [0, 1, 2])
        #expect(chunks[1] == Array(3...12), "two that step (32), then 8 that follow")
        #expect(chunks[2] == Array(13..<53), "then 40 followers a chunk")
        #expect(chunks.count == 5 && chunks.last == Array(93..<100))
        #expect(chunks.joined().elementsEqual(0..<100), "every session once, in order")
        #expect(!h.isPending && h.message == nil)
    }

    static func message(_ p: Presence) -> SharedMessage {
        SharedMessage(event: .presence(p), mode: .full, bytes: Wire.encode(.presence(p)), isFrameBody: false)
    }

    /// Another session's commit of `c` to the top of `done`, v2 after `MachineDriver.commitFromElsewhere`.
    static func secondCommit() -> Commit {
        var board = MachineDriver.board()
        _ = board.apply(FanOutTests.commit().change!)
        let change = Change.insert(id: "c", section: "done", after: nil, index: 0)
        return Commit(board: "b", version: 2, by: "s9", moves: board.apply(change)!, order: board.order, change: change)
    }

    /// One chunk as the hub hands it out (`Hub.handOutChunk`): the first idle watcher of a
    /// live state steps, the others in that state take its answer, from one chunk to the next
    /// when the next chunk's first session is still in that state. Returns how many stepped.
    @discardableResult
    static func handOutChunk(_ h: inout PresenceHandOut<Int, PresenceRound>, to sessions: inout [MachineDriver], now: Double) -> Int {
        guard let round = h.startChunk(), case .presence(let p) = round.shared.event else { return 0 }
        var stepped = 0
        while let k = h.next(steps: { !sessions[$0].machine.follows(before: round.before) }) {
            var made: ConnectionMachine.PresenceAnswer?
            _ = sessions[k].input { m, out in
                made = m.presence(p, shared: round.shared, encoding: round.encoding, following: round.answer, now: now, into: &out)
            }
            if let made { round.took(made); stepped += 1 }
        }
        if let next = h.nextMember { round.keep(for: sessions[next].machine.session.sharedState) }
        return stepped
    }

    @Test func sessionsOfOneStateTakeOneAnswerAcrossChunks() {
        let (leader, followers) = PresenceFanOutTests.sharingWatchers(4)
        var sessions = [leader] + followers
        var alone = PresenceFanOutTests.sharingWatchers(0).leader
        let p = PresenceFanOutTests.presence(holding: ["b"])
        var h = PresenceHandOut<Int, PresenceRound>(chunk: 2)
        h.start(PresenceRound(Self.message(p)), bytes: 1, to: Array(sessions.indices))
        var stepped = 0
        while h.isPending { stepped += Self.handOutChunk(&h, to: &sessions, now: 20) }
        #expect(stepped == 1, "one step for the five, over three chunks")
        _ = alone.input { m, out in m.presence(p, shared: Self.message(p), now: 20, into: &out) }
        let expected = FanOutTests.bytes(&alone)
        for k in sessions.indices {
            #expect(FanOutTests.bytes(&sessions[k]) == expected)
            #expect(sessions[k].machine.session.sharedState === sessions[0].machine.session.sharedState, "one state for the next commit's plan")
        }
    }

    static func commit(_ c: Commit, to d: inout MachineDriver, now: Double) {
        _ = d.input { m, out in m.external(c, delivery: .alone(nil), now: now, into: &out) }
        _ = d.input { m, out in m.durableAdvanced(to: c.version, into: &out) }
    }

    @Test func aCommitBetweenTwoChunksReachesEverySessionAndEachEndsWithTheNewestPresence() {
        let (leader, followers) = PresenceFanOutTests.sharingWatchers(3)
        var sessions = [leader] + followers
        // Chunks of two sessions: a session that steps (`stepCost`, 16) and one more.
        var h = PresenceHandOut<Int, PresenceRound>(chunk: PresenceHandOut<Int, PresenceRound>.stepCost + 1)
        let p1 = PresenceFanOutTests.presence(holding: ["b"]), c2 = Self.secondCommit()

        h.start(PresenceRound(Self.message(p1)), bytes: 1, to: [0, 1, 2, 3])
        #expect(Self.handOutChunk(&h, to: &sessions, now: 20) == 1, "one leader for the two sharing a state")
        #expect(h.isPending, "two sessions left for the next turn")
        // The loop's next turn: a commit arrives and is handed to all four first (each steps
        // it alone: none is in the state the presence's leader was in any more).
        for k in sessions.indices { Self.commit(c2, to: &sessions[k], now: 25) }
        #expect(Self.handOutChunk(&h, to: &sessions, now: 30) == 2, "the kept answer is not taken by a session in another state")
        #expect(!h.isPending)

        // What a watcher alone writes given the presence then the commit, or the commit then
        // the presence.
        var presenceFirst = PresenceFanOutTests.sharingWatchers(0).leader
        _ = presenceFirst.input { m, out in m.presence(p1, shared: Self.message(p1), now: 20, into: &out) }
        Self.commit(c2, to: &presenceFirst, now: 25)
        var commitFirst = PresenceFanOutTests.sharingWatchers(0).leader
        Self.commit(c2, to: &commitFirst, now: 25)
        _ = commitFirst.input { m, out in m.presence(p1, shared: Self.message(p1), now: 30, into: &out) }
        let first = FanOutTests.bytes(&presenceFirst), second = FanOutTests.bytes(&commitFirst)
        #expect(first != second)
        #expect(first.last != Wire.encode(.presence(p1)) && second.last == Wire.encode(.presence(p1)))
        for k in sessions.indices {
            let got = FanOutTests.bytes(&sessions[k])
            #expect(got == (k < 2 ? first : second), "session \(k): the commit and the presence, in the order it was handed them")
        }

        // A newer presence started before the last was handed out to 2 and 3: they get only
        // the newest; every session ends with it.
        let p2 = PresenceFanOutTests.presence(holding: []), p3 = PresenceFanOutTests.presence(holding: ["c"])
        h.start(PresenceRound(Self.message(p2)), bytes: 1, to: [0, 1, 2, 3])
        Self.handOutChunk(&h, to: &sessions, now: 40)
        let early = (0..<2).map { FanOutTests.bytes(&sessions[$0]) }
        h.start(PresenceRound(Self.message(p3)), bytes: 1, to: [0, 1, 2, 3])
        Self.handOutChunk(&h, to: &sessions, now: 45)
        Self.handOutChunk(&h, to: &sessions, now: 50)
        for k in sessions.indices {
            let got = (k < 2 ? early[k] : []) + FanOutTests.bytes(&sessions[k])
            #expect(got.last == Wire.encode(.presence(p3)), "session \(k) ends with the newest presence")
            #expect(got.contains(Wire.encode(.presence(p2))) == (k < 2), "session \(k): p2 only where it was handed out")
        }
    }
}

extension PresenceHandOut {
    /// One chunk as `Hub.handOutChunk` walks it: the presence and the sessions it reaches,
    /// `steps` saying which step their own engine (by default none: each costs 1).
    mutating func takeChunk(steps: (Member) -> Bool = { _ in false }) -> (message: Message, members: [Member])? {
        guard let message = startChunk() else { return nil }
        var members: [Member] = []
        while let m = next(steps: steps) { members.append(m) }
        return members.isEmpty ? nil : (message, members)
    }
}
