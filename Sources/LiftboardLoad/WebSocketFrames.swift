/// What the server's frames carry, once whole: a message (its fragments joined) or a control frame.
enum ServerFrameEvent: Equatable {
    case text, binary, ping, pong
    /// The close code, when the frame has one.
    case close(UInt16?)
}

/// Reads the frames a WebSocket server sends (RFC 6455 §5): unmasked, 7-, 16- or 64-bit lengths,
/// messages split in fragments with control frames (ping, pong, close) between them. Bytes arrive
/// in whatever pieces the socket gives; a frame split across reads waits in `carry`. A whole,
/// unfragmented frame in one read is handed over in place, without a copy.
struct ServerFrameParser {
    enum Failure: Error, Equatable {
        /// A server must not mask (§5.1).
        case maskedFrame
        /// RSV1-3 set with no extension negotiated.
        case reservedBits
        case unknownOpcode(UInt8)
        /// A control frame longer than 125 bytes or not final (§5.5).
        case badControlFrame
        /// A continuation with no message begun, or a new message before the last one ended.
        case badFragmentation
        /// A message longer than `maxMessage`.
        case tooBig
    }

    var maxMessage = 64 << 20
    /// Bytes of a frame not yet whole.
    private(set) var carry: [UInt8] = []
    /// The fragments of the message in progress, and its opcode.
    private var fragments: [UInt8] = []
    private var fragmentOpcode: UInt8? = nil

    /// Reads `data` and calls `deliver` for each whole message and control frame, in order. The
    /// payload it is given is valid only during the call.
    mutating func consume(_ data: UnsafeRawBufferPointer, _ deliver: (ServerFrameEvent, UnsafeRawBufferPointer) -> Void) throws {
        if carry.isEmpty {
            let used = try parse(data, deliver)
            if used < data.count { carry.append(contentsOf: data[used...]) }
            return
        }
        carry.append(contentsOf: data)
        var pending = carry
        carry = []
        let used = try pending.withUnsafeBytes { try parse($0, deliver) }
        pending.removeFirst(used)
        carry = pending
    }

    /// Parses whole frames from the front of `bytes`; returns how many bytes they took.
    private mutating func parse(_ bytes: UnsafeRawBufferPointer, _ deliver: (ServerFrameEvent, UnsafeRawBufferPointer) -> Void) throws -> Int {
        var at = 0
        while bytes.count - at >= 2 {
            let b0 = bytes[at], b1 = bytes[at + 1]
            if b1 & 0x80 != 0 { throw Failure.maskedFrame }
            if b0 & 0x70 != 0 { throw Failure.reservedBits }
            let fin = b0 & 0x80 != 0, opcode = b0 & 0x0F
            var header = 2
            var length = Int(b1 & 0x7F)
            if length == 126 {
                guard bytes.count - at >= 4 else { break }
                length = Int(bytes[at + 2]) << 8 | Int(bytes[at + 3])
                header = 4
            } else if length == 127 {
                guard bytes.count - at >= 10 else { break }
                var n: UInt64 = 0
                for k in 2..<10 { n = n << 8 | UInt64(bytes[at + k]) }
                guard n <= UInt64(maxMessage) else { throw Failure.tooBig }
                length = Int(n)
                header = 10
            }
            if length > maxMessage { throw Failure.tooBig }
            guard bytes.count - at - header >= length else { break }
            let payload = UnsafeRawBufferPointer(rebasing: bytes[(at + header)..<(at + header + length)])
            at += header + length
            switch opcode {
            case 0x8, 0x9, 0xA:
                guard fin, length <= 125 else { throw Failure.badControlFrame }
                if opcode == 0x9 { deliver(.ping, payload) } else if opcode == 0xA { deliver(.pong, payload) } else {
                    let code = length >= 2 ? UInt16(payload[0]) << 8 | UInt16(payload[1]) : nil
                    deliver(.close(code), UnsafeRawBufferPointer(rebasing: payload[min(2, length)...]))
                    return at
                }
            case 0x1, 0x2:
                guard fragmentOpcode == nil else { throw Failure.badFragmentation }
                if fin {
                    deliver(opcode == 0x1 ? .text : .binary, payload)
                } else {
                    fragmentOpcode = opcode
                    fragments.removeAll(keepingCapacity: true)
                    fragments.append(contentsOf: payload)
                }
            case 0x0:
                guard let first = fragmentOpcode else { throw Failure.badFragmentation }
                guard fragments.count + length <= maxMessage else { throw Failure.tooBig }
                fragments.append(contentsOf: payload)
                if fin {
                    fragmentOpcode = nil
                    let message = fragments
                    fragments.removeAll(keepingCapacity: true)
                    message.withUnsafeBytes { deliver(first == 0x1 ? .text : .binary, $0) }
                }
            default:
                throw Failure.unknownOpcode(opcode)
            }
        }
        return at
    }
}

/// Client frames (RFC 6455 §5.2-5.3): one final frame per message, masked as a client must be.
enum ClientFrame {
    static let text: UInt8 = 0x1, close: UInt8 = 0x8, ping: UInt8 = 0x9, pong: UInt8 = 0xA

    /// Appends to `out` one final frame of `opcode` carrying `payload`, masked with `mask`.
    static func append(opcode: UInt8, payload: UnsafeRawBufferPointer, mask: UInt32, to out: inout [UInt8]) {
        out.append(0x80 | opcode)
        let n = payload.count
        if n < 126 {
            out.append(0x80 | UInt8(n))
        } else if n <= 0xFFFF {
            out.append(0x80 | 126)
            out.append(UInt8(n >> 8)); out.append(UInt8(n & 0xFF))
        } else {
            out.append(0x80 | 127)
            for k in (0..<8).reversed() { out.append(UInt8(truncatingIfNeeded: UInt64(n) >> (8 * UInt64(k)))) }
        }
        let key = (UInt8(mask >> 24), UInt8(truncatingIfNeeded: mask >> 16), UInt8(truncatingIfNeeded: mask >> 8), UInt8(truncatingIfNeeded: mask))
        out.append(key.0); out.append(key.1); out.append(key.2); out.append(key.3)
        var i = 0
        while i + 4 <= n {
            out.append(payload[i] ^ key.0); out.append(payload[i + 1] ^ key.1)
            out.append(payload[i + 2] ^ key.2); out.append(payload[i + 3] ^ key.3)
            i += 4
        }
        if i < n { out.append(payload[i] ^ key.0) }
        if i + 1 < n { out.append(payload[i + 1] ^ key.1) }
        if i + 2 < n { out.append(payload[i + 2] ^ key.2) }
    }
}
