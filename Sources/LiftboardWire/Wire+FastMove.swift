import LiftboardCore
#if canImport(Glibc)
import Glibc
#endif

/// The one move decoder: a pointer message (`move`, `up`, a `down` with at most a `kind`
/// besides, `wheel`) read straight from its bytes, with no JSON tree, no String and no
/// dictionary. The server hands a `move` from here to the engine's step (`Wire.move`), with no
/// `ClientMessage` or event in between; `decodeClient` tries it first (`fastMove`). It takes a
/// flat object of `t`, `p`, `x`, `y`, `ms`, `seq` and (a `down`'s) `kind`, or of `t: "wheel"`,
/// `dx`, `dy`, `x`, `y` (both or neither), `ms` and `seq`, whose values are all valid (plain
/// numbers without exponent, no escapes); anything else it leaves to the general decoder
/// (nil), which reads it and words the error, so both always agree (`FastMoveTests`, on
/// generated messages; the fuzz target `wire`).
extension Wire {
    /// A `move` as the engine's step takes it.
    public struct PointerMove: Equatable, Sendable {
        public var pointer: Int
        public var at: Point
        public var seq: Int?
        public var ms: Double
    }

    /// What the reading found: a pointer's message, or a wheel.
    enum PointerReading {
        case move(PointerMove), up(PointerMove), down(PointerMove, PointerKind?)
        case wheel(dx: Double, dy: Double, at: Point?, seq: Int?, ms: Double)
    }

    /// A `move` the reading takes, as the server hands it to the engine; nil for anything
    /// else (over the size limit included), which `decodeClient` then reads.
    public static func move(_ bytes: UnsafeRawBufferPointer) -> PointerMove? {
        guard bytes.count <= maxMessageBytes, let s = Bytes(bytes) else { return nil }
        // The page's form first, without the reading's result around it (about 200 Ir a move).
        if let m = pageForm(s) { return m }
        guard case .move(let m) = readMembers(s) else { return nil }
        return m
    }

    /// `decodeClient`'s first try: the reading as a `ClientMessage`.
    static func fastMove(_ bytes: UnsafeRawBufferPointer) -> ClientMessage? {
        guard let s = Bytes(bytes) else { return nil }
        return switch read(s) {
        case .move(let m)?: ClientMessage(event: .move(pointer: m.pointer, at: m.at), seq: m.seq, ms: m.ms)
        case .up(let m)?: ClientMessage(event: .up(pointer: m.pointer, at: m.at), seq: m.seq, ms: m.ms)
        case .down(let m, let kind)?: ClientMessage(event: .down(pointer: m.pointer, at: m.at, kind: kind, mods: [], button: 0), seq: m.seq, ms: m.ms)
        case .wheel(let dx, let dy, let at, let seq, let ms)?: ClientMessage(event: .wheel(dx: dx, dy: dy, at: at), seq: seq, ms: ms)
        case nil: nil
        }
    }

    /// A message's bytes read by index, bounds-checked: 0 past either end (a byte no message
    /// the reading takes holds), where every scan below stops.
    struct Bytes {
        let raw: UnsafeRawBufferPointer
        private let base: UnsafePointer<UInt8>
        let count: Int
        /// nil for a buffer without an address (empty).
        init?(_ raw: UnsafeRawBufferPointer) {
            guard let p = raw.baseAddress else { return nil }
            self.raw = raw
            base = p.assumingMemoryBound(to: UInt8.self)
            count = raw.count
        }
        /// One unsigned comparison for both ends.
        @inline(__always) subscript(i: Int) -> UInt8 { UInt(bitPattern: i) < UInt(bitPattern: count) ? base[i] : 0 }

        /// Whether `text` stands at `i`.
        @inline(__always) func has(_ text: StaticString, at i: Int) -> Bool {
            let k = text.utf8CodeUnitCount
            guard i >= 0, i + k <= count else { return false }
            let w = text.utf8Start
            for j in 0..<k where base[i + j] != w[j] { return false }
            return true
        }

