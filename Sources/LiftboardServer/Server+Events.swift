import CLibWebSockets
import Foundation
import LiftboardCore
import LiftboardStore
import LiftboardWire

/// One `GET /api/boards/{id}/events` client: a Server-Sent Events stream of the board's durable
/// commits (drops and edits), `id:` being the version.
final class EventStream {
    let board: String
    /// The last version written (or queued) to this client: nothing at or below it goes again.
    var sent: Int
    /// While the versions after `Last-Event-ID` are read from the store: live ones wait here.
    var catchingUp: [DurableCommit]? = []
    var queued: [UInt8] = []
    var closing = false
    init(board: String, sent: Int) { self.board = board; self.sent = sent }
}

/// The change feed (issue 12): `text/event-stream`, `Last-Event-ID` (or `?since=`) resumes
/// without a gap (the versions after it are read from the store first, live ones held
/// meanwhile), a comment every 15 s keeps proxies from closing an idle stream.
extension Server {
    static let heartbeatSeconds = 15.0
    /// A stream this far behind (a client that does not read) is closed.
    static let maxQueuedEventBytes = 4 << 20

    func openEvents(_ wsi: OpaquePointer, hub: Hub) -> Int32 {
        let lastID = customHeader(wsi, "last-event-id:") ?? queryValue(wsi, "since")
        var start = hub.truth.version
        if let lastID {
            guard let v = Int(lastID.trimmingCharacters(in: CharacterSet.whitespaces)), v >= 0 else {
                return send(wsi, .error(400, "bad_request", "Last-Event-ID must be a version"))
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
        let stream = EventStream(board: hub.board.id, sent: since)
        stream.queued = Array(": liftboard events for board \(hub.board.id) after version \(since)\n\n".utf8)
        eventStreams[wsi] = stream
        startHeartbeat()
        log(.info, "events", session: nil, "board \(hub.board.id) from v\(since)")
        if since >= hub.truth.version {
            stream.catchingUp = nil
        } else {
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
        for (wsi, s) in eventStreams where s.board == d.board {
            if s.catchingUp != nil { s.catchingUp!.append(d); continue }
            enqueue(d, on: s, wsi)
        }
    }

    private func enqueue(_ d: DurableCommit, on s: EventStream, _ wsi: OpaquePointer) {
        guard d.version > s.sent else { return }
        s.sent = d.version
        var w = JSONWriter()
        w.beginObject()
        w.key("board"); w.string(d.board); w.key("version"); w.int(d.version); w.key("by"); w.string(d.by)
        w.key("at"); w.number(d.at)
        w.key("change")
        if let c = d.change { Wire.writeChange(c, into: &w) } else { w.null() }
        w.endObject()
        s.queued += Array("id: \(d.version)\nevent: \(d.change?.isEdit == true ? "edit" : "commit")\ndata: ".utf8) + w.bytes + Array("\n\n".utf8)
        if s.queued.count > Self.maxQueuedEventBytes { s.closing = true }
        lws_callback_on_writable(wsi)
    }

    /// The store read the versions a resumed stream missed: they go first, then the live ones.
    func drainEventCatchUps() {
        for (key, commits) in eventCatchUps.take() {
            guard let (wsi, s) = eventStreams.first(where: { UInt(bitPattern: Int(bitPattern: UnsafeRawPointer($0.key))) == key }) else { continue }
            guard let commits else { s.closing = true; lws_callback_on_writable(wsi); continue }
            let live = s.catchingUp ?? []
            s.catchingUp = nil
            for d in commits + live { enqueue(d, on: s, wsi) }
        }
    }

    /// HTTP_WRITEABLE of a stream: what is queued, in one write.
    func writeEvents(_ wsi: OpaquePointer) -> Int32? {
        guard let s = eventStreams[wsi] else { return nil }
        if s.closing { return -1 }
        guard !s.queued.isEmpty else { return 0 }
        let bytes = s.queued
        s.queued.removeAll(keepingCapacity: true)
        let rc = bytes.withUnsafeBufferPointer { clws_http_write_body(wsi, $0.baseAddress, $0.count) }
        return rc == 0 ? 0 : -1
    }

    func closeEvents(board: String) {
        for (wsi, s) in eventStreams where s.board == board { s.closing = true; lws_callback_on_writable(wsi) }
    }

    private func startHeartbeat() {
        guard heartbeat == nil, let context else { return }
        heartbeat = clws_timer_new(Unmanaged.passUnretained(self).toOpaque())
        lws_sul_schedule(context, 0, &heartbeat!.pointee.sul, eventHeartbeatFired, lws_usec_t(Self.heartbeatSeconds * 1_000_000))
    }

    func heartbeatFired() {
        for (wsi, s) in eventStreams {
            s.queued += Array(": heartbeat\n\n".utf8)
            lws_callback_on_writable(wsi)
        }
        if let heartbeat, let context {
            lws_sul_schedule(context, 0, &heartbeat.pointee.sul, eventHeartbeatFired, lws_usec_t(Self.heartbeatSeconds * 1_000_000))
        }
    }
}

func eventHeartbeatFired(_ sul: UnsafeMutablePointer<lws_sorted_usec_list_t>?) {
    guard let sul, let owner = clws_timer_owner(sul) else { return }
    Unmanaged<Server>.fromOpaque(owner).takeUnretainedValue().heartbeatFired()
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
