/// A parsed JSON value. Objects keep their members in order (small objects are the norm on
/// this wire, and a linear search over a few pairs beats hashing).
public enum JSONValue: Hashable, Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([(String, JSONValue)])

    public static func == (a: JSONValue, b: JSONValue) -> Bool {
        switch (a, b) {
        case (.null, .null): true
        case (.bool(let x), .bool(let y)): x == y
        case (.number(let x), .number(let y)): x == y
        case (.string(let x), .string(let y)): x == y
        case (.array(let x), .array(let y)): x == y
        case (.object(let x), .object(let y)): x.count == y.count && zip(x, y).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        default: false
        }
    }

    public func hash(into h: inout Hasher) {
        switch self {
        case .null: h.combine(0)
        case .bool(let b): h.combine(b)
        case .number(let n): h.combine(n)
        case .string(let s): h.combine(s)
        case .array(let a): h.combine(a)
        case .object(let o): for (k, v) in o { h.combine(k); h.combine(v) }
        }
    }

    /// The member named `key` (the last one, as JavaScript's JSON.parse keeps), if an object.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        for (k, v) in members.reversed() where k == key { return v }
        return nil
    }

    var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}

/// Why a text is not JSON.
public struct JSONSyntaxError: Error, Hashable, Sendable, CustomStringConvertible {
    public var offset: Int
    public var reason: String
    public var description: String { "invalid JSON at byte \(offset): \(reason)" }
}

/// A strict RFC 8259 parser over UTF-8 bytes. Hand-written because Foundation's
/// JSONSerialization on Linux cannot tell `true` from `1`, and because it is measured to be
/// several times slower on this wire's small messages (see `liftboard bench engine`).
public struct JSONParser {
    /// Nesting deeper than this is refused, so that hostile input cannot exhaust the stack.
    /// 80: a tree board's deepest item (depth 32, docs/protocol.md "Trees") and its card sit
    /// 71 levels down in its file; one a level deeper still reads, to be refused by name.
    public static let maxDepth = 80

    public static func parse(_ bytes: some Collection<UInt8>) throws(JSONSyntaxError) -> JSONValue {
        let array = Array(bytes)
        var p = JSONParser(bytes: array)
        p.skipSpace()
        let v = try p.value(depth: 0)
        p.skipSpace()
        guard p.i == array.count else { throw p.fail("trailing characters") }
        return v
    }

    private let b: [UInt8]
    private var i = 0

    private init(bytes: [UInt8]) { b = bytes }

    private func fail(_ reason: String) -> JSONSyntaxError { JSONSyntaxError(offset: i, reason: reason) }

    private mutating func skipSpace() {
        while i < b.count, b[i] == 0x20 || b[i] == 0x0A || b[i] == 0x0D || b[i] == 0x09 { i += 1 }
    }

    private mutating func value(depth: Int) throws(JSONSyntaxError) -> JSONValue {
        guard depth < Self.maxDepth else { throw fail("nested too deeply") }
        guard i < b.count else { throw fail("unexpected end") }
        switch b[i] {
        case UInt8(ascii: "{"): return try object(depth: depth)
        case UInt8(ascii: "["): return try array(depth: depth)
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        default: return .number(try number())
        }
    }

    private mutating func literal(_ word: StaticString) throws(JSONSyntaxError) {
        let n = word.utf8CodeUnitCount
        guard i + n <= b.count else { throw fail("unexpected end") }
        let ok = word.withUTF8Buffer { w in (0..<n).allSatisfy { b[i + $0] == w[$0] } }
        guard ok else { throw fail("unexpected character") }
        i += n
    }

    private mutating func object(depth: Int) throws(JSONSyntaxError) -> JSONValue {
        i += 1
        var members: [(String, JSONValue)] = []
        skipSpace()
        if i < b.count, b[i] == UInt8(ascii: "}") { i += 1; return .object(members) }
        while true {
            skipSpace()
            guard i < b.count, b[i] == UInt8(ascii: "\"") else { throw fail("expected a member name") }
            let key = try string()
            skipSpace()
            guard i < b.count, b[i] == UInt8(ascii: ":") else { throw fail("expected ':'") }
            i += 1
            skipSpace()
            members.append((key, try value(depth: depth + 1)))
            skipSpace()
            guard i < b.count else { throw fail("unexpected end") }
            if b[i] == UInt8(ascii: ",") { i += 1; continue }
            if b[i] == UInt8(ascii: "}") { i += 1; return .object(members) }
            throw fail("expected ',' or '}'")
        }
    }

    private mutating func array(depth: Int) throws(JSONSyntaxError) -> JSONValue {
        i += 1
        var items: [JSONValue] = []
        skipSpace()
        if i < b.count, b[i] == UInt8(ascii: "]") { i += 1; return .array(items) }
        while true {
            skipSpace()
            items.append(try value(depth: depth + 1))
            skipSpace()
            guard i < b.count else { throw fail("unexpected end") }
            if b[i] == UInt8(ascii: ",") { i += 1; continue }
            if b[i] == UInt8(ascii: "]") { i += 1; return .array(items) }
            throw fail("expected ',' or ']'")
        }
    }

