import Testing
import LiftboardCore
@testable import LiftboardWire

/// The `move` fast path must read exactly what the general decoder reads, and step aside
/// (return nil) for everything else.
struct FastMoveTests {
    func fast(_ s: String) -> ClientMessage? {
        Array(s.utf8).withUnsafeBytes { Wire.fastMove($0) }
    }

    /// The server's reading of a move (`Wire.pointer`), or nil.
    static func move(_ bytes: UnsafeRawBufferPointer) -> Wire.PointerMove? {
        if case .move(let m)? = Wire.pointer(bytes) { return m }
        return nil
    }

    /// `Wire.pointer`'s answer as the `ClientMessage` it stands for.
    static func message(_ r: Wire.Pointer?) -> ClientMessage? {
        switch r {
        case .move(let m)?: ClientMessage(event: .move(pointer: m.pointer, at: m.at), seq: m.seq, ms: m.ms)
        case .other(let m)?: m
        case nil: nil
        }
    }

    func general(_ s: String) -> ClientMessage? {
        guard let v = try? JSONParser.parse(Array(s.utf8)) else { return nil }
        return try? Wire.decodeClient(v)
    }

    @Test func theMovesClientsSendTakeTheFastPathWithTheSameResult() {
        let lines = [#"{"t":"move","p":1,"x":100,"y":117.25,"seq":42,"ms":1234.567}"#,
                     #"{"t":"move","p":1,"x":100,"y":117.25,"ms":0}"#,
                     #" { "seq" : 7 , "ms" : 16.5 , "y" : -3 , "x" : 0.0001 , "p" : 0 , "t" : "move" } "#,
                     #"{"t":"move","p":2147483647,"x":-10000000,"y":10000000,"ms":10000000000000,"seq":9007199254740}"#,
                     #"{"t":"up","p":1,"x":100,"y":117.25,"seq":43,"ms":1250.5}"#, #" { "t" : "up" , "ms" : 3 , "p" : 4 , "x" : 1 , "y" : 2 } "#,
                     #"{"t":"down","p":1,"x":100,"y":117.25,"kind":"touch","seq":41,"ms":1200}"#,
                     #"{"t":"down","p":3,"x":1,"y":2,"ms":0}"#, #"{"kind":"pen","t":"down","p":3,"x":1,"y":2,"ms":0}"#]
        for l in lines {
            let m = fast(l)
            #expect(m != nil, "\(l)")
            #expect(m == general(l), "\(l)")
        }
    }

    /// What a browser sends: `performance.now()` and a touch's coordinates with their float
    /// tails (17 significant digits), read by the fast path as the general decoder reads them.
    @Test func theBrowsersLongNumbersTakeTheFastPathWithTheSameResult() {
        let lines = [#"{"t":"move","p":1,"x":50,"y":60,"seq":1,"ms":116.60000000009313}"#,
                     #"{"t":"move","p":1,"x":123.45678901234567,"y":0.30000000000000004,"seq":2,"ms":9081.100000023842}"#,
                     #"{"t":"up","p":1,"x":-0.30000000000000004,"y":1999.9999999999998,"seq":3,"ms":9097.700000047684}"#,
                     #"{"t":"down","p":7,"x":12.000000000000002,"y":3,"kind":"touch","seq":4,"ms":12345678.90123456789}"#]
        for l in lines {
            let m = fast(l)
            #expect(m != nil, "\(l)")
            #expect(m == general(l), "\(l)")
        }
        #expect(fast(lines[0])?.ms == 116.60000000009313)
    }

    /// A trackpad's scroll: the page's `wheel` (`dx`, `dy`, the pointer's `x` and `y`, `seq`,
    /// `ms`), and one without its place.
    @Test func wheelsTakeTheFastPathWithTheSameResult() {
        let lines = [#"{"t":"wheel","dx":0,"dy":-12.5,"x":120.25,"y":330,"seq":9,"ms":1234.567}"#,
                     #"{"t":"wheel","dx":3,"dy":4,"ms":0}"#, #" { "ms" : 5 , "dy" : 1 , "dx" : -1 , "t" : "wheel" } "#]
        for l in lines {
            let m = fast(l)
            #expect(m != nil, "\(l)")
            #expect(m == general(l), "\(l)")
        }
        let odd = [#"{"t":"wheel","dx":0,"dy":1,"x":3,"ms":0}"#, #"{"t":"wheel","dx":0,"dy":1,"p":1,"ms":0}"#,
                   #"{"t":"wheel","dy":1,"ms":0}"#, #"{"t":"wheel","dx":0,"dy":1,"ms":0,"kind":"mouse"}"#,
                   #"{"t":"move","p":1,"x":1,"y":2,"dx":0,"ms":0}"#, #"{"t":"wheel","dx":0,"dy":20000000,"ms":0}"#]
        for l in odd { #expect(fast(l) == nil, "\(l)") }
    }

    /// The server's `Wire.pointer` holds to the message size limit as `decodeClient` does: a move in
    /// the page's form made huge by a number's digits is left to it, which refuses it.
    @Test func aPageMoveOverTheSizeLimitIsLeftToTheGeneralDecoder() {
        let huge = #"{"t":"move","p":1,"x":1."# + String(repeating: "0", count: Wire.maxMessageBytes) + #","y":2,"seq":3,"ms":4}"#
        let bytes = Array(huge.utf8)
        #expect(bytes.withUnsafeBytes { Self.move($0) } == nil)
        guard case .failure(let e) = bytes.withUnsafeBytes({ Wire.decodeClient($0) }) else {
            Issue.record("a message over the limit was read")
            return
        }
        #expect(e.code == .tooLarge)
        let usual = Array(#"{"t":"move","p":1,"x":1.5,"y":2,"seq":3,"ms":4}"#.utf8)
        #expect(usual.withUnsafeBytes { Self.move($0) } == Wire.PointerMove(pointer: 1, at: Point(x: 1.5, y: 2), seq: 3, ms: 4))
    }

    /// The server's `Wire.pointer` is the one reading's: a move in any form it reads (spaces, its
    /// members in any order, without `seq`) reaches the engine as the page's form does; an
    /// `up`, a `down` or a `wheel` is not a move, and comes as `decodeClient` reads it; a
    /// message that does not end in its object's `}` (the reading's sentinel) is not read.
    @Test func theServersMoveTakesEveryMoveTheReadingTakesAndNothingElse() {
        let moves = [#"{"t":"move","p":1,"x":1.5,"y":2,"seq":3,"ms":4}"#, #" { "ms" : 4 , "seq" : 3 , "y" : 2 , "x" : 1.5 , "p" : 1 , "t" : "move" } "#,
                     #"{"p":1,"t":"move","x":1.5,"y":2,"ms":4,"seq":3}"#]
        for l in moves {
            #expect(Array(l.utf8).withUnsafeBytes { Self.move($0) } == Wire.PointerMove(pointer: 1, at: Point(x: 1.5, y: 2), seq: 3, ms: 4), "\(l)")
        }
        let others = [#"{"t":"up","p":1,"x":1.5,"y":2,"seq":3,"ms":4}"#, #"{"t":"down","p":1,"x":1.5,"y":2,"ms":4}"#,
                      #"{"t":"wheel","dx":0,"dy":1,"ms":4}"#, #"{"t":"move","p":1,"x":1e3,"y":2,"ms":4}"#]
        for l in others { #expect(Array(l.utf8).withUnsafeBytes { Self.move($0) } == nil, "\(l)") }
        // The server's reading gives the others as `decodeClient` does, from the one reading.
        for l in others.dropLast() {
            let r = Array(l.utf8).withUnsafeBytes { Wire.pointer($0) }
            guard case .other(let m)? = r else { Issue.record("\(l): \(String(describing: r))"); continue }
            #expect(m == general(l), "\(l)")
        }
        let unread = [#"{"t":"move","p":1,"x":1e3,"y":2,"ms":4}"#, #"{"t":"move","p":1,"x":1.5,"y":2,"ms":4"#,
                      #"{"t":"move","p":1,"x":1.5,"y":2,"ms":4}}"#, #"{"t":"move","p":1,"x":1.5,"y":2,"ms":}"#,
                      #"{"t":"move","p":1,"x":1.5,"y":2,"ms":4} x"#, "}", " } ", #"{"t":"}"#, #"{"}"#, #"{"d}"#]
        for l in unread { #expect(Array(l.utf8).withUnsafeBytes { Wire.pointer($0) } == nil, "\(l)") }
    }

    @Test func anythingUnusualGoesTheGeneralWay() {
        let lines = [#"{"t":"wheel","dx":0,"dy":1}"#, #"{"t":"move","p":1,"x":1,"y":2}"#, #"{"t":"up","p":1,"x":1,"y":2}"#,
                     #"{"t":"upp","p":1,"x":1,"y":2,"ms":0}"#, #"{"t":"u","p":1,"x":1,"y":2,"ms":0}"#,
                     #"{"t":"down","p":1,"x":1,"y":2,"ms":0,"mods":["shift"]}"#, #"{"t":"down","p":1,"x":1,"y":2,"ms":0,"button":2}"#,
                     #"{"t":"down","p":1,"x":1,"y":2,"ms":0,"kind":"finger"}"#, #"{"t":"move","p":1,"x":1,"y":2,"ms":0,"kind":"touch"}"#,
                     #"{"t":"move","p":1.5,"x":1,"y":2,"ms":0}"#, #"{"t":"move","p":-1,"x":1,"y":2,"ms":0}"#,
                     #"{"t":"move","p":1,"x":1e3,"y":2,"ms":0}"#, #"{"t":"move","p":1,"x":01,"y":2,"ms":0}"#,
                     #"{"t":"move","p":1,"x":1,"y":2,"ms":0,"extra":true}"#, #"{"t":"mov\u0065","p":1,"x":1,"y":2,"ms":0}"#,
                     #"{"t":"move","p":1,"x":1,"y":20000000,"ms":0}"#, #"{"t":"move","p":1,"x":1,"y":2,"ms":-1}"#,
                     #"{"t":"move","p":1,"x":1,"y":2,"ms":0,"seq":1.5}"#, #"{"t":"move","p":1,"x":1,"y":2,"ms":0}x"#,
                     #"{"t":"move","p":1,"x":1,"y":2,"ms":0"#, #"{"t":"move","p":1,"x":1,"y":1234567890.1234567,"ms":0}"#,
                     #"{"t":"move","p":1,"x":1.,"y":2,"ms":0}"#, #"{"t":"move","p":"1","x":1,"y":2,"ms":0}"#, "[]", ""]
        for l in lines { #expect(fast(l) == nil, "\(l)") }
    }

    /// The fast path reads no byte past the message: every cut of a valid move (the scans stop
    /// at the object's closing brace, checked first) steps aside or agrees, with and without
    /// trailing spaces.
    @Test func everyCutOfAMoveStepsAsideOrAgrees() {
        let whole = #"{"t":"move","p":1,"x":100.5,"y":-117.25,"seq":42,"ms":1234.567}"#
        let bytes = Array(whole.utf8)
        for cut in 0...bytes.count {
            for tail in ["", " ", "}", "\"}"] {
                let line = String(decoding: bytes[..<cut], as: UTF8.self) + tail
                // Exactly the bytes of the line in their own allocation: a read past them is
                // an address sanitizer's error in the fuzz build.
                let m = Array(line.utf8).withUnsafeBytes { Wire.fastMove($0) }
                if let m { #expect(m == general(line), "\(line)") }
                // Without its closing brace it is no message at all.
                if cut < bytes.count, !tail.contains("}") { #expect(m == nil, "\(line)") }
            }
        }
    }

    /// Generated messages: keys shuffled, duplicated or unknown, values valid or not, numbers in
    /// many shapes. Whenever the fast path answers, the general decoder answers the same.
    @Test func onGeneratedMessagesTheFastPathNeverDisagrees() {
        var state: UInt64 = 7
        func next(_ n: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int(state >> 33) % n
        }
        let numbers = ["0", "-0", "1", "12", "-7", "3.25", "0.0001", "1e2", "2E-1", "01", "1.", "-", "123456789012345",
                       "1234567890123456", "10000000", "10000001", "-10000000.5", "9007199254740993", "2147483648", "0.5", "\"4\"", "true",
                       "116.60000000009313", "-0.30000000000000004", "9999999.999999999999", "12345678901234567890123", "0.000000000000000001"]
        var fastCount = 0
        for _ in 0..<20_000 {
            var members: [String] = []
            let keys = ["t", "p", "x", "y", "ms", "seq", "q", "kind", "dx", "dy"]
            for _ in 0..<(4 + next(5)) {
                let k = keys[next(keys.count)]
                let v = k == "t" ? ["\"move\"", "\"move\"", "\"up\"", "\"mov\"", "\"down\"", "\"wheel\""][next(6)]
                    : k == "kind" ? ["\"touch\"", "\"mouse\"", "\"pen\"", "\"finger\"", "1"][next(5)] : numbers[next(numbers.count)]
                members.append("\"\(k)\"\([":", " : "][next(2)])\(v)")
            }
            if next(2) == 0 { members = ["\"t\":\"move\"", "\"p\":1", "\"x\":2", "\"y\":3", "\"ms\":4"] + members.filter { _ in next(3) == 0 } }
            if next(4) == 0 { members = ["\"t\":\"wheel\"", "\"dx\":0", "\"dy\":-3.5", "\"ms\":4"] + members.filter { _ in next(3) == 0 } }
            let line = "{" + members.joined(separator: [",", " , "][next(2)]) + "}"
            if let m = fast(line) {
                fastCount += 1
                #expect(m == general(line), "\(line)")
            }
        }
        #expect(fastCount > 1000)
    }

    /// The page's own form (`t`, `p`, `x`, `y`, `seq`, `ms`, no spaces) is read as a template:
    /// on generated ones, and on each of them with one byte changed, removed or doubled, the
    /// fast path answers as the general decoder does, or steps aside.
    @Test func thePagesFormAndEveryOneByteEditOfItAgreeWithTheGeneralDecoder() {
        var state: UInt64 = 28
        func next(_ n: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int(state >> 33) % n
        }
        // Valid values first: most generated lines are messages; the rest are not.
        let numbers = ["0", "1", "-7", "3.25", "0.0001", "123456789012345", "116.60000000009313", "-0", "1e2", "01", "1.", "-",
                       "10000001", "2147483648", "9007199254740993"]
        func number() -> String { numbers[next(4) == 0 ? next(numbers.count) : next(8)] }
        var fastCount = 0, moveCount = 0, pressCount = 0
        for _ in 0..<800 {
            let seq = next(3) == 0 ? "" : ",\"seq\":\(number())"
            // `seq` before `ms` (the load generator's order), after it (the page's), or both.
            let (before, after) = [(seq, ""), ("", seq), (seq, ",\"seq\":\(number())")][next(3)]
            // Moves mostly; ups and downs (a down's `kind` after `y`, or none) in the same form.
            let type = ["move", "move", "up", "down"][next(4)]
            let kind = type == "down" && next(4) != 0 ? ",\"kind\":\"\(["touch", "mouse", "pen"][next(3)])\"" : ""
            let line = "{\"t\":\"\(type)\",\"p\":\(numbers[next(3)]),\"x\":\(number()),\"y\":\(number())\(kind)\(before),\"ms\":\(number())\(after)}"
            let bytes = Array(line.utf8)
            var variants = [bytes]
            for k in bytes.indices {
                var changed = bytes; changed[k] = Array("{}\",:0.9-e ".utf8)[next(11)]; variants.append(changed)
                var removed = bytes; removed.remove(at: k); variants.append(removed)
                var doubled = bytes; doubled.insert(bytes[k], at: k); variants.append(doubled)
            }
            for v in variants {
                let text = String(decoding: v, as: UTF8.self)
                let m = v.withUnsafeBytes { Wire.fastMove($0) }
                if let m {
                    fastCount += 1
                    #expect(m == general(text), "\(text)")
                }
                // The server's `Wire.pointer` answers exactly what the whole fast path
                // answers, a move as a move.
                let r = v.withUnsafeBytes { Wire.pointer($0) }
                #expect(Self.message(r) == m, "\(text)")
                switch r { case .other(let o)?: if case .up = o.event { pressCount += 1 } else if case .down = o.event { pressCount += 1 }; default: break }
                let t = v.withUnsafeBytes { Self.move($0) }
                if t != nil { moveCount += 1 }
                // The page's form alone (the server's first try) answers as the whole reading.
                if let p = v.withUnsafeBytes({ Wire.pageMove($0) }) { #expect(p == t, "\(text)") }
                let asMessage = t.map { ClientMessage(event: .move(pointer: $0.pointer, at: $0.at), seq: $0.seq, ms: $0.ms) }
                #expect(asMessage == (m.map { if case .move = $0.event { $0 } else { nil } } ?? nil), "\(text)")
            }
        }
        #expect(fastCount > 4_000)
        #expect(moveCount > 2_000)
        #expect(pressCount > 1_000)
    }

    /// The digits read eight bytes at a time: numbers of every digit count from 1 to 17, with and
    /// without a fraction, signed, with leading zeros, runs of 8 and 16 (a word's edge), in every
    /// place of the page's move (the last ones read from the message's last word): each read as
    /// `Double(String)` reads it, bit for bit, and taken or left as the general decoder does.
    @Test func everyDigitCountReadsAsDoubleReadsItsText() {
        var texts = ["0", "-0", "0.0", "-0.0", "00", "01", "-01", "0.5", "-0.0001", "1.", ".5", "-", "1.e2", "1.5e", "1.5E1", "--1", "1.2.3"]
        for n in 1...17 {
            let int = String("12345678901234567".prefix(n)), nines = String(repeating: "9", count: n)
            texts += [int, "-" + int, nines, "0." + String(repeating: "0", count: n - 1) + "7", int + ".5", "-7." + int, nines + "." + nines, "0" + int]
            for k in 1..<n { texts.append(String(int.prefix(k)) + "." + String(int.dropFirst(k))) }
        }
        var taken = 0
        for t in texts {
            let lines = [#"{"t":"move","p":1,"x":\#(t),"y":2,"seq":3,"ms":4}"#, #"{"t":"move","p":1,"x":1,"y":\#(t),"ms":4}"#,
                         #"{"t":"move","p":1,"x":1,"y":2,"seq":3,"ms":\#(t)}"#, #"{"t":"move","p":1,"x":1,"y":2,"ms":\#(t)}"#,
                         #"{"t":"move","p":1,"x":1,"y":2,"seq":\#(t),"ms":4}"#, #"{"t":"move","p":1,"x":1,"y":2,"ms":4,"seq":\#(t)}"#,
                         #"{"t":"move","p":\#(t),"x":1,"y":2,"ms":4}"#]
            for (place, line) in lines.enumerated() {
                let g = general(line), m = Array(line.utf8).withUnsafeBytes { Wire.pageMove($0) }
                if let f = fast(line) { #expect(f == g, "\(line)") }
                // `x`, `y` and `ms` are read whatever their length (an exponent goes the general way);
                // `seq` and `p` past 15 digits go the general way.
                if place < 4, !t.lowercased().contains("e") { #expect((m != nil) == (g != nil), "\(line)") }
                guard let m else { continue }
                taken += 1
                #expect(ClientMessage(event: .move(pointer: m.pointer, at: m.at), seq: m.seq, ms: m.ms) == g, "\(line)")
                let read = [m.at.x, m.at.y, m.ms, m.ms, Double(m.seq ?? -1), Double(m.seq ?? -1), Double(m.pointer)][place]
                #expect(read.bitPattern == Double(t)?.bitPattern, "\(line)")
            }
        }
        #expect(taken > 800)
    }

    /// The page's move as connection.js writes it (`seq` stamped after the event's `ms`) is taken
    /// by the page's form, the server's first try, not read twice.
    @Test func thePagesOwnMoveIsTakenByThePagesForm() {
        for line in [#"{"t":"move","p":1,"x":100,"y":117.25,"ms":1234.57,"seq":42}"#, #"{"t":"move","p":2,"x":1,"y":2,"seq":7,"ms":3}"#,
                     #"{"t":"move","p":1,"x":1,"y":2,"ms":3}"#] {
            let m = Array(line.utf8).withUnsafeBytes { Wire.pageMove($0) }
            #expect(m != nil && m.map { ClientMessage(event: .move(pointer: $0.pointer, at: $0.at), seq: $0.seq, ms: $0.ms) } == general(line), "\(line)")
        }
        let twice = #"{"t":"move","p":1,"x":1,"y":2,"seq":7,"ms":3,"seq":8}"#
        #expect(Array(twice.utf8).withUnsafeBytes { Wire.pageMove($0) } == nil, "a repeated seq goes the general way (the last counts)")
        #expect((try? Wire.decodeClient(Array(twice.utf8)).get())?.seq == 8)
    }

    /// The server decodes its receive buffer (an array) without the generic collection's
    /// dispatch: both overloads give the same answer, fast path or not, errors included.
    @Test func decodingAnArrayAnswersAsDecodingAnyCollection() {
        let lines = [#"{"t":"move","p":1,"x":100,"y":117.25,"seq":42,"ms":1234.567}"#, #"{"t":"down","p":1,"x":1,"y":2,"ms":0}"#,
                     #"{"t":"up","p":1,"x":3,"y":4,"seq":43,"ms":1250}"#,
                     #"{"t":"move","p":1,"x":1,"y":2}"#, #"{"t":"nope","ms":0}"#, "{", "", #"{"t":"ping","id":"x","ms":3}"#,
                     String(repeating: " ", count: Wire.maxMessageBytes + 1)]
        for l in lines {
            let bytes = Array(l.utf8)
            let viaArray = Wire.decodeClient(bytes)
            let viaSlice = Wire.decodeClient(bytes[...])
            #expect(viaArray == viaSlice, "\(l.prefix(80))")
            // And where the bytes lie (a whole message in lws's receive buffer).
            let viaRaw = bytes.withUnsafeBytes { Wire.decodeClient($0) }
            #expect(viaArray == viaRaw, "\(l.prefix(80))")
        }
    }
}
