/// Server-to-client WebSocket frames (RFC 6455 §5.2) as Liftboard writes them when several
/// messages go out in one write: final (FIN), unmasked, text or binary, the payload's length
/// in 7, 16 or 64 bits. No extension is ever negotiated (the server offers none), so a frame
/// is exactly this header and the message's bytes.
enum WebSocketFrame {
    /// The most a header takes (64-bit length): the room needed before the first frame.
    static let maxHeader = 10

    /// The header's size for a payload of `length` bytes.
    static func headerSize(payload length: Int) -> Int {
        length < 126 ? 2 : length <= 0xFFFF ? 4 : 10
    }

    /// Writes the header of a final frame of `length` bytes at `buffer[at...]`, which has
    /// `headerSize(payload: length)` bytes of room.
    static func writeHeader(_ buffer: inout [UInt8], at: Int, payload length: Int, binary: Bool) {
        buffer[at] = binary ? 0x82 : 0x81
        switch headerSize(payload: length) {
        case 2:
            buffer[at + 1] = UInt8(length)
        case 4:
            buffer[at + 1] = 126
            buffer[at + 2] = UInt8(length >> 8)
            buffer[at + 3] = UInt8(length & 0xFF)
        default:
            buffer[at + 1] = 127
            for k in 0..<8 { buffer[at + 2 + k] = UInt8((UInt64(length) >> (56 - 8 * k)) & 0xFF) }
        }
    }
}

extension ConnectionMachine {
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
    }

    /// Takes the ready messages, at most `maxMessages`, and no more once `maxBytes` are taken
    /// (a message is never split; 16 KiB by default, so that a write the socket takes only in
    /// part leaves lws little to hold beyond the connection's own queue, which its slow-reader
    /// bound counts): one alone is left for lws to frame; several are framed here,
    /// back to back, so that they leave in one write (one system call for a watcher's held
    /// commits instead of one each). `headroom` (at least `WebSocketFrame.maxHeader`) is room
    /// before the first message, as lws wants it; a first frame's header goes inside it.
    mutating func nextBatch(into buffer: inout [UInt8], headroom: Int, maxMessages: Int = 16, maxBytes: Int = 1 << 14) -> Batch {
        precondition(headroom >= WebSocketFrame.maxHeader)
        guard let (firstBinary, firstEnd) = nextMessage(over: &buffer, headroom: headroom) else { return .none }
        let firstLength = firstEnd - headroom
        guard maxMessages > 1, firstLength < maxBytes, hasReadyOutgoing else { return .single(binary: firstBinary, end: firstEnd) }
        // Frames follow: from here the buffer's end is the batch's.
        buffer.removeSubrange(firstEnd...)
        let start = headroom - WebSocketFrame.headerSize(payload: firstLength)
        WebSocketFrame.writeHeader(&buffer, at: start, payload: firstLength, binary: firstBinary)
        var count = 1
        while count < maxMessages, buffer.count - start < maxBytes, hasReadyOutgoing {
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
