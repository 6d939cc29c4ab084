/// Base64url without padding (RFC 7515 §2, RFC 4648 §5), strictly: only the 64 letters of the
/// URL-safe alphabet, no `=`, no white space, no length of the form 4k + 1, and the unused low
/// bits of a last partial group zero, so that every byte string has exactly one encoding.
public enum Base64URL {
    /// The decoded bytes, or nil when `text` is not the canonical encoding of any.
    public static func decode(_ text: some Collection<UInt8>) -> [UInt8]? {
        let tail = text.count % 4
        guard tail != 1 else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(text.count / 4 * 3 + 2)
        var group: UInt32 = 0, n = 0
        for c in text {
            guard let v = value(c) else { return nil }
            group = group << 6 | UInt32(v)
            n += 1
            if n == 4 {
                out.append(UInt8(truncatingIfNeeded: group >> 16))
                out.append(UInt8(truncatingIfNeeded: group >> 8))
                out.append(UInt8(truncatingIfNeeded: group))
                group = 0; n = 0
            }
        }
        switch n {
        case 2:  // 12 bits: one byte and 4 unused bits
            guard group & 0xF == 0 else { return nil }
            out.append(UInt8(truncatingIfNeeded: group >> 4))
        case 3:  // 18 bits: two bytes and 2 unused bits
            guard group & 0x3 == 0 else { return nil }
            out.append(UInt8(truncatingIfNeeded: group >> 10))
            out.append(UInt8(truncatingIfNeeded: group >> 2))
        default: break
        }
        return out
    }

    /// `bytes` encoded, unpadded.
    public static func encode(_ bytes: some Collection<UInt8>) -> String {
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count * 4 + 2) / 3)
        var group: UInt32 = 0, n = 0
        for b in bytes {
            group = group << 8 | UInt32(b)
            n += 1
            if n == 3 {
                for shift in [18, 12, 6, 0] { out.append(alphabet[Int(group >> UInt32(shift) & 0x3F)]) }
                group = 0; n = 0
            }
        }
        if n > 0 {
            // The last 8 or 16 bits, padded with zero bits to 12 or 18: 2 or 3 letters.
            let padded = group << (n == 1 ? 4 : 2)
            for shift in stride(from: n * 6, through: 0, by: -6) { out.append(alphabet[Int(padded >> UInt32(shift) & 0x3F)]) }
        }
        return String(decoding: out, as: UTF8.self)
    }

    private static let alphabet: [UInt8] = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    private static func value(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): c - UInt8(ascii: "A")
        case UInt8(ascii: "a")...UInt8(ascii: "z"): c - UInt8(ascii: "a") + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): c - UInt8(ascii: "0") + 52
        case UInt8(ascii: "-"): 62
        case UInt8(ascii: "_"): 63
        default: nil
        }
    }
}
