import LiftboardCore
#if canImport(Glibc)
import Glibc
#endif

/// The one move decoder: a pointer message (`move`, `up`, a `down` with at most a `kind`
/// besides, `wheel`) read straight from its bytes, with no JSON tree, no String and no
/// dictionary. The server hands a `move` from here to the engine's step (`Wire.pointer`), with no
/// `ClientMessage` or event in between; `decodeClient` tries it first (`fastMove`). It takes a
/// flat object of `t`, `p`, `x`, `y`, `ms`, `seq` and (a `down`'s) `kind`, or of `t: "wheel"`,
/// `dx`, `dy`, `x`, `y` (both or neither), `ms` and `seq`, whose values are all valid (plain
/// numbers without exponent, no escapes); anything else it leaves to the general decoder
/// (nil), which reads it and words the error, so both always agree (`FastMoveTests`, on
/// generated messages; the fuzz target `wire`).
extension Wire {
    /// A `move` as the engine's step takes it.
    public struct PointerMove: Equatable, Sendable {
        public var pointer: Int, at: Point
        public var seq: Int?, ms: Double
    }

    /// What the reading found: a pointer's message, or a wheel.
    enum PointerReading {
        case move(PointerMove), up(PointerMove), down(PointerMove, PointerKind?)
        case wheel(dx: Double, dy: Double, at: Point?, seq: Int?, ms: Double)
    }

    /// A pointer message as the server takes it: a `move` as the engine's step takes it, any
    /// other (`up`, `down`, `wheel`) as its `ClientMessage`.
    public enum Pointer: Equatable, Sendable {
        case move(PointerMove), other(ClientMessage)
    }

    /// The page's own form of a move (`read`), the server's first try: a plain value, with no
    /// `Pointer` around it to destroy (about 35 Ir a move); nil for anything else.
    public static func pageMove(_ bytes: UnsafeRawBufferPointer) -> PointerMove? {
        guard bytes.count <= maxMessageBytes, let s = Bytes(bytes, spaces: false) else { return nil }
        return pageForm(s)
    }

    /// The server's reading of a message `pageMove` did not take: a pointer message the reading
    /// takes, read once; nil for anything else (over the size limit included), for `decodeClient`.
    public static func pointer(_ bytes: UnsafeRawBufferPointer) -> Pointer? {
        guard bytes.count <= maxMessageBytes, let s = Bytes(bytes) else { return nil }
        switch pageUpOrDown(s) ?? readMembers(s) {
        case .move(let m)?: return .move(m)
        case let r?: return .other(message(r))
        case nil: return nil
        }
    }

    /// `decodeClient`'s first try: the reading as a `ClientMessage`.
    static func fastMove(_ bytes: UnsafeRawBufferPointer) -> ClientMessage? {
        guard let s = Bytes(bytes) else { return nil }
        return read(s).map(message)
    }

    /// A reading as its `ClientMessage`.
    private static func message(_ r: PointerReading) -> ClientMessage {
        switch r {
        case .move(let m): ClientMessage(event: .move(pointer: m.pointer, at: m.at), seq: m.seq, ms: m.ms)
        case .up(let m): ClientMessage(event: .up(pointer: m.pointer, at: m.at), seq: m.seq, ms: m.ms)
        case .down(let m, let kind): ClientMessage(event: .down(pointer: m.pointer, at: m.at, kind: kind, mods: [], button: 0), seq: m.seq, ms: m.ms)
        case .wheel(let dx, let dy, let at, let seq, let ms): ClientMessage(event: .wheel(dx: dx, dy: dy, at: at), seq: seq, ms: ms)
        }
    }

