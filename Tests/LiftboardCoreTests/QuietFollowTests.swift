@testable import LiftboardCore
import Testing

/// `follow: "quiet"` leaves out the frames that only move a pointer drag's snapshot, and puts
/// the centers they carried into the next frame that goes out: the same session, fewer messages.
struct QuietFollowTests {
    /// The snapshot centers a client knows, by pointer and item, after reading `events`.
    static func centers(after events: [ServerEvent], from known: [String: Point]) -> [String: Point] {
        var known = known
        for e in events {
            let updates: [SnapshotUpdate]
            switch e {
            case .layout(let l):
                known = [:]
                updates = l.snapshots
            case .frame(let f): updates = f.snapshots
            default: continue
            }
            for u in updates {
                let key = "\(u.p):\(u.id)"
                if u.done { known[key] = nil } else if let c = u.center { known[key] = c }
            }
        }
        return known
    }

    /// A frame that `quiet` leaves out: nothing but pointer drags' centers.
    static func onlyFollows(_ f: FrameMessage) -> Bool {
        var bare = FrameMessage(seq: f.seq, ms: f.ms, ack: f.ack)
        bare.snapshots = f.snapshots
        return bare == f && !f.snapshots.isEmpty && f.snapshots.allSatisfy {
            $0.p >= 0 && $0 == SnapshotUpdate(p: $0.p, id: $0.id, center: $0.center, moveDur: 0) && $0.center != nil
        }
    }

    static func frames(_ events: [ServerEvent]) -> [FrameMessage] {
        events.compactMap { if case .frame(let f) = $0 { f } else { nil } }
    }

    /// Random streams through two sessions, one `every`, one `quiet`, step by step: the same
    /// decisions (orders, scroll, commits, every message but frames), the frames that only
    /// follow left out, every other frame the same but for its `seq` and the centers it adds,
    /// and after each frame the quiet client knows every center the other knows.
    @Test func aQuietSessionSendsTheSameButTheFollowOnlyFramesAndCarriesTheirCentersLater() {
        var failures: [String] = []
        var leftOut = 0, kept = 0
        for seed in 0..<600 as Range<UInt64> {
            var rng = SplitMix64(seed: seed &+ 91_000)
            let board = RandomStreams.board(&rng)
            var config = RandomStreams.config(&rng)
            config.events = Bool.random(using: &rng) ? .inline : .separate
            let events = RandomStreams.events(&rng, board: board, count: 80).filter {
                if case .external = $0.0 { false } else { true }
            }
            var every = Session(id: "s"), quiet = Session(id: "s")  // one id: commits name it
            var quietConfig = config
            quietConfig.follow = .quiet
            let hello = { (c: SessionConfig) in ClientEvent.hello(Hello(board: board.id, viewport: Viewport(w: 400, h: 600), config: c)) }
            var eKnown = Self.centers(after: every.handle(hello(config), at: 0) { _ in board }, from: [:])
            var qKnown = Self.centers(after: quiet.handle(hello(quietConfig), at: 0) { _ in board }, from: [:])
            for (k, (e, t)) in events.enumerated() {
                let a = every.handle(e, seq: k + 1, at: t), b = quiet.handle(e, seq: k + 1, at: t)
                let what = "seed \(seed) step \(k) \(e)"
                let notFrames = { (x: [ServerEvent]) in x.filter { if case .frame = $0 { false } else { true } } }
                if notFrames(a) != notFrames(b) { failures.append("\(what): other messages differ") }
                if every.liveOrder != quiet.liveOrder || every.committedOrder != quiet.committedOrder
                    || every.scrollY != quiet.scrollY || every.nextDeadline != quiet.nextDeadline {
                    failures.append("\(what): the sessions' state differs")
                }
                // A frame right after a separate lift, moved or drop is that event's frame (a
                // reorder out of view): kept.
                let isGesture = { (e: ServerEvent) in switch e { case .lift, .moved, .drop: true; default: false } }
                var keep: [Bool] = []
                for (i, m) in a.enumerated() {
                    if case .frame(let f) = m { keep.append(!Self.onlyFollows(f) || (i > 0 && isGesture(a[i - 1]))) }
                }
                let fa = Self.frames(a), fb = Self.frames(b)
                let expected = zip(fa, keep).filter(\.1).map(\.0)
                leftOut += fa.count - expected.count
                kept += expected.count
                if expected.count != fb.count {
                    failures.append("\(what): \(fb.count) frames, expected \(expected.count) of \(fa.count)")
                } else {
                    for (x, y) in zip(expected, fb) {
                        var y2 = y, x2 = x
                        y2.seq = x.seq
                        // The quiet frame may add centers to updates, or add center-only updates.
                        y2.snapshots = y.snapshots.filter { u in x.snapshots.contains { $0.p == u.p && $0.id == u.id } }
                        for (i, u) in y2.snapshots.enumerated() where x.snapshots.indices.contains(i) {
                            if x.snapshots[i].center == nil, u.center != nil { x2.snapshots[i].center = u.center; x2.snapshots[i].moveDur = u.moveDur }
                        }
                        if x2 != y2 { failures.append("\(what): frame differs\n\(x)\n\(y)") }
                    }
                }
                // Message by message: after each frame the quiet client reads, it knows the
                // centers the other knew after the same frame.
                var eAfter: [[String: Point]] = [], qAfter: [[String: Point]] = []
                var frameIndex = 0
                for m in a {
                    eKnown = Self.centers(after: [m], from: eKnown)
                    if case .frame = m {
                        if keep[frameIndex] { eAfter.append(eKnown) }
                        frameIndex += 1
                    }
                }
                for m in b {
                    qKnown = Self.centers(after: [m], from: qKnown)
                    if case .frame = m { qAfter.append(qKnown) }
                }
                if eAfter != qAfter { failures.append("\(what): centers known \(qAfter), expected \(eAfter)") }
                if failures.count > 3 { break }
            }
            if failures.count > 3 { break }
        }
        #expect(failures.isEmpty, "\(failures.prefix(3))")
        #expect(leftOut >= 10 && kept > 100, "left out \(leftOut), kept \(kept)")
    }

