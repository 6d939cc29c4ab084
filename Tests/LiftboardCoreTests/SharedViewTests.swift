@testable import LiftboardCore
import Testing

/// Idle sessions with the same view answer a commit from elsewhere alike: one is stepped and
/// the others take its state and answer (`Session.adoptView`), which must be exactly what each
/// would have answered on its own, then and at every later step.
struct SharedViewTests {
    static func hello(_ board: Board, _ config: SessionConfig, h: Double = 600) -> ClientEvent {
        .hello(Hello(board: board.id, viewport: Viewport(w: 400, h: h), config: config))
    }

    /// A random move of one item on `board` (applied to it), as another session's commit.
    static func randomCommit(_ board: inout Board, _ rng: inout SplitMix64) -> Commit? {
        let items = board.sections.flatMap { s in s.items.map(\.id) }
        guard let id = items.randomElement(using: &rng) else { return nil }
        let section = board.sections.randomElement(using: &rng)!
        let others = section.items.map(\.id).filter { $0 != id }
        let k = Int.random(in: 0...others.count, using: &rng)
        let change = Change.insert(id: id, section: section.id, after: k == 0 ? nil : others[k - 1], index: k)
        guard let moves = board.apply(change) else { return nil }
        return Commit(board: board.id, version: board.version, by: "other", moves: moves, order: board.order, change: change)
    }

    @Test func aWatcherThatTakesAnotherWatchersAnswerAnswersWhatItWouldHaveAnsweredAlone() {
        var failures: [String] = []
        var adopted = 0
        for seed in 0..<200 as Range<UInt64> {
            var rng = SplitMix64(seed: seed &+ 5_000)
            // A list, or (every other seed) the same items in three columns (issue 24), whose
            // offsets (the board's sideways, each column's own) are part of the view.
            let n = Int.random(in: 5...80, using: &rng)
            var board = Board(id: "long", sections: (0..<3).map { s in
                Section(id: "c\(s)", items: (0..<n).filter { $0 % 3 == s }.map { Item(id: "i\($0)") })
            })
            if seed % 2 == 1 { board = RandomStreams.asColumns(board, &rng) }
            var config = SessionConfig()
            config.commitOrder = Bool.random(using: &rng) ? .none : .full
            config.events = Bool.random(using: &rng) ? .inline : .separate
            let start = board
            // The leader and the truth (a watcher stepped alone) start alike, at other times,
            // with different counts of frames and seqs; the follower is the truth's twin.
            var leader = Session(id: "lead"), alone = Session(id: "w")
            _ = leader.handle(Self.hello(start, config), at: 0) { _ in start }
            _ = alone.handle(Self.hello(start, config), seq: 4, at: 37.5) { _ in start }
            _ = alone.handle(.ping(id: .int(1)), seq: 9, at: 40)
            var t = 100.0
            for step in 0..<12 {
                guard let c = Self.randomCommit(&board, &rng) else { continue }
                t += 16
                // Now and then the watchers scroll (alike): a different view for a while.
                if step % 5 == 4 {
                    _ = leader.handle(.wheel(dx: 0, dy: 120), at: t)
                    _ = alone.handle(.wheel(dx: 0, dy: 120), seq: 20 + step, at: t + 3)
                }
                let sameView = leader.sharedViewKey != nil && leader.sharedViewKey == alone.sharedViewKey
                // The key compared in place says what the keys built and compared say.
                if let key = leader.sharedViewKey, alone.hasSharedView(key) != sameView {
                    failures.append("seed \(seed) step \(step): hasSharedView says \(!sameView)")
                }
                var follower = alone
                let leaderOut = leader.handle(.external(c), at: t)
                let aloneOut = alone.handle(.external(c), at: t + 7)
                guard sameView, let got = follower.adoptView(of: leader, answering: leaderOut, at: t + 7) else {
                    if sameView { failures.append("seed \(seed) step \(step): the leader did not stay idle") }
                    continue
                }
                adopted += 1
                if got != aloneOut { failures.append("seed \(seed) step \(step): \(got) != \(aloneOut)") }
                // And from then on the follower is the watcher it replaced.
                var f2 = follower, a2 = alone, b2 = board
                if let next = Self.randomCommit(&b2, &rng) {
                    let x = f2.handle(.external(next), at: t + 10), y = a2.handle(.external(next), at: t + 10)
                    if x != y { failures.append("seed \(seed) step \(step): the next commit differs") }
                }
                if follower.sharedViewKey != alone.sharedViewKey || follower.committedOrder != alone.committedOrder {
                    failures.append("seed \(seed) step \(step): states differ")
                }
                if failures.count > 3 { break }
            }
            if failures.count > 3 { break }
        }
        #expect(failures.isEmpty, "\(failures.prefix(3))")
        #expect(adopted > 500, "\(adopted)")
    }

