/// Appends JSON to a byte buffer in one canonical form, so that the same values always give
/// the same bytes: members in the order written, numbers as `JSONWriter.number` says.
///
/// Each piece (a member name with its separator, a number, a string) is written through one
/// pointer into room made ahead in the buffer, not byte by byte through `Array.append` (a
/// uniqueness and capacity check per byte): the server's frame encoding is mostly this.
public struct JSONWriter {
    /// The output is `storage[0..<count]`; what lies beyond is room already made.
    private var storage: [UInt8]
    private var count: Int
    /// Per open container, one bit: set while nothing has been written in it yet. A bit set
    /// instead of an array of Bool: no allocation per message on the server's hot path.
    /// Containers nested deeper than 64 (only re-serialized parsed values can be) use `deep`.
    private var firstBits: UInt64 = 0
    private var depth = 0
    private var deep: [Bool] = []
    /// A member name was just written: its value needs no separator.
    private var afterKey = false

    public init(into bytes: [UInt8] = []) {
        storage = bytes
        count = bytes.count
    }

    /// Writes what `body` writes over `buffer` from `start` and returns where it ends: what
    /// lies past it is room already made (any bytes), kept in `buffer` for the next writer. The
    /// server's send buffer is reused this way: cut back to each message's end, its room was
    /// zeroed again for every message. The buffer is handed over, not copied.
    @inline(__always)
    static func write(over buffer: inout [UInt8], from start: Int, _ body: (inout JSONWriter) -> Void) -> Int {
        precondition(start <= buffer.count, "the output starts within the buffer")
        var w = JSONWriter()
        swap(&w.storage, &buffer)
        w.count = start
        body(&w)
        swap(&w.storage, &buffer)
        return w.count
    }

    /// What has been written (after whatever the buffer held at `init`).
    public var bytes: [UInt8] { count == storage.count ? storage : Array(storage[..<count]) }

    /// Zeros to make room with: one copy (a memcpy) per piece that does not fit, of what it
    /// needs and at least 2 KiB: a frame's pieces ask for their bounds (a cell 400 bytes and
    /// more), so one growth covers the usual frame (512 bytes at a time took three or four).
    private static let room = [UInt8](repeating: 0, count: 4096)

    /// Runs `body` on a pointer to room for at least `n` bytes; `body` returns how many it wrote,
    /// checked against `n` in every build (each caller's `n` is worked out beside its body; a
    /// piece written through a cursor is checked write by write, `ByteCursor`).
    @inline(__always)
    private mutating func write(_ n: Int, _ body: (UnsafeMutablePointer<UInt8>) -> Int) {
        if count + n > storage.count { makeRoom(n) }
        let start = count
        let written = storage.withUnsafeMutableBufferPointer { body($0.baseAddress! + start) }
        precondition(written <= n, "\(written) bytes written in room for \(n)")
        count = start + written
    }

    @inline(never)
    private mutating func makeRoom(_ n: Int) {
        while count + n > storage.count {
            let need = max(count + n - storage.count, 2048)
            storage.append(contentsOf: Self.room[..<min(need, Self.room.count)])
        }
    }

    /// Whether the value about to be written needs a `,` before it (and records that the
    /// container now has one).
    @inline(__always)
    private mutating func needsComma() -> Bool {
        if afterKey { afterKey = false; return false }
        guard depth > 0 else { return false }
        if depth > 64 {
            let first = deep[deep.count - 1]
            deep[deep.count - 1] = false
            return !first
        }
        let bit: UInt64 = 1 << UInt64(depth - 1)
        let first = firstBits & bit != 0
        firstBits &= ~bit
        return !first
    }

    /// One structural byte, after a separator when a value starts here.
    @inline(__always)
    private mutating func valueByte(_ c: UInt8) { pieces(bound: 1) { $0.byte(c) } }

    private mutating func open() {
        depth += 1
        if depth > 64 { deep.append(true) } else { firstBits |= 1 << UInt64(depth - 1) }
    }

    private mutating func close() {
        if depth > 64 { deep.removeLast() }
        depth -= 1
    }

    public mutating func beginObject() { valueByte(UInt8(ascii: "{")); open() }
    public mutating func endObject() { close(); raw("}") }
    public mutating func beginArray() { valueByte(UInt8(ascii: "[")); open() }
    public mutating func endArray() { close(); raw("]") }

    // Every value below is one piece written through a cursor (`pieces`), as the fast
    // encoders write theirs: one check for room, the same bytes whichever way a value goes.

    /// Starts a member: the value written next belongs to it.
    public mutating func key(_ k: StaticString) {
        pieces(bound: ByteCursor.bound(k) &+ 3) { o in o.byte(0x22); o.put(k); o.put("\":") }
        afterKey = true
    }

    /// A member name that is not a literal (re-serializing parsed objects).
    public mutating func dynamicKey(_ k: String) {
        pieces(bound: ByteCursor.bound(k) &+ 1) { o in o.string(k); o.byte(UInt8(ascii: ":")) }
        afterKey = true
    }

