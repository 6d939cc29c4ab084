import Testing
@testable import LiftboardCore
import LiftboardWire
@testable import LiftboardServer

/// A commit handed to many watchers: encoded once for all those that get it alike, the bytes
/// each gets the same as if it had been encoded for it alone. Which watchers share a view, and
/// which leads it, is the `FanOutPlan`'s (FanOutPlanTests); these drive the machine's steps.
@Suite struct FanOutTests {
    static func bytes(_ d: inout MachineDriver) -> [[UInt8]] {
        var buffer = [UInt8](repeating: 0, count: 16)
        var out: [[UInt8]] = []
        while d.machine.nextMessage(into: &buffer, headroom: 16) != nil { out.append(Array(buffer[16...])) }
        return out
    }

    static func watcher(commitOrder: String? = nil) -> MachineDriver {
        var d = MachineDriver()
        let hello = commitOrder.map { #"{"t":"hello","v":1,"board":"b","viewport":{"w":400,"h":600,"dpr":1},"config":{"commitOrder":"\#($0)"},"ms":0}"# }
            ?? MachineDriver.hello
        _ = d.receive(hello)
        d.machine.joined(durable: 0, recording: false)
        _ = bytes(&d)
        return d
    }

    static func commit() -> Commit { MachineDriver.commitFromElsewhere(by: "s9") }

    @Test func aThousandWatchersGetTheSameBytesAsOneAloneFromOneEncodingPerCommitOrder() {
        let c = Self.commit()
        var alone = Self.watcher(), aloneNone = Self.watcher(commitOrder: "none")
        _ = alone.input { m, out in m.external(c, delivery: .alone(nil), now: 10, into: &out) }
        _ = aloneNone.input { m, out in m.external(c, delivery: .alone(nil), now: 10, into: &out) }
        _ = alone.input { m, out in m.durableAdvanced(to: 1, into: &out) }
        _ = aloneNone.input { m, out in m.durableAdvanced(to: 1, into: &out) }
        let expected = Self.bytes(&alone), expectedNone = Self.bytes(&aloneNone)
        #expect(expected.count == 2 && expectedNone.count == 2)  // the frame, then the commit
        #expect(expected[1] != expectedNone[1])

        let shared = SharedEncoding()
        for k in 0..<1000 {
            var w = Self.watcher(commitOrder: k % 2 == 0 ? nil : "none")
            #expect(w.input { m, out in m.external(c, delivery: .alone(shared), now: 10, into: &out) } == [], "held until durable: nothing to write yet")
            #expect(w.input { m, out in m.durableAdvanced(to: 1, into: &out) } == [.writeNow])
            let got = Self.bytes(&w)
            #expect(got == (k % 2 == 0 ? expected : expectedNone))
        }
        // The commit message and the frame's body, once per commitOrder.
        #expect(shared.encodings == 4)
    }

    /// A watcher's shared messages written over the send buffer's room (what a connection does:
    /// the buffer keeps whatever the last, longer message left past their end) are the bytes
    /// written into a buffer cut to its headroom.
    @Test func sharedMessagesWrittenOverTheRoomAreTheSameBytes() {
        let c = Self.commit()
        var plain = Self.watcher(), over = Self.watcher()
        let shared = SharedEncoding()
        for k in 0..<2 {
            var d = k == 0 ? plain : over
            _ = d.input { m, out in m.external(c, delivery: .alone(shared), now: 10, into: &out) }
            _ = d.input { m, out in m.durableAdvanced(to: 1, into: &out) }
            if k == 0 { plain = d } else { over = d }
        }
        #expect(shared.encodings == 2, "both written from the one encoding")
        let expected = Self.bytes(&plain)
        #expect(expected.count == 2)
        var buffer = [UInt8](repeating: 0xFF, count: 16 + 4096)
        var got: [[UInt8]] = []
        while let (_, end) = over.machine.nextMessage(over: &buffer, headroom: 16) {
            got.append(Array(buffer[16..<end]))
            #expect(buffer.count == 16 + 4096, "the room is kept")
        }
        #expect(got == expected)
    }

    @Test func aSharedCommitHeldForARebaseIsStillRecognizedAndDropped() {
        let c = Self.commit()
        var w = Self.watcher()
        _ = w.input { m, out in m.external(c, delivery: .alone(SharedEncoding()), now: 10, into: &out) }
        #expect(w.machine.queuedCount == 2)
        // Another process's commit came first: the held v1 commit goes, what else is held stays.
        var store = MachineDriver.board()
        let dFirst = Change.insert(id: "b", section: "done", after: nil, index: 0)
        let theirs = Commit(board: "b", version: 1, by: "s9-x", moves: store.apply(dFirst)!, order: [], change: dFirst)
        let base = HubState.RebaseBase(version: 0, order: MachineDriver.board().order)
        _ = w.input { m, out in m.rebase(to: base, commits: [theirs], board: store, now: 20, into: &out) }
        _ = w.input { m, out in m.durableAdvanced(to: 1, into: &out) }
        let commits = w.writtenMessages().filter { $0["t"] == .string("commit") }
        #expect(commits.map { $0["by"] } == [.string("s9-x")])
    }

    @Test func aWatcherWithTheSameViewTakesTheLeadersAnswerAndWritesWhatItWouldHaveWrittenAlone() {
        var board = MachineDriver.board()
        var leader = Self.watcher(), follower = Self.watcher(), alone = Self.watcher()
        for (k, change) in [Change.insert(id: "d", section: "todo", after: nil, index: 0),
                            Change.insert(id: "a", section: "done", after: nil, index: 0),
                            Change.insert(id: "c", section: "todo", after: nil, index: 0)].enumerated() {
            let c = Commit(board: "b", version: k + 1, by: "s9", moves: board.apply(change)!, order: board.order, change: change)
            // The hub's plan makes the one the leader of the view, the other its follower.
            #expect(FanOutPlan([PlannedWatcher(leader), PlannedWatcher(follower)], except: nil).steps == [.leads(view: 0), .follows(view: 0)])
            let shared = SharedEncoding()
            var answered: [ServerEvent] = []
            _ = leader.input { m, out in answered = m.external(c, delivery: .leading(shared), now: 10, into: &out)?.events ?? [] }
            let leaderSession = leader.machine.session
            _ = follower.input { m, out in m.external(c, delivery: .following(.init(events: answered, commitOrder: .full, bytes: [], leader: leaderSession), shared: shared), now: 10, into: &out) }
            _ = alone.input { m, out in m.external(c, delivery: .alone(nil), now: 10, into: &out) }
            _ = leader.input { m, out in m.durableAdvanced(to: k + 1, into: &out) }
            _ = follower.input { m, out in m.durableAdvanced(to: k + 1, into: &out) }
            _ = alone.input { m, out in m.durableAdvanced(to: k + 1, into: &out) }
            let f = Self.bytes(&follower), a = Self.bytes(&alone)
            #expect(!f.isEmpty && f == a)
            _ = Self.bytes(&leader)
            #expect(follower.machine.session.committedOrder == board.order)
        }
    }

    @Test func watchersOfTheLeadersViewTakeItsBytesWithoutLookingThemUpAndWriteWhatTheyWouldHaveWrittenAlone() {
        var board = MachineDriver.board()
        for hello in [MachineDriver.hello,
                      #"{"t":"hello","v":1,"board":"b","viewport":{"w":400,"h":600,"dpr":1},"config":{"commits":"inline","commitOrder":"none"},"ms":0}"#] {
            func watcher() -> MachineDriver {
                var d = MachineDriver()
                _ = d.receive(hello)
                d.machine.joined(durable: board.version, recording: false)
                _ = FanOutTests.bytes(&d)
                return d
            }
            var leader = watcher(), alone = watcher()
            var followers = (0..<20).map { _ in watcher() }
            let change = Change.insert(id: board.version % 2 == 0 ? "d" : "a", section: "todo", after: nil, index: 0)
            let c = Commit(board: "b", version: board.version + 1, by: "s9", moves: board.apply(change)!, order: board.order, change: change)
            #expect(FanOutPlan(([leader] + followers + [alone]).map(PlannedWatcher.init), except: nil).steps
                == [.leads(view: 0)] + Array(repeating: .follows(view: 0), count: followers.count + 1))
            let shared = SharedEncoding()
            var answer: ConnectionMachine.SharedAnswer?
            _ = leader.input { m, out in answer = m.external(c, delivery: .leading(shared), now: 10, into: &out) }
            let lookups = shared.lookups
            #expect(lookups > 0 && answer?.bytes.count == leader.machine.queuedCount)
            for k in followers.indices {
                _ = followers[k].input { m, out in m.external(c, delivery: .following(answer!, shared: shared), now: 10, into: &out) }
            }
            #expect(shared.lookups == lookups, "the followers looked nothing up")
            _ = alone.input { m, out in m.external(c, delivery: .alone(nil), now: 10, into: &out) }
            // What each holds counts against the slow-reader bound as the watcher's alone would.
            #expect(followers.allSatisfy { $0.machine.pendingBytes == alone.machine.pendingBytes && $0.machine.queuedCount == alone.machine.queuedCount })
            _ = alone.input { m, out in m.durableAdvanced(to: c.version, into: &out) }
            let expected = Self.bytes(&alone)
            #expect(!expected.isEmpty)
            for k in followers.indices {
                _ = followers[k].input { m, out in m.durableAdvanced(to: c.version, into: &out) }
                #expect(Self.bytes(&followers[k]) == expected)
            }
        }
    }

