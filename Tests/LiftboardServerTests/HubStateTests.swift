import Testing
import LiftboardCore
import LiftboardStore
@testable import LiftboardServer

/// `HubState` driven input by input, exhaustively: each input's actions are compared whole, so
/// an action the test did not expect fails it (as TCA's `TestStore` does).
@Suite struct HubStateTests {
    static let here = "host/1/here"
    static let there = "host/2/there"

    /// "todo": a, b, c, d; "done": empty.
    static func board() -> Board {
        Board(id: "b", sections: [
            Section(id: "todo", items: [Item(id: "a"), Item(id: "b"), Item(id: "c"), Item(id: "d")]),
            Section(id: "done", items: []),
        ])
    }

    /// A hub on `board()` with sessions s1, s2 and s3.
    static func hub() -> HubState {
        var h = HubState(board: board(), origin: here)
        for s in ["s1", "s2", "s3"] { h.join(s) }
        return h
    }

    /// `change` as session `by` commits it on `board` (the session's next version).
    static func commit(_ change: Change, on board: Board, by: String) -> Commit {
        var b = board
        let moves = b.apply(change)!
        return Commit(board: b.id, version: b.version, by: by, moves: moves, order: b.order, change: change)
    }

    /// `change` as the store reports it durable at `version`.
    static func durable(_ change: Change, _ version: Int, by: String, origin: String, token: Int) -> DurableCommit {
        DurableCommit(board: "b", version: version, by: by, at: 1000, change: change, origin: origin, token: token)
    }

    /// The change-only commit sessions are told on a rebase.
    static func told(_ change: Change, on board: Board, version: Int, by: String) -> Commit {
        var b = board
        let moves = b.apply(change)!
        return Commit(board: "b", version: version, by: by, moves: moves, order: [], change: change)
    }

    static let aToDone = Change.insert(id: "a", section: "done", after: nil, index: 0)
    static let dFirst = Change.insert(id: "d", section: "todo", after: nil, index: 0)
    static let cToDone = Change.insert(id: "c", section: "done", after: "a", index: 1)

    func record(_ c: Commit, token: Int, ifVersion: Int? = nil) -> HubState.Action {
        .persist(CommitRecord(commit: c, at: 5, origin: Self.here, token: token, ifVersion: ifVersion))
    }

    // MARK: Commits of this process

    @Test func aSessionsCommitIsPersistedAndHandedToEveryOtherSession() {
        var h = Self.hub()
        let c = Self.commit(Self.aToDone, on: Self.board(), by: "s1")
        #expect(h.commit(c, by: "s1", at: 5, now: 0) == [record(c, token: 1), .deliver(c, except: "s1")])
        #expect(h.sessions == ["s1", "s2", "s3"])
        #expect(h.board.version == 1 && h.truth.version == 0)
        #expect(h.pending.map(\.expected) == [1])
    }

    @Test func aCommitThatDoesNotFollowTheBoardIsRefusedAndChangesNothing() {
        var h = Self.hub()
        var c = Self.commit(Self.aToDone, on: Self.board(), by: "s1")
        c.version = 3
        #expect(h.commit(c, by: "s1", at: 5, now: 0) == nil)
        #expect(h.board == Self.board() && h.pending.isEmpty)
    }

    @Test func itsOwnDurableReportReleasesWhatWaitedAndNeedsNoRebase() {
        var h = Self.hub()
        let c = Self.commit(Self.aToDone, on: Self.board(), by: "s1")
        _ = h.commit(c, by: "s1", at: 5, now: 0)
        let d = Self.durable(Self.aToDone, 1, by: "s1", origin: Self.here, token: 1)
        // s1's own drop: its commit is written first, before the other sessions'.
        #expect(h.durable(d) == [.publish(d), .release(durable: 1, first: ["s1"])])
        #expect(h.settle() == [])
        #expect(h.truth == h.board && h.pending.isEmpty)
        #expect(h.lastRevert?.version == 1)
    }

