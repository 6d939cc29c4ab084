import LiftboardCore
#if canImport(Glibc)
import Glibc
#endif

extension Wire {
    /// A `move` (or an `up`, whose members are the same, a `down` with at most a `kind`
    /// besides them, or a `wheel`) read straight from its bytes, with no JSON tree, no Strings
    /// and no dictionary: most of what a dragging or scrolling client sends, so most of what the
    /// server decodes. It accepts only a flat object of `t: "move"` (`"up"`, `"down"`), `p`,
    /// `x`, `y`, `ms`, `seq` and (a `down`'s) `kind`, or of `t: "wheel"`, `dx`, `dy`, `x`, `y`
    /// (both or neither), `ms` and `seq`, whose values are all valid (plain numbers without
    /// exponent, no escapes); anything else returns `nil`, and the general decoder reads it and
    /// words the error, so both paths always agree (tested on generated messages).
    static func fastMove(_ b: UnsafeBufferPointer<UInt8>) -> ClientMessage? {
        // One pass over the bytes with the index in a local (a cursor struct's field, or a
        // captured `var`, is reloaded and stored around every byte), keys recognized by their
        // bytes rather than scanned first.
        guard let s = b.baseAddress else { return nil }
        let n = b.count
        @inline(__always) func isSpace(_ c: UInt8) -> Bool { c <= 0x20 && (c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D) }
        // The object must end the message (but for spaces): that `}` stops every scan below
        // (spaces, digits), which therefore need no check of the end on each byte.
        var last = n - 1
        while last >= 0, isSpace(s[last]) { last -= 1 }
        guard last > 0, s[last] == UInt8(ascii: "}") else { return nil }
        if last == n - 1, let m = canonicalMove(s, n) { return ClientMessage(event: .move(pointer: m.pointer, at: m.at), seq: m.seq, ms: m.ms) }
        var i = 0
        var type = PointerMessageType.none
        var kind: PointerKind?
        var p: Double?, x: Double?, y: Double?, ms: Double?, seq: Double?, dx: Double?, dy: Double?
        while isSpace(s[i]) { i += 1 }
        guard s[i] == UInt8(ascii: "{") else { return nil }
        i += 1
        while true {
            while isSpace(s[i]) { i += 1 }
            guard s[i] == 0x22 else { return nil }
            i += 1
            // The key: one of these, closed by its quote; anything else goes the general way.
            enum Key { case t, p, x, y, ms, seq, kind, dx, dy }
            let key: Key
            guard i + 1 < n else { return nil }
            let k0 = s[i]
            if s[i + 1] == 0x22 {
                switch k0 {
                case UInt8(ascii: "t"): key = .t
                case UInt8(ascii: "p"): key = .p
                case UInt8(ascii: "x"): key = .x
                case UInt8(ascii: "y"): key = .y
                default: return nil
                }
                i += 2
            } else if k0 == UInt8(ascii: "m"), i + 2 < n, s[i + 1] == UInt8(ascii: "s"), s[i + 2] == 0x22 {
                key = .ms
                i += 3
            } else if k0 == UInt8(ascii: "d"), i + 2 < n, s[i + 1] == UInt8(ascii: "x") || s[i + 1] == UInt8(ascii: "y"),
                      s[i + 2] == 0x22 {
                key = s[i + 1] == UInt8(ascii: "x") ? .dx : .dy
                i += 3
            } else if k0 == UInt8(ascii: "s"), i + 3 < n, s[i + 1] == UInt8(ascii: "e"), s[i + 2] == UInt8(ascii: "q"), s[i + 3] == 0x22 {
                key = .seq
                i += 4
            } else if quoted("kind", at: i - 1, in: s, n) {
                key = .kind
                i += 5
            } else {
                return nil
            }
            while isSpace(s[i]) { i += 1 }
            guard s[i] == UInt8(ascii: ":") else { return nil }
            i += 1
            while isSpace(s[i]) { i += 1 }
            if key == .t {
                // Exactly "move", "up" or "down": any other type, or an escape, goes the general
                // way. A repeated member is read as the JSON tree reads it: the last one counts.
                if quoted("move", at: i, in: s, n) {
                    i += 6
                    type = .move
                } else if quoted("up", at: i, in: s, n) {
                    i += 4
                    type = .up
                } else if quoted("down", at: i, in: s, n) {
                    i += 6
                    type = .down
                } else if quoted("wheel", at: i, in: s, n) {
                    i += 7
                    type = .wheel
                } else {
                    return nil
                }
            } else if key == .kind {
                if quoted("touch", at: i, in: s, n) {
                    i += 7
                    kind = .touch
                } else if quoted("mouse", at: i, in: s, n) {
                    i += 7
                    kind = .mouse
                } else if quoted("pen", at: i, in: s, n) {
                    i += 5
                    kind = .pen
                } else {
                    return nil
                }
            } else {
                guard let v = number(s, &i) else { return nil }
                switch key {
                case .p: p = v
                case .x: x = v
                case .y: y = v
                case .ms: ms = v
                case .seq: seq = v
                case .dx: dx = v
                case .dy: dy = v
                case .t, .kind: break
                }
            }
            while isSpace(s[i]) { i += 1 }
            if s[i] == UInt8(ascii: ",") { i += 1; continue }
            guard s[i] == UInt8(ascii: "}") else { return nil }
            i += 1
            break
        }
        while i < n, isSpace(s[i]) { i += 1 }
        guard i == n, let ms else { return nil }
        if type == .wheel {
            // A wheel's members only (its place both or neither): anything else, the general way.
            guard p == nil, kind == nil, let dx, let dy, (x == nil) == (y == nil) else { return nil }
            return wheelMessage(dx: dx, dy: dy, x: x, y: y, ms: ms, seq: seq)
        }
        // A kind is a down's member: on anything else the general decoder decides.
        guard type != .none, kind == nil || type == .down, dx == nil, dy == nil, let p, let x, let y else { return nil }
        return pointerMessage(type, kind: kind, p: p, x: x, y: y, ms: ms, seq: seq)
    }

