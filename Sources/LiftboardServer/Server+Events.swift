import CLibWebSockets
import Foundation
import LiftboardCore
import LiftboardStore
import LiftboardWire

/// The change feed (issue 12): `text/event-stream`, `Last-Event-ID` (or `?since=`) resumes
/// without a gap (the versions after it are read from the store first, live ones held
/// meanwhile), a comment every 15 s keeps proxies from closing an idle stream.
extension Server {
    static let heartbeatSeconds = 15.0

    func openEvents(_ wsi: OpaquePointer, hub: Hub) -> Int32 {
        let lastID = customHeader(wsi, "last-event-id:") ?? queryValue(wsi, "since")
        var start = hub.truth.version
        if let lastID {
            guard let v = Int(lastID.trimmingCharacters(in: CharacterSet.whitespaces)), v >= 0 else {
                return send(wsi, .error(400, .badRequest, "Last-Event-ID must be a version"))
            }
            start = v
        }
        let since = start
        let headers = securityHeaders + [("cache-control:", "no-store"), ("x-accel-buffering:", "no")]
        let names = headers.map { strdup($0.0) }, values = headers.map { strdup($0.1) }
        defer { names.forEach { free($0) }; values.forEach { free($0) } }
        let rc = names.map { UnsafePointer<CChar>($0) }.withUnsafeBufferPointer { np in
            values.map { UnsafePointer<CChar>($0) }.withUnsafeBufferPointer { vp in
                clws_sse_begin(wsi, np.baseAddress, vp.baseAddress, Int32(headers.count))
            }
        }
        guard rc == 0 else { return -1 }
        let stream = EventFeedStream(board: hub.board.id, after: since, current: hub.truth.version)
        eventStreams[wsi] = stream
        startHeartbeat()
        log(.info, "events", session: nil, "board \(hub.board.id) from v\(since)")
        if stream.isCatchingUp {
            let id = hub.board.id
            let results = eventCatchUps
            let box = ContextBox()
            if let context { box.set(context) }
            let key = UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(wsi)))
            writer?.perform { store in
                let commits = try? store.commits(board: id, after: since)
                results.add(key, commits)
                box.wake()
            }
        }
        lws_callback_on_writable(wsi)
        return 0
    }

    /// A durable commit of `board` (in version order): every stream of the board gets it.
    /// A header lws has no token for (`name` lowercased, with its colon).
    func customHeader(_ wsi: OpaquePointer, _ name: String) -> String? {
        let n = lws_hdr_custom_length(wsi, name, Int32(name.utf8.count))
        guard n > 0, n < 1024 else { return nil }
        var buf = [CChar](repeating: 0, count: Int(n) + 1)
        guard lws_hdr_custom_copy(wsi, &buf, Int32(n) + 1, name, Int32(name.utf8.count)) >= 0 else { return nil }
        return String(decoding: buf.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    func publish(_ d: DurableCommit) {
        for wsi in Array(eventStreams.keys) where eventStreams[wsi]?.board == d.board {
            eventStreams[wsi]?.live(d)
            lws_callback_on_writable(wsi)
        }
    }

    /// The store read the versions a resumed stream missed: they go first, then the live ones.
    func drainEventCatchUps() {
        for (key, commits) in eventCatchUps.take() {
            guard let wsi = eventStreams.keys.first(where: { UInt(bitPattern: Int(bitPattern: UnsafeRawPointer($0))) == key }) else { continue }
            eventStreams[wsi]?.caughtUp(commits)
            lws_callback_on_writable(wsi)
        }
    }

    /// HTTP_WRITEABLE of a stream: what is queued, in one write.
    func writeEvents(_ wsi: OpaquePointer) -> Int32? {
        guard let s = eventStreams[wsi] else { return nil }
        if s.closing { return -1 }
        guard !s.queued.isEmpty, let bytes = eventStreams[wsi]?.takeQueued() else { return 0 }
        let rc = bytes.withUnsafeBufferPointer { clws_http_write_body(wsi, $0.baseAddress, $0.count) }
        return rc == 0 ? 0 : -1
    }

    func closeEvents(board: String) {
        for wsi in Array(eventStreams.keys) where eventStreams[wsi]?.board == board {
            eventStreams[wsi]?.close()
            lws_callback_on_writable(wsi)
        }
    }

    private func startHeartbeat() {
        guard heartbeat == nil, let context else { return }
        heartbeat = LoopTimer(loop: serviceLoop.uvLoop, context: context) { [unowned self] in heartbeatFired() }
        heartbeat?.arm(afterMs: Self.heartbeatSeconds * 1000)
    }

    func heartbeatFired() {
        for wsi in Array(eventStreams.keys) {
            eventStreams[wsi]?.heartbeat()
            lws_callback_on_writable(wsi)
        }
        heartbeat?.arm(afterMs: Self.heartbeatSeconds * 1000)
    }
}

/// Store reads for resumed streams, handed from the store thread to the service thread.
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
