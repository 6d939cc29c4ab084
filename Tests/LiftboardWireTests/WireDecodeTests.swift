import Testing
import LiftboardCore
@testable import LiftboardWire

func decode(_ s: String) -> Result<ClientMessage, WireError> { Wire.decodeClient(Array(s.utf8)) }
func code(_ s: String) -> ErrorCode? { if case .failure(let e) = decode(s) { e.code } else { nil } }
func message(_ s: String) -> String? { if case .failure(let e) = decode(s) { e.message } else { nil } }

@Suite struct WireDecodeTests {
    @Test func everyClientMessageTypeDecodes() throws {
        let cases: [(String, ClientEvent)] = [
            (#"{"t":"down","p":3,"x":1.5,"y":-2,"ms":10,"kind":"pen"}"#, .down(pointer: 3, at: Point(x: 1.5, y: -2), kind: .pen)),
            (#"{"t":"down","p":3,"x":1,"y":2,"ms":10}"#, .down(pointer: 3, at: Point(x: 1, y: 2), kind: nil)),
            (#"{"t":"move","p":0,"x":1,"y":2,"ms":10}"#, .move(pointer: 0, at: Point(x: 1, y: 2))),
            (#"{"t":"up","p":0,"x":1,"y":2,"ms":10}"#, .up(pointer: 0, at: Point(x: 1, y: 2))),
            (#"{"t":"cancel","p":7,"ms":10}"#, .cancel(pointer: 7)),
            (#"{"t":"wheel","dx":0,"dy":-120,"ms":10}"#, .wheel(dx: 0, dy: -120)),
            (#"{"t":"resize","w":800,"h":600,"dpr":1.5,"ms":10}"#, .resize(Viewport(w: 800, h: 600, dpr: 1.5))),
            (#"{"t":"key","key":"ArrowDown","ms":10}"#, .key("ArrowDown")),
            (#"{"t":"ping","id":"abc","ms":10}"#, .ping(id: .string("abc"))),
            (#"{"t":"ping","id":42,"ms":10}"#, .ping(id: .int(42))),
            (#"{"t":"advance","ms":10}"#, .advance),
        ]
        for (text, event) in cases {
            let m = try decode(text).get()
            #expect(m.event == event, "\(text)")
            #expect(m.ms == 10)
        }
    }

    @Test func helloAppliesAPartialConfigOntoTheDefaults() throws {
        let m = try decode(#"{"t":"hello","v":1,"board":"demo","viewport":{"w":390,"h":844,"dpr":3},"config":{"mode":"swap","pressMs":300,"reducedMotion":true,"unknown":5},"seq":1}"#).get()
        guard case .hello(let h) = m.event else { Issue.record("\(m)"); return }
        #expect(h.board == "demo" && h.viewport == Viewport(w: 390, h: 844, dpr: 3))
        #expect(h.config.mode == .swap && h.config.pressMs == 300 && h.config.reducedMotion)
        #expect(h.config.dropMs == 250)
        #expect(m.seq == 1 && m.ms == nil)
    }

    @Test func anExternalCommitDecodesWhole() throws {
        let m = try decode(#"{"t":"external","ms":5,"commit":{"t":"commit","board":"b","version":2,"by":"s1","moves":[{"id":"a","from":{"section":"x","index":0},"to":{"section":"y","index":1}}],"order":[{"section":"x","items":[]},{"section":"y","items":["c","a"]}]}}"#).get()
        #expect(m.event == .external(Commit(board: "b", version: 2, by: "s1",
                                            moves: [Move(id: "a", from: Place(section: "x", index: 0), to: Place(section: "y", index: 1))],
                                            order: [SectionOrder(section: "x", items: []), SectionOrder(section: "y", items: ["c", "a"])])))
    }

    @Test func malformedInputGetsTheRightErrorCode() {
        #expect(code("{nope") == .badJSON)
        #expect(code("[1,2]") == .badJSON)
        #expect(code("") == .badJSON)
        #expect(code(#"{"t":"zap","ms":1}"#) == .unknownType)
        #expect(code(#"{"ms":1}"#) == .badMessage)
        #expect(code(#"{"t":5}"#) == .badMessage)
        #expect(code(String(repeating: " ", count: 65_537)) == .tooLarge)
    }

    @Test func outOfRangeAndWronglyTypedFieldsAreBadMessagesNamingTheField() {
        #expect(message(#"{"t":"move","p":1,"x":1e8,"y":0,"ms":1}"#) == "move.x: out of range [-10000000, 10000000]")
        #expect(message(#"{"t":"move","p":1,"x":"1","y":0,"ms":1}"#) == "move.x: expected a number, got a string")
        #expect(message(#"{"t":"move","p":1,"x":1,"y":0,"ms":1e400}"#) == "move.ms: must be finite")
        #expect(message(#"{"t":"move","p":1,"x":1,"y":0,"ms":-1}"#) == "move.ms: out of range [0, 10000000000000]")
        #expect(message(#"{"t":"move","p":1.5,"x":1,"y":0,"ms":1}"#) == "move.p: expected an integer")
        #expect(message(#"{"t":"move","p":-1,"x":1,"y":0,"ms":1}"#) != nil)
        #expect(message(#"{"t":"move","p":1,"x":1,"y":0}"#) == "move.ms: missing")
        #expect(message(#"{"t":"resize","w":800,"h":600,"dpr":0,"ms":1}"#) == "resize.dpr: must be greater than 0")
        #expect(message(#"{"t":"resize","w":800,"h":600,"dpr":17,"ms":1}"#) != nil)
        #expect(message(#"{"t":"resize","w":0.5,"h":600,"dpr":1,"ms":1}"#) != nil)
        #expect(message(#"{"t":"hello","v":1,"board":"d","viewport":{"w":1,"h":1,"dpr":1},"config":{"pressMs":10001}}"#) == "hello.config.pressMs: out of range [0, 10000]")
        #expect(message(#"{"t":"hello","v":1,"board":"d","viewport":{"w":1,"h":1,"dpr":1},"config":{"reducedMotion":1}}"#) == "hello.config.reducedMotion: expected true or false, got a number")
        // Each choice names its cases, in the order the contract lists them.
        for (key, cases) in [("mode", #""insert" or "swap""#), ("commitOrder", #""full" or "none""#), ("events", #""separate" or "inline""#),
                             ("follow", #""every" or "quiet""#), ("commits", #""separate" or "inline""#)] {
            #expect(message(#"{"t":"hello","v":1,"board":"d","viewport":{"w":1,"h":1,"dpr":1},"config":{"\#(key)":"other"}}"#) == "hello.config.\(key): expected \(cases)")
        }
        #expect(message(#"{"t":"key","key":"","ms":1}"#) == "key.key: must not be empty")
        #expect(message(#"{"t":"down","p":1,"x":1,"y":1,"ms":1,"kind":"finger"}"#) == "down.kind: expected mouse, touch or pen")
        #expect(message(#"{"t":"move","p":1,"x":1,"y":0,"ms":1,"seq":-3}"#) == "move.seq: out of range [0, 9007199254740992]")
    }

    @Test func aHelloWithAnotherVersionDecodesSoThatTheSessionCanRefuseIt() throws {
        let m = try decode(#"{"t":"hello","v":2,"board":"d","viewport":{"w":1,"h":1,"dpr":1}}"#).get()
        guard case .hello(let h) = m.event else { Issue.record("\(m)"); return }
        #expect(h.v == 2)
    }

    @Test func seededGarbageNeverCrashesTheDecoder() {
        var state: UInt64 = 12345
        func next() -> UInt64 { state = state &* 6364136223846793005 &+ 1442695040888963407; return state >> 33 }
        let alphabet = Array(#"{}[]":,.-+eE0123456789tfnulrsax\ "#.utf8) + [0xC3, 0xA9, 0xFF, 0x00]
        let seeds = [#"{"t":"move","p":1,"x":1,"y":2,"ms":3}"#, #"{"t":"hello","v":1,"board":"d","viewport":{"w":1,"h":1,"dpr":1}}"#]
        var decoded = 0
        for k in 0..<20_000 {
            var bytes = Array(seeds[k % 2].utf8)
            for _ in 0..<(1 + Int(next() % 4)) {
                let i = Int(next() % UInt64(bytes.count))
                switch next() % 3 {
                case 0: bytes[i] = alphabet[Int(next() % UInt64(alphabet.count))]
                case 1: bytes.insert(alphabet[Int(next() % UInt64(alphabet.count))], at: i)
                default: bytes.remove(at: i)
                }
                if bytes.isEmpty { bytes = [0x7B] }
            }
            if case .success = Wire.decodeClient(bytes) { decoded += 1 }
        }
        #expect(decoded > 0 && decoded < 20_000)
    }

    @Test func deeplyNestedInputIsRefusedNotAStackOverflow() {
        #expect(code(String(repeating: "[", count: 10_000)) == .badJSON)
    }

    @Test func stringEscapesAndSurrogatePairsParse() throws {
        let v = try JSONParser.parse(Array(#"{"k":"a\"b\\c\nd\u00e9\ud83d\ude00"}"#.utf8))
        #expect(v["k"] == .string("a\"b\\c\nd\u{e9}\u{1F600}"))
        #expect(throws: JSONSyntaxError.self) { try JSONParser.parse(Array(#""\ud83d""#.utf8)) }
    }
}
