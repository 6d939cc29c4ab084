import Testing
import LiftboardCore
import LiftboardWire

/// Issue 42: the `# person` line a recording starts with, as `liftboard replay` reads it.
@Suite struct PersonLineTests {
    static let board = Board(id: "b", sections: [Section(id: "s", items: [Item(id: "a"), Item(id: "b")]), Section(id: "t", items: [])])

    func replay(_ lines: [String]) -> [String] {
        var out: [UInt8] = []
        _ = Replay.run(board: Self.board, stream: Array(lines.joined(separator: "\n").utf8), output: &out)
        return String(decoding: out, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    let hello = #"{"t":"hello","v":1,"board":"b","viewport":{"w":400,"h":600,"dpr":1},"ms":0}"#
    let moveTo = #"{"t":"moveTo","id":"a","section":"t","place":"last","ms":10}"#

    @Test func aPersonLineReadsBackAsWritten() throws {
        for p in [Person(user: "u", name: "Ada \"L\"", role: .view), Person(role: .move), Person(user: "x", role: .admin)] {
            #expect(try Wire.decodePersonLine(Wire.encodePersonLine(p))?.get() == p)
        }
        #expect(Wire.decodePersonLine(Array("# board: x.json".utf8)) == nil)
        #expect(Wire.decodePersonLine(Array(hello.utf8)) == nil)
    }

    @Test func aReplayRunsAsThePersonTheStreamNamesAndAsEditWithout() {
        let view = replay(["# board: b.json", #"# person {"user":"u","name":"N","role":"view"}"#, hello, moveTo])
        #expect(view.contains { $0.hasPrefix(#"{"t":"error","code":"role_forbids""#) && $0.hasSuffix(#""line":4}"#) })
        #expect(!view.contains { $0.hasPrefix(#"{"t":"commit""#) })
        let edit = replay([hello, moveTo])
        #expect(edit.contains { $0.hasPrefix(#"{"t":"commit","board":"b","version":1,"by":"replay","moves""#) })
        let signed = replay([#"# person {"user":"u-1","name":"Ada","role":"move"}"#, hello, moveTo])
        #expect(signed.contains { $0.hasPrefix(#"{"t":"commit","board":"b","version":1,"by":"replay","user":"u-1","name":"Ada","moves""#) })
    }

    @Test func aBadOrLatePersonLineIsAnErrorWithItsLineAndTheReplayGoesOn() {
        let bad = replay([#"# person {"role":"owner"}"#, #"# person {"user":"u"}"#, "# person nope", hello, moveTo])
        let errors = bad.filter { $0.hasPrefix(#"{"t":"error""#) }
        #expect(errors.count == 3)
        #expect(errors[0].contains(#"person.role: expected \"view\" or \"move\" or \"edit\" or \"admin\""#) && errors[0].hasSuffix(#""line":1}"#))
        #expect(errors[1].contains("person.role: missing") && errors[2].contains("bad_json"))
        #expect(bad.contains { $0.hasPrefix(#"{"t":"commit""#) })  // as edit
        let late = replay([hello, #"# person {"role":"view"}"#, moveTo])
        #expect(late.contains { $0.contains("it goes before hello") && $0.hasSuffix(#""line":2}"#) })
        #expect(late.contains { $0.hasPrefix(#"{"t":"commit""#) })
    }

    // A renewal mid-stream: the `person` input line a recording writes where an `auth` message
    // renewed the token as another person.

    @Test func aPersonInputLineReadsBackAsWrittenAndIsNoClientMessage() throws {
        for p in [Person(user: "u", name: "Ada \"L\"", role: .view), Person(role: .move)] {
            let line = Wire.encodePersonInput(p, ms: 12.5)
            let r = try #require(try Wire.decodePersonInput(line)?.get())
            #expect(r.person == p && r.ms == 12.5)
            #expect(!String(decoding: line, as: UTF8.self).contains("token"))
            // The live server never takes it from a client: it is an unknown type there.
            #expect(Wire.decodeClient(line).errorCode == .unknownType)
        }
        #expect(Wire.decodePersonInput(Array(moveTo.utf8)) == nil)
    }

    @Test func aReplayActsForTheRenewedPersonFromItsLineOn() {
        let toView = replay([#"# person {"user":"u","role":"move"}"#, hello, #"{"t":"person","user":"u","role":"view","ms":5}"#, moveTo])
        #expect(toView.contains { $0.hasPrefix(#"{"t":"error","code":"role_forbids""#) && $0.hasSuffix(#""line":4}"#) })
        #expect(!toView.contains { $0.hasPrefix(#"{"t":"commit""#) })
        let toMove = replay([#"# person {"user":"u","role":"view"}"#, hello, #"{"t":"person","user":"u","name":"Ada","role":"move","ms":5}"#, moveTo])
        #expect(toMove.contains { $0.hasPrefix(#"{"t":"commit","board":"b","version":1,"by":"replay","user":"u","name":"Ada","moves""#) })
    }

    @Test func aBadOrBackwardPersonInputLineIsAnErrorWithItsLine() {
        let out = replay([hello, #"{"t":"person","role":"owner","ms":5}"#, #"{"t":"person","role":"view"}"#,
                          #"{"t":"person","role":"view","ms":20}"#, #"{"t":"person","role":"view","ms":10}"#, moveTo])
        let errors = out.filter { $0.hasPrefix(#"{"t":"error""#) }
        #expect(errors.count == 4, "\(errors)")  // the last: the moveTo at 10 goes back too
        #expect(errors.first { $0.hasSuffix(#""line":2}"#) }?.contains("person.role") == true)
        #expect(errors.first { $0.hasSuffix(#""line":3}"#) }?.contains("ms") == true)
        #expect(errors.first { $0.hasSuffix(#""line":5}"#) }?.contains("goes back in time") == true)
        // The clock is at 20 from line 4 on, so nothing commits.
        #expect(!out.contains { $0.hasPrefix(#"{"t":"commit""#) })
    }
}

private extension Result where Failure == WireError {
    var errorCode: ErrorCode? { if case .failure(let e) = self { e.code } else { nil } }
}
