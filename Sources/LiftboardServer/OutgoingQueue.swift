import LiftboardCore
import LiftboardWire

/// A connection's outgoing messages, in order, each held until the board version it follows is
/// durable (its barrier, against `durable`); written one by one into the server's send buffer. Frames waiting
/// behind each other merge (the client gets the latest state); what is held counts against the
/// slow-reader bound (`pendingBytes`, and how long the socket has held a partial write: `stalledSince`).
///
/// Written messages leave their slots behind until `compact` drops them (the head moves, the
/// array stays): a watcher's one message of a commit costs no shifting of the array.
struct OutgoingQueue {
    /// What an entry writes.
    enum Message {
        /// A message encoded when written. `plainFrame`: a frame without a commit, which a frame
        /// queued right after it may merge into (kept beside it: read out of the event, it copied
        /// the whole frame, three times a message).
        case event(ServerEvent, plainFrame: Bool)
        /// Bytes sent as they came (echo).
        case raw([UInt8], binary: Bool)
        /// A message from elsewhere's commit, encoded once for every session that gets it alike
        /// (`SharedEncoding`): a whole `commit`, or a frame's body, whose own head is `head`.
        case shared(SharedMessage, head: FrameHead)
        /// Written (moved out): the slot waits for `compact`.
        case written

        /// A message encoded when written; `plainFrame` when the caller knows it (it has the frame
        /// at hand), else read out of the event.
        static func event(_ e: ServerEvent) -> Message {
            .event(e, plainFrame: e.frameFacts.map { $0.commitVersion == nil } ?? false)
        }

        /// A frame without a commit: a frame queued right after it, behind the same barrier,
        /// merges into it.
        var isPlainFrame: Bool {
            switch self {
            case .event(_, let plainFrame): plainFrame
            case .shared(let s, _): s.isPlainFrame
            case .raw, .written: false
            }
        }

        /// The frame this message sends (its own head on a shared one), or nil.
        var frame: FrameMessage? {
            switch self {
            case .event(.frame(let f), _):
                return f
            case .shared(let s, let head):
                guard case .frame(var f) = s.event, s.isFrameBody else { return nil }
                f.seq = head.seq; f.ms = head.ms; f.ack = head.ack
                return f
            default:
                return nil
            }
        }

        /// A `presence`: a newer one queued replaces it.
        var isPresence: Bool {
            switch self {
            case .event(.presence, _): true
            case .shared(let s, _): if case .presence = s.event { true } else { false }
            default: false
            }
        }

        /// A `commit` message.
        var isCommit: Bool {
            switch self {
            case .event(.commit, _): true
            case .shared(let s, _): if case .commit = s.event { true } else { false }
            default: false
            }
        }
    }

    /// A frame's own first members, before the body it shares with its view.
    struct FrameHead: Equatable, Sendable {
        var seq = 0
        var ms = 0.0
        var ack: Int? = nil
    }

    /// One message waiting to be written.
    struct Entry {
        var message: Message
        /// The board version that must be durable before it goes out; 0 for none.
        var barrier: Int
        /// About how many bytes it takes on the wire (`ServerEvent.estimatedSize`).
        var size: Int
        /// A `presence` (a newer one replaces it): kept beside the message, told by the caller,
        /// which has the event at hand (`message.isPresence` copied the message out of the
        /// entry: 130 Ir on every message queued).
        var isPresence: Bool

        init(message: Message, barrier: Int, size: Int, isPresence: Bool) {
            self.message = message
            self.barrier = barrier
            self.size = size
            self.isPresence = isPresence
        }

        /// An entry whose kind is read out of `message` (tests; no caller on the send path).
        init(message: Message, barrier: Int, size: Int) {
            self.init(message: message, barrier: barrier, size: size, isPresence: message.isPresence)
        }
    }

    /// The entries, written ones (before `head`) included.
    private var entries: [Entry] = []
    /// The first entry not written.
    private var head = 0
    /// The sizes of the entries not written.
    private(set) var pendingBytes = 0
    /// The highest board version known durable: an entry behind a barrier above it waits. Nil
    /// while the connection is on no hub's versions (the hello's own answers, before the join;
    /// an echo connection): nothing waits.
    var durable: Int?

