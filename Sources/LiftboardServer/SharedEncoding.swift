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

    /// The message for `c` as a client with `mode` gets it.
    func commitMessage(_ c: Commit, mode: CommitOrderMode) -> [UInt8] {
        for e in entries where e.mode == mode && e.commit == c { return e.bytes }
        let bytes = Wire.encode(.commit(c), commitOrder: mode)
        encodings += 1
        entries.append((c, mode, bytes))
        return bytes
    }
}
