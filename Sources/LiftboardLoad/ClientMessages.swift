import LiftboardCore

/// The messages a load session sends, written straight into a reused buffer from fixed
/// templates: the bytes `JSONWriter` made of the same members before (member order, and numbers
/// as `JSONWriter.number` prints them), so a seeded run sends what it always sent.
enum ClientMessages {
    enum Input { case down, move, up }

    /// `{"t":"down","p":1,"x":X,"y":Y,"kind":"touch","seq":N,"ms":M}`, and `move`/`up` without `kind`.
    static func input(_ input: Input, x: Double, y: Double, seq: Int, ms: Double, into out: inout [UInt8]) {
        switch input {
        case .down: append(#"{"t":"down","p":1,"x":"#, to: &out)
        case .move: append(#"{"t":"move","p":1,"x":"#, to: &out)
        case .up: append(#"{"t":"up","p":1,"x":"#, to: &out)
        }
        appendNumber(x, to: &out)
        append(#","y":"#, to: &out)
        appendNumber(y, to: &out)
        if input == .down { append(#","kind":"touch""#, to: &out) }
        trailer(seq: seq, ms: ms, into: &out)
    }

    /// `{"t":"wheel","dx":0,"dy":DY,"seq":N,"ms":M}`: scrolls the session's view.
    static func wheel(dy: Double, seq: Int, ms: Double, into out: inout [UInt8]) {
        append(#"{"t":"wheel","dx":0,"dy":"#, to: &out)
        appendNumber(dy, to: &out)
        trailer(seq: seq, ms: ms, into: &out)
    }

    /// `hello` for `board` (a name the load generator made: `load-N`, or one given on the command line).
    /// `quietFollow` asks for `follow: "quiet"` (moves that only move the snapshot unanswered).
    static func hello(board: String, viewport: Viewport, inlineEvents: Bool, quietFollow: Bool = false, inlineCommits: Bool = false,
                      changeOnlyCommits: Bool = false, deltaPresence: Bool = false, seq: Int, ms: Double, into out: inout [UInt8]) {
        append(#"{"t":"hello","v":1,"board":"#, to: &out)
        appendString(board, to: &out)
        append(#","viewport":{"w":"#, to: &out)
        appendNumber(viewport.w, to: &out)
        append(#","h":"#, to: &out)
        appendNumber(viewport.h, to: &out)
        append(#","dpr":"#, to: &out)
        appendNumber(viewport.dpr, to: &out)
        append("}", to: &out)
        if inlineEvents || quietFollow || inlineCommits || changeOnlyCommits || deltaPresence {
            var first = true
            append(#","config":{"#, to: &out)
            for (on, member) in [(inlineEvents, #""events":"inline""# as StaticString), (quietFollow, #""follow":"quiet""#),
                                 (inlineCommits, #""commits":"inline""#), (changeOnlyCommits, #""commitOrder":"none""#),
                                 (deltaPresence, #""presence":"delta""#)] where on {
                if !first { append(",", to: &out) }
                append(member, to: &out)
                first = false
            }
            append("}", to: &out)
        }
        trailer(seq: seq, ms: ms, into: &out)
    }

    private static func trailer(seq: Int, ms: Double, into out: inout [UInt8]) {
        append(#","seq":"#, to: &out)
        appendInt(seq, to: &out)
        append(#","ms":"#, to: &out)
        appendNumber(ms, to: &out)
        out.append(UInt8(ascii: "}"))
    }

    static func append(_ literal: StaticString, to out: inout [UInt8]) {
        literal.withUTF8Buffer { out.append(contentsOf: $0) }
    }

    /// A JSON string, escaped as `JSONWriter.string` escapes it.
    static func appendString(_ s: String, to out: inout [UInt8]) {
        let hex = Array("0123456789abcdef".utf8)
        out.append(UInt8(ascii: "\""))
        for c in s.utf8 {
            switch c {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"): out.append(0x5C); out.append(c)
            case 0x0A: out.append(0x5C); out.append(UInt8(ascii: "n"))
            case 0x0D: out.append(0x5C); out.append(UInt8(ascii: "r"))
            case 0x09: out.append(0x5C); out.append(UInt8(ascii: "t"))
            case 0..<0x20: out.append(contentsOf: [0x5C, UInt8(ascii: "u"), 0x30, 0x30, hex[Int(c >> 4)], hex[Int(c & 15)]])
            default: out.append(c)
            }
        }
        out.append(UInt8(ascii: "\""))
    }

    static func appendInt(_ v: Int, to out: inout [UInt8]) {
        if v == 0 { out.append(0x30); return }
        if v < 0 { out.append(UInt8(ascii: "-")) }
        var n = v.magnitude
        var divisor: UInt = 1
        while divisor <= n / 10 { divisor *= 10 }
        while divisor > 0 { out.append(UInt8(n / divisor) + 0x30); n %= divisor; divisor /= 10 }
    }

    /// What `JSONWriter.number` prints: integral values under 10^15 as integers, others rounded
    /// to four decimals in their shortest form, `-0` and non-finite values as `0`.
    static func appendNumber(_ x: Double, to out: inout [UInt8]) {
        guard x.isFinite else { out.append(0x30); return }
        if x == x.rounded(), abs(x) < 1e15 { appendInt(Int(x), to: &out); return }
        let r = (x * 10_000).rounded() / 10_000
        if r == r.rounded(), abs(r) < 1e15 { appendInt(Int(r), to: &out); return }
        let n = (x * 10_000).rounded()
        if abs(n) < 1e15, n / 10_000 == r {
            var m = Int(n)
            if m < 0 { out.append(UInt8(ascii: "-")); m = -m }
            appendInt(m / 10_000, to: &out)
            var frac = m % 10_000
            var digits = 4
            while frac % 10 == 0 { frac /= 10; digits -= 1 }
            out.append(UInt8(ascii: "."))
            var scale = 1
            for _ in 1..<digits { scale *= 10 }
            while scale > 0 { out.append(UInt8(frac / scale) + 0x30); frac %= scale; scale /= 10 }
            return
        }
        out.append(contentsOf: r.description.utf8)
    }
}
