import Foundation
import Testing
import LiftboardCore
import LiftboardWire
@testable import LiftboardScript

@Suite struct ScriptRunTests {
    static let examples = Files.list(Files.root.appendingPathComponent("Examples/tests"), suffix: ".lbtest")
    static let listBoard = Files.root.appendingPathComponent("Examples/board.json").path

    @Test func thereAreExamples() {
        #expect(Self.examples.count >= 5)
    }

    @Test(arguments: examples)
    func everyExamplePasses(_ path: String) {
        let r = ScriptFile.run(path: path, read: Files.read)
        #expect(r.outcome == .passed, "\(TestReport.text(r))")
    }

    @Test(arguments: examples)
    func theEmittedStreamReplaysToTheSameOutputAsTheRun(_ path: String) throws {
        let r = ScriptFile.run(path: path, read: Files.read)
        // The board line of the script, resolved as the run resolves it.
        let text = String(decoding: Files.read(path) ?? [], as: UTF8.self)
        let line = try #require(try ScriptParser.parse(text).first { if case .board = $0.step { true } else { false } })
        guard case .board(let rel) = line.step else { return }
        let board = try Wire.decodeBoard(try #require(Files.read(ScriptFile.resolve(rel, against: path))))
        var stream: [UInt8] = []
        for l in r.stream { stream += l; stream.append(0x0A) }
        var out: [UInt8] = []
        #expect(Replay.run(board: board, stream: stream, output: &out) == .finished)
        let replayed = String(decoding: out, as: UTF8.self).split(separator: "\n").filter { $0.contains(#""t":"commit""#) }
        #expect(!replayed.isEmpty)
        #expect(!String(decoding: out, as: UTF8.self).contains(#""t":"error""#))
        // The same script again gives the same bytes.
        #expect(ScriptFile.run(path: path, read: Files.read).stream == r.stream)
        // The commits the replay printed are those the script's run made, byte for byte.
        var driver = StreamDriver(board: board, viewport: Size(w: 400, h: 800))
        for l in r.stream { driver.send(l) }
        #expect(driver.commits.map { String(decoding: Wire.encode(.commit($0)), as: UTF8.self) } == replayed.map(String.init))
    }

    /// A script on `board` (JSON text) with `body` after its setup lines.
    func run(board: String, viewport: String = "viewport 400 600", config: String = "", _ body: String) -> ScriptResult {
        let script = "board b.json\n\(viewport)\n\(config)\n\(body)\n"
        return ScriptFile.run(path: "t.lbtest", read: Files.reader(["t.lbtest": script, "b.json": board]))
    }

    static let mixed = #"""
        {"id": "m", "list": {"rowHeight": 40, "spacing": 2}, "sections": [
          {"id": "s", "items": [{"id": "a", "height": 130}, {"id": "b"}, {"id": "p", "movable": false},
                                {"id": "c", "height": 75}, {"id": "d"}, {"id": "e", "height": 20}]},
          {"id": "t", "items": []}]}
        """#

    @Test func aDragReachesItsPlaceInAListWithMixedHeightsAndAPinnedItem() {
        let r = run(board: Self.mixed, """
            drag a after d
            expect order s: b c p d a e
            drag e first in s
            expect order s: e b p c d a
            drag b after c
            expect order s: e c p b d a
            drag a after e
            expect order s: e a p c b d
            """)
        #expect(r.outcome == .passed, "\(TestReport.text(r))")
    }

    @Test func aDragReachesAnEmptySectionAndComesBack() {
        let r = run(board: Self.mixed, """
            drag c first in t
            expect order t: c
            expect order s: a b p d e
            drag c after a
            expect order t:
            expect order s: a c p b d e
            """)
        #expect(r.outcome == .passed, "\(TestReport.text(r))")
    }

    @Test func aDragReachesItsPlaceOnAGridAcrossSections() {
        let grid = #"{"id": "g", "layout": "grid", "sections": [{"id": "x", "items": [{"id": "x0"}, {"id": "x1"}, {"id": "x2"}, {"id": "x3"}, {"id": "x4"}]}, {"id": "y", "items": [{"id": "y0"}, {"id": "y1"}]}, {"id": "z", "items": []}]}"#
        let r = run(board: grid, """
            drag x0 after y0
            expect order y: y0 x0 y1
            drag y1 first in x
            expect order x: y1 x1 x2 x3 x4
            drag x4 first in z
            expect order z: x4
            drag x1 after x3
            expect order x: y1 x2 x3 x1
            expect commits 4
            """)
        #expect(r.outcome == .passed, "\(TestReport.text(r))")
    }

    @Test func aDragReachesAPlaceThatNeedsAutoScroll() {
        let items = (0..<60).map { #"{"id": "r\#($0)"}"# }.joined(separator: ",")
        let long = #"{"id": "l", "sections": [{"id": "s", "items": [\#(items)]}]}"#
        let all = (0..<60).map { "r\($0)" }
        let down = all.dropFirst(1).prefix(49) + ["r0"] + all.suffix(10)
        let r = run(board: long, """
            drag r0 after r49
            expect order s: \(down.joined(separator: " "))
            drag r59 first in s
            expect order s: r59 \(down.filter { $0 != "r59" }.joined(separator: " "))
            """)
        #expect(r.outcome == .passed, "\(TestReport.text(r))")
        // It did scroll: the stream holds moves in a band long after the lift.
        let moves = r.stream.filter { String(decoding: $0, as: UTF8.self).contains(#""t":"move""#) }
        #expect(moves.count > 100)
    }

    @Test func aWrongExpectationFailsWithItsLineTheDiffAndTheGesturesCommits() {
        let r = run(board: Self.mixed, """
            drag a after b
            expect order s: b p a c d e
            """)
        guard case .failed(let f) = r.outcome else { Issue.record("expected a failure, got \(r.outcome)"); return }
        #expect(f.line.number == 5)
        #expect(f.kind == .expectation(expected: "s: b p a c d e", got: "s: b a p c d e"))
        let text = TestReport.text(r)
        #expect(text.hasPrefix("t.lbtest:5: expect order s: b p a c d e\n"))
        #expect(text.contains("- expected s: b p a c d e\n"))
        #expect(text.contains("+ got s: b a p c d e\n"))
        #expect(text.contains("commits of line 4 (drag a after b):"))
        #expect(text.contains("version 1 by replay: a after b in s"))
        #expect(TestReport.exitStatus([r]) == 1)
    }

    @Test func anUnknownItemIsAReadErrorAtItsLine() {
        let r = run(board: Self.mixed, "drag a after b\ndrag zz after a")
        #expect(r.outcome == .broken(ScriptProblem(line: 5, error: .noItem(step: "drag", id: "zz"))))
        #expect(TestReport.text(r) == "t.lbtest:5: drag: no item \"zz\" on the board\n")
        #expect(TestReport.exitStatus([r, run(board: Self.mixed, "expect commits 1")]) == 2)
    }

    @Test func aPlaceThatCannotBeReachedFailsAsNotReached() {
        // No auto-scroll: the last row of a long list is never on screen during the drag.
        let items = (0..<60).map { #"{"id": "r\#($0)"}"# }.joined(separator: ",")
        let long = #"{"id": "l", "sections": [{"id": "s", "items": [\#(items)]}]}"#
        let r = run(board: long, config: #"config {"edgeScrollSpeed": 0}"#, "drag r0 after r59")
        guard case .failed(let f) = r.outcome, case .notReached = f.kind else {
            Issue.record("expected not reached, got \(r.outcome)"); return
        }
        #expect(TestReport.text(r).contains("not reached"))
    }

    @Test func aPinnedItemIsNotLifted() {
        let r = run(board: Self.mixed, "drag p after d")
        guard case .failed(let f) = r.outcome else { Issue.record("expected a failure"); return }
        #expect(f.kind == .notLifted(item: "p", got: nil))
        let pressed = run(board: Self.mixed, "press p\nexpect commits 0\ntap a\nexpect commits 0")
        #expect(pressed.outcome == .passed, "\(TestReport.text(pressed))")
    }

    @Test func aDragThatEndsInACancelCommitsNothing() {
        let r = run(board: Self.mixed, "drag a after d then cancel\nexpect lifted a\nexpect commits 0\nexpect order s: a b p c d e")
        #expect(r.outcome == .passed, "\(TestReport.text(r))")
        let sent = r.stream.filter { $0.first != UInt8(ascii: "#") }
        #expect(sent.last.map { String(decoding: $0, as: UTF8.self).hasPrefix(#"{"t":"cancel""#) } == true)
    }

    @Test func aDragToWhereTheItemIsPressesAndReleases() {
        let r = run(board: Self.mixed, "drag b after a\nexpect commits 0\nexpect lifted b")
        #expect(r.outcome == .passed, "\(TestReport.text(r))")
        let kinds = r.stream.compactMap { (try? JSONParser.parse($0))?["t"] }
        #expect(!kinds.contains(.string("move")))
    }

    @Test func panAndWheelScrollWithoutAFling() {
        let items = (0..<60).map { #"{"id": "r\#($0)"}"# }.joined(separator: ",")
        let long = #"{"id": "l", "sections": [{"id": "s", "items": [\#(items)]}]}"#
        var runner = try! ScriptRunner(board: try! Wire.decodeBoard(Array(long.utf8)), viewport: Size(w: 400, h: 600), config: [])
        _ = try! runner.run(ScriptLine(number: 1, text: "pan up 200", step: .pan(.up, 200)))
        _ = try! runner.run(ScriptLine(number: 2, text: "wait 1000", step: .wait(1000)))
        #expect(runner.driver.session.scrollY == 200)
        _ = try! runner.run(ScriptLine(number: 3, text: "wheel 0 -50", step: .wheel(dx: 0, dy: -50)))
        #expect(runner.driver.session.scrollY == 150)
    }

    @Test func onAColumnsBoardPansGoSidewaysOrDownAColumnAndAWheelScrollsTheColumnAtItsPlace() {
        let items = (0..<20).map { #"{"id": "r\#($0)"}"# }.joined(separator: ",")
        let cols = #"{"id": "c", "layout": "columns", "sections": [{"id": "a", "items": [\#(items)]}, {"id": "b", "items": []}, {"id": "c", "items": []}]}"#
        var runner = try! ScriptRunner(board: try! Wire.decodeBoard(Array(cols.utf8)), viewport: Size(w: 400, h: 600), config: [])
        let lines = ["pan left 200", "wait 1000", "wheel 0 100 at 100 300", "pan up 50"]
        for (k, text) in lines.enumerated() {
            _ = try! runner.run(ScriptLine(number: k + 1, text: text, step: try! ScriptParser.parseStep(Substring(text))))
        }
        // The board went right by 200 (to the finger's left); the wheel at content x 300 and
        // the pan from the viewport's center (x 400) scroll "b": empty, it cannot; "a" is not under them.
        #expect(runner.driver.session.scrollX == 200)
        #expect(runner.driver.session.columnScrolls == [0, 0, 0])
        _ = try! runner.run(ScriptLine(number: 5, text: "wheel -200 0", step: .wheel(dx: -200, dy: 0)))
        _ = try! runner.run(ScriptLine(number: 6, text: "wheel 0 100 at 100 300", step: try! ScriptParser.parseStep("wheel 0 100 at 100 300")))
        #expect(runner.driver.session.columnScrolls == [100, 0, 0])
    }

    @Test func aSendLineWithoutMsTakesTheScriptsClock() {
        let r = run(board: Self.mixed, #"wait 250\#nsend {"t":"ping","id":"x"}"#)
        #expect(r.outcome == .passed)
        #expect(r.stream.last.map { String(decoding: $0, as: UTF8.self) } == #"{"t":"ping","id":"x","ms":250}"#)
    }
}
