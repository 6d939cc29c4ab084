import Testing
@testable import LiftboardWire
import LiftboardCore

/// The writer writes through a pointer into room it makes ahead: what it hands over must be
/// exactly the bytes written, whatever the sizes.
struct JSONWriterBufferTests {
    @Test func outputLongerThanTheRoomMadeAtOnceIsWrittenWhole() throws {
        let long = String(repeating: "0123456789", count: 120)
        let escaped = String(repeating: "\"\n", count: 400)
        var w = JSONWriter()
        w.beginArray()
        for k in 0..<300 { w.int(k); w.number(Double(k) + 0.25) }
        w.string(long); w.string(escaped)
        w.endArray()
        let back = try JSONParser.parse(w.bytes)
        guard case .array(let a) = back else { Issue.record("not an array"); return }
        #expect(a.count == 602)
        #expect(a[599] == .number(299.25))
        #expect(a[600] == .string(long) && a[601] == .string(escaped))
    }

    @Test func encodingIntoABufferKeepsWhatItHeldAndAppendsTheMessage() {
        var out: [UInt8] = Array(repeating: 7, count: 16)
        Wire.encode(.announce("hello"), into: &out)
        #expect(Array(out.prefix(16)) == Array(repeating: 7, count: 16))
        #expect(String(decoding: out.dropFirst(16), as: UTF8.self) == #"{"t":"announce","text":"hello"}"#)
        out.removeSubrange(16...)
        Wire.encode(.pong(id: .int(3), ms: 1.5), into: &out)
        #expect(String(decoding: out.dropFirst(16), as: UTF8.self) == #"{"t":"pong","id":3,"ms":1.5}"#)
    }

    @Test func encodingOverABufferWritesTheSameBytesWhateverItsRoomHeld() {
        // The server's send buffer: messages one after another from the same start, each over
        // what the ones before left past its end (longer and shorter ones, and stray bytes).
        var g = FastFrameEncodingTests.Gen(rng: SplitMix64(seed: 28))
        var buffer: [UInt8] = Array(repeating: 0xFF, count: 16 + 3000)
        for k in 0..<200 {
            let e: ServerEvent = k % 3 == 0 ? .announce(String(repeating: "x", count: k * 7)) : .frame(g.frame())
            let end = Wire.encode(e, over: &buffer, from: 16)
            #expect(Array(buffer[16..<end]) == Wire.encode(e), "message \(k)")
            #expect(Array(buffer.prefix(16)) == Array(repeating: 0xFF, count: 16), "the headroom is left alone")
            #expect(end <= buffer.count)
        }
    }

    /// A commit's order, written a section in one piece, is the bytes the writer's member by
    /// member calls make, for texts that need escaping too, and sections with no items.
    @Test func anOrderWrittenInPiecesIsTheOrderWrittenMemberByMember() {
        var g = FastFrameEncodingTests.Gen(rng: SplitMix64(seed: 29))
        for _ in 0..<300 {
            let order = (0..<g.int(4)).map { _ in SectionOrder(section: g.text(), items: (0..<g.int(6)).map { _ in g.text() }) }
            var fast = JSONWriter()
            fast.beginObject(); fast.key("order"); Wire.order(order, &fast); fast.endObject()
            var plain = JSONWriter()
            plain.beginObject(); plain.key("order"); plain.beginArray()
            for s in order {
                plain.beginObject()
                plain.key("section"); plain.string(s.section)
                plain.key("items"); plain.beginArray()
                for i in s.items { plain.string(i) }
                plain.endArray()
                plain.endObject()
            }
            plain.endArray(); plain.endObject()
            #expect(fast.bytes == plain.bytes)
        }
    }

    @Test func containersNestedDeeperThanSixtyFourStillSeparateTheirValues() throws {
        var w = JSONWriter()
        for _ in 0..<70 { w.beginArray() }
        w.int(1); w.int(2)
        for _ in 0..<70 { w.endArray() }
        let text = String(decoding: w.bytes, as: UTF8.self)
        #expect(text == String(repeating: "[", count: 70) + "1,2" + String(repeating: "]", count: 70))
    }

    @Test func aCopyOfAWriterWritesOnItsOwn() {
        var a = JSONWriter()
        a.beginArray(); a.int(1)
        var b = a
        b.int(2); b.endArray()
        a.int(3); a.endArray()
        #expect(String(decoding: a.bytes, as: UTF8.self) == "[1,3]")
        #expect(String(decoding: b.bytes, as: UTF8.self) == "[1,2]")
    }
}
