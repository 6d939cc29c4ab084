import Testing
import LiftboardCore
import LiftboardWire
import LiftboardStore
@testable import LiftboardServer

/// A watcher's machine as a fan-out member, and the hub's performing of a plan without sockets.
final class PlannedWatcher: FanOutMember {
    var d: MachineDriver
    init(_ d: MachineDriver) { self.d = d }
    func sharedViewKey() -> SharedViewKey? { d.machine.sharedViewKey() }
    func hasSharedView(_ key: SharedViewKey, madeFrom state: AnyObject?) -> Bool { d.machine.hasSharedView(key, madeFrom: state) }
    func sharedState() -> AnyObject? { d.machine.sharedState() }

    /// A watcher of board "b" that said `hello` (default `MachineDriver.hello`), its first
    /// messages read, at `version`.
    static func make(hello: String = MachineDriver.hello, version: Int = 0) -> PlannedWatcher {
        var d = MachineDriver()
        _ = d.receive(hello)
        d.machine.joined(durable: version, recording: false)
        _ = FanOutTests.bytes(&d)
        return PlannedWatcher(d)
    }

    static func hello(viewport w: Int = 400, config: String = "{}") -> String {
        #"{"t":"hello","v":1,"board":"b","viewport":{"w":\#(w),"h":600,"dpr":1},"config":\#(config),"ms":0}"#
    }

    /// `c` handed to `members` as `Hub.deliver` hands it (the plan, then each step), at `now`.
    @discardableResult
    static func deliver(_ c: Commit, to members: [PlannedWatcher], except origin: PlannedWatcher? = nil, now: Double = 10,
                        shared: SharedEncoding = SharedEncoding()) -> FanOutPlan {
        let plan = FanOutPlan(members, except: origin)
        var leaders = [ConnectionMachine.SharedAnswer?](repeating: nil, count: plan.views)
        for (w, step) in zip(members, plan.steps) {
            switch step {
            case .skip:
                continue
            case .alone:
                _ = w.d.input { m, out in m.external(c, delivery: .alone(shared), now: now, into: &out) }
            case .leads(let view):
                _ = w.d.input { m, out in leaders[view] = m.external(c, delivery: .leading(shared), now: now, into: &out) }
            case .follows(let view):
                if let answer = leaders[view] {
                    _ = w.d.input { m, out in m.external(c, delivery: .following(answer, shared: shared), now: now, into: &out) }
                } else {
                    _ = w.d.input { m, out in leaders[view] = m.external(c, delivery: .leading(shared), now: now, into: &out) }
                }
            }
        }
        return plan
    }
}

@Suite struct FanOutPlanTests {
    @Test func watchersOfOneViewFollowTheFirstOfItAndOthersLeadTheirOwnOrStepAlone() {
        let narrow = PlannedWatcher.hello(viewport: 300)
        let a0 = PlannedWatcher.make(), a1 = PlannedWatcher.make(), b0 = PlannedWatcher.make(hello: narrow)
        let busy = PlannedWatcher.make(), a2 = PlannedWatcher.make(), b1 = PlannedWatcher.make(hello: narrow)
        // A finger down: not idle, so it answers for itself.
        _ = busy.d.receive(#"{"t":"down","p":1,"x":50,"y":60,"kind":"touch","ms":1}"#)
        let author = PlannedWatcher.make()
        let members = [a0, author, a1, b0, busy, a2, b1]
        let plan = FanOutPlan(members, except: author)
        #expect(plan.steps == [.leads(view: 0), .skip, .follows(view: 0), .leads(view: 1), .alone, .follows(view: 0), .follows(view: 1)])
        #expect(plan.views == 2)
        #expect(plan.members(members, taking: .follows(view: 0)) === [a1, a2])
        // Without an author every member gets it: the author is a watcher of view 0 like the others.
        #expect(FanOutPlan(members, except: nil).steps[1] == .follows(view: 0))
    }

    @Test func aPlanOfNobodyOrOnlyTheAuthorHasNoView() {
        let author = PlannedWatcher.make()
        #expect(FanOutPlan([PlannedWatcher](), except: nil) == FanOutPlan([PlannedWatcher](), except: author))
        #expect(FanOutPlan([PlannedWatcher](), except: nil).steps.isEmpty)
        let alone = FanOutPlan([author], except: author)
        #expect(alone.steps == [.skip] && alone.views == 0)
    }

    /// Watchers that took a view's answer last time share its leader's live state: the plan
    /// finds them with it (whatever the view met in between), and a watcher that changed since
    /// (its window was resized) is compared and found elsewhere.
    @Test func followersOfTheLastCommitStillFollowTheirLeaderAndOneResizedSinceDoesNot() {
        var board = MachineDriver.board()
        let narrow = PlannedWatcher.hello(viewport: 300)
        let leader = PlannedWatcher.make(), f1 = PlannedWatcher.make(), other = PlannedWatcher.make(hello: narrow)
        let f2 = PlannedWatcher.make(), scroller = PlannedWatcher.make()
        let members = [leader, f1, other, f2, scroller]
        let change = Change.insert(id: "d", section: "todo", after: nil, index: 0)
        let c1 = Commit(board: "b", version: 1, by: "s9", moves: board.apply(change)!, order: board.order, change: change)
        #expect(PlannedWatcher.deliver(c1, to: members).steps
            == [.leads(view: 0), .follows(view: 0), .leads(view: 1), .follows(view: 0), .follows(view: 0)])
        #expect(f1.sharedState() === leader.sharedState() && f2.sharedState() === leader.sharedState())
        for w in members { _ = w.d.input { m, out in m.durableAdvanced(to: 1, into: &out) }; _ = FanOutTests.bytes(&w.d) }
        _ = scroller.d.receive(#"{"t":"resize","w":350,"h":600,"dpr":1,"ms":20}"#)
        _ = FanOutTests.bytes(&scroller.d)
        #expect(scroller.sharedState() !== leader.sharedState())
        #expect(FanOutPlan(members, except: nil).steps
            == [.leads(view: 0), .follows(view: 0), .leads(view: 1), .follows(view: 0), .leads(view: 2)])
    }

