import LiftboardCore
import LiftboardWire

/// A commit's `commit` message encoded once for every session the hub hands it to: the bytes
/// depend only on the commit and the client's `commitOrder`, so a thousand watchers share one
/// encoding (and one buffer, copy-on-write) instead of encoding it a thousand times. A pure
/// memo: what a session is sent is decided by its machine, which asks for the bytes of the
/// commit it decided to send; a commit it changed (another order filled in) is encoded anew.
final class SharedEncoding {
    private var entries: [SharedMessage] = []
    /// How many encodings were made (tests).
    private(set) var encodings = 0
    /// How many times bytes were looked up by content (tests).
    private(set) var lookups = 0

    private var frames: [SharedMessage] = []

    /// A frame's bytes after its `ms` member (`ack`, when it has one, is written with the head:
    /// see `frameHead`): watchers of one view get frames that differ only in `seq`, `ack` and
    /// `ms`, so the rest is encoded once for all of them.
    func frameBody(_ f: FrameMessage, mode: CommitOrderMode) -> [UInt8] { frame(f, mode: mode).bytes }

    /// `frameBody`, with the frame (its head zeroed) it was made from.
    func frame(_ f: FrameMessage, mode: CommitOrderMode) -> SharedMessage {
        lookups += 1
        var bare = f
        bare.seq = 0; bare.ms = 0; bare.ack = nil
        for e in frames where e.mode == mode { if case .frame(let g) = e.event, g == bare { return e } }
        let whole = Wire.encode(.frame(bare), commitOrder: mode)
        let head = Self.frameHead(seq: 0, ms: 0, ack: nil)
        let made = SharedMessage(event: .frame(bare), mode: mode, bytes: Array(whole[head.count...]), isFrameBody: true)
        encodings += 1
        frames.append(made)
        return made
    }

    /// `{"t":"frame","seq":N,"ms":M[,"ack":A]`, as `Wire.encode` writes a frame's first members
    /// (`Wire.appendFrameHead`, the writer `Wire.frame` uses).
    static func frameHead(seq: Int, ms: Double, ack: Int?) -> [UInt8] {
        var head: [UInt8] = []
        Wire.appendFrameHead(seq: seq, ms: ms, ack: ack, to: &head)
        return head
    }

    /// The message for `c` as a client with `mode` gets it, made once.
    func commit(_ c: Commit, mode: CommitOrderMode) -> SharedMessage {
        lookups += 1
        for e in entries where e.mode == mode { if case .commit(let d) = e.event, d == c { return e } }
        let made = SharedMessage(event: .commit(c), mode: mode, bytes: Wire.encode(.commit(c), commitOrder: mode), isFrameBody: false)
        encodings += 1
        entries.append(made)
        return made
    }

    /// The `presence` for sessions that asked for differences and were sent the same last one
    /// (issue 44: a board's watchers, led by one of them), made once.
    func presenceDelta(_ d: PresenceDelta) -> SharedMessage {
        lookups += 1
        for e in entries { if case .presenceDelta(let x) = e.event, x.v == d.v, x.base == d.base, x == d { return e } }
        let made = SharedMessage(event: .presenceDelta(d), mode: .full, bytes: Wire.encode(.presenceDelta(d)), isFrameBody: false)
        encodings += 1
        entries.append(made)
        return made
    }
}

/// A message every session of a board (or of a view) gets alike, encoded once: a whole `commit`
/// message, or a frame's body after its head (each session writes its own `seq`, `ms`, `ack`
/// before it). A connection's queue keeps a reference to it, not the message: the event is
/// here once for a rebase to recognize (and strip) a commit and for two held frames to merge.
final class SharedMessage {
    /// The message as encoded; a frame's head zeroed (`seq` 0, `ms` 0, no `ack`).
    let event: ServerEvent
    let mode: CommitOrderMode
    let bytes: [UInt8]
    /// `bytes` are a frame's body (after `ms`, or `ack`), not a whole message.
    let isFrameBody: Bool
    /// A whole message's WebSocket frame (its header, then `bytes`), made once: a session with
    /// nothing else ready hands it to the socket as it is (`OutgoingQueue.takeFramed`), not
    /// copied into the send buffer first. Nil for a frame's body (each session writes its own head).
    let framed: [UInt8]?
    /// The message's estimated size (`ServerEvent.estimatedSize`), the same for every session.
    let size: Int
    /// A frame without a commit, which a frame queued after it may merge into.
    let isPlainFrame: Bool

    init(event: ServerEvent, mode: CommitOrderMode, bytes: [UInt8], isFrameBody: Bool) {
        self.event = event
        self.mode = mode
        self.bytes = bytes
        self.isFrameBody = isFrameBody
        if isFrameBody {
            framed = nil
        } else {
            let header = WebSocketFrame.headerSize(payload: bytes.count)
            var framed = [UInt8](repeating: 0, count: header)
            WebSocketFrame.writeHeader(&framed, at: 0, payload: bytes.count, binary: false)
            framed.append(contentsOf: bytes)
            self.framed = framed
        }
        size = event.estimatedSize(commitOrder: mode)
        if case .frame(let f) = event { isPlainFrame = f.commit == nil } else { isPlainFrame = false }
    }
}