    /// The hub keeps a leader's state from before a commit (to know the watchers still in it)
    /// only weakly: a leader whose state nobody else holds (a watcher whose view is its own)
    /// then applies the commit in place. Held strongly, the state is copied whole (every array
    /// the commit changes) on every commit.
    @Test func aLeaderWhoseStateNobodyElseHoldsAppliesTheCommitInPlace() {
        let c = Self.commit()
        var lone = Self.watcher()
        weak let before = lone.machine.sharedState()
        _ = lone.input { m, out in _ = m.external(c, delivery: .leading(SharedEncoding()), now: 10, into: &out) }
        #expect(before != nil)
        #expect(lone.machine.sharedState() === before, "changed in place")

        var held = Self.watcher()
        let strong = held.machine.sharedState()
        _ = held.input { m, out in _ = m.external(c, delivery: .leading(SharedEncoding()), now: 10, into: &out) }
        #expect(held.machine.sharedState() !== strong, "copied, because it was not uniquely held")
        // Either way the same bytes.
        _ = lone.input { m, out in m.durableAdvanced(to: 1, into: &out) }
        _ = held.input { m, out in m.durableAdvanced(to: 1, into: &out) }
        #expect(Self.bytes(&lone) == Self.bytes(&held))
    }

    @Test func aDrainedQueueGivesItsMemoryBack() {
        var board = MachineDriver.board()
        var w = Self.watcher()
        // A burst of commits, released at once: the queue grows, then drains.
        for k in 1...40 {
            let change = Change.insert(id: k % 2 == 0 ? "a" : "d", section: "todo", after: nil, index: 0)
            guard let moves = board.apply(change) else { continue }
            let c = Commit(board: "b", version: board.version, by: "s9", moves: moves, order: board.order, change: change)
            _ = w.input { m, out in m.external(c, delivery: .alone(nil), now: Double(k), into: &out) }
        }
        #expect(w.machine.queuedCount >= 40)
        _ = w.input { m, out in m.durableAdvanced(to: board.version, into: &out) }
        _ = Self.bytes(&w)
        w.machine.compactQueue()
        #expect(w.machine.queuedCount == 0)
        #expect(w.machine.outgoing.capacity <= 4)
    }

