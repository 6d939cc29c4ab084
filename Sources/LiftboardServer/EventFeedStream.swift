import LiftboardCore
import LiftboardStore
import LiftboardWire

/// One change-feed client (`GET /api/boards/{id}/events`) without its socket: the versions it
/// has been sent, the live commits held while the store reads the ones it missed, and the
/// Server-Sent Events bytes queued for it. Every version goes once, in order, whichever way it
/// came (the store's catch-up or live). Pure: the server writes `takeQueued()` when the socket
/// is writable and closes the stream when `closing`.
struct EventFeedStream {
    /// A stream this far behind (a client that does not read) is closed.
    static let maxQueuedBytes = 4 << 20

    let board: String
    /// The last version queued: nothing at or below it goes again.
    private(set) var sent: Int
    /// While the versions after the client's `Last-Event-ID` are read from the store: the live
    /// commits that came meanwhile. nil once live.
    private(set) var heldWhileCatchingUp: [DurableCommit]?
    private(set) var queued: [UInt8]
    private(set) var closing = false

    /// A stream of `board` resuming after version `after`, the board being at `current`: it
    /// catches up first when `after` is behind.
    init(board: String, after: Int, current: Int) {
        self.board = board
        sent = after
        heldWhileCatchingUp = after < current ? [] : nil
        queued = Array(": liftboard events for board \(board) after version \(after)\n\n".utf8)
    }

    var isCatchingUp: Bool { heldWhileCatchingUp != nil }

    /// A durable commit of the board, live.
    mutating func live(_ d: DurableCommit) {
        if heldWhileCatchingUp != nil { heldWhileCatchingUp!.append(d); return }
        enqueue(d)
    }

    /// The store read the versions the client missed (nil: it could not, and the stream ends):
    /// they go first, then the live ones held meanwhile.
    mutating func caughtUp(_ commits: [DurableCommit]?) {
        guard let commits else { closing = true; return }
        let held = heldWhileCatchingUp ?? []
        heldWhileCatchingUp = nil
        for d in commits + held { enqueue(d) }
    }

    /// A comment that keeps proxies from closing an idle stream.
    mutating func heartbeat() { queued += Array(": heartbeat\n\n".utf8) }

    /// The board went: the stream ends.
    mutating func close() { closing = true }

    /// What to write now; the queue is empty afterwards.
    mutating func takeQueued() -> [UInt8] {
        defer { queued.removeAll(keepingCapacity: true) }
        return queued
    }

    private mutating func enqueue(_ d: DurableCommit) {
        guard d.version > sent else { return }
        sent = d.version
        queued += Self.event(d)
        if queued.count > Self.maxQueuedBytes { closing = true }
    }

    /// A commit as an event: `id:` its version, `event: commit` (a drop) or `edit`, `data:`
    /// `{"board", "version", "by", "user", "name", "at", "change"}`.
    static func event(_ d: DurableCommit) -> [UInt8] {
        var w = JSONWriter()
        w.beginObject()
        w.key("board"); w.string(d.board); w.key("version"); w.int(d.version); w.key("by"); w.string(d.by)
        BoardsAPI.writeSigner(d, &w)
        w.key("at"); w.number(d.at)
        w.key("change")
        if let c = d.change { Wire.writeChange(c, into: &w) } else { w.null() }
        w.endObject()
        return Array("id: \(d.version)\nevent: \(d.change?.isEdit == true ? "edit" : "commit")\ndata: ".utf8) + w.bytes + Array("\n\n".utf8)
    }
}
