import LiftboardCore

extension Wire {
    /// A `move` read straight from its bytes, with no JSON tree, no Strings and no
    /// dictionary: most of what a dragging client sends, so most of what the server decodes.
    /// It accepts only a flat object of `t: "move"`, `p`, `x`, `y`, `ms` and `seq` whose
    /// values are all valid (plain numbers of at most 15 digits, no exponent or escapes);
    /// anything else returns `nil`, and the general decoder reads it and words the error, so
    /// both paths always agree (tested on generated messages).
    static func fastMove(_ b: UnsafeBufferPointer<UInt8>) -> ClientMessage? {
        // A cursor struct, not nested functions capturing the index: a captured `var` lives in
        // a box whose every access is checked for exclusivity at run time (a call each).
        var c = MoveCursor(b: b)
        let n = b.count
        var isMove = false
        var p: Double?, x: Double?, y: Double?, ms: Double?, seq: Double?
        c.skipSpace()
        guard c.expect(UInt8(ascii: "{")) else { return nil }
        while true {
            c.skipSpace()
            guard c.expect(UInt8(ascii: "\"")) else { return nil }
            let keyStart = c.i
            while c.i < n, b[c.i] != UInt8(ascii: "\""), b[c.i] != UInt8(ascii: "\\"), b[c.i] >= 0x20 { c.i += 1 }
            guard c.i < n, b[c.i] == UInt8(ascii: "\"") else { return nil }
            let keyLength = c.i - keyStart
            let k0 = b[keyStart], k1 = keyLength > 1 ? b[keyStart + 1] : 0, k2 = keyLength > 2 ? b[keyStart + 2] : 0
            c.i += 1
            c.skipSpace()
            guard c.expect(UInt8(ascii: ":")) else { return nil }
            c.skipSpace()
            switch (keyLength, k0, k1, k2) {
            case (1, UInt8(ascii: "t"), _, _):
                // Exactly "move": any other type, or an escape, goes the general way.
                let i = c.i
                guard i + 6 <= n, b[i] == 0x22, b[i + 1] == UInt8(ascii: "m"), b[i + 2] == UInt8(ascii: "o"),
                      b[i + 3] == UInt8(ascii: "v"), b[i + 4] == UInt8(ascii: "e"), b[i + 5] == 0x22 else { return nil }
                c.i += 6
                isMove = true
            case (1, UInt8(ascii: "p"), _, _): guard let v = c.number() else { return nil }; p = v
            case (1, UInt8(ascii: "x"), _, _): guard let v = c.number() else { return nil }; x = v
            case (1, UInt8(ascii: "y"), _, _): guard let v = c.number() else { return nil }; y = v
            case (2, UInt8(ascii: "m"), UInt8(ascii: "s"), _): guard let v = c.number() else { return nil }; ms = v
            case (3, UInt8(ascii: "s"), UInt8(ascii: "e"), UInt8(ascii: "q")): guard let v = c.number() else { return nil }; seq = v
            default:
                return nil
            }
            c.skipSpace()
            if c.expect(UInt8(ascii: ",")) { continue }
            guard c.expect(UInt8(ascii: "}")) else { return nil }
            break
        }
        c.skipSpace()
        guard c.i == n, isMove, let p, let x, let y, let ms else { return nil }
        guard p == p.rounded(), p >= Double(pointerRange.lowerBound), p <= Double(pointerRange.upperBound),
              coordinateRange.contains(x), coordinateRange.contains(y), msRange.contains(ms) else { return nil }
        if let seq {
            guard seq == seq.rounded(), seq >= Double(seqRange.lowerBound), seq <= Double(seqRange.upperBound) else { return nil }
        }
        return ClientMessage(event: .move(pointer: Int(p), at: Point(x: x, y: y)), seq: seq.map { Int($0) }, ms: ms)
    }

}

/// `fastMove`'s position in the message and the pieces it reads.
private struct MoveCursor {
    let b: UnsafeBufferPointer<UInt8>
    var i = 0

    @inline(__always) mutating func skipSpace() {
        // Clients send no spaces: one comparison settles the usual byte (space and the three
        // control characters JSON allows are all at or below 0x20).
        while i < b.count, b[i] <= 0x20, b[i] == 0x20 || b[i] == 0x09 || b[i] == 0x0A || b[i] == 0x0D { i += 1 }
    }

    @inline(__always) mutating func expect(_ c: UInt8) -> Bool {
        guard i < b.count, b[i] == c else { return false }
        i += 1
        return true
    }

    /// A JSON number of at most 15 digits without exponent, as JSONParser's fast path reads it.
    mutating func number() -> Double? {
        let n = b.count
        let negative = i < n && b[i] == UInt8(ascii: "-")
        if negative { i += 1 }
        guard i < n, b[i] >= 0x30 && b[i] <= 0x39 else { return nil }
        var mantissa: UInt64 = 0
        var digits = 0
        var fraction = 0
        let leadingZero = b[i] == 0x30
        while i < n, b[i] >= 0x30 && b[i] <= 0x39 {
            mantissa = mantissa &* 10 &+ UInt64(b[i] - 0x30)
            digits += 1
            i += 1
        }
        if leadingZero && digits > 1 { return nil }
        if i < n, b[i] == UInt8(ascii: ".") {
            i += 1
            guard i < n, b[i] >= 0x30 && b[i] <= 0x39 else { return nil }
            while i < n, b[i] >= 0x30 && b[i] <= 0x39 {
                mantissa = mantissa &* 10 &+ UInt64(b[i] - 0x30)
                digits += 1
                fraction += 1
                i += 1
            }
        }
        guard digits <= 15, i < n, b[i] != UInt8(ascii: "e") && b[i] != UInt8(ascii: "E") else { return nil }
        let value = Double(mantissa) / Self.powersOfTen[fraction]
        return negative ? -value : value
    }

    private static let powersOfTen: [Double] = [1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15]
}