    /// A message's bytes read by index up to its sentinel: the `}` that ends it (but for
    /// spaces), or no `Bytes` at all. Every scan below stops at that byte (it is no space,
    /// digit, quote, name or literal's byte), so a read is never past it and needs no check of
    /// its own: the bounds-checked reading cost about 120 Ir a move more (docs/performance.md,
    /// "Issue 44's instructions, ir44").
    struct Bytes {
        let raw: UnsafeRawBufferPointer
        private let base: UnsafePointer<UInt8>
        /// The bytes up to the sentinel, it included (the spaces after it are not read).
        let count: Int
        /// nil for a message that does not end in `}` (but for spaces, if `spaces`: the page's
        /// form has none) or is under eight bytes (a word's worth, `word`), which no reading takes.
        @_transparent init?(_ raw: UnsafeRawBufferPointer, spaces: Bool = true) {
            guard let p = raw.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return nil }
            var last = raw.count - 1
            while spaces, last > 0, p[last] == 0x20 || p[last] == 0x09 || p[last] == 0x0A || p[last] == 0x0D { last -= 1 }
            guard last >= 7, p[last] == UInt8(ascii: "}") else { return nil }
            self.raw = raw
            base = p
            count = last + 1
        }
        /// `i` at most the sentinel's index (every scan stops there).
        @inline(__always) subscript(i: Int) -> UInt8 { base[i] }