    /// `t`'s value. A trackpad's scroll sends `wheel` as often as a finger sends `move`.
    private enum PointerMessageType { case none, move, up, down, wheel }

    /// A wheel from its members, once checked as the general decoder checks them; nil when one
    /// is out of its range.
    private static func wheelMessage(dx: Double, dy: Double, x: Double?, y: Double?, ms: Double, seq: Double?) -> ClientMessage? {
        guard coordinateRange.contains(dx), coordinateRange.contains(dy), msRange.contains(ms) else { return nil }
        var at: Point?
        if let x, let y {
            guard coordinateRange.contains(x), coordinateRange.contains(y) else { return nil }
            at = Point(x: x, y: y)
        }
        guard isValidSeq(seq) else { return nil }
        return ClientMessage(event: .wheel(dx: dx, dy: dy, at: at), seq: seq.map { Int($0) }, ms: ms)
    }

    /// A `move` as the server hands it to the engine: no `ClientMessage` around it.
    public struct PointerMove: Equatable, Sendable {
        public var pointer: Int
        public var at: Point
        public var seq: Int?
        public var ms: Double
    }

    /// A message in the page's own form of a move (`canonicalMove`), read where it lies; nil
    /// for anything else, which `decodeClient` then reads (the same move in another form
    /// included). The server's most frequent input, taken without building, returning and
    /// destroying a `ClientMessage` in a `Result`.
    public static func pageMove(_ bytes: UnsafeRawBufferPointer) -> PointerMove? {
        guard bytes.count <= maxMessageBytes, let s = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self),
              bytes.count > 0, s[bytes.count - 1] == UInt8(ascii: "}") else { return nil }
        return canonicalMove(s, bytes.count)
    }

    /// The form the page and the load generator send, `{"t":"move","p":P,"x":X,"y":Y,"seq":N,
    /// "ms":M}` (`seq` optional) with no spaces and nothing after it, read as a template: its
    /// fixed text compared where it must stand, not scanned key by key. Anything else is nil,
    /// and `fastMove` reads it the general way. The caller checked that the last byte is `}`,
    /// which stops the digit scans.
    @inline(__always)
    static func canonicalMove(_ s: UnsafePointer<UInt8>, _ n: Int) -> PointerMove? {
        var i = 16
        guard n > 36, has(#"{"t":"move","p":"#, at: 0, in: s, n), let p = number(s, &i),
              has(#","x":"#, at: i, in: s, n) else { return nil }
        i += 5
        guard let x = number(s, &i), has(#","y":"#, at: i, in: s, n) else { return nil }
        i += 5
        guard let y = number(s, &i) else { return nil }
        var seq: Double?
        if has(#","seq":"#, at: i, in: s, n) {
            i += 7
            guard let v = number(s, &i) else { return nil }
            seq = v
        }
        guard has(#","ms":"#, at: i, in: s, n) else { return nil }
        i += 6
        guard let ms = number(s, &i), i == n - 1 else { return nil }
        return checkedPointer(p: p, x: x, y: y, ms: ms, seq: seq)
    }

    /// Whether `seq`, if there is one, is in range and whole, as the general decoder checks it.
    @inline(__always)
    private static func isValidSeq(_ seq: Double?) -> Bool {
        guard let seq else { return true }
        return seq >= Double(seqRange.lowerBound) && seq <= Double(seqRange.upperBound) && Double(Int(seq)) == seq
    }

    /// Whether `text` stands in the `n` bytes at `s` from `i`.
    @inline(__always)
    private static func has(_ text: StaticString, at i: Int, in s: UnsafePointer<UInt8>, _ n: Int) -> Bool {
        let k = text.utf8CodeUnitCount
        guard i + k <= n else { return false }
        let w = text.utf8Start
        var j = 0
        while j < k {
            if s[i + j] != w[j] { return false }
            j += 1
        }
        return true
    }

    /// A pointer message from its members, once their values are checked as the general
    /// decoder checks them; nil when one is out of its range.
    @inline(__always)
    private static func pointerMessage(_ type: PointerMessageType, kind: PointerKind?, p: Double, x: Double, y: Double,
                                       ms: Double, seq: Double?) -> ClientMessage? {
        guard let m = checkedPointer(p: p, x: x, y: y, ms: ms, seq: seq) else { return nil }
        let event: ClientEvent
        switch type {
        case .up: event = .up(pointer: m.pointer, at: m.at)
        case .down: event = .down(pointer: m.pointer, at: m.at, kind: kind, mods: [], button: 0)
        default: event = .move(pointer: m.pointer, at: m.at)
        }
        return ClientMessage(event: event, seq: m.seq, ms: m.ms)
    }

    /// A pointer message's members checked as the general decoder checks them: in range first,
    /// then whole (a conversion in range, not libm's round); nil when one is not.
    @inline(__always)
    private static func checkedPointer(p: Double, x: Double, y: Double, ms: Double, seq: Double?) -> PointerMove? {
        guard p >= Double(pointerRange.lowerBound), p <= Double(pointerRange.upperBound), Double(Int(p)) == p,
              coordinateRange.contains(x), coordinateRange.contains(y), msRange.contains(ms) else { return nil }
        guard isValidSeq(seq) else { return nil }
        return PointerMove(pointer: Int(p), at: Point(x: x, y: y), seq: seq.map { Int($0) }, ms: ms)
    }

    /// Whether the `n` bytes at `s` hold `word` in double quotes at `i` (the opening quote).
    @inline(__always)
    private static func quoted(_ word: StaticString, at i: Int, in s: UnsafePointer<UInt8>, _ n: Int) -> Bool {
        let k = word.utf8CodeUnitCount
        guard i >= 0, i + k + 2 <= n, s[i] == 0x22, s[i + k + 1] == 0x22 else { return false }
        let w = word.utf8Start
        for j in 0..<k where s[i + 1 + j] != w[j] { return false }
        return true
    }

    /// A JSON number without exponent at `index` in the bytes at `s`, as JSONParser reads it
    /// (at most 15 digits by its fast path, more by `Double` of the text); `index` ends after
    /// it. A `}` follows somewhere (the caller checked): the digit runs stop at it, if not before.
    @inline(__always)
    private static func number(_ s: UnsafePointer<UInt8>, _ index: inout Int) -> Double? {
        var i = index
        defer { index = i }
        let negative = s[i] == UInt8(ascii: "-")
        if negative { i += 1 }
        let start = i
        var d = s[i] &- 0x30
        guard d < 10 else { return nil }
        var mantissa: UInt64 = 0
        repeat {
            mantissa = mantissa &* 10 &+ UInt64(d)
            i += 1
            d = s[i] &- 0x30
        } while d < 10
        var digits = i - start
        if digits > 1 && s[start] == 0x30 { return nil }
        var fraction = 0
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
            digits += fraction
        }
        guard s[i] != UInt8(ascii: "e") && s[i] != UInt8(ascii: "E") else { return nil }
        // More digits than an exact division rounds correctly: read as the general decoder
        // reads them. A browser's `performance.now()` has 17 significant digits (116.60000000009313),
        // and a touch's coordinates often do: every move of the page, not a rare one.
        guard digits <= 15 else { return longNumber(s, from: index, to: i) }
        let value = Double(mantissa) / powerOfTen(fraction)
        return negative ? -value : value
    }

    /// A number of more than 15 digits (checked as JSON, without exponent) from `start` to
    /// `end`, as `JSONParser` reads it. `Double(String)` is the C library's correctly rounded
    /// `strtod` in the "C" locale (the Swift runtime's `_swift_stdlib_strtod_clocale`): called
    /// here on the bytes as they lie, without the String (an allocation past 15 bytes). The
    /// number ends at a `,`, `}` or space, where strtod stops too; a process whose locale
    /// reads numbers otherwise (a decimal comma) stops elsewhere, and the general decoder reads it.
    @inline(never)
    private static func longNumber(_ s: UnsafePointer<UInt8>, from start: Int, to end: Int) -> Double? {
        #if canImport(Glibc)
        let first = s + start
        return first.withMemoryRebound(to: CChar.self, capacity: end - start) { text -> Double? in
            var stop: UnsafeMutablePointer<CChar>?
            let value = strtod(text, &stop)
            guard let stop, text.distance(to: UnsafePointer(stop)) == end - start else { return nil }
            return value
        }
        #else
        return Double(String(decoding: UnsafeBufferPointer(start: s + start, count: end - start), as: UTF8.self))
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
