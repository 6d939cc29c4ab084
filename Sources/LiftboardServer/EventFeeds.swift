import Foundation
import LiftboardStore

/// Every change-feed client of the server (`GET /api/boards/{id}/events`, issue 12), by
/// connection, without sockets: it decides where a feed starts, which feeds a durable commit,
/// a store read, a heartbeat or a deleted board wakes, and what a writable feed writes; the
/// server performs that (Server+Events.swift). Each feed is an `EventFeedStream`.
struct EventFeeds {
    static let heartbeatSeconds = 15.0

    private var streams: [OpaquePointer: EventFeedStream] = [:]
    /// When the token a feed was opened with expires (server ms; `--auth-keys`): the feed ends
    /// at the first heartbeat at or after it.
    private var expiries: [OpaquePointer: Double] = [:]
    /// Store reads of resumed feeds, handed from the store thread.
    let catchUps = EventCatchUps()
    /// The heartbeat's timer, armed by the first feed.
    var heartbeat: LoopTimer?

    var count: Int { streams.count }
    var isEmpty: Bool { streams.isEmpty }
    /// The boards that have feeds.
    var boards: Set<String> { Set(streams.values.map(\.board)) }
    func stream(_ wsi: OpaquePointer) -> EventFeedStream? { streams[wsi] }

    /// The version a feed of a board at `current` starts after: the client's `Last-Event-ID`
    /// (or `?since=`), else the current one; a 400 for a `lastID` that is not a version.
    static func start(lastID: String?, current: Int) -> Result<Int, HTTPError> {
        guard let lastID else { return .success(current) }
        guard let v = Int(lastID.trimmingCharacters(in: .whitespaces)), v >= 0 else {
            return .failure(HTTPError(400, .badRequest, "Last-Event-ID must be a version"))
        }
        return .success(v)
    }

    /// A feed of `board` after version `after` opened on `wsi`, the board being at `current`.
    /// Returns whether the store must read the versions it missed first (`caughtUp`).
    /// `expiresAt`: when the request's token expires (server ms; nil: never).
    mutating func open(_ wsi: OpaquePointer, board: String, after: Int, current: Int, expiresAt: Double? = nil) -> Bool {
        let stream = EventFeedStream(board: board, after: after, current: current)
        streams[wsi] = stream
        expiries[wsi] = expiresAt
        return stream.isCatchingUp
    }

    /// A durable commit (in version order): the feeds of its board get it; returns them, to
    /// be woken.
    mutating func publish(_ d: DurableCommit) -> [OpaquePointer] {
        guard !streams.isEmpty else { return [] }
        var woken: [OpaquePointer] = []
        for (wsi, s) in streams where s.board == d.board {
            streams[wsi]?.live(d)
            woken.append(wsi)
        }
        return woken
    }

    /// The store read what the feed keyed `key` (`Self.key`) missed (nil: it could not): it
    /// goes first. Returns the feed, to be woken; nil when it closed meanwhile.
    mutating func caughtUp(_ key: UInt, _ commits: [DurableCommit]?) -> OpaquePointer? {
        guard let wsi = streams.keys.first(where: { Self.key($0) == key }) else { return nil }
        streams[wsi]?.caughtUp(commits)
        return wsi
    }

    /// A comment for every feed; returns them, to be woken.
    mutating func beat() -> [OpaquePointer] {
        for wsi in streams.keys { streams[wsi]?.heartbeat() }
        return Array(streams.keys)
    }

    /// The feeds whose token has expired by `now` end (at a heartbeat). Returns them, to be
    /// woken (and closed).
    mutating func expire(now: Double) -> [OpaquePointer] {
        guard !expiries.isEmpty else { return [] }
        let ended = expiries.filter { $0.value <= now }.map(\.key)
        for wsi in ended {
            streams[wsi]?.close()
            expiries[wsi] = nil
        }
        return ended
    }

    /// `board` went: its feeds end. Returns them, to be woken (and closed).
    mutating func close(board: String) -> [OpaquePointer] {
        var woken: [OpaquePointer] = []
        for (wsi, s) in streams where s.board == board {
            streams[wsi]?.close()
            woken.append(wsi)
        }
        return woken
    }

    /// What a writable feed does.
    enum Write: Equatable {
        /// It ended (its board went, the store could not read, or its client fell too far behind).
        case close
        /// Nothing is queued.
        case nothing
        /// These bytes, in one write.
        case bytes([UInt8])
    }

    /// What feed `wsi` writes now (nil: `wsi` is no feed).
    mutating func write(_ wsi: OpaquePointer) -> Write? {
        guard let s = streams[wsi] else { return nil }
        if s.closing { return .close }
        guard !s.queued.isEmpty, let bytes = streams[wsi]?.takeQueued() else { return .nothing }
        return .bytes(bytes)
    }

    /// The connection closed.
    mutating func forget(_ wsi: OpaquePointer) {
        streams[wsi] = nil
        if !expiries.isEmpty { expiries[wsi] = nil }
    }

    /// A connection as the store thread may carry it (a pointer is not `Sendable`).
    static func key(_ wsi: OpaquePointer) -> UInt { UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(wsi))) }
}

/// Store reads for resumed feeds, handed from the store thread to the service thread.
final class EventCatchUps: @unchecked Sendable {
    // @unchecked: guarded by `lock`.
    private let lock = NSLock()
    private var results: [(UInt, [DurableCommit]?)] = []
    func add(_ key: UInt, _ commits: [DurableCommit]?) { lock.lock(); results.append((key, commits)); lock.unlock() }
    func take() -> [(UInt, [DurableCommit]?)] {
        lock.lock(); defer { lock.unlock() }
        let out = results
        results.removeAll()
        return out
    }
}