    @Test func aFrameCarryingItsCommitIsOneMessageEncodedOnceForEveryWatcherOfTheView() {
        let hello = #"{"t":"hello","v":1,"board":"b","viewport":{"w":400,"h":600,"dpr":1},"config":{"commits":"inline","commitOrder":"none"},"ms":0}"#
        func inlineWatcher() -> MachineDriver {
            var d = MachineDriver()
            _ = d.receive(hello)
            d.machine.joined(durable: 0, recording: false)
            _ = FanOutTests.bytes(&d)
            return d
        }
        let c = Self.commit()
        var alone = inlineWatcher()
        _ = alone.input { m, out in m.external(c, delivery: .alone(nil), now: 10, into: &out) }
        _ = alone.input { m, out in m.durableAdvanced(to: 1, into: &out) }
        let expected = Self.bytes(&alone)
        #expect(expected.count == 1)  // the frame, carrying the commit
        let text = String(decoding: expected[0], as: UTF8.self)
        #expect(text.hasPrefix(#"{"t":"frame","#) && text.contains(#","commit":{"t":"commit","board":"b","version":1,"#))
        let shared = SharedEncoding()
        for _ in 0..<50 {
            var w = inlineWatcher()
            _ = w.input { m, out in m.external(c, delivery: .alone(shared), now: 10, into: &out) }
            _ = w.input { m, out in m.durableAdvanced(to: 1, into: &out) }
            #expect(Self.bytes(&w) == expected)
        }
        #expect(shared.encodings == 1)
    }