        /// The eight bytes from `i` (0 ≤ `i` < `count`), the first the lowest; those past the
        /// sentinel read as 0 (the message's last eight bytes, shifted).
        @inline(__always) func word(at i: Int) -> UInt64 {
            if i &+ 8 <= count { return UInt64(littleEndian: UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self)) }
            return UInt64(littleEndian: UnsafeRawPointer(base + (count &- 8)).loadUnaligned(as: UInt64.self)) &>> UInt64(truncatingIfNeeded: (i &- count &+ 8) &* 8)
        }

        /// Whether `text` (no NUL in it) stands at `i`: a word's worth at a time, the last one
        /// masked to the text's end (the page's move's `{"t":"move","p":` in two comparisons).
        @inline(__always) func has(_ text: StaticString, at i: Int) -> Bool {
            let k = text.utf8CodeUnitCount, t = text.utf8Start
            for j in stride(from: 0, to: k, by: 8) {
                var want: UInt64 = 0, n = 0
                while n < 8, j &+ n < k { want |= UInt64(t[j &+ n]) &<< UInt64(n &* 8); n &+= 1 }
                guard (word(at: i &+ j) ^ want) & (n == 8 ? ~0 : (1 &<< UInt64(n &* 8)) &- 1) == 0 else { return false }
            }
            return true
        }

        /// Whether `word` stands at `i` in double quotes (`i`: the opening quote).
        @inline(__always) func quoted(_ word: StaticString, at i: Int) -> Bool {
            self[i] == 0x22 && has(word, at: i + 1) && self[i + 1 + word.utf8CodeUnitCount] == 0x22
        }

        @inline(__always) func isSpace(_ i: Int) -> Bool { self[i] == 0x20 || self[i] == 0x09 || self[i] == 0x0A || self[i] == 0x0D }
    }

    /// The reading. The page's own form of a move, `{"t":"move","p":P,"x":X,"y":Y,"ms":M,"seq":N}`
    /// (`seq` optional, after `ms` or before it, no spaces), is tried first as a template: its
    /// fixed text compared where it must stand (a key-by-key reading of it costs about 420 Ir a
    /// move more: the fifteenth round). Then the members one by one, in any order, a repeated one read as the JSON tree
    /// reads it (the last counts).
    static func read(_ s: Bytes) -> PointerReading? {
        if let m = pageForm(s) { return .move(m) }
        return pageUpOrDown(s) ?? readMembers(s)
    }

    /// A member `readMembers` reads.
    private enum Key {
        case t, p, x, y, ms, seq, kind, dx, dy
        var name: StaticString {
            switch self {
            case .t: "t"; case .p: "p"; case .x: "x"; case .y: "y"; case .ms: "ms"; case .seq: "seq"; case .kind: "kind"; case .dx: "dx"; case .dy: "dy"
            }
        }
    }

    /// `read`'s members one by one.
    private static func readMembers(_ s: Bytes) -> PointerReading? {
        enum Kind { case none, move, up, down, wheel }
        var type = Kind.none
        var kind: PointerKind?
        var p: Double?, x: Double?, y: Double?, ms: Double?, seq: Double?, dx: Double?, dy: Double?
        var i = 0
        while s.isSpace(i) { i += 1 }
        guard s[i] == UInt8(ascii: "{") else { return nil }
        i += 1
        while true {
            while s.isSpace(i) { i += 1 }
            // The key: one of these, told by its first letter and then compared whole, closed
            // by its quote; anything else goes the general way. (The quote first: a byte after
            // it is no further than the sentinel.)
            guard s[i] == 0x22 else { return nil }
            let key: Key
            switch s[i + 1] {
            case UInt8(ascii: "t"): key = .t
            case UInt8(ascii: "p"): key = .p
            case UInt8(ascii: "x"): key = .x
            case UInt8(ascii: "y"): key = .y
            case UInt8(ascii: "m"): key = .ms
            case UInt8(ascii: "s"): key = .seq
            case UInt8(ascii: "k"): key = .kind
            case UInt8(ascii: "d"): key = s[i + 2] == UInt8(ascii: "x") ? .dx : .dy
            default: return nil
            }
            guard s.quoted(key.name, at: i) else { return nil }
            i += key.name.utf8CodeUnitCount + 2
            while s.isSpace(i) { i += 1 }
            guard s[i] == UInt8(ascii: ":") else { return nil }
            i += 1
            while s.isSpace(i) { i += 1 }
            switch key {
            case .t:
                // Exactly one of these: any other type, or an escape, goes the general way.
                guard s[i] == 0x22 else { return nil }
                switch s[i + 1] {
                case UInt8(ascii: "m") where s.quoted("move", at: i): type = .move; i += 6
                case UInt8(ascii: "u") where s.quoted("up", at: i): type = .up; i += 4
                case UInt8(ascii: "d") where s.quoted("down", at: i): type = .down; i += 6
                case UInt8(ascii: "w") where s.quoted("wheel", at: i): type = .wheel; i += 7
                default: return nil
                }
            case .kind: guard let k = pointerKind(s, &i) else { return nil }; kind = k
            default:
                guard let v = number(s, &i) else { return nil }
                switch key {
                case .p: p = v; case .x: x = v; case .y: y = v; case .ms: ms = v
                case .seq: seq = v; case .dx: dx = v; default: dy = v
                }
            }
            while s.isSpace(i) { i += 1 }
            if s[i] == UInt8(ascii: ",") { i += 1; continue }
            // The sentinel: the object's own end, nothing read after it.
            guard s[i] == UInt8(ascii: "}"), i == s.count - 1 else { return nil }
            break
        }
        // `seq` (if any) and `p` in range, then whole (a conversion in range, not libm's round), as the general decoder checks them.
        guard let ms, msRange.contains(ms),
              seq.map({ $0 >= Double(seqRange.lowerBound) && $0 <= Double(seqRange.upperBound) && Double(Int($0)) == $0 }) ?? true else { return nil }
        let sequence = seq.map { Int($0) }
        if type == .wheel {
            // A wheel's members only, its place both or neither, each in range.
            guard p == nil, kind == nil, let dx, let dy, coordinateRange.contains(dx), coordinateRange.contains(dy),
                  (x == nil) == (y == nil) else { return nil }
            guard let x, let y else { return .wheel(dx: dx, dy: dy, at: nil, seq: sequence, ms: ms) }
            guard coordinateRange.contains(x), coordinateRange.contains(y) else { return nil }
            return .wheel(dx: dx, dy: dy, at: Point(x: x, y: y), seq: sequence, ms: ms)
        }
        // A kind is a down's member: on anything else the general decoder decides.
        guard kind == nil || type == .down, dx == nil, dy == nil, let p, let x, let y, p >= Double(pointerRange.lowerBound),
              p <= Double(pointerRange.upperBound), Double(Int(p)) == p, coordinateRange.contains(x), coordinateRange.contains(y) else { return nil }
        let m = PointerMove(pointer: Int(p), at: Point(x: x, y: y), seq: sequence, ms: ms)
        switch type {
        case .move: return .move(m); case .up: return .up(m); case .down: return .down(m, kind); default: return nil
        }
    }

    /// The page's form of a move (`read`), or nil.
    @inline(__always)
    private static func pageForm(_ s: Bytes) -> PointerMove? {
        s.has(#"{"t":"move","p":"#, at: 0) ? pageForm(s, at: 16, down: false)?.move : nil
    }

    /// The page's form of an up or a down (a move's members after `{"t":"up","p":` or `{"t":"down","p":`,
    /// a down's `kind` after `y`), or nil: member by member cost about 1,200 Ir a press or release.
    private static func pageUpOrDown(_ s: Bytes) -> PointerReading? {
        if s.has(#"{"t":"up","p":"#, at: 0) { return pageForm(s, at: 14, down: false).map { .up($0.move) } }
        return s.has(#"{"t":"down","p":"#, at: 0) ? pageForm(s, at: 16, down: true).map { .down($0.move, $0.kind) } : nil
    }

    /// The members of the page's form after its `"p":` (at `start`); a `kind` after `y` if `down`.
    @inline(__always) private static func pageForm(_ s: Bytes, at start: Int, down: Bool) -> (move: PointerMove, kind: PointerKind?)? {
        var i = start
        guard let p = whole(s, &i), p <= pointerRange.upperBound, s.has(#","x":"#, at: i) else { return nil }
        i &+= 5
        guard let x = number(s, &i), s.has(#","y":"#, at: i) else { return nil }
        i &+= 5
        guard let y = number(s, &i) else { return nil }
        var kind: PointerKind?
        if down, s.has(#","kind":"#, at: i) { i &+= 8; guard let k = pointerKind(s, &i) else { return nil }; kind = k }
        var seq: Int?
        if s.has(#","seq":"#, at: i) { i &+= 7; guard let v = whole(s, &i) else { return nil }; seq = v }
        guard s.has(#","ms":"#, at: i) else { return nil }
        i &+= 6
        guard let ms = number(s, &i) else { return nil }
        // The page stamps `seq` after the event's own `ms` (connection.js): the same members.
        if seq == nil, s.has(#","seq":"#, at: i) { i &+= 7; guard let v = whole(s, &i) else { return nil }; seq = v }
        guard i == s.count - 1, coordinateRange.contains(x), coordinateRange.contains(y), msRange.contains(ms) else { return nil }
        return (PointerMove(pointer: p, at: Point(x: x, y: y), seq: seq, ms: ms), kind)
    }

    /// A pointer's quoted `kind` at `i` (`i` after it), or nil.
    @inline(__always) private static func pointerKind(_ s: Bytes, _ i: inout Int) -> PointerKind? {
        switch s[i] == 0x22 ? s[i &+ 1] : 0 {
        case UInt8(ascii: "t") where s.quoted("touch", at: i): i &+= 7; return .touch
        case UInt8(ascii: "m") where s.quoted("mouse", at: i): i &+= 7; return .mouse
        case UInt8(ascii: "p") where s.quoted("pen", at: i): i &+= 5; return .pen
        default: return nil
        }
    }

    /// The page's `p` or `seq` at `index` as an Int (not a Double checked whole): at most 15 digits
    /// (in `seq`'s range), no sign, fraction, exponent or leading zero, else nil; `index` after it.
    @_transparent
    private static func whole(_ s: Bytes, _ index: inout Int) -> Int? {
        // One digit and a comma (the page's `p`, a first `seq`) needs no word.
        if s[index] &- 0x30 < 10, s[index &+ 1] == UInt8(ascii: ",") { defer { index &+= 1 }; return Int(s[index] &- 0x30) }
        var i = index, value: UInt64 = 0, n = 0
        let (a, x) = run(s, at: i)  // up to 7 digits from their word, more a word at a time
        if UInt(bitPattern: a &- 8) < 56 { n = a &>> 3; value = eight(x, a); i &+= n } else { n = digits(s, &i, &value) }
        let next = s[i] | 0x20  // the byte after it, the sentinel at most
        guard n > 0, n <= 15, next != UInt8(ascii: "."), next != UInt8(ascii: "e"), n == 1 || s[index] != 0x30 else { return nil }
        index = i
        return Int(truncatingIfNeeded: value)
    }

    /// The digits at `i` after those already in `value` (wrapping past 19), `i` after them; how
    /// many (0: none), a word's worth at a time (`run`).
    @inline(__always)
    private static func digits(_ s: Bytes, _ i: inout Int, _ value: inout UInt64) -> Int {
        let start = i
        var bits = 64
        while bits == 64 {
            let (b, x) = run(s, at: i)
            if b > 0 { value = value &* tens(b &>> 3) &+ eight(x, b); i &+= b &>> 3 }
            bits = b
        }
        return i &- start
    }

    /// The digit run that starts the word at `i`: 8 × its length (64: all eight are digits),
    /// and the word with each digit's byte made its value (0-9). Any other byte gets its top bit
    /// set by the add, and the lowest such byte ends the run (a carry from a byte of 0x8A or
    /// more reaches only the bytes above it).
    @inline(__always)
    private static func run(_ s: Bytes, at i: Int) -> (bits: Int, x: UInt64) {
        let x = s.word(at: i) ^ 0x3030_3030_3030_3030
        return ((((x &+ 0x7676_7676_7676_7676) | x) & 0x8080_8080_8080_8080).trailingZeroBitCount & ~7, x)
    }

    /// The value of a run's digits (`bits`, 8 to 64): moved to the word's top, first digit lowest,
    /// so that zeros lead; then pairs, fours and the eight, each the lower lane times 10, 100 or
    /// 10^4 plus the higher: three multiplies, not a multiply and add a digit.
    @inline(__always)
    private static func eight(_ x: UInt64, _ bits: Int) -> UInt64 {
        var v = x &<< UInt64(truncatingIfNeeded: 64 &- bits)
        v = ((v &* (10 << 8 + 1)) &>> 8) & 0x00FF_00FF_00FF_00FF
        v = ((v &* (100 << 16 + 1)) &>> 16) & 0x0000_FFFF_0000_FFFF
        return (v &* (10_000 << 32 + 1)) &>> 32
    }

    /// A JSON number without exponent at `index`, as JSONParser reads it (at most 15 digits by
    /// an exact division, more by `longNumber`); `index` after it.
    @_transparent
    private static func number(_ s: Bytes, _ index: inout Int) -> Double? {
        let negative = s[index] == UInt8(ascii: "-")
        let start = negative ? index &+ 1 : index
        // The usual one first: 1-7 digits (no leading zero), then a point and 1-7 digits or no
        // fraction, each run within the word read at its start (a point's byte is 0x1E in `x`,
        // an `e`'s or `E`'s 0x75 with 0x20 set).
        let (a, x) = run(s, at: start)
        if UInt(bitPattern: a &- 8) < 56, a == 8 || x & 0xFF != 0 {  // 8 ≤ a ≤ 56, in one compare
            let after = (x &>> UInt64(truncatingIfNeeded: a)) & 0xFF
            if after == 0x1E {
                let (b, y) = run(s, at: start &+ a &>> 3 &+ 1)
                if UInt(bitPattern: b &- 8) < 56, (y &>> UInt64(truncatingIfNeeded: b)) & 0xFF | 0x20 != 0x75 {
                    index = start &+ a &>> 3 &+ 1 &+ b &>> 3
                    // At most eight digits in all: both runs side by side in one word, read at once.
                    let m = a &+ b <= 64 ? eight((x &<< UInt64(truncatingIfNeeded: 64 &- a)) &>> UInt64(truncatingIfNeeded: b) | y &<< UInt64(truncatingIfNeeded: 64 &- b), 64)
                        : eight(x, a) &* tens(b &>> 3) &+ eight(y, b)
                    let value = Double(Int64(bitPattern: m)) / Double(Int64(bitPattern: tens(b &>> 3)))
                    return negative ? -value : value
                }
            } else if after | 0x20 != 0x75 {
                index = start &+ a &>> 3
                return negative ? -Double(Int64(bitPattern: eight(x, a))) : Double(Int64(bitPattern: eight(x, a)))
            }
        }
        var i = start, mantissa: UInt64 = 0, fraction = 0
        let n = digits(s, &i, &mantissa)
        guard n > 0, n == 1 || s[start] != 0x30 else { return nil }
        if s[i] == UInt8(ascii: ".") {
            i &+= 1
            fraction = digits(s, &i, &mantissa)
            guard fraction > 0 else { return nil }
        }
        guard s[i] | 0x20 != UInt8(ascii: "e") else { return nil }
        // More digits than an exact division rounds correctly: read as the general decoder reads them
        // (a browser's `performance.now()` and a touch's coordinates often have 17: 116.60000000009313).
        defer { index = i }
        guard n &+ fraction <= 15 else { return longNumber(s, from: index, to: i) }
        // At most 15 digits: under 2^53, so the signed conversions (an instruction each) are
        // exact, and so is the division's rounding (not a multiply by an inexact 10^-k).
        let value = Double(Int64(bitPattern: mantissa)) / Double(Int64(bitPattern: tens(fraction)))
        return negative ? -value : value
    }

    /// A number of more than 15 digits (checked as JSON, without exponent) from `start` to
    /// `end`, as `JSONParser` reads it. `Double(String)` is the C library's correctly rounded
    /// `strtod` in the "C" locale (the Swift runtime's `_swift_stdlib_strtod_clocale`): called
    /// here on the bytes as they lie, without the String (an allocation past 15 bytes; 12,000 →
    /// 1,370 Ir a browser's move, the ninth round). A byte of the message follows the number
    /// (else nil), where strtod stops; a process whose locale reads numbers otherwise (a
    /// decimal comma) stops elsewhere, and the general decoder reads it.
    @inline(never)
    private static func longNumber(_ s: Bytes, from start: Int, to end: Int) -> Double? {
        guard end < s.count, let base = s.raw.baseAddress else { return nil }
        #if canImport(Glibc)
        let text = (base + start).assumingMemoryBound(to: CChar.self)
        var stop: UnsafeMutablePointer<CChar>?
        let value = strtod(text, &stop)
        guard let stop, text.distance(to: UnsafePointer(stop)) == end - start else { return nil }
        return value
        #else
        return Double(String(decoding: UnsafeRawBufferPointer(rebasing: s.raw[start..<end]), as: UTF8.self))
        #endif
    }

    /// 10^k for k in 0...15, without an array's bounds check and lazy global (a table of the switch).
    @inline(__always)
    private static func tens(_ k: Int) -> UInt64 {
        switch k {
        case 0: 1; case 1: 10; case 2: 100; case 3: 1000; case 4: 10_000; case 5: 100_000; case 6: 1_000_000
        case 7: 10_000_000; case 8: 100_000_000; case 9: 1_000_000_000; case 10: 10_000_000_000; case 11: 100_000_000_000
        case 12: 1_000_000_000_000; case 13: 10_000_000_000_000; case 14: 100_000_000_000_000; default: 1_000_000_000_000_000
        }
    }
}