    @Test func theTruthTakesEachDurableCommitWhetherOthersAreInFlightOrNotWithItsRevert() {
        var h = Self.hub()
        var afterA = Self.board()
        _ = afterA.apply(Self.aToDone)
        var afterBoth = afterA
        _ = afterBoth.apply(Self.dFirst)
        _ = h.commit(Self.commit(Self.aToDone, on: Self.board(), by: "s1"), by: "s1", at: 5, now: 0)
        _ = h.commit(Self.commit(Self.dFirst, on: h.board, by: "s2"), by: "s2", at: 5, now: 1)
        // The first of two in flight: applied to the truth, which is not the board yet.
        let d1 = Self.durable(Self.aToDone, 1, by: "s1", origin: Self.here, token: 1)
        #expect(h.durable(d1) == [.publish(d1), .release(durable: 1, first: ["s1"])])
        #expect(h.truth == afterA && h.board == afterBoth)
        // The last one in flight: the truth is the board.
        let d2 = Self.durable(Self.dFirst, 2, by: "s2", origin: Self.here, token: 2)
        #expect(h.durable(d2) == [.publish(d2), .release(durable: 2, first: ["s2"])])
        #expect(h.truth == afterBoth && h.board == afterBoth && h.pending.isEmpty && h.settle() == [])
        // Its revert, for `undo`, is of the truth before it.
        var undone = h.truth
        #expect(h.lastRevert?.version == 2)
        if let revert = h.lastRevert?.change { _ = undone.apply(revert) }
        #expect(undone.order == afterA.order)
    }

    /// The only drop in flight, durable as told: the hub takes its board as the truth (the
    /// change is applied once), which is the board and the revert that applying the change to
    /// the truth gives, for each kind of move.
    @Test func aLoneDurableDropLeavesTheTruthAndRevertThatApplyingItWouldGive() {
        let changes: [Change] = [Self.aToDone, Self.dFirst, .swap("a", "c"),
                                 .group(ids: ["b", "d"], section: "done", after: nil, index: 0)]
        for change in changes {
            var h = Self.hub()
            _ = h.commit(Self.commit(change, on: Self.board(), by: "s1"), by: "s1", at: 5, now: 0)
            var reference = Self.board()
            let applied = reference.applyReverting(change)
            let d = Self.durable(change, 1, by: "s1", origin: Self.here, token: 1)
            #expect(h.durable(d) == [.publish(d), .release(durable: 1, first: ["s1"])])
            #expect(h.truth == reference && h.board == reference && h.pending.isEmpty, "\(change)")
            #expect(h.lastRevert?.version == 1 && h.lastRevert?.change == applied?.revert, "\(change)")
        }
    }

    @Test func theSessionWhoseDropBecameDurableIsReleasedFirstButOnlyWhileItIsOnTheBoard() {
        var h = Self.hub()
        // s3 drops; s1 and s2 watch. s3's commit goes to s3 first.
        _ = h.commit(Self.commit(Self.aToDone, on: Self.board(), by: "s3"), by: "s3", at: 5, now: 0)
        #expect(h.durable(Self.durable(Self.aToDone, 1, by: "s3", origin: Self.here, token: 1)).last == .release(durable: 1, first: ["s3"]))
        // s2 drops and leaves before its commit is durable: nobody comes first.
        _ = h.commit(Self.commit(Self.dFirst, on: h.board, by: "s2"), by: "s2", at: 5, now: 1)
        h.leave("s2")
        #expect(h.durable(Self.durable(Self.dFirst, 2, by: "s2", origin: Self.here, token: 2)).last == .release(durable: 2, first: []))
        // Another process's commit: nobody here dropped it.
        var after = h.board
        _ = after.apply(Self.cToDone)
        let theirs = Self.durable(Self.cToDone, 3, by: "s7-y", origin: Self.there, token: 9)
        #expect(h.durable(theirs).last == .release(durable: 3, first: []))
    }

    @Test func aDuplicateReportIsIgnored() {
        var h = Self.hub()
        _ = h.commit(Self.commit(Self.aToDone, on: Self.board(), by: "s1"), by: "s1", at: 5, now: 0)
        let d = Self.durable(Self.aToDone, 1, by: "s1", origin: Self.here, token: 1)
        _ = h.durable(d)
        #expect(h.durable(d) == [])
        #expect(h.settle() == [])
        #expect(h.truth.version == 1)
    }

    @Test func anEarlyReportWaitsForTheOneBeforeItAndAsksTheListenerToCatchUp() {
        var h = Self.hub()
        let c1 = Self.commit(Self.aToDone, on: Self.board(), by: "s1")
        _ = h.commit(c1, by: "s1", at: 5, now: 0)
        let c2 = Self.commit(Self.dFirst, on: h.board, by: "s2")
        _ = h.commit(c2, by: "s2", at: 5, now: 1)
        let d1 = Self.durable(Self.aToDone, 1, by: "s1", origin: Self.here, token: 1)
        let d2 = Self.durable(Self.dFirst, 2, by: "s2", origin: Self.here, token: 2)
        #expect(h.durable(d2) == [.catchUp(after: 0)])
        #expect(h.truth.version == 0)
        #expect(h.durable(d1) == [.publish(d1), .publish(d2), .release(durable: 2, first: ["s1", "s2"])])
        #expect(h.settle() == [])
        #expect(h.truth == h.board)
    }

