import Testing
@testable import LiftboardCore
@testable import LiftboardWire

/// A frame's head, its inline gesture events, its cells and its snapshots are written through a
/// cursor (`JSONWriter.pieces`), not member by member: for random frames with awkward numbers and
/// texts, the bytes must be exactly those of the general writer's piece-by-piece form, written
/// here from the contract's member order (contract §3.2), and must parse back as JSON.
struct FastFrameEncodingTests {
    /// Numbers the engine and clients produce, and the ones that test the writer's edges.
    static let awkward: [Double] = [0, -0.0, 1, -1, 0.5, -0.5, 250, 0.0001, -0.0001, 0.00005, 0.00004999, 1.05, 0.0873, 0.8,
                                    123.4567, 99999.99995, 9.99995, -9.99995, 1e11, 123456789012.5, 999999999999999, 1e15,
                                    -1e15, 1e16, 1.5e20, -1.5e20, 1e300, 2.5e-7, 1e-300, .leastNonzeroMagnitude, 1234.56789, 0.1 + 0.2,
                                    -7.25, 9, 10, 99, 100, 999, 1000, 9999, 10_000, 99_999, 100_000, 4_294_967_296,
                                    Double(Int.max), .greatestFiniteMagnitude, .infinity, -.infinity, .nan]

    static let texts: [String] = ["", "a", "r12", "Row 12", "todo", "#4285f4", "a \"quoted\" label", "back\\slash",
                                  "line\nbreak\ttab\r\u{1}\u{1f}", "café ☕︎", "\u{7f}del", String(repeating: "long label ", count: 12),
                                  "\"" + String(repeating: "x", count: 40), "/media/a.png"]

    struct Gen {
        var rng: SplitMix64
        mutating func int(_ n: Int) -> Int { Int(rng.next() % UInt64(n)) }
        mutating func chance(_ k: Int = 2) -> Bool { int(k) == 0 }
        mutating func number() -> Double {
            switch int(4) {
            case 0: return FastFrameEncodingTests.awkward[int(FastFrameEncodingTests.awkward.count)]
            case 1: return Double(int(2001) - 1000)
            case 2: return Double(int(2_000_000) - 1_000_000) / 100_000
            default:
                let scale = [1.0, 10, 1000, 1e6, 1e9, 1e12, 1e14][int(7)]
                return (Double(rng.next() >> 11) / Double(1 << 53) - 0.5) * scale
            }
        }
        mutating func integer() -> Int { [0, 1, -1, 9, 10, 99, 100, 12345, -98765, Int.max, Int.min, int(1000)][int(12)] }
        mutating func text() -> String { FastFrameEncodingTests.texts[int(FastFrameEncodingTests.texts.count)] }
        mutating func ease() -> Ease { [.linear, .easeOut, .easeInOut][int(3)] }
        mutating func place() -> Place { Place(section: text(), index: integer()) }

        mutating func card() -> Card {
            guard chance() else { return Card() }
            var c = Card(detail: chance() ? text() : nil, image: chance() ? text() : nil, badge: chance() ? text() : nil,
                         accent: chance() ? text() : nil)
            for _ in 0..<int(4) { c.tags.append(Tag(text: text(), color: chance() ? text() : "")) }
            return c
        }

        mutating func cell() -> CellUpdate {
            var c = CellUpdate(id: text(), frame: Rect(x: number(), y: number(), w: number(), h: number()), alpha: number(),
                               hidden: chance(), dur: number(), ease: ease())
            c.appear = chance(4)
            if chance(3) { c.selected = chance() }
            if chance() {
                c.info = CellInfo(id: c.id, label: text(), color: text(), section: text(), index: integer(), movable: chance(),
                                  frame: c.frame, handle: chance(3) ? (chance() ? .leading : .trailing) : nil, card: card())
            }
            return c
        }

        mutating func snapshot() -> SnapshotUpdate {
            SnapshotUpdate(p: integer(), id: text(), center: chance() ? Point(x: number(), y: number()) : nil,
                           size: chance() ? Size(w: number(), h: number()) : nil, moveDur: chance() ? number() : nil,
                           scale: chance() ? number() : nil, rotation: chance() ? number() : nil, alpha: chance() ? number() : nil,
                           dur: chance() ? number() : nil, ease: chance() ? ease() : nil, done: chance(),
                           count: chance(3) ? integer() : nil, forbidden: chance(3) ? chance() : nil)
        }

        mutating func event() -> ServerEvent {
            switch int(4) {
            case 0: return .lift(p: integer(), id: text(), from: place(),
                                 follow: chance() ? Follow(grab: Point(x: number(), y: number()), lockX: chance()) : nil, added: chance())
            case 1: return .moved(p: integer(), id: text(), from: place(), to: place())
            case 2: return .drop(p: integer(), id: text(), at: place(), cancelled: chance())
            default: return .announce(text())
            }
        }

