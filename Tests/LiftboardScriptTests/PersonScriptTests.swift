import Testing
import LiftboardCore
import LiftboardWire
@testable import LiftboardScript

/// Issue 42 in scripts: `person ROLE [USER [NAME]]` runs the script as that person (a
/// `# person` line before the hello of the stream it compiles to); without it, as `edit`.
@Suite struct PersonScriptTests {
    static let board = """
        {"id":"t","sections":[{"id":"todo","items":[{"id":"a"},{"id":"b"},{"id":"c"}]},{"id":"done","items":[{"id":"d"}]},\
        {"id":"bin","drop":"remove","items":[]}]}
        """

    func run(_ script: String) -> ScriptResult {
        ScriptFile.run(path: "p.lbtest", read: Files.reader(["p.lbtest": script, "b.json": Self.board]))
    }

    @Test func thePersonStepReadsARoleAUserAndAName() throws {
        let lines = try ScriptParser.parse("person view u-7 \"Ada L\"\nperson move\nperson edit u\n")
        #expect(lines.map(\.step) == [.person(Person(user: "u-7", name: "Ada L", role: .view)), .person(Person(role: .move)),
                                      .person(Person(user: "u", role: .edit))])
        #expect(throws: ScriptProblem.self) { try ScriptParser.parse("person owner\n") }
        #expect(throws: ScriptProblem.self) { try ScriptParser.parse("person\n") }
        #expect(throws: ScriptProblem.self) { try ScriptParser.parse("board b.json\npress a\nperson view\n") }
    }

    @Test func aViewScriptLiftsNothingAndItsRefusalsAreNotFailures() {
        let r = run("board b.json\nperson view u-wall\npress a\nkey Tab \" \"\nsend {\"t\":\"undo\"}\nexpect commits 0\nexpect order todo: a b c\n")
        #expect(r.outcome == .passed, "\(TestReport.text(r))")
        #expect(String(decoding: r.stream[1], as: UTF8.self) == #"# person {"user":"u-wall","role":"view"}"#)
        // A drag that cannot lift fails where it expects the lift.
        let drag = run("board b.json\nperson view\ndrag a after c\n")
        #expect(drag.outcome != .passed)
    }

    @Test func aMoveScriptCommitsSignedAndCannotUseTheTrash() {
        let r = run("board b.json\nperson move u-mo Mo\ndrag a after d\nexpect order done: d a\nsend {\"t\":\"moveTo\",\"id\":\"b\",\"section\":\"bin\",\"place\":\"last\"}\nexpect order todo: b c\nexpect commits 1\n")
        #expect(r.outcome == .passed, "\(TestReport.text(r))")
        let commit = r.stream.map { String(decoding: $0, as: UTF8.self) }
        #expect(commit.contains { $0.hasPrefix("# person ") })
        // Without a person line the same script runs as edit: the trash takes b.
        let edit = run("board b.json\ndrag a after d\nsend {\"t\":\"moveTo\",\"id\":\"b\",\"section\":\"bin\",\"place\":\"last\"}\nexpect order todo: c\nexpect commits 2\n")
        #expect(edit.outcome == .passed, "\(TestReport.text(edit))")
        #expect(!edit.stream.contains { $0.starts(with: Wire.personLinePrefix) })
    }
}
