import LiftboardWire

/// The bytes of one log line, written piece by piece into memory kept from one line to the
/// next: a piece is one capacity check and one copy. Appending a piece to a `[UInt8]` cost 130
/// to 200 instructions (its uniqueness and capacity checks, a generic copy of the UTF-8 view),
/// and the commit's line, written for every commit at the default level, has about twenty.
final class LogLine {
    private var base: UnsafeMutableRawPointer
    private var capacity: Int
    private(set) var count = 0
    /// What a line starts with; memory grown past `keep` by a long line is given back when the
    /// next line starts.
    private static let initial = 256
    private static let keep = 4_096

    init() {
        capacity = Self.initial
        base = .allocate(byteCount: capacity, alignment: 1)
    }

    deinit { base.deallocate() }

    /// The line's bytes, valid until the next change.
    var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: base, count: count) }
    var text: String { String(decoding: bytes, as: UTF8.self) }

    /// Starts a new line.
    func removeAll() {
        count = 0
        if capacity > Self.keep {
            base.deallocate()
            capacity = Self.initial
            base = .allocate(byteCount: capacity, alignment: 1)
        }
    }

    func append(_ piece: UnsafeRawBufferPointer) {
        guard let source = piece.baseAddress, piece.count > 0 else { return }
        reserve(piece.count)
        (base + count).copyMemory(from: source, byteCount: piece.count)
        count += piece.count
    }

    func append(_ s: String) {
        var s = s
        s.withUTF8 { append(UnsafeRawBufferPointer($0)) }
    }

    func append(_ s: StaticString) {
        s.withUTF8Buffer { append(UnsafeRawBufferPointer($0)) }
    }

    func append(byte: UInt8) {
        reserve(1)
        base.storeBytes(of: byte, toByteOffset: count, as: UInt8.self)
        count += 1
    }

    /// `n` in decimal, as `String(n)` writes it (the JSON encoder's digits).
    func appendDecimal(_ n: Int) {
        reserve(20)
        count += JSONWriter.writeInt(n, (base + count).assumingMemoryBound(to: UInt8.self))
    }

    private func reserve(_ more: Int) {
        guard count + more > capacity else { return }
        let grown = max(count + more, 2 * capacity)
        let next = UnsafeMutableRawPointer.allocate(byteCount: grown, alignment: 1)
        next.copyMemory(from: base, byteCount: count)
        base.deallocate()
        base = next
        capacity = grown
    }
}