    /// A batch right after the truth, in order, is applied as it comes; the same batch in any
    /// other order (or with a duplicate) waits in `arrivals` and is taken back out in version
    /// order: both give the same actions and leave the same state.
    @Test func aBatchInOrderActsAsTheSameBatchTakenInVersionOrderFromAnyOrder() {
        var h = Self.hub()
        var ds: [DurableCommit] = []
        for (k, (change, by)) in [(Self.aToDone, "s1"), (Self.dFirst, "s2"), (Self.cToDone, "s1")].enumerated() {
            _ = h.commit(Self.commit(change, on: h.board, by: by), by: by, at: 5, now: Double(k))
            ds.append(Self.durable(change, k + 1, by: by, origin: Self.here, token: k + 1))
        }
        // Another process's commit after ours, in the same read.
        ds.append(Self.durable(.insert(id: "b", section: "done", after: nil, index: 0), 4, by: "s9", origin: Self.there, token: 1))
        var inOrder = h
        let expected = inOrder.durable(ds)
        #expect(expected.count == 6 && expected.last == .release(durable: 4, first: ["s1", "s2"]))
        var settled = inOrder
        let settling = settled.settle()
        for other in [[ds[2], ds[0], ds[3], ds[1]], ds.reversed(), [ds[0], ds[1], ds[0], ds[2], ds[3]]] {
            var taken = h
            #expect(taken.durable(other) == expected)
            #expect(taken.truth == inOrder.truth && taken.board == inOrder.board && taken.pending == inOrder.pending)
            #expect(taken.lastRevert?.version == inOrder.lastRevert?.version && taken.lastRevert?.change == inOrder.lastRevert?.change)
            #expect(taken.settle() == settling)
        }
    }

    @Test func aFailedWriteIsRefusedToItsSessionAndEverySessionIsResyncedToTheTruth() {
        var h = Self.hub()
        _ = h.commit(Self.commit(Self.aToDone, on: Self.board(), by: "s2"), by: "s2", at: 5, now: 0)
        let refused = h.failed(token: 1)
        #expect(refused?.by == "s2")
        #expect(refused?.actions == [.refuse(to: "s2", .storeUnavailable, message: "the drop could not be saved; the board is back to its last saved order")])
        #expect(h.settle() == ["s1", "s2", "s3"].map { .resync(to: $0, board: Self.board(), droppingHeldAbove: 0) })
        #expect(h.board == Self.board() && h.pending.isEmpty)
        #expect(h.failed(token: 1) == nil)
    }

    @Test func aWriteTheStoreRefusedByARuleIsRefusedToItsSessionByNameAndEverySessionIsResynced() {
        var h = Self.hub()
        _ = h.commit(Self.commit(Self.aToDone, on: Self.board(), by: "s2"), by: "s2", at: 5, now: 0)
        let refused = h.refused(token: 1, reason: "max: section \"done\" holds at most 0 items")
        #expect(refused?.by == "s2")
        #expect(refused?.actions == [.refuse(to: "s2", .ruleRefused, message: "max: section \"done\" holds at most 0 items")])
        #expect(h.settle() == ["s1", "s2", "s3"].map { .resync(to: $0, board: Self.board(), droppingHeldAbove: 0) })
        #expect(h.board == Self.board() && h.pending.isEmpty)
        #expect(h.refused(token: 1, reason: "again") == nil)
    }

    @Test func aWriteReportedFailedThatLandedAfterAllResyncsEveryone() {
        var h = Self.hub()
        _ = h.commit(Self.commit(Self.aToDone, on: Self.board(), by: "s1"), by: "s1", at: 5, now: 0)
        _ = h.failed(token: 1)
        _ = h.settle()
        let d = Self.durable(Self.aToDone, 1, by: "s1", origin: Self.here, token: 1)
        #expect(h.durable(d) == [.publish(d), .release(durable: 1, direct: false)])
        var landed = Self.board()
        _ = landed.apply(Self.aToDone)
        #expect(h.settle() == ["s1", "s2", "s3"].map { .resync(to: $0, board: landed, droppingHeldAbove: 0) })
    }

