import LiftboardCore
import LiftboardWire

/// A commit's `commit` message encoded once for every session the hub hands it to: the bytes
/// depend only on the commit and the client's `commitOrder`, so a thousand watchers share one
/// encoding (and one buffer, copy-on-write) instead of encoding it a thousand times. A pure
/// memo: what a session is sent is decided by its machine, which asks for the bytes of the
/// commit it decided to send; a commit it changed (another order filled in) is encoded anew.
final class SharedEncoding {
    private var entries: [(commit: Commit, mode: CommitOrderMode, bytes: [UInt8])] = []
    /// How many encodings were made (tests).
    private(set) var encodings = 0
    /// How many times bytes were looked up by content (tests).
    private(set) var lookups = 0

    private var frames: [(frame: FrameMessage, mode: CommitOrderMode, body: [UInt8])] = []

    /// A frame's bytes after its `ms` member (`ack`, when it has one, is written with the head:
    /// see `frameHead`): watchers of one view get frames that differ only in `seq`, `ack` and
    /// `ms`, so the rest is encoded once for all of them.
    func frameBody(_ f: FrameMessage, mode: CommitOrderMode) -> [UInt8] {
        lookups += 1
        var bare = f
        bare.seq = 0; bare.ms = 0; bare.ack = nil
        for e in frames where e.mode == mode && e.frame == bare { return e.body }
        let whole = Wire.encode(.frame(bare), commitOrder: mode)
        let head = Self.frameHead(seq: 0, ms: 0, ack: nil)
        let body = Array(whole[head.count...])
        encodings += 1
        frames.append((bare, mode, body))
        return body
    }

    /// `{"t":"frame","seq":N,"ms":M[,"ack":A]`, as `Wire.encode` writes a frame's first members
    /// (`Wire.appendFrameHead`, the writer `Wire.frame` uses).
    static func frameHead(seq: Int, ms: Double, ack: Int?) -> [UInt8] {
        var head: [UInt8] = []
        Wire.appendFrameHead(seq: seq, ms: ms, ack: ack, to: &head)
        return head
    }

    /// The message for `c` as a client with `mode` gets it.
    func commitMessage(_ c: Commit, mode: CommitOrderMode) -> [UInt8] {
        lookups += 1
        for e in entries where e.mode == mode && e.commit == c { return e.bytes }
        let bytes = Wire.encode(.commit(c), commitOrder: mode)
        encodings += 1
        entries.append((c, mode, bytes))
        return bytes
    }
}
