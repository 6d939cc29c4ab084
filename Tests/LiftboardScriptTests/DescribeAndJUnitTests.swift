import Foundation
import Testing
import LiftboardCore
import LiftboardWire
@testable import LiftboardScript

@Suite struct DescribeAndJUnitTests {
    /// The golden streams that name their board (`# board: FILE`).
    static let streams = Files.list(Files.golden, suffix: ".jsonl").filter { !$0.hasSuffix(".expected.jsonl") }

    @Test(arguments: streams)
    func aDescribedStreamRunsBackToTheSameCommits(_ path: String) throws {
        let bytes = try #require(Files.read(path))
        let first = String(decoding: bytes.prefix { $0 != 0x0A }, as: UTF8.self)
        try #require(first.hasPrefix("# board: "))
        let boardFile = "boards/" + (first.dropFirst(9).split(separator: " ").first.map(String.init) ?? "")
        let boardPath = Files.golden.appendingPathComponent(boardFile).path
        let board = try Wire.decodeBoard(try #require(Files.read(boardPath)))
        let script = StreamDescriber.describe(stream: bytes, board: board, boardPath: boardPath)
        #expect(script.hasPrefix("board \(boardPath)\n"))
        let r = ScriptFile.run(path: "described.lbtest", read: Files.reader(["described.lbtest": script]))
        #expect(r.outcome == .passed, "\(script)\n\(TestReport.text(r))")
        // The recording's own commits, in order, are the script's.
        var out: [UInt8] = []
        _ = Replay.run(board: board, stream: bytes, output: &out)
        var driver = StreamDriver(board: board, viewport: Size(w: 1, h: 1))
        for l in r.stream { driver.send(l) }
        let own = driver.commits.filter { $0.by == Replay.sessionID }.map(\.order)
        let recorded = String(decoding: out, as: UTF8.self).split(separator: "\n")
            .filter { $0.contains(#""t":"commit""#) && $0.contains(#""by":"replay""#) }.count
        #expect(own.count == recorded)
    }

    @Test func onAColumnsBoardAWheelKeepsItsPlaceAndAPanItsLines() throws {
        let board = try Wire.decodeBoard(try #require(Files.read(Files.golden.appendingPathComponent("boards/columns-tall.json").path)))
        let wheels = try #require(Files.read(Files.golden.appendingPathComponent("columns-wheel.jsonl").path))
        let script = StreamDescriber.describe(stream: wheels, board: board, boardPath: "columns-tall.json")
        #expect(script.contains("\nwheel 50 300 at 400 200\n"))
        let pans = try #require(Files.read(Files.golden.appendingPathComponent("columns-pans.jsonl").path))
        let panScript = StreamDescriber.describe(stream: pans, board: board, boardPath: "columns-tall.json")
        #expect(!panScript.contains("\npan "))
        #expect(panScript.contains(#"send {"t":"down""#))
    }

    @Test func aDropIsDescribedAsTheStepItsChangeNames() throws {
        let board = try Wire.decodeBoard(try #require(Files.read(Files.golden.appendingPathComponent("boards/list.json").path)))
        let stream = try #require(Files.read(Files.golden.appendingPathComponent("pinned.jsonl").path))
        let script = StreamDescriber.describe(stream: stream, board: board, boardPath: "list.json")
        #expect(script.contains("\ndrag b after d\nexpect order todo: a d c b\n"))
        #expect(script.hasSuffix("expect commits 1\n"))
    }

    @Test func overlappingPointersAreSentAsTheyCameAndTheirCommitsExpected() throws {
        let board = try Wire.decodeBoard(try #require(Files.read(Files.golden.appendingPathComponent("boards/list.json").path)))
        let stream = """
            {"t":"hello","v":1,"board":"demo","viewport":{"w":400,"h":600,"dpr":2}}
            {"t":"down","p":1,"x":50,"y":60,"ms":100,"kind":"touch"}
            {"t":"down","p":2,"x":50,"y":271,"ms":150,"kind":"touch"}
            {"t":"advance","ms":700}
            {"t":"move","p":1,"x":50,"y":200,"ms":740}
            {"t":"up","p":1,"x":50,"y":200,"ms":800}
            {"t":"move","p":2,"x":50,"y":40,"ms":840}
            {"t":"up","p":2,"x":50,"y":40,"ms":900}
            {"t":"down","p":1,"x":50,"y":60,"ms":1500,"kind":"touch"}
            {"t":"advance","ms":2000}
            {"t":"move","p":1,"x":50,"y":400,"ms":2100}
            {"t":"up","p":1,"x":50,"y":400,"ms":2200}
            """
        let script = StreamDescriber.describe(stream: Array(stream.utf8), board: board, boardPath: "b.json")
        let lines = script.split(separator: "\n")
        // The two pointers at once have no step: every line of theirs is a `send`, in order.
        #expect(lines.filter { $0.hasPrefix("send ") }.count == 7)
        #expect(lines.filter { $0.hasPrefix("expect order ") }.count >= 3)
        #expect(lines.filter { $0.hasPrefix("drag ") }.count == 1)
        let r = ScriptFile.run(path: "d.lbtest", read: Files.reader(["d.lbtest": script, "b.json": String(decoding: Wire.encodeBoard(board), as: UTF8.self)]))
        #expect(r.outcome == .passed, "\(script)\n\(TestReport.text(r))")
    }

    @Test func junitHasOneTestcasePerScriptWithFailuresAndErrors() {
        let line = ScriptLine(number: 3, text: "expect order s: a <b>", step: .expectCommits(0))
        let results = [
            ScriptResult(path: "ok.lbtest", outcome: .passed, stream: []),
            ScriptResult(path: "bad & \"worse\".lbtest", outcome: .failed(ScriptFailure(
                line: line, kind: .expectation(expected: "s: a <b>", got: "s: <b> a"), gesture: nil, commits: [])), stream: []),
            ScriptResult(path: "broken.lbtest", outcome: .broken(ScriptProblem(line: 2, error: .unknownStep("jump"))), stream: []),
        ]
        let xml = JUnitWriter.xml(results)
        #expect(xml.components(separatedBy: "<testcase ").count - 1 == 3)
        #expect(xml.contains(#"tests="3" failures="1" errors="1""#))
        #expect(xml.contains(#"name="bad &amp; &quot;worse&quot;.lbtest""#))
        #expect(xml.contains("- expected s: a &lt;b&gt;"))
        #expect(xml.contains(#"<error message="line 2: unknown step &quot;jump&quot;""#))
        #expect(!xml.contains("<b>"))
        #expect(JUnitWriter.xml(results) == xml)
    }
}
