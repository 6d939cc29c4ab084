import CLibWebSockets
import Foundation
import LiftboardCore
import LiftboardStore
import LiftboardWire

/// The change feed (issue 12): `text/event-stream`, `Last-Event-ID` (or `?since=`) resumes
/// without a gap (the versions after it are read from the store first, live ones held
/// meanwhile), a comment every 15 s keeps proxies from closing an idle stream. What to do is
/// `EventFeeds`'s; this performs it on the sockets.
extension Server {
    /// `expiresAt`: when the request's token expires (server ms; nil: never): the feed ends at
    /// the first heartbeat after it.
    func openEvents(_ wsi: OpaquePointer, hub: Hub, expiresAt: Double? = nil) -> Int32 {
        let since: Int
        switch EventFeeds.start(lastID: customHeader(wsi, "last-event-id:") ?? queryValue(wsi, "since"), current: hub.truth.version) {
        case .failure(let refusal): return send(wsi, APIResponse(refusal))
        case .success(let v): since = v
        }
        let headers = securityHeaders + [("cache-control:", "no-store"), ("x-accel-buffering:", "no")]
        let names = headers.map { strdup($0.0) }, values = headers.map { strdup($0.1) }
        defer { names.forEach { free($0) }; values.forEach { free($0) } }
        let rc = names.map { UnsafePointer<CChar>($0) }.withUnsafeBufferPointer { np in
            values.map { UnsafePointer<CChar>($0) }.withUnsafeBufferPointer { vp in
                clws_sse_begin(wsi, np.baseAddress, vp.baseAddress, Int32(headers.count))
            }
        }
        guard rc == 0 else { return -1 }
        let catchingUp = events.open(wsi, board: hub.board.id, after: since, current: hub.truth.version, expiresAt: expiresAt)
        startHeartbeat()
        log(.info, "events", session: nil, "board \(hub.board.id) from v\(since)")
        if catchingUp {
            let id = hub.board.id
            let results = events.catchUps
            let box = ContextBox()
            if let context { box.set(context) }
            let key = EventFeeds.key(wsi)
            store.writer?.perform { store in
                let commits = try? store.commits(board: id, after: since)
                results.add(key, commits)
                box.wake()
            }
        }
        lws_callback_on_writable(wsi)
        return 0
    }

    /// A durable commit of `board` (in version order): every stream of the board gets it.
    func publish(_ d: DurableCommit) {
        for wsi in events.publish(d) { lws_callback_on_writable(wsi) }
    }

    /// The store read the versions a resumed stream missed: they go first, then the live ones.
    func drainEventCatchUps() {
        for (key, commits) in events.catchUps.take() {
            if let wsi = events.caughtUp(key, commits) { lws_callback_on_writable(wsi) }
        }
    }

    /// HTTP_WRITEABLE of a stream: what is queued, in one write.
    func writeEvents(_ wsi: OpaquePointer) -> Int32? {
        switch events.write(wsi) {
        case nil: return nil
        case .close: return -1
        case .nothing: return 0
        case .bytes(let bytes):
            let rc = bytes.withUnsafeBufferPointer { clws_http_write_body(wsi, $0.baseAddress, $0.count) }
            return rc == 0 ? 0 : -1
        }
    }

    func closeEvents(board: String) {
        for wsi in events.close(board: board) { lws_callback_on_writable(wsi) }
    }

    private func startHeartbeat() {
        guard events.heartbeat == nil, let context else { return }
        events.heartbeat = LoopTimer(loop: serviceLoop.uvLoop, context: context) { [unowned self] in heartbeatFired() }
        events.heartbeat?.arm(afterMs: EventFeeds.heartbeatSeconds * 1000)
    }

    func heartbeatFired() {
        for wsi in events.expire(now: now) { lws_callback_on_writable(wsi) }
        for wsi in events.beat() { lws_callback_on_writable(wsi) }
        events.heartbeat?.arm(afterMs: EventFeeds.heartbeatSeconds * 1000)
    }
}