    @Test func aFramesOwnHeadAndTheSharedBodyAreTheBytesOfTheWholeFrame() {
        let c = Self.commit()
        var f = FrameMessage(seq: 1, ms: 0)
        f.cells = [CellUpdate(id: "d", frame: Rect(x: 0, y: 32, w: 400, h: 56), hidden: false, dur: 250, ease: .easeInOut)]
        let shared = SharedEncoding()
        for (seq, ms, ack) in [(1, 0.0, nil), (7, 1234.5, 3), (12, 99.125, nil), (40_000, 1e7 + 0.25, 123_456), (0, 0.1 + 0.2, 0),
                               (Int.max, 1.5e15, Int.max), (3, 123_456_789.000_049, 1), (9, 1e-9, nil)] as [(Int, Double, Int?)] {
            for commit in [nil, c] as [Commit?] {
                for mode in [CommitOrderMode.full, .none] {
                    var g = f
                    g.seq = seq; g.ms = ms; g.ack = ack; g.commit = commit
                    let spliced = SharedEncoding.frameHead(seq: seq, ms: ms, ack: ack) + shared.frameBody(g, mode: mode)
                    #expect(spliced == Wire.encode(.frame(g), commitOrder: mode))
                    var buffer: [UInt8] = [1, 2, 3]
                    Wire.appendFrameHead(seq: seq, ms: ms, ack: ack, to: &buffer)
                    #expect(buffer == [1, 2, 3] + SharedEncoding.frameHead(seq: seq, ms: ms, ack: ack))
                }
            }
        }
        #expect(shared.encodings == 4)  // one body per commit and mode, whatever the head
    }

