import LiftboardCore
import LiftboardStore
import Testing
@testable import LiftboardServer

/// The server's change feeds without sockets: where one starts, which a commit, a store read,
/// a heartbeat or a deleted board wakes, and what a writable one writes.
@Suite struct EventFeedsTests {
    func commit(_ board: String, _ v: Int) -> DurableCommit {
        DurableCommit(board: board, version: v, by: "s1", at: 1000, change: .swap("a", "b"), origin: "p", token: v)
    }
    let a = OpaquePointer(bitPattern: 0x1000)!, b = OpaquePointer(bitPattern: 0x2000)!, c = OpaquePointer(bitPattern: 0x3000)!

    /// The `id:` lines of what feed `wsi` writes now.
    func ids(_ feeds: inout EventFeeds, _ wsi: OpaquePointer) -> [Int] {
        guard case .bytes(let bytes)? = feeds.write(wsi) else { return [] }
        return String(decoding: bytes, as: UTF8.self).split(separator: "\n").compactMap { $0.hasPrefix("id: ") ? Int($0.dropFirst(4)) : nil }
    }

    @Test("a feed starts after the Last-Event-ID, else at the board's version; anything but a version is a 400 in the one error body")
    func start() {
        #expect(EventFeeds.start(lastID: nil, current: 7) == .success(7))
        #expect(EventFeeds.start(lastID: " 3 ", current: 7) == .success(3))
        #expect(EventFeeds.start(lastID: "0", current: 7) == .success(0))
        for bad in ["-1", "x", "", "3.5"] {
            guard case .failure(let e) = EventFeeds.start(lastID: bad, current: 7) else { Issue.record("\(bad) accepted"); continue }
            #expect(String(decoding: e.body, as: UTF8.self) == #"{"error":{"code":"bad_request","message":"Last-Event-ID must be a version"}}"#)
            #expect(e.status == 400)
        }
    }

    @Test("a commit wakes the feeds of its board only, and each writes it once")
    func publish() {
        var feeds = EventFeeds()
        let nobody = feeds.publish(commit("x", 1))
        #expect(nobody.isEmpty)
        let catchingUp = [feeds.open(a, board: "x", after: 0, current: 0), feeds.open(b, board: "y", after: 0, current: 0),
                          feeds.open(c, board: "x", after: 0, current: 0)]
        #expect(catchingUp == [false, false, false])
        #expect(feeds.count == 3 && feeds.boards == ["x", "y"])
        for wsi in [a, b, c] { _ = feeds.write(wsi) }  // the opening comments
        let woken = feeds.publish(commit("x", 1))
        #expect(Set(woken.map { EventFeeds.key($0) }) == Set([a, c].map { EventFeeds.key($0) }))
        let written = [ids(&feeds, a), ids(&feeds, c)]
        #expect(written == [[1], [1]])
        let after = [feeds.write(b), feeds.write(a)]
        #expect(after == [.nothing, .nothing])
        let elsewhere = feeds.write(OpaquePointer(bitPattern: 0x4000)!)
        #expect(elsewhere == nil, "no feed there")
    }

    @Test("a resumed feed waits for the store's read, then writes it before what came live; a failed read ends it")
    func catchUp() {
        var feeds = EventFeeds()
        let catchingUp = [feeds.open(a, board: "x", after: 1, current: 3), feeds.open(b, board: "x", after: 0, current: 3)]
        #expect(catchingUp == [true, true])
        _ = feeds.write(a); _ = feeds.write(b)
        _ = feeds.publish(commit("x", 4))
        let held = feeds.write(a)
        #expect(held == .nothing)
        let read = feeds.caughtUp(EventFeeds.key(a), [commit("x", 2), commit("x", 3)])
        #expect(read == a)
        let written = ids(&feeds, a)
        #expect(written == [2, 3, 4])
        let failed = feeds.caughtUp(EventFeeds.key(b), nil)
        #expect(failed == b)
        let ended = feeds.write(b)
        #expect(ended == .close)
        feeds.forget(b)
        let gone = feeds.caughtUp(EventFeeds.key(b), [])
        #expect(gone == nil, "closed meanwhile")
    }

    @Test("a heartbeat goes to every feed; a deleted board ends its feeds only")
    func heartbeatAndClose() {
        var feeds = EventFeeds()
        _ = feeds.open(a, board: "x", after: 0, current: 0)
        _ = feeds.open(b, board: "y", after: 0, current: 0)
        _ = feeds.write(a); _ = feeds.write(b)
        let beaten = feeds.beat()
        #expect(beaten.count == 2)
        let beat = feeds.write(a)
        #expect(beat == .bytes(Array(": heartbeat\n\n".utf8)))
        let closed = feeds.close(board: "y")
        #expect(closed == [b])
        let after = [feeds.write(b), feeds.write(a)]
        #expect(after == [.close, .nothing])
        feeds.forget(a); feeds.forget(b)
        #expect(feeds.isEmpty)
    }

    @Test("a feed opened with a token that expires ends at the first heartbeat past its exp; others go on")
    func tokenExpiry() {
        var feeds = EventFeeds()
        _ = feeds.open(a, board: "x", after: 0, current: 0, expiresAt: 10_000)
        _ = feeds.open(b, board: "x", after: 0, current: 0)
        _ = feeds.write(a); _ = feeds.write(b)
        #expect(feeds.expire(now: 9_999).isEmpty)
        #expect(feeds.expire(now: 10_000) == [a])
        let after = [feeds.write(a), feeds.write(b)]
        #expect(after == [.close, .nothing])
        #expect(feeds.expire(now: 20_000).isEmpty, "ended once")
    }
}
