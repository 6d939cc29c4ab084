import Foundation

/// The few members of a server message the load generator reads (`t`, `ack`, `by`, `version`,
/// `session`, `seq`), found by one pass over the top level of the JSON object, without building
/// a tree: nested objects and arrays (a frame's cells, inline events with their own `t`) are
/// skipped, strings are decoded only when they hold an escape. A `presence` is read up to its
/// `base` (see `scan`).
struct MessageFields: Equatable {
    enum Kind: Equatable { case welcome, layout, frame, commit, error, move, presence, other }
    var kind: Kind? = nil
    var ack: Double? = nil
    var version: Double? = nil
    var seq: Double? = nil
    /// A `presence`'s number and the number it is a difference from (`hello.config.presence: "delta"`).
    var v: Double? = nil
    var base: Double? = nil
    /// Decoded UTF-8 of `by` and `session` (`by` is `nil` when absent or not a string).
    var by: [UInt8]? = nil
    var session: [UInt8]? = nil
    /// A frame's `commit` (`hello.config.commits: "inline"`): its `version` and `by`.
    var commitVersion: Double? = nil
    var commitBy: [UInt8]? = nil

    /// `nil` when the text is not JSON (as far as the top level shows: nested values are only
    /// checked for balanced brackets and closed strings). A value that is not an object has no members.
    static func scan(_ b: UnsafeRawBufferPointer) -> MessageFields? {
        var s = Scanner(b: b)
        var f = MessageFields()
        s.skipSpace()
        guard s.i < b.count else { return nil }
        guard b[s.i] == UInt8(ascii: "{") else {
            guard s.skipValue() else { return nil }
            s.skipSpace()
            return s.i == b.count ? f : nil
        }
        s.i += 1
        s.skipSpace()
        if s.peek == UInt8(ascii: "}") {
            s.i += 1
        } else {
            while true {
                s.skipSpace()
                guard let key = s.string() else { return nil }
                s.skipSpace()
                guard s.peek == UInt8(ascii: ":") else { return nil }
                s.i += 1
                s.skipSpace()
                guard s.i < b.count else { return nil }
                let field = Field(key, in: b)
                if (field == .t || field == .by || field == .session) && b[s.i] == UInt8(ascii: "\"") {
                    guard let v = s.string() else { return nil }
                    let bytes = s.decoded(v)
                    if field == .t, f.kind == nil { f.kind = bytes.withUnsafeBytes { Kind($0) } }
                    if field == .by, f.by == nil { f.by = bytes }
                    if field == .session, f.session == nil { f.session = bytes }
                } else if (field == .ack || field == .version || field == .seq || field == .v || field == .base) && s.isNumberStart {
                    guard let n = s.number() else { return nil }
                    if field == .ack, f.ack == nil { f.ack = n }
                    if field == .version, f.version == nil { f.version = n }
                    if field == .seq, f.seq == nil { f.seq = n }
                    if field == .v, f.v == nil { f.v = n }
                    if field == .base, f.base == nil { f.base = n }
                } else if field == .commit && b[s.i] == UInt8(ascii: "{") {
                    let start = s.i
                    guard s.skipValue() else { return nil }
                    let inner = Self.scan(UnsafeRawBufferPointer(rebasing: b[start..<s.i]))
                    f.commitVersion = inner?.version
                    f.commitBy = inner?.by
                } else {
                    guard s.skipValue() else { return nil }
                }
                // A `presence` is read no further than the member after its `v` (`base` in a
                // difference, else `board`: the contract's order is `t`, `v`, `base`). The rest,
                // every person's entry (5-10 KB with a hundred holders), is not read or checked:
                // scanning it cost the load generator about 15,000 instructions a presence, so at
                // a thousand watchers it read their sockets late, and a commit that waited unread
                // was stamped with the arrival of what came after it.
                if f.kind == .presence, f.v != nil, field != .v { return f }
                s.skipSpace()
                guard s.i < b.count else { return nil }
                if b[s.i] == UInt8(ascii: ",") { s.i += 1; continue }
                if b[s.i] == UInt8(ascii: "}") { s.i += 1; break }
                return nil
            }
        }
        s.skipSpace()
        return s.i == b.count ? f : nil
    }

