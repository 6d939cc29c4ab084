import LiftboardCore
import LiftboardWire
import XCTest
@testable import LiftboardLoad

/// The scanner the load client reads server messages with, and the templates it writes its own from.
final class MessageFieldsTests: XCTestCase {
    private func scan(_ text: String) -> MessageFields? {
        Array(text.utf8).withUnsafeBytes { MessageFields.scan($0) }
    }

    func testAFrameIsKnownByItsOwnTypeAndAckNotByTheEventsInsideIt() {
        let text = #"{"events":[{"t":"moved","id":"r3","ack":99,"seq":98}],"t":"frame","cells":{"r3":{"y":1.5e2,"t":"x"}},"ack":12,"seq":7}"#
        let f = scan(text)
        XCTAssertEqual(f?.kind, .frame)
        XCTAssertEqual(f?.ack, 12)
        XCTAssertEqual(f?.seq, 7)
        XCTAssertNil(f?.by)
    }

    func testAPresenceIsKnownWithItsNumberAndBaseNotTheEntriesInside() {
        // What the server writes for `presence: "delta"` (Wire's own encoding).
        let ana = Presence.Entry(session: "s2", name: "Ana", color: "#1971c2", role: .move, holds: ["a"], target: Place(section: "s", index: 1))
        let p1 = Presence(board: "b", people: [ana], watching: 0)
        var moved = ana
        moved.target = Place(section: "s", index: 2)
        let p2 = Presence(board: "b", people: [moved], watching: 0)
        let d = PresenceDelta(p2, v: p2.digest, after: PresenceSent(presence: p1, v: p1.digest))
        let m = Wire.encode(.presenceDelta(d)).withUnsafeBytes { MessageFields.scan($0) }
        XCTAssertEqual(m?.kind, .presence)
        XCTAssertEqual(m?.v, Double(p2.digest))
        XCTAssertEqual(m?.base, Double(p1.digest))
        XCTAssertNil(m?.session, "an entry's session is not the message's")
        let whole = Wire.encode(.presenceDelta(PresenceDelta(p1, v: p1.digest, after: nil))).withUnsafeBytes { MessageFields.scan($0) }
        XCTAssertEqual(whole?.kind, .presence)
        XCTAssertEqual(whole?.v, Double(p1.digest))
        XCTAssertNil(whole?.base)
    }