    /// The messages still queued, ready or not.
    var count: Int { entries.count - head }
    /// The size of the largest message not yet written. O(messages queued): read only past the
    /// slow-reader bound.
    var largestPending: Int { entries[head...].reduce(0) { max($0, $1.size) } }
    var isEmpty: Bool { head == entries.count }
    /// The entries' memory, written slots included (a drained queue keeps little of it).
    var capacity: Int { entries.capacity }
    /// Since when the socket has held bytes it would not take (lws keeps a partial write),
    /// with no writeable callback since: the slow-reader clock. It runs only while the client
    /// is the one behind, never while the server itself was busy (a million-item session
    /// starting on the same loop) or a commit waits to be durable: those queue messages too,
    /// but the client has not yet been offered them.
    var stalledSince: Double?

    /// Whether the next message may go out: its barrier is at most `durable`.
    var hasReady: Bool {
        guard head < entries.count else { return false }
        guard let durable else { return true }
        return entries[head].barrier <= durable
    }

    /// Queues `entry`, or merges it into the last one: a plain frame behind a plain frame with
    /// the same barrier (not a frame carrying a commit: the commit would end up before the
    /// later changes). The merged frame keeps the first one's size and time. A `presence`
    /// replaces any presence still queued: the older is dropped and the newer goes last, so
    /// nothing else changes its order (a presence is the whole state, not a change to it).
    mutating func append(_ entry: consuming Entry) {
        let last = entries.count - 1
        if entry.message.isPlainFrame, last >= head, entries[last].message.isPlainFrame, entries[last].barrier == entry.barrier,
           let g = entries[last].message.frame, let f = entry.message.frame {
            // Its shared bytes were the first frame's alone: the merged one is encoded anew.
            let merged = g.merged(with: f)
            entries[last].message = .event(.frame(merged), plainFrame: merged.commitVersion == nil)
            return
        }
        // A presence is no plain frame: it got here. The older presence goes after the newer
        // is appended (a call before the append made the append copy the entry).
        let presence = entry.isPresence
        pendingBytes += entry.size
        entries.append(consume entry)
        if presence { removeQueuedPresence(before: entries.count - 1) }
    }

    /// Drops the presence messages not yet written before `end` (at most one: each replaced
    /// the one before).
    private mutating func removeQueuedPresence(before end: Int) {
        var i = head, end = end
        while i < end {
            if entries[i].isPresence {
                pendingBytes -= entries[i].size
                entries.remove(at: i)
                end -= 1
            } else {
                i += 1
            }
        }
    }

    /// Drops everything queued, and the memory (a slow reader's or a flooding client's queue
    /// is of use to no one).
    mutating func removeAll() {
        entries.removeAll()
        stalledSince = nil
        head = 0
        pendingBytes = 0
    }

    /// Removes the queued entries `drop` picks.
    mutating func removeAll(where drop: (Entry) -> Bool) {
        guard head < entries.count else { return }
        var removed = 0
        let kept = entries[head...].filter { e in
            guard drop(e) else { return true }
            removed += e.size
            return false
        }
        guard kept.count != entries.count - head else { return }
        entries = Array(kept)
        head = 0
        pendingBytes -= removed
    }

    /// A held frame carrying a commit of a version after `version` stays, without the commit
    /// (a rebase took it back): its shared bytes carry it, so it is encoded anew.
    mutating func stripCommits(after version: Int) {
        for i in head..<entries.count where entries[i].barrier > version {
            if var f = entries[i].message.frame, f.commitVersion != nil {
                f.commit = nil
                entries[i].message = .event(.frame(f), plainFrame: f.commitVersion == nil)
            }
        }
    }

    // MARK: Writing