    private enum Field: Equatable {
        case t, ack, by, version, session, seq, commit, v, base, other
        /// `key` is the raw text between the quotes (an escaped key is decoded first).
        init(_ key: Range<Int>, in b: UnsafeRawBufferPointer) {
            let raw = UnsafeRawBufferPointer(rebasing: b[key])
            guard raw.contains(UInt8(ascii: "\\")) else { self = Self.match(raw); return }
            self = (Scanner.unescape(raw) ?? []).withUnsafeBytes { Self.match($0) }
        }

        static func match(_ k: UnsafeRawBufferPointer) -> Field {
            switch k.count {
            case 1: return k[0] == UInt8(ascii: "t") ? .t : k[0] == UInt8(ascii: "v") ? .v : .other
            case 2: return k[0] == UInt8(ascii: "b") && k[1] == UInt8(ascii: "y") ? .by : .other
            case 3:
                if k.elementsEqual("ack".utf8) { return .ack }
                return k.elementsEqual("seq".utf8) ? .seq : .other
            case 4: return k.elementsEqual("base".utf8) ? .base : .other
            case 6: return k.elementsEqual("commit".utf8) ? .commit : .other
            case 7:
                if k.elementsEqual("version".utf8) { return .version }
                return k.elementsEqual("session".utf8) ? .session : .other
            default: return .other
            }
        }
    }
}

extension MessageFields.Kind {
    init(_ t: UnsafeRawBufferPointer) {
        if t.elementsEqual("frame".utf8) { self = .frame } else if t.elementsEqual("move".utf8) { self = .move }
        else if t.elementsEqual("commit".utf8) { self = .commit } else if t.elementsEqual("welcome".utf8) { self = .welcome }
        else if t.elementsEqual("layout".utf8) { self = .layout } else if t.elementsEqual("error".utf8) { self = .error }
        else if t.elementsEqual("presence".utf8) { self = .presence }
        else { self = .other }
    }
}

/// A cursor over JSON text.
private struct Scanner {
    let b: UnsafeRawBufferPointer
    var i = 0

    var peek: UInt8? { i < b.count ? b[i] : nil }
    var isNumberStart: Bool { guard let c = peek else { return false }; return c == UInt8(ascii: "-") || (c >= 0x30 && c <= 0x39) }

    mutating func skipSpace() {
        while i < b.count, b[i] == 0x20 || b[i] == 0x0A || b[i] == 0x0D || b[i] == 0x09 { i += 1 }
    }

    /// A string at the cursor: the range of its raw text between the quotes.
    mutating func string() -> Range<Int>? {
        guard peek == UInt8(ascii: "\"") else { return nil }
        let start = i + 1
        i = start
        while i < b.count {
            let c = b[i]
            if c == UInt8(ascii: "\"") { i += 1; return start..<(i - 1) }
            if c == UInt8(ascii: "\\") {
                guard i + 1 < b.count else { return nil }
                switch b[i + 1] {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
                     UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                    i += 2
                case UInt8(ascii: "u"):
                    guard i + 6 <= b.count, (2..<6).allSatisfy({ Self.isHex(b[i + $0]) }) else { return nil }
                    i += 6
                default:
                    return nil
                }
                continue
            }
            if c < 0x20 { return nil }
            i += 1
        }
        return nil
    }

    static func isHex(_ c: UInt8) -> Bool { (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66) }

    /// A string's raw text, decoded when it holds escapes.
    func decoded(_ r: Range<Int>) -> [UInt8] {
        let raw = UnsafeRawBufferPointer(rebasing: b[r])
        if !raw.contains(UInt8(ascii: "\\")) { return Array(raw) }
        return Self.unescape(raw) ?? Array(raw)
    }