        /// Whether `word` stands at `i` in double quotes (`i`: the opening quote).
        @inline(__always) func quoted(_ word: StaticString, at i: Int) -> Bool {
            self[i] == 0x22 && has(word, at: i + 1) && self[i + 1 + word.utf8CodeUnitCount] == 0x22
        }

        @inline(__always) func isSpace(_ i: Int) -> Bool {
            let c = self[i]
            return c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D
        }
    }

    /// The reading. The page's own form of a move, `{"t":"move","p":P,"x":X,"y":Y,"seq":N,"ms":M}`
    /// (`seq` optional, no spaces), is tried first as a template: its fixed text compared where
    /// it must stand (a key-by-key reading of it costs about 420 Ir a move more: the fifteenth
    /// round). Then the members one by one, in any order, a repeated one read as the JSON tree
    /// reads it (the last counts).
    static func read(_ s: Bytes) -> PointerReading? {
        if let m = pageForm(s) { return .move(m) }
        return readMembers(s)
    }

    /// `read`'s members one by one.
    private static func readMembers(_ s: Bytes) -> PointerReading? {
        enum Key { case t, p, x, y, ms, seq, kind, dx, dy }
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
            // The key: one of these, closed by its quote; anything else goes the general way.
            let key: Key
            if s.quoted("t", at: i) { key = .t; i += 3 }
            else if s.quoted("p", at: i) { key = .p; i += 3 }
            else if s.quoted("x", at: i) { key = .x; i += 3 }
            else if s.quoted("y", at: i) { key = .y; i += 3 }
            else if s.quoted("ms", at: i) { key = .ms; i += 4 }
            else if s.quoted("dx", at: i) { key = .dx; i += 4 }
            else if s.quoted("dy", at: i) { key = .dy; i += 4 }
            else if s.quoted("seq", at: i) { key = .seq; i += 5 }
            else if s.quoted("kind", at: i) { key = .kind; i += 6 }
            else { return nil }
            while s.isSpace(i) { i += 1 }
            guard s[i] == UInt8(ascii: ":") else { return nil }
            i += 1
            while s.isSpace(i) { i += 1 }
            switch key {
            case .t:
                // Exactly one of these: any other type, or an escape, goes the general way.
                if s.quoted("move", at: i) { type = .move; i += 6 }
                else if s.quoted("up", at: i) { type = .up; i += 4 }
                else if s.quoted("down", at: i) { type = .down; i += 6 }
                else if s.quoted("wheel", at: i) { type = .wheel; i += 7 }
                else { return nil }
            case .kind:
                if s.quoted("touch", at: i) { kind = .touch; i += 7 }
                else if s.quoted("mouse", at: i) { kind = .mouse; i += 7 }
                else if s.quoted("pen", at: i) { kind = .pen; i += 5 }
                else { return nil }
            default:
                guard let v = number(s, &i) else { return nil }
                switch key {
                case .p: p = v
                case .x: x = v
                case .y: y = v
                case .ms: ms = v
                case .seq: seq = v
                case .dx: dx = v
                default: dy = v
                }
            }
            while s.isSpace(i) { i += 1 }
            if s[i] == UInt8(ascii: ",") { i += 1; continue }
            guard s[i] == UInt8(ascii: "}") else { return nil }
            i += 1
            break
        }
        while s.isSpace(i) { i += 1 }
        guard i == s.count, let ms, msRange.contains(ms), isValidSeq(seq) else { return nil }
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
        guard kind == nil || type == .down, dx == nil, dy == nil, let p, let x, let y,
              let m = checkedPointer(p: p, x: x, y: y, ms: ms, seq: seq) else { return nil }
        switch type {
        case .move: return .move(m)
        case .up: return .up(m)
        case .down: return .down(m, kind)
        default: return nil
        }
    }

    /// The page's form of a move (`read`), or nil.
    @inline(__always)
    private static func pageForm(_ s: Bytes) -> PointerMove? {
        var i = 16
        guard s.has(#"{"t":"move","p":"#, at: 0), let p = number(s, &i), s.has(#","x":"#, at: i) else { return nil }
        i += 5
        guard let x = number(s, &i), s.has(#","y":"#, at: i) else { return nil }
        i += 5
        guard let y = number(s, &i) else { return nil }
        var seq: Double?
        if s.has(#","seq":"#, at: i) {
            i += 7
            guard let v = number(s, &i) else { return nil }
            seq = v
        }
        guard s.has(#","ms":"#, at: i) else { return nil }
        i += 6
        guard let ms = number(s, &i), s[i] == UInt8(ascii: "}"), i == s.count - 1 else { return nil }
        return checkedPointer(p: p, x: x, y: y, ms: ms, seq: seq)
    }

    /// Whether `seq`, if there is one, is in range and whole, as the general decoder checks it.
    @inline(__always)
    private static func isValidSeq(_ seq: Double?) -> Bool {
        guard let seq else { return true }
        return seq >= Double(seqRange.lowerBound) && seq <= Double(seqRange.upperBound) && Double(Int(seq)) == seq
    }

    /// A pointer message's members checked as the general decoder checks them: in range first,
    /// then whole (a conversion in range, not libm's round); nil when one is not.
    @inline(__always)
    private static func checkedPointer(p: Double, x: Double, y: Double, ms: Double, seq: Double?) -> PointerMove? {
        guard p >= Double(pointerRange.lowerBound), p <= Double(pointerRange.upperBound), Double(Int(p)) == p,
              coordinateRange.contains(x), coordinateRange.contains(y), msRange.contains(ms), isValidSeq(seq) else { return nil }
        return PointerMove(pointer: Int(p), at: Point(x: x, y: y), seq: seq.map { Int($0) }, ms: ms)
    }

    /// A JSON number without exponent at `index`, as JSONParser reads it (at most 15 digits by
    /// an exact division, more by `longNumber`); `index` ends after it.
    @inline(__always)
    private static func number(_ s: Bytes, _ index: inout Int) -> Double? {
        var i = index
        defer { index = i }
        let negative = s[i] == UInt8(ascii: "-")
        if negative { i += 1 }
        let start = i
        var mantissa: UInt64 = 0
        var fraction = 0
        var d = s[i] &- 0x30
        guard d < 10 else { return nil }
        repeat {
            mantissa = mantissa &* 10 &+ UInt64(d)
            i += 1
            d = s[i] &- 0x30
        } while d < 10
        if i - start > 1 && s[start] == 0x30 { return nil }
        if s[i] == UInt8(ascii: ".") {
            i += 1
            let fractionStart = i
            d = s[i] &- 0x30
            guard d < 10 else { return nil }
            repeat {
                mantissa = mantissa &* 10 &+ UInt64(d)
                i += 1
                d = s[i] &- 0x30
            } while d < 10
            fraction = i - fractionStart
        }
        guard s[i] != UInt8(ascii: "e") && s[i] != UInt8(ascii: "E") else { return nil }
        // More digits than an exact division rounds correctly: read as the general decoder
        // reads them. A browser's `performance.now()` has 17 significant digits (116.60000000009313),
        // and a touch's coordinates often do: every move of the page, not a rare one.
        guard i - start - (fraction > 0 ? 1 : 0) <= 15 else { return longNumber(s, from: index, to: i) }
        let value = Double(mantissa) / powerOfTen(fraction)
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

    /// 10^k for k in 0...15 (exact doubles), without an array's bounds check and lazy global.
    @inline(__always)
    private static func powerOfTen(_ k: Int) -> Double {
        switch k {
        case 0: 1
        case 1: 1e1
        case 2: 1e2
        case 3: 1e3
        case 4: 1e4
        case 5: 1e5
        case 6: 1e6
        case 7: 1e7
        case 8: 1e8
        case 9: 1e9
        case 10: 1e10
        case 11: 1e11
        case 12: 1e12
        case 13: 1e13
        case 14: 1e14
        default: 1e15
        }
    }
}
