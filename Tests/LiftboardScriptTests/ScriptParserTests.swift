import Testing
import LiftboardCore
import LiftboardWire
@testable import LiftboardScript

@Suite struct ScriptParserTests {
    @Test func readsEveryStepSpelling() throws {
        let text = """
            # a comment
            board boards/list.json
            viewport 400 600
            config {"pressMs": 300}

            drag a after c
            drag "my card" first in done then cancel
            drag a onto d
            press b
            tap b
            pan down 120
            wheel 0 -40
            key " " ArrowDown Enter
            wait 250
            send {"t":"ping","id":1,"ms":5000}
            expect order todo: b c a d
            expect order done:
            expect order "to do" : x
            expect commits 2
            expect lifted a
            expect announce moved to position 2
            """
        let lines = try ScriptParser.parse(text)
        #expect(lines.map(\.number) == [2, 3, 4] + Array(6...21))
        #expect(lines.map(\.step) == [
            .board("boards/list.json"), .viewport(w: 400, h: 600),
            .config(.object([("pressMs", .number(300))])),
            .drag(item: "a", to: .after("c"), cancel: false),
            .drag(item: "my card", to: .first(section: "done"), cancel: true),
            .drag(item: "a", to: .onto("d"), cancel: false),
            .press("b"), .tap("b"), .pan(.down, 120), .wheel(dx: 0, dy: -40),
            .key([" ", "ArrowDown", "Enter"]), .wait(250),
            .send(.object([("t", .string("ping")), ("id", .number(1)), ("ms", .number(5000))])),
            .expectOrder(section: "todo", items: ["b", "c", "a", "d"]),
            .expectOrder(section: "done", items: []),
            .expectOrder(section: "to do", items: ["x"]),
            .expectCommits(2), .expectLifted("a"), .expectAnnounce("moved to position 2"),
        ])
        #expect(lines[3].text == "drag a after c")
    }

    @Test func readsSidewaysPansAndWheelsWithAPlace() throws {
        let lines = try ScriptParser.parse("pan left 40\npan right 8\nwheel 5 -40 at 120 300")
        #expect(lines.map(\.step) == [.pan(.left, 40), .pan(.right, 8), .wheel(dx: 5, dy: -40, at: Point(x: 120, y: 300))])
        #expect(throws: ScriptProblem(line: 1, error: .syntax(step: "wheel", usage: "wheel DX DY [at X Y]"))) {
            try ScriptParser.parse("wheel 0 1 at 5")
        }
    }

    @Test func readsClicksWithModifiersAndTheSelectionExpectation() throws {
        let lines = try ScriptParser.parse("click a\nclick \"my card\" with ctrl shift\nclick b with meta\nexpect selected a b\nexpect selected")
        #expect(lines.map(\.step) == [
            .click("a", mods: []), .click("my card", mods: [.ctrl, .shift]), .click("b", mods: .meta),
            .expectSelected(["a", "b"]), .expectSelected([]),
        ])
    }

    @Test(arguments: [
        ("jump a", 1, ScriptReadError.unknownStep("jump")),
        ("drag a beside b", 1, .syntax(step: "drag", usage: "drag X after Y [at depth N] | drag X first in S | drag X onto Y | drag X into Y [then cancel]")),
        ("wait soon", 1, .badNumber(step: "wait", text: "soon")),
        ("tap a\nviewport 10 10", 2, .setupAfterGesture("viewport")),
        ("key \"x", 1, .unterminatedString),
        ("send {\"t\":\"move\"}", 1, .badMessage("move.p: missing")),
        ("click a with", 1, .syntax(step: "click", usage: "click ITEM [with shift|ctrl|meta|alt ...]")),
        ("click a with hyper", 1, .syntax(step: "click", usage: "click ITEM [with shift|ctrl|meta|alt ...]")),
        ("click a ctrl", 1, .syntax(step: "click", usage: "click ITEM [with shift|ctrl|meta|alt ...]")),
    ])
    func namesTheLineOfWhatItCannotRead(text: String, line: Int, error: ScriptReadError) {
        #expect(throws: ScriptProblem(line: line, error: error)) { try ScriptParser.parse(text) }
    }

    @Test func readsWindowsLineEndings() throws {
        let lines = try ScriptParser.parse("board b.json\r\n# c\r\ntap a\r\nexpect order s: a b\r\n")
        #expect(lines.map(\.step) == [.board("b.json"), .tap("a"), .expectOrder(section: "s", items: ["a", "b"])])
        #expect(lines.map(\.number) == [1, 3, 4])
    }

    @Test func writesTokensBackSoTheyReadTheSame() throws {
        for s in ["a", " ", "my card", "x:", "\"q\"", "#h"] {
            let tokens = try ScriptToken.split(Substring(ScriptToken.written(s)))
            #expect(tokens.map(\.text) == [s])
        }
    }
}