    /// JSON's escapes (§7 of RFC 8259), `\uXXXX` with surrogate pairs, to UTF-8; `nil` if malformed.
    static func unescape(_ raw: UnsafeRawBufferPointer) -> [UInt8]? {
        var out: [UInt8] = []
        var k = 0
        func hex4(_ at: Int) -> UInt32? {
            guard at + 4 <= raw.count else { return nil }
            var v: UInt32 = 0
            for j in at..<(at + 4) {
                let c = raw[j]
                let d: UInt8
                switch c {
                case 0x30...0x39: d = c - 0x30
                case 0x41...0x46: d = c - 0x41 + 10
                case 0x61...0x66: d = c - 0x61 + 10
                default: return nil
                }
                v = v << 4 | UInt32(d)
            }
            return v
        }
        while k < raw.count {
            let c = raw[k]
            guard c == UInt8(ascii: "\\") else { out.append(c); k += 1; continue }
            guard k + 1 < raw.count else { return nil }
            let e = raw[k + 1]
            k += 2
            switch e {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(e)
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                guard var scalar = hex4(k) else { return nil }
                k += 4
                if scalar >= 0xD800 && scalar < 0xDC00, k + 6 <= raw.count, raw[k] == UInt8(ascii: "\\"), raw[k + 1] == UInt8(ascii: "u"),
                   let low = hex4(k + 2), low >= 0xDC00 && low < 0xE000 {
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    k += 6
                }
                out.append(contentsOf: String(Unicode.Scalar(scalar).map(Character.init) ?? "\u{FFFD}").utf8)
            default: return nil
            }
        }
        return out
    }

    /// A JSON number at the cursor (RFC 8259 §6 grammar, exponent included).
    mutating func number() -> Double? {
        let start = i
        var integral = true
        if peek == UInt8(ascii: "-") { i += 1 }
        guard let first = peek, first >= 0x30 && first <= 0x39 else { return nil }
        if first == 0x30 { i += 1 } else { while let c = peek, c >= 0x30 && c <= 0x39 { i += 1 } }
        if peek == UInt8(ascii: ".") {
            integral = false
            i += 1
            guard let c = peek, c >= 0x30 && c <= 0x39 else { return nil }
            while let c = peek, c >= 0x30 && c <= 0x39 { i += 1 }
        }
        if peek == UInt8(ascii: "e") || peek == UInt8(ascii: "E") {
            integral = false
            i += 1
            if peek == UInt8(ascii: "+") || peek == UInt8(ascii: "-") { i += 1 }
            guard let c = peek, c >= 0x30 && c <= 0x39 else { return nil }
            while let c = peek, c >= 0x30 && c <= 0x39 { i += 1 }
        }
        // Sequence numbers and versions are small integers: read them directly.
        if integral, i - start <= 16 {
            var v = 0
            var k = start
            let negative = b[k] == UInt8(ascii: "-")
            if negative { k += 1 }
            while k < i { v = v * 10 + Int(b[k] - 0x30); k += 1 }
            return Double(negative ? -v : v)
        }
        return String(decoding: UnsafeRawBufferPointer(rebasing: b[start..<i]), as: UTF8.self).withCString { strtod($0, nil) }
    }

    /// Any value: strings closed, brackets balanced, literals and numbers well-formed at this level.
    mutating func skipValue() -> Bool {
        guard let c = peek else { return false }
        switch c {
        case UInt8(ascii: "\""): return string() != nil
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            var depth = 0
            while i < b.count {
                let d = b[i]
                if d == UInt8(ascii: "\"") { guard string() != nil else { return false }; continue }
                if d == UInt8(ascii: "{") || d == UInt8(ascii: "[") { depth += 1 }
                if d == UInt8(ascii: "}") || d == UInt8(ascii: "]") {
                    depth -= 1
                    if depth == 0 { i += 1; return true }
                }
                i += 1
            }
            return false
        case UInt8(ascii: "t"): return literal("true")
        case UInt8(ascii: "f"): return literal("false")
        case UInt8(ascii: "n"): return literal("null")
        default: return number() != nil
        }
    }

    mutating func literal(_ word: StaticString) -> Bool {
        let n = word.utf8CodeUnitCount
        guard i + n <= b.count else { return false }
        for k in 0..<n where b[i + k] != word.utf8Start[k] { return false }
        i += n
        return true
    }
}