    func testAPresenceIsReadUpToItsBaseAndNoFurther() {
        // The entries after `base` (or after `board` in a whole one) are not read: what follows
        // them is not checked either.
        let d = scan(#"{"t":"presence","v":7,"base":5,"board":"b","changed":[{"session":"s1" NOT JSON"#)
        XCTAssertEqual(d?.kind, .presence)
        XCTAssertEqual(d?.v, 7)
        XCTAssertEqual(d?.base, 5)
        let whole = scan(#"{"t":"presence","v":7,"board":"b","people":[{"base":3}],"base":2}"#)
        XCTAssertEqual(whole?.v, 7)
        XCTAssertNil(whole?.base, "a base after board is an entry's or a later member's, not the difference's")
        // A presence without `v` (`presence: "full"`) is read whole, as any message.
        XCTAssertNil(scan(#"{"t":"presence","board":"b","people":[ NOT JSON"#))
        XCTAssertEqual(scan(#"{"t":"presence","board":"b","people":[],"watching":0}"#)?.kind, .presence)
    }

    func testAFramesCommitIsReadApartFromTheFrame() {
        // What the server writes for `commits: "inline"` (Wire's own encoding of such a frame).
        var f = FrameMessage(seq: 4, ms: 12, ack: 9)
        f.commit = Commit(board: "b", version: 31, by: "s7", moves: [], order: [], change: nil)
        let m = Wire.encode(.frame(f), commitOrder: .none).withUnsafeBytes { MessageFields.scan($0) }
        XCTAssertEqual(m?.kind, .frame)
        XCTAssertEqual(m?.ack, 9)
        XCTAssertNil(m?.version)
        XCTAssertNil(m?.by)
        XCTAssertEqual(m?.commitVersion, 31)
        XCTAssertEqual(m?.commitBy, Array("s7".utf8))
        XCTAssertNil(scan(#"{"t":"frame","seq":1,"ms":2}"#)?.commitVersion)
    }

    func testEscapedStringsAreDecodedAndAnEscapedNameStillCounts() {
        let text = #"{ "\u0074" : "commit", "by" : "a\"b\\c\/\u00e9\ud83d\ude00\n", "version" : 4 , "session":"s-1"}"#
        let f = scan(text)
        XCTAssertEqual(f?.kind, .commit)
        XCTAssertEqual(f?.by, Array("a\"b\\c/é😀\n".utf8))
        XCTAssertEqual(f?.session, Array("s-1".utf8))
        XCTAssertEqual(f?.version, 4)
        // A type that is escaped all the way: "fr\u0061me" is "frame".
        XCTAssertEqual(scan(#"{"t":"fr\u0061me","ack":3}"#)?.kind, .frame)
    }

    func testNumbersInEveryJSONFormAreRead() {
        XCTAssertEqual(scan(#"{"t":"commit","version":1.5e3}"#)?.version, 1500)
        XCTAssertEqual(scan(#"{"t":"frame","ack":2E+2}"#)?.ack, 200)
        XCTAssertEqual(scan(#"{"t":"move","seq":-25e-1}"#)?.seq, -2.5)
        XCTAssertEqual(scan(#"{"t":"frame","ack":0.5}"#)?.ack, 0.5)
        XCTAssertEqual(scan(#"{"t":"frame","ack":123456789012}"#)?.ack, 123_456_789_012)
        XCTAssertEqual(scan(#"{"t":"frame","ack":-0}"#)?.ack, 0)
    }

    func testMembersOfOtherTypesAndOtherValuesAreSkipped() {
        let f = scan(#"{"t":"welcome","session":"abc","ok":true,"n":null,"f":false,"list":[1,[2,{"a":"]}"}]],"ack":"not a number"}"#)
        XCTAssertEqual(f?.kind, .welcome)
        XCTAssertEqual(f?.session, Array("abc".utf8))
        XCTAssertNil(f?.ack)
        XCTAssertEqual(scan(#"{"t":"something new"}"#)?.kind, .other)
        XCTAssertEqual(scan(#"{"t":5}"#)?.kind, nil)
        XCTAssertEqual(scan("{}"), MessageFields())
        XCTAssertEqual(scan(" [1, 2] "), MessageFields())  // JSON, but not an object: no members
    }

    func testTextThatIsNotJSONIsRefused() {
        for bad in ["", "{", #"{"t":"frame""#, #"{"t":"frame",}"#, #"{"t" "frame"}"#, #"{"ack":01}"#, #"{"ack":1.}"#,
                    #"{"ack":1e}"#, #"{"t":"fra"#, #"{"x":[1,2}"#, #"{"t":"frame"} x"#, "nul", #"{"a":tru}"#, #"{"s":"\q"}"#] {
            XCTAssertNil(scan(bad), bad)
        }
    }

    func testTheScannerReadsWhatTheServersEncoderWrites() {
        var w = JSONWriter()
        w.value(.object([("t", .string("commit")), ("board", .string("load-1")), ("version", .number(17)),
                         ("by", .string("sess \"9\"\n")), ("order", .array([.object([("items", .array([.string("r1")]))])]))]))
        let f = w.bytes.withUnsafeBytes { MessageFields.scan($0) }
        XCTAssertEqual(f?.kind, .commit)
        XCTAssertEqual(f?.version, 17)
        XCTAssertEqual(f?.by, Array("sess \"9\"\n".utf8))
    }

    /// The bytes `JSONWriter` made of the same members: what `liftboard load` sent before the templates.
    private func written(_ members: [(String, JSONValue)]) -> [UInt8] {
        var w = JSONWriter()
        w.value(.object(members))
        return w.bytes
    }

    func testInputsFromTemplatesAreTheBytesJSONWriterWrites() {
        var random = SeededRandom(seed: 11)
        for workload in Workload.allCases {
            var script = GestureScript(workload: workload, movesPerDrag: 30, seed: 42)
            for g in 0..<40 {
                let gesture = script.next()
                for (k, p) in ([gesture.start] + gesture.moves).enumerated() {
                    let input: ClientMessages.Input = k == 0 ? .down : (k == gesture.moves.count ? .up : .move)
                    let name = input == .down ? "down" : input == .up ? "up" : "move"
                    let seq = g * 100 + k
                    let ms = Double(random.int(0, 4_000_000_000) / 1000) / 1000
                    let y = p.y + 57 * 22 * Double(g % 2)
                    var members: [(String, JSONValue)] = [("t", .string(name)), ("p", .number(1)), ("x", .number(p.x)), ("y", .number(y))]
                    if input == .down { members.append(("kind", .string("touch"))) }
                    members += [("seq", .number(Double(seq))), ("ms", .number(ms))]
                    var out: [UInt8] = []
                    ClientMessages.input(input, x: p.x, y: y, seq: seq, ms: ms, into: &out)
                    XCTAssertEqual(String(decoding: out, as: UTF8.self), String(decoding: written(members), as: UTF8.self))
                }
            }
        }
    }

    func testNumbersAreWrittenAsJSONWriterWritesThem() {
        var random = SeededRandom(seed: 5)
        var values: [Double] = [0, -0.0, 1, -1, 0.5, 1e15, 1e16, -1e15 + 0.5, 123.456789, 0.00005, 0.00004, 99.99995, .infinity, .nan, 1e-7, 2.5e20]
        for _ in 0..<20_000 { values.append(random.uniform(-5000, 5000)) }
        for _ in 0..<5000 { values.append((random.uniform(-3000, 3000) * 100).rounded() / 100) }
        for v in values {
            var w = JSONWriter()
            w.number(v)
            var out: [UInt8] = []
            ClientMessages.appendNumber(v, to: &out)
            XCTAssertEqual(String(decoding: out, as: UTF8.self), String(decoding: w.bytes, as: UTF8.self), "\(v)")
        }
        for v in [0, 7, -7, 10, 100, 99_999, Int.max, Int.min + 1] {
            var w = JSONWriter()
            w.int(v)
            var out: [UInt8] = []
            ClientMessages.appendInt(v, to: &out)
            XCTAssertEqual(out, w.bytes, "\(v)")
        }
    }

    func testHelloIsTheBytesJSONWriterWrites() {
        for (inline, commits) in [(false, false), (true, false), (true, true), (false, true)] {
            for quiet in [false, true] {
                for board in ["load-12", "a \"quoted\"\tboard\u{1}"] {
                    let v = LoadBoards.viewport
                    var members: [(String, JSONValue)] = [("t", .string("hello")), ("v", .number(1)), ("board", .string(board)),
                        ("viewport", .object([("w", .number(v.w)), ("h", .number(v.h)), ("dpr", .number(v.dpr))]))]
                    var config: [(String, JSONValue)] = []
                    if inline { config.append(("events", .string("inline"))) }
                    if quiet { config.append(("follow", .string("quiet"))) }
                    if commits { config.append(("commits", .string("inline"))) }
                    if commits && quiet { config.append(("commitOrder", .string("none"))) }
                    if !config.isEmpty { members.append(("config", .object(config))) }
                    members += [("seq", .number(1)), ("ms", .number(12.345))]
                    var out: [UInt8] = []
                    ClientMessages.hello(board: board, viewport: v, inlineEvents: inline, quietFollow: quiet, inlineCommits: commits, changeOnlyCommits: commits && quiet, seq: 1, ms: 12.345, into: &out)
                    XCTAssertEqual(String(decoding: out, as: UTF8.self), String(decoding: written(members), as: UTF8.self))
                }
            }
        }
    }
}