    /// The plan performed as the hub performs it: every watcher writes, byte for byte, what a
    /// twin stepping its own engine writes, from one encoding per view and commit order.
    @Test func aCommitHandedOutByThePlanGivesEveryWatcherWhatItWouldHaveWrittenAlone() {
        var board = MachineDriver.board()
        let hellos = [PlannedWatcher.hello(), PlannedWatcher.hello(viewport: 300), PlannedWatcher.hello(config: #"{"commitOrder":"none"}"#),
                      PlannedWatcher.hello(config: #"{"commits":"inline","commitOrder":"none"}"#)]
        let members = (0..<12).map { PlannedWatcher.make(hello: hellos[$0 % hellos.count]) }
        let twins = (0..<12).map { PlannedWatcher.make(hello: hellos[$0 % hellos.count]) }
        _ = members[5].d.receive(#"{"t":"down","p":1,"x":50,"y":60,"kind":"touch","ms":1}"#)
        _ = twins[5].d.receive(#"{"t":"down","p":1,"x":50,"y":60,"kind":"touch","ms":1}"#)
        for (k, change) in [Change.insert(id: "d", section: "todo", after: nil, index: 0),
                            Change.insert(id: "a", section: "done", after: nil, index: 0)].enumerated() {
            let c = Commit(board: "b", version: k + 1, by: "s9", moves: board.apply(change)!, order: board.order, change: change)
            let plan = PlannedWatcher.deliver(c, to: members, except: members[0])
            #expect(plan.views == hellos.count && plan.steps[0] == .skip && plan.steps[5] == .alone)
            for (w, twin) in zip(members, twins) where w !== members[0] {
                _ = twin.d.input { m, out in m.external(c, delivery: .alone(nil), now: 10, into: &out) }
                _ = w.d.input { m, out in m.durableAdvanced(to: k + 1, into: &out) }
                _ = twin.d.input { m, out in m.durableAdvanced(to: k + 1, into: &out) }
                let expected = FanOutTests.bytes(&twin.d)
                #expect(!expected.isEmpty)
                #expect(FanOutTests.bytes(&w.d) == expected)
            }
        }
    }

    /// Every session of a pass, in its order, with the version each is released to.
    static func drain(_ pass: inout ReleasePass<PlannedWatcher>, _ n: Int = .max) -> [(PlannedWatcher, Int)] {
        var out: [(PlannedWatcher, Int)] = []
        while out.count < n, let m = pass.take() { out.append((m, pass.version)) }
        return out
    }

    @Test func whatADurableVersionReleasesIsWrittenByTheDroppersFirstThenByEveryOtherOnce() {
        let ws = (0..<5).map { _ in PlannedWatcher.make() }
        func order(_ first: [PlannedWatcher], _ members: [PlannedWatcher]) -> [PlannedWatcher] {
            var pass = ReleasePass(version: 7, first: first, members: members)
            let taken = Self.drain(&pass)
            #expect(taken.allSatisfy { $0.1 == 7 })
            return taken.map(\.0)
        }
        #expect(order([ws[3]], ws) === [ws[3], ws[0], ws[1], ws[2], ws[4]])
        #expect(order([ws[4], ws[0]], ws) === [ws[4], ws[0], ws[1], ws[2], ws[3]])
        #expect(order([], ws) === ws)
        #expect(order([], []).isEmpty)
    }

    @Test func aNewerVersionDurableDuringAPassGoesToItsDroppersThenTheRestThenTheReachedOnce() {
        let ws = (0..<6).map { _ in PlannedWatcher.make() }
        var pass = ReleasePass(version: 3, first: [ws[4]], members: ws)
        let before = Self.drain(&pass, 3)
        #expect(before.map(\.0) === [ws[4], ws[0], ws[1]] && before.allSatisfy { $0.1 == 3 })
        #expect(pass.reached == 3)
        // Version 5 (4 and 5 in one report), dropped by ws[2] (not reached) and ws[0] (reached).
        pass.extend(to: 5, first: [ws[2], ws[0]])
        #expect(pass.reached == 0)
        let after = Self.drain(&pass)
        // Every session once more, each to 5: the droppers, those not reached, those reached.
        #expect(after.map(\.0) === [ws[2], ws[0], ws[3], ws[5], ws[4], ws[1]])
        #expect(after.allSatisfy { $0.1 == 5 })
        // So every session's last release is to 5, and none is released twice to 3.
        for w in ws { #expect((before + after).last { $0.0 === w }?.1 == 5) }
    }

    @Test func aPassAsksForANewerVersionEverySixtyFourSessionsAndWritesTheRestOnceToIt() {
        let ws = (0..<130).map { _ in PlannedWatcher.make() }
        var pass = ReleasePass(version: 1, first: [], members: ws)
        var writes: [(PlannedWatcher, Int)] = []
        var asked: [Int] = []
        let extended = pass.run(write: { writes.append(($0, $1)) }, newer: {
            asked.append(writes.count)
            // Version 3 is durable by the first ask, dropped by ws[100]; nothing newer after it.
            return asked.count == 1 ? (3, [ws[100]]) : nil
        })
        #expect(extended)
        // Asked after 64 sessions, then every 64 of the extended pass (130 sessions in it).
        #expect(asked == [64, 128, 192])
        // The first 64 to version 1; then ws[100], the 65 not reached, and the 64 reached, to 3.
        #expect(writes.count == 64 + 130)
        #expect(writes[..<64].map(\.0) === Array(ws[..<64]) && writes[..<64].allSatisfy { $0.1 == 1 })
        let rest = Array(writes[64...])
        #expect(rest.map(\.0) === [ws[100]] + ws[64..<100] + ws[101...] + ws[..<64])
        #expect(rest.allSatisfy { $0.1 == 3 })
        // Without a newer version: each once, to 1, asked twice.
        var plain = ReleasePass(version: 1, first: [ws[5]], members: ws)
        var count = 0, asks = 0
        var versions: Set<Int> = []
        let plainExtended = plain.run(write: { _, v in count += 1; versions.insert(v) }, newer: { asks += 1; return nil })
        #expect(!plainExtended && versions == [1])
        #expect(count == 130 && asks == 2)
    }

    @Test func aPassTakesOnlyItsBoardsCommitsAtTheQueuesHeadAndNoneWhileADrainHoldsOlderReports() {
        func landed(_ board: String, _ v: Int) -> StoreReports.Report {
            .landed(DurableCommit(board: board, version: v, by: "s1", at: 0, change: nil, origin: "p", token: v))
        }
        let reports = StoreReports()
        reports.add([landed("a", 2), landed("a", 3), landed("b", 7), landed("a", 4)])
        // A drain holds one report it has not handed yet: nothing is taken before it.
        reports.setInHand(1)
        #expect(reports.takeLanded(board: "a").isEmpty)
        reports.setInHand(0)
        // Board a's commits at the head, up to b's: a's version 4 waits behind b's report.
        #expect(reports.takeLanded(board: "a").map(\.version) == [2, 3])
        #expect(reports.takeLanded(board: "a").isEmpty)
        reports.add([.failed(board: "b", token: 9, reason: "x")])
        #expect(reports.take().map(\.board) == ["b", "a", "b"])
    }

    /// A pass written a chunk at a time (`Hub.continueRelease`): a chunk stops after its limit
    /// and the next goes on where it stopped; a version made durable between two chunks extends
    /// the pass as one taken within a chunk does; a session that left while the pass waited is
    /// not written again, reached or not.
    @Test func aPassWrittenInChunksGoesOnWhereItStoppedAndANewerVersionBetweenThemExtendsIt() {
        let ws = (0..<10).map { _ in PlannedWatcher.make() }
        var pass = ReleasePass(version: 1, first: [ws[7]], members: ws)
        var writes: [(PlannedWatcher, Int)] = []
        let write: (PlannedWatcher, Int) -> Void = { writes.append(($0, $1)) }
        let first = pass.run(limit: 4, write: write, newer: { nil })
        #expect(!first)
        #expect(writes.map(\.0) === [ws[7], ws[0], ws[1], ws[2]] && !pass.isDone)
        // Between two chunks: ws[1] (reached) and ws[5] (not reached) leave; version 2, dropped
        // by ws[8], becomes durable.
        pass.remove(ws[1])
        pass.remove(ws[5])
        pass.extend(to: 2, first: [ws[8]])
        let second = pass.run(limit: 3, write: write, newer: { nil })
        #expect(!second)
        #expect(writes[4...].map(\.0) === [ws[8], ws[3], ws[4]] && !pass.isDone)
        let last = pass.run(limit: .max, write: write, newer: { nil })
        #expect(!last && pass.isDone)
        // The rest not reached before, then those reached before to the newer version, never the
        // two that left after the first chunk, and none twice to it.
        #expect(writes[7...].map(\.0) === [ws[6], ws[9], ws[7], ws[0], ws[2]])
        #expect(writes[4...].allSatisfy { $0.1 == 2 })
        #expect(!writes[4...].contains { $0.0 === ws[1] || $0.0 === ws[5] })
        // Every session still there was last released to 2.
        for w in ws where w !== ws[1] && w !== ws[5] { #expect(writes.last { $0.0 === w }?.1 == 2) }
        // A pass done stays done; removing from it changes nothing.
        pass.remove(ws[0])
        let after = pass.take()
        #expect(pass.isDone && after == nil)
    }

    /// A pass's state between chunks (`ReleaseRun`): a chunk at a time until a newer version
    /// extends it, then the rest at once, whether the version was made durable while it waited
    /// (`nextChunk`) or during a chunk (`ReleasePass.run`); a newer version handed over is taken
    /// once; the hub settles after it only when a report taken during a chunk extended it.
    @Test func aRunWritesAChunkAtATimeUntilExtendedThenTheRestAtOnce() {
        let ws = (0..<4).map { _ in PlannedWatcher.make() }
        let member: (String) -> PlannedWatcher? = { $0 == "s3" ? ws[3] : nil }
        var run = ReleaseRun<PlannedWatcher>()
        let none = run.nextChunk(2, member: member)
        #expect(!run.isUnderWay && none == nil)
        run.start(ReleasePass(version: 1, first: [], members: ws), direct: true)
        let first = run.nextChunk(2, member: member)
        #expect(run.isUnderWay && first?.limit == 2 && first?.extendedTo == nil)
        var pass = first!.pass
        #expect(run.pass == nil && run.isUnderWay, "taken out while its chunk runs, still under way")
        _ = pass.take()
        let waits = run.put(back: pass, direct: true, extended: false)
        #expect(waits)
        // ws[2] leaves while it waits; version 2 is made durable, dropped by ws[3].
        run.remove(ws[2])
        run.extend(to: 2, first: ["s3"], direct: false)
        let second = run.nextChunk(2, member: member), again = run.takeNewer()
        #expect(second?.limit == .max && second?.extendedTo == 2 && again == nil)
        #expect(run.direct == false)
        pass = second!.pass
        #expect(pass.version == 2)
        var left: [PlannedWatcher] = []
        while let m = pass.take() { left.append(m) }
        // The dropper first, then the one not reached, then the one reached; not the one that left.
        #expect(left === [ws[3], ws[1], ws[0]])
        let kept = run.put(back: pass, direct: false, extended: false)
        #expect(!kept && run.direct == false)
        let settles = run.finish()
        #expect(!settles && !run.isUnderWay, "extended between chunks: its report's drain settles")
        // A report taken during a chunk: the run writes the rest at once, and the hub settles
        // when the pass ends.
        run.start(ReleasePass(version: 3, first: [], members: ws), direct: true)
        let third = run.nextChunk(2, member: member)
        #expect(third?.limit == 2)
        pass = third!.pass
        var written: [(PlannedWatcher, Int)] = []
        let extended = pass.run(every: 1, limit: third!.limit, write: { written.append(($0, $1)) },
                                newer: { written.count == 1 ? (4, []) : nil })
        #expect(extended && pass.isDone && written.count == 1 + 4, "past its limit of 2 once extended")
        let keptAgain = run.put(back: pass, direct: true, extended: extended)
        let settlesNow = run.finish()
        #expect(!keptAgain && settlesNow)
    }

    @Test func anOlderOrEqualVersionDoesNotExtendAPass() {
        let ws = (0..<3).map { _ in PlannedWatcher.make() }
        var pass = ReleasePass(version: 4, first: [], members: ws)
        _ = pass.take()
        pass.extend(to: 4, first: [ws[2]])
        pass.extend(to: 2, first: [ws[2]])
        let rest = Self.drain(&pass)
        #expect(rest.map(\.0) === [ws[1], ws[2]] && rest.allSatisfy { $0.1 == 4 })
    }
}

/// Arrays of members compared by identity.
func === (a: [PlannedWatcher], b: [PlannedWatcher]) -> Bool {
    a.count == b.count && zip(a, b).allSatisfy { $0 === $1 }
}