    /// A session with a timer overdue when a commit from elsewhere arrives answers two frames
    /// (the timer's, then the commit's), both behind the commit's barrier, and the queue merges
    /// them: with the first one's shared bytes the second's changes were lost (found by review).
    @Test func anOverdueTimersFrameMergedWithTheCommitsFrameIsWrittenAsWithoutSharedBytes() {
        func pressedThenCommit(shared: SharedEncoding?) -> [[UInt8]] {
            var d = MachineDriver()
            d.start()
            // A finger down on "b": its long press is due at 500 and not fired yet.
            _ = d.receive(#"{"t":"down","p":1,"x":50,"y":60,"kind":"touch","ms":0}"#)
            _ = d.written()
            let c = MachineDriver.commitFromElsewhere()
            _ = d.input { m, out in m.external(c, delivery: .alone(shared), now: 900, into: &out) }
            _ = d.input { m, out in m.durableAdvanced(to: 1, into: &out) }
            return Self.bytes(&d)
        }
        let plain = pressedThenCommit(shared: nil)
        let shared = pressedThenCommit(shared: SharedEncoding())
        #expect(plain.count == shared.count && !plain.isEmpty)
        for (a, b) in zip(plain, shared) {
            #expect(String(decoding: a, as: UTF8.self) == String(decoding: b, as: UTF8.self))
        }
    }

    /// Watchers of the leader's view over several commits, some held together until durable,
    /// with commits apart and inline: each queues the leader's shared messages with its own
    /// frame heads (numbers following its own count, its own ack, its time) and writes, byte for
    /// byte, what it would have written stepping its own engine.
    @Test func watchersQueueingTheLeadersMessagesNumberTheirOwnFramesOverManyCommits() {
        for config in [#"{}"#, #"{"commits":"inline","commitOrder":"none"}"#] {
            let hello = #"{"t":"hello","v":1,"board":"b","viewport":{"w":400,"h":600,"dpr":1},"config":\#(config),"ms":0}"#
            func watcher() -> MachineDriver {
                var d = MachineDriver()
                _ = d.receive(hello)
                d.machine.joined(durable: 0, recording: false)
                _ = FanOutTests.bytes(&d)
                return d
            }
            var board = MachineDriver.board()
            var leader = watcher(), alone = watcher()
            var followers = (0..<5).map { _ in watcher() }
            // A follower that has pinged (its own ack) before the commits.
            _ = followers[2].receive(#"{"t":"ping","seq":7,"ms":5}"#)
            _ = alone.receive(#"{"t":"ping","seq":7,"ms":5}"#)
            _ = FanOutTests.bytes(&followers[2])
            _ = FanOutTests.bytes(&alone)
            var expected: [[UInt8]] = []
            var got: [[UInt8]] = []
            for (k, change) in [Change.insert(id: "d", section: "todo", after: nil, index: 0),
                                Change.insert(id: "a", section: "done", after: nil, index: 0),
                                Change.insert(id: "c", section: "done", after: nil, index: 0),
                                Change.insert(id: "b", section: "todo", after: nil, index: 0)].enumerated() {
                let c = Commit(board: "b", version: k + 1, by: "s9", moves: board.apply(change)!, order: board.order, change: change)
                // The plan: the followers (the one that pinged too) follow the leader, commit after commit.
                #expect(FanOutPlan(([leader] + followers).map(PlannedWatcher.init), except: nil).steps
                    == [.leads(view: 0)] + Array(repeating: .follows(view: 0), count: followers.count))
                let shared = SharedEncoding()
                let now = Double(10 + k)
                var answer: ConnectionMachine.SharedAnswer?
                _ = leader.input { m, out in answer = m.external(c, delivery: .leading(shared), now: now, into: &out) }
                #expect(answer?.shareable == true)
                let lookups = shared.lookups
                let leaderSession = leader.machine.session
                for f in followers.indices {
                    // As the hub hands it (the leader's answer alone), or an answer that also carries
                    // the leader's session: complete, its bytes are taken all the same.
                    let a = answer!
                    let given = f % 2 == 0 ? a : .init(events: a.events, commitOrder: a.commitOrder, bytes: a.bytes, leaderIdle: a.leaderIdle,
                                                       shareable: a.shareable, frames: a.frames, leaderState: a.leaderState, leader: leaderSession)
                    _ = followers[f].input { m, out in m.external(c, delivery: .following(given, shared: shared), now: now, into: &out) }
                }
                #expect(shared.lookups == lookups)
                _ = alone.input { m, out in m.external(c, delivery: .alone(nil), now: now, into: &out) }
                // Commits 1 and 2 are held and made durable together; then 3, then 4.
                guard k != 0 else { continue }
                _ = leader.input { m, out in m.durableAdvanced(to: k + 1, into: &out) }
                _ = FanOutTests.bytes(&leader)
                _ = alone.input { m, out in m.durableAdvanced(to: k + 1, into: &out) }
                expected = Self.bytes(&alone)
                #expect(!expected.isEmpty)
                for f in followers.indices {
                    _ = followers[f].input { m, out in m.durableAdvanced(to: k + 1, into: &out) }
                    got = Self.bytes(&followers[f])
                    if f == 2 {
                        #expect(got == expected)
                    } else {
                        // The same but for the ack: those followers sent nothing.
                        #expect(got.count == expected.count && !got.isEmpty)
                        for (g, e) in zip(got, expected) {
                            let text = String(decoding: g, as: UTF8.self)
                            #expect(!text.contains(#""ack":"#))
                            #expect(text == String(decoding: e, as: UTF8.self).replacingOccurrences(of: #","ack":7"#, with: ""))
                        }
                    }
                }
            }
            #expect(followers.allSatisfy { $0.machine.session.committedOrder == board.order })
        }
    }

    /// A frame carrying its commit, queued by a watcher from the leader's shared messages and
    /// held: a rebase (another process's commit came first) strips the commit from it, and the
    /// watcher writes what a watcher stepping its own engine writes.
    @Test func aRebaseStripsTheCommitFromAFrameAWatcherQueuedFromTheLeadersMessages() {
        let hello = #"{"t":"hello","v":1,"board":"b","viewport":{"w":400,"h":600,"dpr":1},"config":{"commits":"inline","commitOrder":"none"},"ms":0}"#
        func watcher() -> MachineDriver {
            var d = MachineDriver()
            _ = d.receive(hello)
            d.machine.joined(durable: 0, recording: false)
            _ = FanOutTests.bytes(&d)
            return d
        }
        let c = Self.commit()
        var leader = watcher(), follower = watcher(), alone = watcher()
        #expect(FanOutPlan([PlannedWatcher(leader), PlannedWatcher(follower)], except: nil).steps == [.leads(view: 0), .follows(view: 0)])
        let shared = SharedEncoding()
        var answer: ConnectionMachine.SharedAnswer?
        _ = leader.input { m, out in answer = m.external(c, delivery: .leading(shared), now: 10, into: &out) }
        #expect(answer?.shareable == true && answer?.frames == 1)
        _ = follower.input { m, out in m.external(c, delivery: .following(answer!, shared: shared), now: 10, into: &out) }
        _ = alone.input { m, out in m.external(c, delivery: .alone(nil), now: 10, into: &out) }
        #expect(follower.machine.queuedCount == 1)
        var store = MachineDriver.board()
        let dFirst = Change.insert(id: "b", section: "done", after: nil, index: 0)
        let theirs = Commit(board: "b", version: 1, by: "s9-x", moves: store.apply(dFirst)!, order: [], change: dFirst)
        let base = HubState.RebaseBase(version: 0, order: MachineDriver.board().order)
        for k in [1, 2] {
            var d = k == 1 ? follower : alone
            _ = d.input { m, out in m.rebase(to: base, commits: [theirs], board: store, now: 20, into: &out) }
            _ = d.input { m, out in m.durableAdvanced(to: 1, into: &out) }
            if k == 1 { follower = d } else { alone = d }
        }
        let f = follower.writtenMessages(), a = alone.writtenMessages()
        #expect(f == a && f.count == 2)
        // The held frame without its commit, then theirs (carried by its own frame).
        #expect(f.first?["commit"] == nil && f.last?["commit"]?["by"] == .string("s9-x"))
    }
}
