/// A write position in room a `JSONWriter` made ahead (`JSONWriter.pieces`): no check per
/// write; the caller bounds the piece, and `pieces` checks what it wrote against that bound
/// (`precondition`, in every build). The bytes are those of the writer's own methods.
struct ByteCursor {
    private(set) var p: UnsafeMutablePointer<UInt8>

    @inline(__always) init(_ p: UnsafeMutablePointer<UInt8>) { self.p = p }

    /// The most `string(s)` writes: six bytes per byte escaped (`\u00XX`), and the quotes.
    @inline(__always) static func bound(_ s: String) -> Int { s.utf8.count &* 6 &+ 2 }

    /// The most `put(s)` writes (a literal of one character may be kept as its scalar: four
    /// bytes at most).
    @inline(__always) static func bound(_ s: StaticString) -> Int { s.hasPointerRepresentation ? s.utf8CodeUnitCount : 4 }

    @inline(__always) mutating func byte(_ c: UInt8) { p.pointee = c; p += 1 }

    /// Fixed text (names, separators, literals), verbatim.
    @inline(__always) mutating func put(_ s: StaticString) {
        if s.hasPointerRepresentation {
            let n = s.utf8CodeUnitCount
            JSONWriter.copy(s.utf8Start, n, to: p)
            p += n
        } else {
            s.withUTF8Buffer { b in
                JSONWriter.copy(b.baseAddress!, b.count, to: p)
                p += b.count
            }
        }
    }

    /// At most 20 bytes.
    @inline(__always) mutating func int(_ v: Int) { p += JSONWriter.writeInt(v, p) }

    /// As `JSONWriter.number` writes it (at most 25 bytes): most of a frame's numbers, small whole
    /// ones (a cell's frame, alpha, dur; -0 too, not NaN), in line; the rest by a call.
    @inline(__always) mutating func number(_ x: Double) {
        if x >= 0, x < 10_000, Double(Int(x)) == x { p += JSONWriter.smallDigits(Int(x), p) } else { p += JSONWriter.numberText(x, p) }
    }

    @inline(__always) mutating func bool(_ b: Bool) { if b { put("true") } else { put("false") } }

    /// A JSON string, escaped as `JSONWriter.string` escapes it.
    @inline(__always) mutating func string(_ s: String) {
        // Read in place (`withUTF8` is mutating: it needed a copy of `s`, retained).
        let start = p
        guard let end = s.utf8.withContiguousStorageIfAvailable({ Self.quoted($0, at: start) }) else {
            let bytes = Array(s.utf8)  // a string without contiguous UTF-8 (bridged): never on the server
            p = bytes.withUnsafeBufferPointer { Self.quoted($0, at: start) }
            return
        }
        p = end
    }

    /// "1" at each byte that goes out escaped (a control byte, quote, backslash): one load a byte.
    private static let escapes: StaticString = "1111111111111111111111111111111100100000000000000000000000000000000000000000000000000000000010000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"

    @inline(never)
    private static func quoted(_ utf8: UnsafeBufferPointer<UInt8>, at start: UnsafeMutablePointer<UInt8>) -> UnsafeMutablePointer<UInt8> {
        start.pointee = UInt8(ascii: "\"")
        // Most strings escape nothing: bytes copied at their own offsets up to the first to escape.
        let escaped = Self.escapes.utf8Start
        var i = 0
        if let s = utf8.baseAddress { while i < utf8.count, escaped[Int(s[i])] == 0x30 { start[i &+ 1] = s[i]; i &+= 1 } }
        var p = start + 1 + i
        for c in utf8[i...] {
            if escaped[Int(c)] == 0x30 {
                p.pointee = c
                p += 1
                continue
            }
            p[0] = 0x5C
            switch c {
            case 0x0A: p[1] = UInt8(ascii: "n"); p += 2
            case 0x0D: p[1] = UInt8(ascii: "r"); p += 2
            case 0x09: p[1] = UInt8(ascii: "t"); p += 2
            case 0..<0x20:
                let hex: StaticString = "0123456789abcdef"
                p[1] = UInt8(ascii: "u"); p[2] = 0x30; p[3] = 0x30
                p[4] = hex.utf8Start[Int(c >> 4)]; p[5] = hex.utf8Start[Int(c & 15)]
                p += 6
            default: p[1] = c; p += 2
            }
        }
        p.pointee = UInt8(ascii: "\"")
        return p + 1
    }
}

/// The one table of the room the fast encoders ask for (`JSONWriter.pieces(bound:)`): each
/// piece's fixed text at most (names, quotes, separators, literals), plus `number` bytes for
/// each number and `int` for each integer it writes, plus `ByteCursor.bound` of each string,
/// added where the piece is written. Every bound an encoder passes comes from here; `pieces`
/// checks what was written against it in every build (`precondition`).
enum PieceBound {
    /// `JSONWriter.number`'s longest text (`-1.2345678901234567e-308`).
    static let number = 25
    /// An `Int`'s longest decimal text, its sign included.
    static let int = 20
    /// `"t":"frame","seq":N,"ms":M,"ack":A`: 40 bytes of text, two integers, a number.
    static let frameHead = 40 + 2 * int + number
    /// A snapshot (`Wire.snapshot`): 200 bytes of text, nine numbers, two integers; and its id.
    static let snapshot = 200 + 9 * number + 2 * int
    /// A tree's lift snapshot's `subtree` member (`,"subtree":` and an integer).
    static let subtree = 11 + int
    /// A cell's tree facts (`Wire.treeMembers` of a cell or its change): 80 bytes of text, an
    /// integer; and the parent's id.
    static let treeFacts = 80 + int
    /// A cell's members up to its attributes (`Wire.cell`): 125 bytes of text, seven numbers;
    /// and its id.
    static let cell = 125 + 7 * number
    /// A cell's attributes (`Wire.cellInfoMembers`): 80 bytes of text, an integer; and its
    /// label, color and section, and its card.
    static let cellInfo = 80 + int
    /// A card's members (`Wire.cardMembers`): 64 bytes of text; and its strings.
    static let card = 64
    /// One tag of a card: 32 bytes of text; and its text and color.
    static let tag = 32
    /// One section of an order (`Wire.order`): 30 bytes of text; and its id and each item's
    /// id, one separator each.
    static let section = 30
    /// An inline `lift`, `moved` or `drop` (`Wire.gestureEvent`): 110 bytes of text, three
    /// integers, two numbers; and its id and sections.
    static let gestureEvent = 110 + 3 * int + 2 * number
    /// A `snapshots` member's own text (`,"snapshots":[`, `]`), and one separator an element.
    static let snapshots = 16
}