    /// The drag of the golden `quiet-drag` stream, by hand: the lift, each pass of a row and
    /// the drop are answered; a move in between is not, and the next frame has its center
    /// and acks the last seq.
    @Test func aMoveThatOnlyFollowsIsNotAnsweredAndTheNextFrameHasItsCenter() {
        var config = SessionConfig()
        config.follow = .quiet
        let board = Fixtures.listBoard()
        var s = Session(id: "q")
        let welcome = s.handle(.hello(Hello(board: board.id, viewport: Viewport(w: 400, h: 600), config: config)), at: 0) { _ in board }
        #expect(welcome.contains { if case .welcome(let w) = $0 { w.config.follow == .quiet } else { false } })
        _ = s.handle(.down(pointer: 1, at: Point(x: 50, y: 60), kind: .touch), seq: 1, at: 100)
        let lift = Self.frames(s.handle(.move(pointer: 1, at: Point(x: 50, y: 60)), seq: 2, at: 700))
        #expect(lift.count == 1 && lift.first?.snapshots.first?.center == Point(x: 200, y: 60))
        #expect(s.handle(.move(pointer: 1, at: Point(x: 50, y: 70)), seq: 3, at: 716).isEmpty)
        #expect(s.handle(.move(pointer: 1, at: Point(x: 50, y: 75)), seq: 4, at: 732).isEmpty)
        // Past b's midpoint: a reorder, answered, with the finger's center and the last seq.
        let pass = Self.frames(s.handle(.move(pointer: 1, at: Point(x: 50, y: 160)), seq: 5, at: 748))
        #expect(pass.count == 1)
        #expect(pass.first?.seq == 2)
        #expect(pass.first?.ack == 5)
        #expect(pass.first?.snapshots.map(\.center) == [Point(x: 200, y: 160)])
        // A follow, then the up: the drop is answered (its snapshot eases into the cell).
        #expect(s.handle(.move(pointer: 1, at: Point(x: 50, y: 165)), seq: 6, at: 764).isEmpty)
        let up = Self.frames(s.handle(.up(pointer: 1, at: Point(x: 50, y: 165)), seq: 7, at: 780))
        #expect(up.count == 1 && up.first?.ack == 7 && up.first?.snapshots.first?.done == true)
    }
}
