import Testing
import LiftboardCore
import LiftboardWire
@testable import LiftboardScript

/// Issue 44's script steps: `other NAME holds ID...` and `expect held ID by NAME`.
@Suite struct OtherHoldsScriptTests {
    func run(_ body: String) -> ScriptResult {
        let script = "board b.json\nviewport 400 600\n\(body)\n"
        return ScriptFile.run(path: "t.lbtest", read: Files.reader(["t.lbtest": script, "b.json": ScriptRunTests.mixed]))
    }

    @Test func anItemAnotherPersonHoldsIsMarkedAndDoesNotLiftUntilReleased() {
        let r = run("""
            other Ana holds b
            expect held b by Ana
            press b
            expect commits 0
            expect announce Ana is moving b
            other Ana holds nothing
            drag b after d
            expect order s: a c p d b e
            """)
        #expect(r.outcome == .passed, "\(TestReport.text(r))")
        // The stream carries the presence lines, and replays to the run's commits.
        let lines = r.stream.map { String(decoding: $0, as: UTF8.self) }
        #expect(lines.filter { $0.hasPrefix(#"{"t":"presence""#) }.count == 2)
    }

    @Test func aWrongHolderOrAnUnheldItemFailsTheExpectation() {
        let wrong = run("other Ana holds b\nexpect held b by Bo")
        guard case .failed(let f) = wrong.outcome else { Issue.record("expected a failure, got \(wrong.outcome)"); return }
        #expect(f.kind == .expectation(expected: "b held by Bo", got: "b held by Ana"))
        let none = run("other Ana holds b\nother Ana holds nothing\nexpect held b by Ana")
        guard case .failed(let g) = none.outcome else { Issue.record("expected a failure, got \(none.outcome)"); return }
        #expect(g.kind == .expectation(expected: "b held by Ana", got: "b held by no one"))
    }

    @Test func aKeyboardLiftOfAHeldItemLiftsNothingAndIsNotAStepError() {
        let r = run("other Ana holds a\nkey Tab \" \"\nexpect commits 0\nexpect announce Ana is moving a")
        #expect(r.outcome == .passed, "\(TestReport.text(r))")
        let lifted = run("other Ana holds a\nkey Tab \" \"\nexpect lifted a")
        guard case .failed(let f) = lifted.outcome else { Issue.record("expected a failure, got \(lifted.outcome)"); return }
        #expect(f.kind == .expectation(expected: "lifted a", got: "lifted nothing"))
    }

    @Test func theStepsAreReadOrRefusedWithTheirUsage() throws {
        #expect(try ScriptParser.parseStep("other Ana holds a b") == .otherHolds(name: "Ana", items: ["a", "b"]))
        #expect(try ScriptParser.parseStep("other Ana holds nothing") == .otherHolds(name: "Ana", items: []))
        #expect(try ScriptParser.parseStep("expect held a by Ana") == .expectHeld("a", by: "Ana"))
        #expect(throws: ScriptReadError.self) { try ScriptParser.parseStep("other Ana a") }
        #expect(throws: ScriptReadError.self) { try ScriptParser.parseStep("expect held a Ana") }
        let r = run("other Ana holds zz")
        #expect(r.outcome == .broken(ScriptProblem(line: 3, error: .noItem(step: "other", id: "zz"))))
    }
}