    /// A number, its digits gathered as they are checked: at most 15 of them and no exponent
    /// (every coordinate and time a client sends) are an exact integer under 2^53 and 10^k is
    /// exact, so one division rounds correctly, the result strtod gives (Clinger's fast path);
    /// any other number strtod reads.
    private mutating func number() throws(JSONSyntaxError) -> Double {
        let start = i
        let negative = i < b.count && b[i] == UInt8(ascii: "-")
        if negative { i += 1 }
        guard i < b.count, isDigit(b[i]) else { throw fail("unexpected character") }
        var mantissa: UInt64 = 0, digits = 0, fraction = 0
        if b[i] == UInt8(ascii: "0") { i += 1; digits = 1 } else { readDigits(&mantissa, &digits) }
        if i < b.count, b[i] == UInt8(ascii: ".") {
            i += 1
            guard i < b.count, isDigit(b[i]) else { throw fail("expected a digit") }
            let whole = digits
            readDigits(&mantissa, &digits)
            fraction = digits - whole
        }
        if i < b.count, b[i] == UInt8(ascii: "e") || b[i] == UInt8(ascii: "E") {
            i += 1
            if i < b.count, b[i] == UInt8(ascii: "+") || b[i] == UInt8(ascii: "-") { i += 1 }
            guard i < b.count, isDigit(b[i]) else { throw fail("expected a digit") }
            while i < b.count, isDigit(b[i]) { i += 1 }
        } else if digits <= 15 {
            let value = Double(mantissa) / Self.powersOfTen[fraction]
            return negative ? -value : value
        }
        // Huge exponents parse to ±infinity, which validation then refuses.
        guard let d = Double(String(decoding: b[start..<i], as: UTF8.self)) else { throw fail("bad number") }
        return d
    }

    /// The digits at `i` onward, each counted and (wrapping past 19 of them, when only the
    /// count is read) added to `mantissa`.
    private mutating func readDigits(_ mantissa: inout UInt64, _ digits: inout Int) {
        while i < b.count, isDigit(b[i]) {
            mantissa = mantissa &* 10 &+ UInt64(b[i] &- 0x30)
            digits += 1
            i += 1
        }
    }

    private func isDigit(_ c: UInt8) -> Bool { c >= 0x30 && c <= 0x39 }

    private static let powersOfTen: [Double] = [1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15]

    private mutating func hex4() throws(JSONSyntaxError) -> UInt32 {
        guard i + 4 <= b.count else { throw fail("unexpected end") }
        var v: UInt32 = 0
        for _ in 0..<4 {
            // A byte's scalar is a hex digit for 0-9, A-F and a-f only (ASCII and Latin-1 have no other).
            guard let d = Character(Unicode.Scalar(b[i])).hexDigitValue else { throw fail("bad \\u escape") }
            v = v << 4 | UInt32(d)
            i += 1
        }
        return v
    }

    /// The escapes of one character after a backslash (`\"`, `\n`, …), and the bytes they stand for.
    private static let escapes = Array(#""\/bfnrt"#.utf8), escaped = Array("\"\\/\u{8}\u{C}\n\r\t".utf8)

    private mutating func string() throws(JSONSyntaxError) -> String {
        i += 1
        let start = i
        // Fast path: no escapes.
        while i < b.count, b[i] != UInt8(ascii: "\""), b[i] != UInt8(ascii: "\\"), b[i] >= 0x20 { i += 1 }
        if i < b.count, b[i] == UInt8(ascii: "\"") {
            let s = String(decoding: b[start..<i], as: UTF8.self)
            i += 1
            return s
        }
        var out = Array(b[start..<i])
        while true {
            guard i < b.count else { throw fail("unterminated string") }
            let c = b[i]
            if c == UInt8(ascii: "\"") { i += 1; return String(decoding: out, as: UTF8.self) }
            if c < 0x20 { throw fail("control character in string") }
            if c != UInt8(ascii: "\\") { out.append(c); i += 1; continue }
            i += 1
            guard i < b.count else { throw fail("unterminated string") }
            let e = b[i]
            i += 1
            if let k = Self.escapes.firstIndex(of: e) { out.append(Self.escaped[k]); continue }
            guard e == UInt8(ascii: "u") else { throw fail("bad escape") }
            var u = try hex4()
            if (0xD800...0xDBFF).contains(u) {
                guard i + 6 <= b.count, b[i] == UInt8(ascii: "\\"), b[i + 1] == UInt8(ascii: "u") else {
                    throw fail("lone surrogate")
                }
                i += 2
                let lo = try hex4()
                guard (0xDC00...0xDFFF).contains(lo) else { throw fail("lone surrogate") }
                u = 0x10000 + ((u - 0xD800) << 10) + (lo - 0xDC00)
            } else if (0xDC00...0xDFFF).contains(u) {
                throw fail("lone surrogate")
            }
            out.append(contentsOf: Array(String(Character(Unicode.Scalar(u)!)).utf8))
        }
    }
}