    /// A string known to need no escaping (a name the protocol fixes: a type, an ease).
    public mutating func literal(_ s: StaticString) {
        pieces(bound: ByteCursor.bound(s) &+ 2) { o in o.byte(0x22); o.put(s); o.byte(0x22) }
    }

    public mutating func string(_ s: String) { pieces(bound: ByteCursor.bound(s)) { $0.string(s) } }
    public mutating func bool(_ b: Bool) { pieces(bound: 5) { $0.bool(b) } }
    public mutating func null() { pieces(bound: 4) { $0.put("null") } }

    /// `s`, or `null` when there is none.
    public mutating func string(orNull s: String?) { if let s { string(s) } else { null() } }
    /// `[…]`, each element written by `element` (the messages' lists: cells, sections, snapshots, ids).
    mutating func array<T>(_ list: [T], _ element: (T, inout JSONWriter) -> Void) {
        beginArray(); for x in list { element(x, &self) }; endArray()
    }

    public mutating func int(_ v: Int) { pieces(bound: PieceBound.int) { $0.int(v) } }

    /// The decimal digits of `v` (with its sign) at `p`, as `String(v)` writes them; returns
    /// how many bytes (at most 20). Public for the server's log lines (`LogLine`).
    @inline(__always)
    public static func writeInt(_ v: Int, _ p: UnsafeMutablePointer<UInt8>) -> Int {
        var i = 0
        if v < 0 { p[0] = UInt8(ascii: "-"); i = 1 }
        return i + writeDigits(v.magnitude, p + i)
    }

    /// The decimal digits of `v` at `p`; returns how many. Under 10^4 by `smallDigits`; else counted,
    /// then written two at a time from a table (a division by 10 a digit cost ten instructions a digit).
    @inline(__always)
    static func writeDigits(_ v: UInt, _ p: UnsafeMutablePointer<UInt8>) -> Int {
        if v < 10_000 { return smallDigits(Int(truncatingIfNeeded: v), p) }
        var n = 5, t = v / 100_000
        while t > 0 { t /= 10; n += 1 }
        let pairs = digitPairs.utf8Start
        var x = v
        var k = n
        while x >= 100 {
            let q = x / 100
            let r = Int(truncatingIfNeeded: x &- q &* 100) &* 2
            k &-= 2
            p[k] = pairs[r]; p[k &+ 1] = pairs[r &+ 1]
            x = q
        }
        if x >= 10 {
            let r = Int(truncatingIfNeeded: x) &* 2
            p[0] = pairs[r]; p[1] = pairs[r &+ 1]
        } else {
            p[0] = UInt8(truncatingIfNeeded: x) &+ 0x30
        }
        return n
    }

    /// The digits of `v` (0 ≤ v < 10^4) at `p`: `writeDigits`'s bytes, not counted first, no loop.
    @inline(__always)
    static func smallDigits(_ v: Int, _ p: UnsafeMutablePointer<UInt8>) -> Int {
        let pairs = digitPairs.utf8Start, hi = v / 100, lo = (v &- hi &* 100) &* 2
        if v < 10 { p[0] = UInt8(truncatingIfNeeded: v) &+ 0x30; return 1 }
        if v < 100 { p[0] = pairs[lo]; p[1] = pairs[lo &+ 1]; return 2 }
        if hi < 10 { p[0] = UInt8(truncatingIfNeeded: hi) &+ 0x30; p[1] = pairs[lo]; p[2] = pairs[lo &+ 1]; return 3 }
        p[0] = pairs[hi &* 2]; p[1] = pairs[hi &* 2 &+ 1]; p[2] = pairs[lo]; p[3] = pairs[lo &+ 1]
        return 4
    }

    /// "00" "01" … "99": two digits at a time (a literal: no lazy global to check).
    static var digitPairs: StaticString { "00010203040506070809101112131415161718192021222324252627282930313233343536373839404142434445464748495051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899" }

    /// Integral values under 10^15 print as integers (`56`, not `56.0`); others are rounded to
    /// four decimals and printed in their shortest form; `-0` prints `0`; non-finite values
    /// (which validation never lets in) print `0`.
    public mutating func number(_ x: Double) { pieces(bound: PieceBound.number) { $0.number(x) } }

    /// The text `description` gives a value `numberText` leaves to it (at most 24 bytes). Past
    /// about 1.8e304 the rounding to four decimals overflows to infinity, which JSON cannot say:
    /// such a value is written as it is (it has no decimals to round).
    @inline(never)
    static func rareNumber(_ x: Double, _ p: UnsafeMutablePointer<UInt8>) -> Int {
        let rounded = (x * 10_000).rounded() / 10_000
        let text = (rounded.isFinite ? rounded : x).description
        var i = 0
        for c in text.utf8 { p[i] = c; i += 1 }
        return i
    }