    @Test func anEditIsPersistedWithItsIfMatchAndHandedToEverySession() {
        var h = Self.hub()
        let rename = Change.renameSection(id: "done", title: "Finished")
        guard let made = h.edit(rename, by: "api", ifVersion: 0, at: 5, now: 0) else {
            Issue.record("the rename did not apply")
            return
        }
        let c = Commit(board: "b", version: 1, by: "api", moves: [], order: [], change: rename)
        #expect(made.commit == c && made.token == 1)
        #expect(made.actions == [record(c, token: 1, ifVersion: 0), .deliver(c, except: nil)])
        #expect(h.edit(.removeSection("nowhere"), by: "api", ifVersion: nil, at: 5, now: 0) == nil)
    }

    @Test func anEditIsSignedByItsPersonsUserAndAnotherProcessesCommitKeepsItsUser() {
        var h = Self.hub()
        let rename = Change.renameSection(id: "done", title: "Finished")
        let ada = Person(user: "u-ada", name: "Ada", role: .edit)
        let made = h.edit(rename, by: "api", person: ada, ifVersion: 0, at: 5, now: 0)
        #expect(made?.commit.user == "u-ada" && made?.commit.name == "Ada" && made?.commit.by == "api")
        guard case .persist(let record)? = made?.actions.first else { Issue.record("no record"); return }
        #expect(record.commit.user == "u-ada")
        // A person without a user signs nothing, whatever name it has.
        let unsigned = h.edit(.renameSection(id: "done", title: "Done"), by: "api", person: Person(name: "N", role: .admin), ifVersion: 1, at: 5, now: 0)
        #expect(unsigned?.commit.user == nil && unsigned?.commit.name == nil)
        // Another process's commit reaches the sessions with its user and name.
        var other = Self.hub()
        var d = Self.durable(Self.aToDone, 1, by: "s9", origin: "elsewhere", token: 4)
        d.user = "u-bo"; d.name = "Bo"
        let told = other.durable(d).compactMap { if case .deliver(let c, _) = $0 { c } else { nil } }
        #expect(told.map(\.user) == ["u-bo"] && told.map(\.name) == ["Bo"])
    }

    // MARK: Other processes

    @Test func anotherProcessesCommitWithNothingOfOursInFlightGoesToEverySessionAsACommit() {
        var h = Self.hub()
        h.leave("s3")
        let d = Self.durable(Self.dFirst, 1, by: "s9-x", origin: Self.there, token: 4)
        var after = Self.board()
        let moves = after.apply(Self.dFirst)!
        let c = Commit(board: "b", version: 1, by: "s9-x", moves: moves, order: after.order, change: Self.dFirst)
        #expect(h.durable(d) == [.publish(d), .deliver(c, except: nil), .release(durable: 1)])
        #expect(h.sessions == ["s1", "s2"])
        #expect(h.settle() == [])
        #expect(h.board == after && h.truth == after)
    }

    @Test func aChangeTheBoardCannotReplayTakesTheStoresVersionAndResyncs() {
        var h = Self.hub()
        let d = Self.durable(.removeItem("nowhere"), 1, by: "api", origin: Self.there, token: 1)
        #expect(h.durable(d) == [.release(durable: 1, direct: false)])
        var truth = Self.board()
        truth.version = 1
        #expect(h.settle() == ["s1", "s2", "s3"].map { .resync(to: $0, board: truth, droppingHeldAbove: 0) })
    }

    @Test func aDropRacedByAnotherProcessIsRebasedOnItsCommit() {
        var h = Self.hub()
        let mine = Self.commit(Self.aToDone, on: Self.board(), by: "s1")
        _ = h.commit(mine, by: "s1", at: 5, now: 0)
        // The other process's drop came first (v1); ours landed on top of it (v2).
        let theirs = Self.durable(Self.dFirst, 1, by: "s7-y", origin: Self.there, token: 3)
        let ours = Self.durable(Self.aToDone, 2, by: "s1", origin: Self.here, token: 1)
        #expect(h.durable(ours) == [.catchUp(after: 0)])
        // The sessions were told s1's drop as v1: nothing is written before the rebase below
        // drops that held commit (the writeable callbacks come after it).
        #expect(h.durable(theirs) == [.publish(theirs), .publish(ours), .release(durable: 2, direct: false)])
        var merged = Self.board()
        _ = merged.apply(Self.dFirst)
        _ = merged.apply(Self.aToDone)
        // Everyone gets the other process's commit, then ours at the store's version, by s1.
        let commits = [Self.told(Self.dFirst, on: Self.board(), version: 1, by: "s7-y"),
                       Self.told(Self.aToDone, on: Self.boardAfter(Self.dFirst), version: 2, by: "s1")]
        let base = HubState.RebaseBase(version: 0, order: Self.board().order)
        #expect(h.settle() == ["s1", "s2", "s3"].map { .rebase(to: $0, base: base, commits: commits) })
        #expect(h.board == merged && h.truth == merged && h.pending.isEmpty)
        #expect(h.settle() == [])
    }

