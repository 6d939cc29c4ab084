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