        mutating func frame() -> FrameMessage {
            var f = FrameMessage(seq: integer(), ms: number(), ack: chance() ? integer() : nil)
            if chance(3) { f.events = (0..<(1 + int(3))).map { _ in event() } }
            if chance(4) { f.scroll = Point(x: number(), y: number()) }
            if chance(4) { f.scrollDur = number() }
            if chance(4) { f.content = Size(w: number(), h: number()) }
            f.cells = (0..<int(5)).map { _ in cell() }
            if chance(4) { f.gone = [text(), text()] }
            f.snapshots = (0..<int(3)).map { _ in snapshot() }
            if chance(4) { f.focus = text() }
            return f
        }
    }

    @Test func theCursorWritesTheBytesOfThePieceByPieceForm() throws {
        var gen = Gen(rng: SplitMix64(seed: 28))
        for n in 0..<3_000 {
            let f = gen.frame()
            let fast = Wire.encode(.frame(f))
            let reference = Self.reference(f)
            #expect(fast == reference, "frame \(n): \(String(decoding: fast, as: UTF8.self)) != \(String(decoding: reference, as: UTF8.self))")
            if fast != reference { return }
            try parses(fast)
        }
    }

    /// Many cells, the longest numbers and texts escaped whole: the room made ahead covers the
    /// worst case (`JSONWriter.pieces` asserts it in debug builds, as the tests run).
    @Test func framesOfManyCellsWithEveryTextEscapedFitTheirRoom() throws {
        var gen = Gen(rng: SplitMix64(seed: 7))
        let worst = String(repeating: "\u{1}", count: 300)
        // The longest numbers: 23 bytes (`-1.2345678901234568e+16`), and integers of 20.
        let x = -1.2345678901234567e16
        #expect(String(decoding: Wire.encode(.pong(id: .int(0), ms: x)), as: UTF8.self).hasSuffix(#""ms":-1.2345678901234568e+16}"#))
        var f = FrameMessage(seq: Int.min, ms: x, ack: Int.min)
        for _ in 0..<400 {
            var c = gen.cell()
            c.id = worst
            c.frame = Rect(x: x, y: x, w: x, h: x)
            c.alpha = x
            c.dur = x
            c.ease = .easeInOut
            c.hidden = false
            c.appear = true
            c.selected = false
            c.info = CellInfo(id: worst, label: worst, color: worst, section: worst, index: Int.min, movable: true, frame: c.frame,
                              handle: .trailing, card: Card(detail: worst, image: worst, badge: worst,
                                                            tags: Array(repeating: Tag(text: worst, color: worst), count: 5), accent: worst))
            f.cells.append(c)
        }
        f.snapshots = [SnapshotUpdate(p: Int.min, id: worst, center: Point(x: x, y: x), size: Size(w: x, h: x),
                                      moveDur: x, scale: x, rotation: x, alpha: x, dur: x, ease: .easeInOut,
                                      done: false, count: Int.min, forbidden: false)]
        f.events = [.lift(p: Int.min, id: worst, from: Place(section: worst, index: Int.min), follow: Follow(grab: Point(x: x, y: x), lockX: false), added: true),
                    .moved(p: Int.min, id: worst, from: Place(section: worst, index: Int.min), to: Place(section: worst, index: Int.min)),
                    .drop(p: Int.min, id: worst, at: Place(section: worst, index: Int.min), cancelled: false)]
        let fast = Wire.encode(.frame(f))
        #expect(fast == Self.reference(f))
        try parses(fast)
    }

    /// Parses as JSON, unless a value past 1.7e304 is in it: times 10^4 it overflows and both
    /// forms print `inf` (as before the cursor; validation refuses only non-finite input).
    func parses(_ bytes: [UInt8]) throws {
        guard !String(decoding: bytes, as: UTF8.self).contains("inf") else { return }
        _ = try JSONParser.parse(bytes)
    }

    // The reference: the general writer, one key and one value at a time.

    static func reference(_ f: FrameMessage) -> [UInt8] {
        var w = JSONWriter()
        w.beginObject()
        w.key("t"); w.literal("frame")
        w.key("seq"); w.int(f.seq)
        w.key("ms"); w.number(f.ms)
        if let ack = f.ack { w.key("ack"); w.int(ack) }
        if !f.events.isEmpty {
            w.key("events"); w.beginArray()
            for e in f.events { event(e, &w) }
            w.endArray()
        }
        if let s = f.scroll { w.key("scroll"); point(s, &w) }
        if let d = f.scrollDur { w.key("scrollDur"); w.number(d) }
        if let c = f.content { w.key("content"); w.beginObject(); w.key("w"); w.number(c.w); w.key("h"); w.number(c.h); w.endObject() }
        if !f.cells.isEmpty {
            w.key("cells"); w.beginArray()
            for c in f.cells { cell(c, &w) }
            w.endArray()
        }
        if !f.gone.isEmpty { w.key("gone"); w.beginArray(); for g in f.gone { w.string(g) }; w.endArray() }
        if !f.snapshots.isEmpty {
            w.key("snapshots"); w.beginArray()
            for s in f.snapshots { snapshot(s, &w) }
            w.endArray()
        }
        if let focus = f.focus { w.key("focus"); w.string(focus) }
        w.endObject()
        return w.bytes
    }