    @Test func aSessionWithAnythingOfItsOwnInFlightHasNoSharedView() {
        let board = Fixtures.longList(30)
        var s = Session(id: "a")
        _ = s.handle(Self.hello(board, SessionConfig()), at: 0) { _ in board }
        #expect(s.sharedViewKey != nil)
        _ = s.handle(.down(pointer: 1, at: Point(x: 50, y: 60), kind: .touch), at: 10)
        #expect(s.sharedViewKey == nil)  // a finger is down (and its press timer is armed)
        _ = s.handle(.up(pointer: 1, at: Point(x: 50, y: 60)), at: 20)
        _ = s.drain()
        _ = s.handle(.key("Tab", mods: []), at: 30)
        #expect(s.sharedViewKey == nil)  // the keyboard focus is this client's
        var other = Session(id: "b")
        var wide = SessionConfig()
        wide.commitOrder = .none
        _ = other.handle(Self.hello(board, wide), at: 0) { _ in board }
        var plain = Session(id: "c")
        _ = plain.handle(Self.hello(board, SessionConfig()), at: 5) { _ in board }
        #expect(other.sharedViewKey != plain.sharedViewKey)  // another config: another view
        let key = plain.sharedViewKey!
        #expect(plain.hasSharedView(key) && !other.hasSharedView(key) && !s.hasSharedView(key))
    }

    @Test func twoKiosksThatSaidTheSameHelloShareOneStateAndAnswerAsEachWouldAlone() {
        var board = Fixtures.longList(40)
        let start = board
        var a = Session(id: "a"), b = Session(id: "b"), alone = Session(id: "b")
        _ = a.handle(Self.hello(start, SessionConfig()), at: 0) { _ in start }
        _ = b.handle(Self.hello(start, SessionConfig()), seq: 3, at: 12) { _ in start }
        _ = alone.handle(Self.hello(start, SessionConfig()), seq: 3, at: 12) { _ in start }
        let shared = b.shareView(with: a)
        #expect(shared)
        var rng = SplitMix64(seed: 9)
        for k in 0..<20 {
            guard let c = Self.randomCommit(&board, &rng) else { continue }
            let x = b.handle(.external(c), at: 100 + Double(k)), y = alone.handle(.external(c), at: 100 + Double(k))
            #expect(x == y)
            _ = a.handle(.external(c), at: 50 + Double(k))
        }
        #expect(b.committedOrder == board.order)
        // Another viewport: another picture, nothing shared.
        var tall = Session(id: "t")
        _ = tall.handle(Self.hello(start, SessionConfig(), h: 900), at: 0) { _ in start }
        let tallShared = tall.shareView(with: alone)
        #expect(!tallShared)
    }

    /// A renewed token (issue 42) on a session that shares another's state is that session's
    /// alone: its own facts, kept beside the shared box, go into its own copy with the new person.
    @Test func aRenewedTokenOnASharedViewIsThatSessionsAlone() {
        let board = Fixtures.longList(40)
        var a = Session(id: "a"), b = Session(id: "b")
        _ = a.handle(Self.hello(board, SessionConfig()), at: 0) { _ in board }
        _ = b.handle(Self.hello(board, SessionConfig()), at: 0) { _ in board }
        let shared = b.shareView(with: a)
        #expect(shared && b.sharedState === a.sharedState)
        let viewer = Person(user: "v", name: "V", role: .view)
        #expect(b.renew(person: viewer, at: 10).isEmpty)
        #expect(b.person == viewer && b.ownIdentity()?.person == viewer)
        #expect(b.ownIdentity()?.sessionID == "b" && b.sharedState !== a.sharedState)
        #expect(a.person == .open && a.ownIdentity()?.person == .open)
    }

    /// Watchers that took the leader's view share its state until they change: a key made from
    /// the leader in that state is theirs without comparing the view's fields, but for each
    /// one's own last input when an idle reset counts from it (`hasSharedView(_:madeFrom:)`
    /// says what the keys built and compared say).
    @Test func aWatcherInTheLeadersStateHasItsViewButForItsOwnLastInput() {
        var board = Fixtures.longList(40)
        for idleReset in [0.0, 5_000] {
            var config = SessionConfig()
            config.idleResetMs = idleReset
            let start = board
            var leader = Session(id: "lead")
            _ = leader.handle(Self.hello(start, config), at: 0) { _ in start }
            var watchers = (0..<4).map { Session(id: "w\($0)") }
            for k in watchers.indices { _ = watchers[k].handle(Self.hello(start, config), at: 0) { _ in start } }
            var rng = SplitMix64(seed: 11)
            var viaState = 0
            for step in 0..<16 {
                guard let c = Self.randomCommit(&board, &rng) else { continue }
                let t = 100 + 20 * Double(step)
                // Now and then one watcher scrolls, or pings (its own last input).
                if step % 4 == 1 { _ = watchers[1].handle(.wheel(dx: 0, dy: 90), at: t - 5) }
                if step % 3 == 2 { _ = watchers[2].handle(.ping(id: .int(step)), seq: step, at: t - 3) }
                guard let key = leader.sharedViewKey else { Issue.record("the leader is idle"); break }
                let before = leader.sharedState
                for w in watchers {
                    let same = w.sharedViewKey == key
                    #expect(w.hasSharedView(key, madeFrom: before) == same, "step \(step) \(w.id)")
                    if w.sharedState === before { viaState += 1 }
                }
                let out = leader.handle(.external(c), at: t)
                let frames = out.filter { if case .frame = $0 { true } else { false } }.count
                guard let after = leader.sharedState else { Issue.record("the leader is live"); break }
                for k in watchers.indices {
                    if watchers[k].hasSharedView(key, madeFrom: before),
                       watchers[k].adoptView(ofState: after, frames: frames) != nil { continue }
                    _ = watchers[k].handle(.external(c), at: t)
                }
            }
            #expect(viaState > 20)
        }
    }
}