    /// Takes the next message, ready or not (the caller asked `hasReady`), and writes it into
    /// `buffer` after `headroom` bytes, over what lies there: an encoded message reuses the
    /// buffer's bytes past its end as room rather than zeroing room anew. Returns whether it is
    /// binary and where it ends; nil when nothing is queued.
    mutating func writeNext(over buffer: inout [UInt8], headroom: Int, commitOrder: CommitOrderMode) -> (binary: Bool, end: Int)? {
        guard head < entries.count else { return nil }
        let i = head
        head += 1
        pendingBytes -= entries[i].size
        // Moved out of the queue, not copied: the slot is only waiting to be removed.
        var message = Message.written
        swap(&message, &entries[i].message)
        switch consume message {
        case .event(let event, _):
            return (false, Wire.encode(event, commitOrder: commitOrder, over: &buffer, from: headroom))
        case .shared(let shared, let frameHead):
            // Its own head (seq, ms, ack), then the body every session of its view shares: a
            // watcher's message, written over the room as an encoded one is.
            var end = headroom
            if shared.isFrameBody {
                end = Wire.frameHead(seq: frameHead.seq, ms: frameHead.ms, ack: frameHead.ack, over: &buffer, from: headroom)
            }
            return (false, Self.write(shared.bytes, over: &buffer, at: end))
        case .raw(let raw, let binary):
            buffer.removeSubrange(headroom...)
            buffer.append(contentsOf: raw)
            return (binary, buffer.count)
        case .written:
            buffer.removeSubrange(headroom...)
            return (false, buffer.count)
        }
    }

    /// Takes the next message when it is ready, a whole shared one (a `commit`, a `presence`:
    /// alike for every session that gets it) and, when `lone`, the only one ready: its frame,
    /// made once (`SharedMessage.framed`), goes to the socket as it is, or after the frames of a
    /// batch (`nextBatch`). Nil (nothing taken) otherwise.
    mutating func takeFramed(lone: Bool) -> [UInt8]? {
        guard hasReady else { return nil }
        // Another ready behind it: both leave in one write (`nextBatch`).
        if lone, head + 1 < entries.count, durable.map({ entries[head + 1].barrier <= $0 }) ?? true { return nil }
        // Moved out to be looked at (a binding read in place copied it, and the slot's
        // `.written` destroyed it again), and put back when it is not one.
        var message = Message.written
        swap(&message, &entries[head].message)
        guard case .shared(let s, _) = message, let framed = s.framed else {
            swap(&message, &entries[head].message)
            return nil
        }
        pendingBytes -= entries[head].size
        head += 1
        return framed
    }

    /// Writes `bytes` into `buffer` at `at`, over what lies there (the buffer grows when it is
    /// shorter); returns where they end.
    private static func write(_ bytes: [UInt8], over buffer: inout [UInt8], at: Int) -> Int {
        let end = at + bytes.count
        guard buffer.count >= end else {
            buffer.removeSubrange(at...)
            buffer.append(contentsOf: bytes)
            return end
        }
        buffer.withUnsafeMutableBufferPointer { b in
            bytes.withUnsafeBufferPointer { src in
                guard let from = src.baseAddress else { return }
                (b.baseAddress! + at).update(from: from, count: src.count)
            }
        }
        return end
    }

    /// Drops the written messages' slots once they are most of the queue, and gives a drained
    /// queue's memory back (a burst of commits doubled it; an idle watcher keeps none of it).
    mutating func compact() {
        if head > 0, head == entries.count {
            // A watcher's usual: its one message of the commit written. Removed as the last
            // element (its slot kept), not through `removeAll`'s general replacement.
            if entries.count == 1, entries.capacity <= 4 {
                entries.removeLast()
            } else {
                entries.removeAll(keepingCapacity: entries.capacity <= 4)
            }
            head = 0
        } else if head > 64, head * 2 > entries.count {
            entries.removeFirst(head)
            head = 0
        }
    }
}

extension ServerEvent {
    /// About how many bytes the message takes on the wire, for the slow-reader limit.
    func estimatedSize(commitOrder: CommitOrderMode) -> Int {
        switch self {
        case .commit(let c) where commitOrder == .none, .persist(let c) where commitOrder == .none: 160 + c.moves.count * 90
        case .layout(let l): 200 + l.cells.count * 170
        case .presence(let p): 80 + p.people.reduce(0) { $0 + 120 + $1.holds.count * 12 }
        case .presenceDelta(let d) where d.base == nil: ServerEvent.presence(d.presence).estimatedSize(commitOrder: commitOrder)
        case .presenceDelta(let d): 80 + d.gone.count * 12 + d.changed.count * 60
        case .frame: frameFacts?.size ?? 0
        case .commit(let c), .persist(let c): 100 + c.order.reduce(0) { $0 + 30 + $1.items.count * 10 }
        default: 120
        }
    }
}