    /// Copies `n` bytes (a name, a literal: a few to a few dozen), eight at a time: a loop of
    /// single bytes cost six instructions a byte, a call of memcpy more than the copy.
    @inline(__always)
    static func copy(_ from: UnsafePointer<UInt8>, _ n: Int, to: UnsafeMutablePointer<UInt8>) {
        let src = UnsafeRawPointer(from), dst = UnsafeMutableRawPointer(to)
        var j = 0
        while j &+ 8 <= n {
            dst.storeBytes(of: src.loadUnaligned(fromByteOffset: j, as: UInt64.self), toByteOffset: j, as: UInt64.self)
            j &+= 8
        }
        while j < n {
            dst.storeBytes(of: src.load(fromByteOffset: j, as: UInt8.self), toByteOffset: j, as: UInt8.self)
            j &+= 1
        }
    }

    /// The number's text at `p` (at most 24 bytes), `rareNumber`'s for a value whose shortest text
    /// needs `description` (four decimals past 10^11). Out of line: `ByteCursor.number` writes
    /// small whole numbers itself and calls this for the rest.
    @inline(never)
    static func numberText(_ x: Double, _ p: UnsafeMutablePointer<UInt8>) -> Int {
        guard x.isFinite else { p[0] = 0x30; return 1 }
        // Integrality tested through Int (exact under 10^15), not `rounded()` (a libm call).
        if abs(x) < 1e15, Double(Int(x)) == x { return writeInt(Int(x), p) }
        let t = x * 10_000
        guard abs(t) < 1e15 else { let r = t.rounded() / 10_000; return abs(r) < 1e15 && Double(Int(r)) == r ? writeInt(Int(r), p) : rareNumber(x, p) }
        // t rounded half away from zero, as `rounded()` (a libm call) does: by its whole part and
        // its fraction (exact under 2^52); m / 10^4 is integral only when 10^4 divides m.
        var m = Int(t)
        let f = t - Double(m)
        if f >= 0.5 { m &+= 1 } else if f <= -0.5 { m &-= 1 }
        if m % 10_000 == 0 { return writeInt(m / 10_000, p) }
        // The double nearest to m / 10^4 has at most 15 significant digits: that decimal (trailing
        // zeros dropped) is the shortest text that reads back as it, `description`'s, without a String.
        var i = 0
        if m < 0 { p[0] = UInt8(ascii: "-"); i = 1; m = -m }
        i += writeDigits(UInt(m / 10_000), p + i)
        // The four decimals as two pairs; not all zeros (10^4 would divide m): the trailing are dropped.
        let frac = m % 10_000, pairs = digitPairs.utf8Start, hi = frac / 100 &* 2, lo = frac % 100 &* 2
        p[i] = UInt8(ascii: "."); p[i + 1] = pairs[hi]; p[i + 2] = pairs[hi + 1]; p[i + 3] = pairs[lo]; p[i + 4] = pairs[lo + 1]
        var digits = 4
        while p[i + digits] == 0x30 { digits -= 1 }
        return i + 1 + digits
    }

    /// Writes through a cursor, in one piece, what `body` writes: at most `bound` bytes, as one
    /// value (or as members: `body` starts with a name) of the open container, after the
    /// separator the container needs (none with `separated: false`: `body` writes its own). The
    /// fast encoders (a frame's cells, its snapshots) write this way: one check for room and one
    /// access to the buffer for the lot.
    /// What it wrote is checked against the bound in every build (`write`'s `precondition`):
    /// a bound worked out too small stops the process at the piece that overran it, in a
    /// release build too. Checking each write instead cost about a tenth of the encoder's
    /// instructions (`reorder`, 5,101 -> 5,662 Ir a message in `Wire.encode`).
    @inline(__always)
    mutating func pieces(bound: Int, separated: Bool = true, _ body: (inout ByteCursor) -> Void) {
        let comma = needsComma() && separated
        write(bound &+ 1) { p in
            var c = ByteCursor(p)
            if comma { c.byte(UInt8(ascii: ",")) }
            body(&c)
            return p.distance(to: c.p)
        }
    }

    // MARK: Whole members
    //
    // A member's name and its value in one piece: what the frame encoder writes most. `name` is
    // written verbatim (`"name":`, quotes and colon included, or several members' worth of
    // fixed text ending with a name); the separator before it is the writer's, as for `key`.

    mutating func member(_ name: StaticString, _ x: Double) {
        pieces(bound: ByteCursor.bound(name) &+ PieceBound.number) { o in o.put(name); o.number(x) }
    }

    /// A member whose value (an object or an array) is written next, piece by piece.
    mutating func member(_ name: StaticString) {
        pieces(bound: ByteCursor.bound(name)) { $0.put(name) }
        afterKey = true
    }

    /// Bytes written verbatim, outside the writer's bookkeeping: a container's close, or the
    /// `}` of an object that a member's name opened (`"center":{"x":`).
    mutating func raw(_ text: StaticString) {
        write(ByteCursor.bound(text)) { p in
            var c = ByteCursor(p)
            c.put(text)
            return p.distance(to: c.p)
        }
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
        case .array(let a): array(a) { x, w in w.value(x) }
        case .object(let members):
            beginObject()
            for (k, x) in members { dynamicKey(k); value(x) }
            endObject()
        }
    }
}
