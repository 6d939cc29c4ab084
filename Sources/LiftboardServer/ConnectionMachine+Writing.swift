/// Writing what is ready: the performer's side of the outgoing queue.
extension ConnectionMachine {
    /// Whether the next queued message may go out (its commit is durable).
    var hasReadyOutgoing: Bool { outgoing.hasReady }

    /// Whether a writeable callback is needed: something is ready, or a close waits.
    var wantsWritable: Bool { hasReadyOutgoing || isClosing }

    /// `wantsWritable` for the performer. Mutating only so that a read through the class that
    /// holds the machine is made in place: a plain read of a computed property copies the whole
    /// machine first (a retain and a release of each of its references, on every write).
    mutating func needsWritable() -> Bool { wantsWritable }

    /// `hasReadyOutgoing` for the performer, read in place (see `needsWritable`).
    mutating func hasReadyMessages() -> Bool { hasReadyOutgoing }

    /// Takes the next ready message and writes it into `buffer` after `headroom` bytes (the
    /// buffer's length is then the message's end). Returns whether it is binary, or nil when
    /// nothing is ready.
    mutating func nextMessage(into buffer: inout [UInt8], headroom: Int) -> Bool? {
        guard let (binary, end) = nextMessage(over: &buffer, headroom: headroom) else { return nil }
        buffer.removeSubrange(end...)
        return binary
    }

    /// `nextMessage(into:headroom:)`, leaving the buffer's bytes past the message's `end` as
    /// they are: an encoded message reuses them as room rather than zeroing room anew.
    mutating func nextMessage(over buffer: inout [UInt8], headroom: Int) -> (binary: Bool, end: Int)? {
        guard hasReadyOutgoing else { return nil }
        return outgoing.writeNext(over: &buffer, headroom: headroom, commitOrder: commitOrder)
    }

    /// The socket would not take all that was written (lws holds the rest): the slow-reader
    /// clock starts, unless it runs already.
    mutating func socketStalled(now: Double) {
        if outgoing.stalledSince == nil { outgoing.stalledSince = now }
    }

    /// A writeable callback: lws calls it only once the socket took what lws held, so the
    /// client is reading and the slow-reader clock stops.
    mutating func socketDrained() { outgoing.stalledSince = nil }

    /// Drops the written messages' slots (`OutgoingQueue.compact`).
    mutating func compactQueue() { outgoing.compact() }

    /// After the writes of a writeable callback: what the socket is to do next.
    mutating func afterWriting() -> AfterWriting {
        compactQueue()
        if hasReadyOutgoing { return .askAgain }
        guard case .closing(let code, let reason, _) = state else { return .nothing }
        return outgoing.isEmpty ? .sendClose(code: code, reason: reason) : .askAgain
    }

    /// What `nextBatch` put in the buffer.
    enum Batch: Equatable {
        /// Nothing was ready.
        case none
        /// One message, its bytes after the headroom up to `end` and unframed: lws frames it.
        /// The buffer's bytes past `end` are room kept for the next message.
        case single(binary: Bool, end: Int)
        /// `count` messages as whole WebSocket frames from `start` to the buffer's end, to be
        /// written as they are in one write.
        case frames(start: Int, count: Int)
        /// One whole shared message, alone ready, as its own WebSocket frame
        /// (`SharedMessage.framed`): written from those bytes, the buffer untouched.
        case framed([UInt8])
    }

    /// Takes the ready messages, at most `maxMessages`, and no more once `maxBytes` are taken
    /// (a message is never split; 16 KiB by default, so that a write the socket takes only in
    /// part leaves lws little to hold beyond the connection's own queue, which its slow-reader
    /// bound counts): one alone is left for lws to frame, or, a whole shared one, handed over
    /// in the frame it was given once for every session (`.framed`); several are framed here,
    /// back to back, so that they leave in one write (one system call for a watcher's held
    /// commits instead of one each). `headroom` (at least `WebSocketFrame.maxHeader`) is room
    /// before the first message, as lws wants it; a first frame's header goes inside it.
    mutating func nextBatch(into buffer: inout [UInt8], headroom: Int, maxMessages: Int = 16, maxBytes: Int = 1 << 14) -> Batch {
        precondition(headroom >= WebSocketFrame.maxHeader)
        if let framed = outgoing.takeFramed(lone: true) { return .framed(framed) }
        guard let (firstBinary, firstEnd) = nextMessage(over: &buffer, headroom: headroom) else { return .none }
        let firstLength = firstEnd - headroom
        guard maxMessages > 1, firstLength < maxBytes, hasReadyOutgoing else { return .single(binary: firstBinary, end: firstEnd) }
        // Frames follow: from here the buffer's end is the batch's.
        buffer.removeSubrange(firstEnd...)
        let start = headroom - WebSocketFrame.headerSize(payload: firstLength)
        WebSocketFrame.writeHeader(&buffer, at: start, payload: firstLength, binary: firstBinary)
        var count = 1
        while count < maxMessages, buffer.count - start < maxBytes, hasReadyOutgoing {
            // A whole shared message: its frame, made once, copied as it is.
            if let framed = outgoing.takeFramed(lone: false) {
                buffer.append(contentsOf: framed)
                count += 1
                continue
            }
            // Room for a 16-bit length's header, the common case (126 bytes to 64 KiB); moved
            // when the message needs less or more.
            let at = buffer.count
            buffer.append(contentsOf: [0, 0, 0, 0] as [UInt8])
            guard let binary = nextMessage(into: &buffer, headroom: at + 4) else {
                buffer.removeLast(4)
                break
            }
            let length = buffer.count - at - 4
            switch WebSocketFrame.headerSize(payload: length) {
            case 2:
                buffer.withUnsafeMutableBufferPointer { b in
                    let base = b.baseAddress!
                    (base + at + 2).update(from: base + at + 4, count: length)
                }
                buffer.removeLast(2)
            case 10:
                buffer.insert(contentsOf: repeatElement(0, count: 6), at: at + 4)
            default:
                break
            }
            WebSocketFrame.writeHeader(&buffer, at: at, payload: length, binary: binary)
            count += 1
        }
        return .frames(start: start, count: count)
    }
}