    @Test func aRebaseTellsTheDropsStillInFlightAtTheirNewVersions() {
        var h = Self.hub()
        let first = Self.commit(Self.aToDone, on: Self.board(), by: "s1")
        _ = h.commit(first, by: "s1", at: 5, now: 0)
        _ = h.commit(Self.commit(Self.cToDone, on: h.board, by: "s2"), by: "s2", at: 5, now: 1)
        let theirs = Self.durable(Self.dFirst, 1, by: "s7-y", origin: Self.there, token: 3)
        #expect(h.durable(theirs) == [.publish(theirs), .release(durable: 1, direct: false)])
        let afterTheirs = Self.boardAfter(Self.dFirst)
        var afterBoth = afterTheirs
        _ = afterBoth.apply(Self.aToDone)
        let commits = [Self.told(Self.dFirst, on: Self.board(), version: 1, by: "s7-y"),
                       Self.told(Self.aToDone, on: afterTheirs, version: 2, by: "s1"),
                       Self.told(Self.cToDone, on: afterBoth, version: 3, by: "s2")]
        let base = HubState.RebaseBase(version: 0, order: Self.board().order)
        #expect(h.settle() == ["s1", "s2", "s3"].map { .rebase(to: $0, base: base, commits: commits) })
        #expect(h.pending.map(\.expected) == [2, 3])
        // Then both land where they were told this time: nothing more to correct.
        let d2 = Self.durable(Self.aToDone, 2, by: "s1", origin: Self.here, token: 1)
        let d3 = Self.durable(Self.cToDone, 3, by: "s2", origin: Self.here, token: 2)
        #expect(h.durable(d2) == [.publish(d2), .release(durable: 2, first: ["s1"])])
        #expect(h.durable(d3) == [.publish(d3), .release(durable: 3, first: ["s2"])])
        #expect(h.settle() == [])
        #expect(h.truth == h.board)
    }

    @Test func aDropThatARebaseMakesMootIsRefusedAndEveryoneGetsALayout() {
        var h = Self.hub()
        _ = h.commit(Self.commit(Self.aToDone, on: Self.board(), by: "s2"), by: "s2", at: 5, now: 0)
        // Another process moved a to "done" first: ours changes nothing on top of it.
        let theirs = Self.durable(Self.aToDone, 1, by: "s7-y", origin: Self.there, token: 3)
        #expect(h.durable(theirs) == [.publish(theirs), .release(durable: 1, direct: false)])
        let truth = Self.boardAfter(Self.aToDone)
        #expect(h.settle() == [.refuse(to: "s2", .dropMoot, message: "the drop changes nothing after another change that came first")]
                + ["s1", "s2", "s3"].map { .resync(to: $0, board: truth, droppingHeldAbove: 0) })
        #expect(h.pending.map(\.expected) == [nil])
        #expect(h.unchanged(token: 1) == [])
        #expect(h.settle() == [])
    }

    static func boardAfter(_ change: Change) -> Board {
        var b = board()
        _ = b.apply(change)
        return b
    }

    @Test func aDropTheStoreFoundMootIsRefusedAsMootAndEveryoneGetsALayout() {
        var h = Self.hub()
        _ = h.commit(Self.commit(Self.aToDone, on: Self.board(), by: "s2"), by: "s2", at: 5, now: 0)
        let theirs = Self.durable(Self.aToDone, 1, by: "s7-y", origin: Self.there, token: 3)
        #expect(h.durable(theirs) == [.publish(theirs), .release(durable: 1, direct: false)])
        #expect(h.unchanged(token: 1) == [.refuse(to: "s2", .dropMoot, message: "the drop changed nothing by the time it was saved (another change came first); the board is back to its saved order")])
        let truth = Self.boardAfter(Self.aToDone)
        #expect(h.settle() == ["s1", "s2", "s3"].map { .resync(to: $0, board: truth, droppingHeldAbove: 0) })
    }
}
