/// Appends JSON to a byte buffer in one canonical form, so that the same values always give
/// the same bytes: members in the order written, numbers as `JSONWriter.number` says.
public struct JSONWriter {
    public var bytes: [UInt8]
    /// Per open container, one bit: set while nothing has been written in it yet. A bit set
    /// instead of an array of Bool: no allocation per message on the server's hot path.
    /// Containers nested deeper than 64 (only re-serialized parsed values can be) use `deep`.
    private var firstBits: UInt64 = 0
    private var depth = 0
    private var deep: [Bool] = []
    /// A member name was just written: its value needs no separator.
    private var afterKey = false

    public init(into bytes: [UInt8] = []) {
        self.bytes = bytes
        self.bytes.reserveCapacity(256)
    }

    private mutating func valueStart() {
        if afterKey { afterKey = false; return }
        guard depth > 0 else { return }
        if depth > 64 {
            if !deep[deep.count - 1] { bytes.append(UInt8(ascii: ",")) }
            deep[deep.count - 1] = false
            return
        }
        let bit: UInt64 = 1 << UInt64(depth - 1)
        if firstBits & bit == 0 { bytes.append(UInt8(ascii: ",")) }
        firstBits &= ~bit
    }

    private mutating func open() {
        depth += 1
        if depth > 64 { deep.append(true) } else { firstBits |= 1 << UInt64(depth - 1) }
    }

    private mutating func close() {
        if depth > 64 { deep.removeLast() }
        depth -= 1
    }

    public mutating func beginObject() { valueStart(); bytes.append(UInt8(ascii: "{")); open() }
    public mutating func endObject() { close(); bytes.append(UInt8(ascii: "}")) }
    public mutating func beginArray() { valueStart(); bytes.append(UInt8(ascii: "[")); open() }
    public mutating func endArray() { close(); bytes.append(UInt8(ascii: "]")) }

    /// Starts a member: the value written next belongs to it.
    public mutating func key(_ k: StaticString) {
        valueStart()
        bytes.append(UInt8(ascii: "\""))
        if k.hasPointerRepresentation {
            // Names are a few bytes: a loop of appends beats a generic copy and its memcpy.
            let p = k.utf8Start
            for j in 0..<k.utf8CodeUnitCount { bytes.append(p[j]) }
        } else {
            k.withUTF8Buffer { bytes.append(contentsOf: $0) }
        }
        bytes.append(UInt8(ascii: "\""))
        bytes.append(UInt8(ascii: ":"))
        afterKey = true
    }

    /// A member name that is not a literal (re-serializing parsed objects).
    public mutating func dynamicKey(_ k: String) {
        string(k)
        bytes.append(UInt8(ascii: ":"))
        afterKey = true
    }

    public mutating func string(_ s: String) {
        valueStart()
        bytes.append(UInt8(ascii: "\""))
        // Most strings (ids, keys, labels) need no escaping: copy them whole, from their
        // contiguous UTF-8 when they have it (native strings do).
        let copied: Bool? = s.utf8.withContiguousStorageIfAvailable { utf8 in
            for c in utf8 where c < 0x20 || c == UInt8(ascii: "\"") || c == UInt8(ascii: "\\") { return false }
            if utf8.count <= 24 {
                for c in utf8 { bytes.append(c) }
            } else {
                bytes.append(contentsOf: utf8)
            }
            bytes.append(UInt8(ascii: "\""))
            return true
        }
        if copied == true { return }
        if copied == nil, !s.utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
            bytes.append(contentsOf: s.utf8)
            bytes.append(UInt8(ascii: "\""))
            return
        }
        for c in s.utf8 {
            switch c {
            case UInt8(ascii: "\""): bytes.append(0x5C); bytes.append(c)
            case UInt8(ascii: "\\"): bytes.append(0x5C); bytes.append(c)
            case 0x0A: bytes.append(0x5C); bytes.append(UInt8(ascii: "n"))
            case 0x0D: bytes.append(0x5C); bytes.append(UInt8(ascii: "r"))
            case 0x09: bytes.append(0x5C); bytes.append(UInt8(ascii: "t"))
            case 0..<0x20:
                let hex: [UInt8] = Array("0123456789abcdef".utf8)
                bytes.append(contentsOf: [0x5C, UInt8(ascii: "u"), 0x30, 0x30, hex[Int(c >> 4)], hex[Int(c & 15)]])
            default: bytes.append(c)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    public mutating func bool(_ b: Bool) {
        valueStart()
        if b { append("true") } else { append("false") }
    }

    public mutating func null() {
        valueStart()
        append("null")
    }

    private mutating func append(_ literal: StaticString) {
        literal.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    public mutating func int(_ v: Int) {
        valueStart()
        appendInt(v)
    }

    private mutating func appendInt(_ v: Int) {
        if v == 0 { bytes.append(0x30); return }
        var n = v.magnitude
        if v < 0 { bytes.append(UInt8(ascii: "-")) }
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                     UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var count = 0
        withUnsafeMutableBytes(of: &digits) { d in
            while n > 0 { d[count] = UInt8(n % 10) + 0x30; n /= 10; count += 1 }
        }
        withUnsafeBytes(of: &digits) { d in
            for k in stride(from: count - 1, through: 0, by: -1) { bytes.append(d[k]) }
        }
    }

    /// Integral values under 10^15 print as integers (`56`, not `56.0`); others are rounded to
    /// four decimals and printed in their shortest form; `-0` prints `0`; non-finite values
    /// (which validation never lets in) print `0`.
    public mutating func number(_ x: Double) {
        valueStart()
        guard x.isFinite else { bytes.append(0x30); return }
        if x == x.rounded(), abs(x) < 1e15 { appendInt(Int(x)); return }
        let r = (x * 10_000).rounded() / 10_000
        if r == r.rounded(), abs(r) < 1e15 { appendInt(Int(r)); return }
        // r is the double nearest to n / 10^4: with at most 15 significant digits, that decimal
        // (trailing zeros dropped) is the shortest text that reads back as r, which is what
        // `description` prints, without making a String.
        let n = (x * 10_000).rounded()
        if abs(n) < 1e15, n / 10_000 == r {
            var m = Int(n)
            if m < 0 { bytes.append(UInt8(ascii: "-")); m = -m }
            appendInt(m / 10_000)
            var frac = m % 10_000
            var digits = 4
            while frac % 10 == 0 { frac /= 10; digits -= 1 }
            bytes.append(UInt8(ascii: "."))
            var scale = 1
            for _ in 1..<digits { scale *= 10 }
            while scale > 0 { bytes.append(UInt8(frac / scale) + 0x30); frac %= scale; scale /= 10 }
            return
        }
        bytes.append(contentsOf: r.description.utf8)
    }
}

extension JSONWriter {
    /// Writes any parsed value back (members in their order).
    public mutating func value(_ v: JSONValue) {
        switch v {
        case .null: null()
        case .bool(let b): bool(b)
        case .number(let n): number(n)
        case .string(let s): string(s)
        case .array(let a):
            beginArray()
            for x in a { value(x) }
            endArray()
        case .object(let members):
            beginObject()
            for (k, x) in members { dynamicKey(k); value(x) }
            endObject()
        }
    }
}
