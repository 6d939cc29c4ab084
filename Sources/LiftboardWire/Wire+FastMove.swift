import LiftboardCore

extension Wire {
    /// A `move` (or an `up`, whose members are the same) read straight from its bytes, with no
    /// JSON tree, no Strings and no dictionary: most of what a dragging client sends, so most
    /// of what the server decodes. It accepts only a flat object of `t: "move"` (or `"up"`),
    /// `p`, `x`, `y`, `ms` and `seq` whose
    /// values are all valid (plain numbers of at most 15 digits, no exponent or escapes);
    /// anything else returns `nil`, and the general decoder reads it and words the error, so
    /// both paths always agree (tested on generated messages).
    static func fastMove(_ b: UnsafeBufferPointer<UInt8>) -> ClientMessage? {
        // One pass over the bytes with the index in a local (a cursor struct's field, or a
        // captured `var`, is reloaded and stored around every byte), keys recognized by their
        // bytes rather than scanned first.
        guard let s = b.baseAddress else { return nil }
        let n = b.count
        var i = 0
        var isMove = false, isUp = false
        var p: Double?, x: Double?, y: Double?, ms: Double?, seq: Double?
        @inline(__always) func isSpace(_ c: UInt8) -> Bool { c <= 0x20 && (c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D) }
        while i < n, isSpace(s[i]) { i += 1 }
        guard i < n, s[i] == UInt8(ascii: "{") else { return nil }
        i += 1
        while true {
            while i < n, isSpace(s[i]) { i += 1 }
            guard i < n, s[i] == 0x22 else { return nil }
            i += 1
            // The key: one of the six, closed by its quote; anything else goes the general way.
            enum Key { case t, p, x, y, ms, seq }
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
            } else if k0 == UInt8(ascii: "s"), i + 3 < n, s[i + 1] == UInt8(ascii: "e"), s[i + 2] == UInt8(ascii: "q"), s[i + 3] == 0x22 {
                key = .seq
                i += 4
            } else {
                return nil
            }
            while i < n, isSpace(s[i]) { i += 1 }
            guard i < n, s[i] == UInt8(ascii: ":") else { return nil }
            i += 1
            while i < n, isSpace(s[i]) { i += 1 }
            if key == .t {
                // Exactly "move" or "up": any other type, or an escape, goes the general way. A
                // repeated `t` is read as the JSON tree reads it: the last one counts.
                if i + 6 <= n, s[i] == 0x22, s[i + 1] == UInt8(ascii: "m"), s[i + 2] == UInt8(ascii: "o"),
                   s[i + 3] == UInt8(ascii: "v"), s[i + 4] == UInt8(ascii: "e"), s[i + 5] == 0x22 {
                    i += 6
                    isMove = true
                    isUp = false
                } else if i + 4 <= n, s[i] == 0x22, s[i + 1] == UInt8(ascii: "u"), s[i + 2] == UInt8(ascii: "p"), s[i + 3] == 0x22 {
                    i += 4
                    isUp = true
                    isMove = false
                } else {
                    return nil
                }
            } else {
                guard let v = number(s, n, &i) else { return nil }
                switch key {
                case .p: p = v
                case .x: x = v
                case .y: y = v
                case .ms: ms = v
                case .seq: seq = v
                case .t: break
                }
            }
            while i < n, isSpace(s[i]) { i += 1 }
            guard i < n else { return nil }
            if s[i] == UInt8(ascii: ",") { i += 1; continue }
            guard s[i] == UInt8(ascii: "}") else { return nil }
            i += 1
            break
        }
        while i < n, isSpace(s[i]) { i += 1 }
        guard i == n, isMove || isUp, let p, let x, let y, let ms else { return nil }
        // In range first, then whole (a conversion in range, not libm's round).
        guard p >= Double(pointerRange.lowerBound), p <= Double(pointerRange.upperBound), Double(Int(p)) == p,
              coordinateRange.contains(x), coordinateRange.contains(y), msRange.contains(ms) else { return nil }
        if let seq {
            guard seq >= Double(seqRange.lowerBound), seq <= Double(seqRange.upperBound), Double(Int(seq)) == seq else { return nil }
        }
        let at = Point(x: x, y: y)
        return ClientMessage(event: isUp ? .up(pointer: Int(p), at: at) : .move(pointer: Int(p), at: at), seq: seq.map { Int($0) }, ms: ms)
    }

    /// A JSON number of at most 15 digits without exponent at `i` in the `n` bytes at `s`, as
    /// JSONParser's fast path reads it; `i` ends after it.
    @inline(__always)
    private static func number(_ s: UnsafePointer<UInt8>, _ n: Int, _ index: inout Int) -> Double? {
        var i = index
        defer { index = i }
        let negative = i < n && s[i] == UInt8(ascii: "-")
        if negative { i += 1 }
        guard i < n, s[i] &- 0x30 < 10 else { return nil }
        var mantissa: UInt64 = 0
        var digits = 0
        var fraction = 0
        let leadingZero = s[i] == 0x30
        while i < n {
            let d = s[i] &- 0x30
            guard d < 10 else { break }
            mantissa = mantissa &* 10 &+ UInt64(d)
            digits += 1
            i += 1
        }
        if leadingZero && digits > 1 { return nil }
        if i < n, s[i] == UInt8(ascii: ".") {
            i += 1
            guard i < n, s[i] &- 0x30 < 10 else { return nil }
            while i < n {
                let d = s[i] &- 0x30
                guard d < 10 else { break }
                mantissa = mantissa &* 10 &+ UInt64(d)
                digits += 1
                fraction += 1
                i += 1
            }
        }
        guard digits <= 15, i < n, s[i] != UInt8(ascii: "e") && s[i] != UInt8(ascii: "E") else { return nil }
        let value = Double(mantissa) / powerOfTen(fraction)
        return negative ? -value : value
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