    static func point(_ p: Point, _ w: inout JSONWriter) {
        w.beginObject(); w.key("x"); w.number(p.x); w.key("y"); w.number(p.y); w.endObject()
    }

    static func place(_ p: Place, _ w: inout JSONWriter) {
        w.beginObject(); w.key("section"); w.string(p.section); w.key("index"); w.int(p.index); w.endObject()
    }

    static func event(_ e: ServerEvent, _ w: inout JSONWriter) {
        w.beginObject()
        switch e {
        case .lift(let p, let id, let from, let follow, let added):
            w.key("t"); w.literal("lift"); w.key("p"); w.int(p); w.key("id"); w.string(id); w.key("from"); place(from, &w)
            if let follow { w.key("grab"); point(follow.grab, &w); w.key("axis"); w.literal(follow.lockX ? "y" : "xy") }
            if added { w.key("added"); w.bool(true) }
        case .moved(let p, let id, let from, let to):
            w.key("t"); w.literal("moved"); w.key("p"); w.int(p); w.key("id"); w.string(id)
            w.key("from"); place(from, &w); w.key("to"); place(to, &w)
        case .drop(let p, let id, let at, let cancelled):
            w.key("t"); w.literal("drop"); w.key("p"); w.int(p); w.key("id"); w.string(id)
            w.key("at"); place(at, &w); w.key("cancelled"); w.bool(cancelled)
        case .announce(let text):
            w.key("t"); w.literal("announce"); w.key("text"); w.string(text)
        default:
            Issue.record("no reference for \(e)")
        }
        w.endObject()
    }

    static func ease(_ e: Ease) -> String { e.rawValue }

    static func cell(_ c: CellUpdate, _ w: inout JSONWriter) {
        w.beginObject()
        w.key("id"); w.string(c.id)
        w.key("frame"); w.beginObject()
        w.key("x"); w.number(c.frame.x); w.key("y"); w.number(c.frame.y); w.key("w"); w.number(c.frame.w); w.key("h"); w.number(c.frame.h)
        w.endObject()
        w.key("alpha"); w.number(c.alpha)
        w.key("hidden"); w.bool(c.hidden)
        w.key("dur"); w.number(c.dur)
        w.key("ease"); w.string(ease(c.ease))
        if c.appear { w.key("appear"); w.bool(true) }
        if let s = c.selected { w.key("selected"); w.bool(s) }
        if let i = c.info {
            w.key("label"); w.string(i.label)
            w.key("color"); w.string(i.color)
            w.key("section"); w.string(i.section)
            w.key("index"); w.int(i.index)
            w.key("movable"); w.bool(i.movable)
            if let h = i.handle { w.key("handle"); w.string(h.rawValue) }
            if let v = i.card.detail { w.key("detail"); w.string(v) }
            if let v = i.card.image { w.key("image"); w.string(v) }
            if let v = i.card.badge { w.key("badge"); w.string(v) }
            if !i.card.tags.isEmpty {
                w.key("tags"); w.beginArray()
                for t in i.card.tags {
                    w.beginObject(); w.key("text"); w.string(t.text)
                    if !t.color.isEmpty { w.key("color"); w.string(t.color) }
                    w.endObject()
                }
                w.endArray()
            }
            if let v = i.card.accent { w.key("accent"); w.string(v) }
        }
        w.endObject()
    }

    static func snapshot(_ s: SnapshotUpdate, _ w: inout JSONWriter) {
        w.beginObject()
        w.key("p"); w.int(s.p)
        w.key("id"); w.string(s.id)
        if let c = s.center { w.key("center"); point(c, &w) }
        if let z = s.size { w.key("size"); w.beginObject(); w.key("w"); w.number(z.w); w.key("h"); w.number(z.h); w.endObject() }
        if let v = s.moveDur { w.key("moveDur"); w.number(v) }
        if let v = s.scale { w.key("scale"); w.number(v) }
        if let v = s.rotation { w.key("rotation"); w.number(v) }
        if let v = s.alpha { w.key("alpha"); w.number(v) }
        if let v = s.dur { w.key("dur"); w.number(v) }
        if let v = s.ease { w.key("ease"); w.string(ease(v)) }
        if let v = s.count { w.key("count"); w.int(v) }
        if let v = s.forbidden { w.key("forbidden"); w.bool(v) }
        w.key("done"); w.bool(s.done)
        w.endObject()
    }
}
