import Testing
import LiftboardCore
import LiftboardWire
@testable import LiftboardScript

/// Trees in gesture scripts (issue 43; docs/testing.md, "Trees"): the tree notation, the steps
/// that read it, and `expect tree`'s failure report.
@Suite struct TreeScriptTests {
    @Test func theNotationReadsNestingAndWritesItBack() throws {
        let forest = try TreeNotation.parse("a (b c (d)) e")
        #expect(forest == [TreeNode("a", [TreeNode("b"), TreeNode("c", [TreeNode("d")])]), TreeNode("e")])
        #expect(TreeNotation.write(forest) == "a (b c (d)) e")
        // Blanks around parentheses do not matter; quoted ids may hold them.
        #expect(try TreeNotation.parse(" a(b( c ))") == [TreeNode("a", [TreeNode("b", [TreeNode("c")])])])
        let odd = try TreeNotation.parse(#""my card" ("(draft)" x:)"#)
        #expect(odd == [TreeNode("my card", [TreeNode("(draft)"), TreeNode("x:")])])
        #expect(TreeNotation.write(odd) == #""my card" ("(draft)" "x:")"#)
        #expect(try TreeNotation.parse(Substring(TreeNotation.write(odd))) == odd)
        #expect(try TreeNotation.parse("") == [])
    }

    @Test(arguments: ["(a)", "a (b", "a b)", "a ()", "a (b) (c)", "a ((b))", "\"a"])
    func aMalformedTreeIsASyntaxError(_ text: String) {
        #expect(throws: ScriptReadError.self) { try TreeNotation.parse(Substring(text)) }
    }

    @Test func aForestComesFromPreOrderAndParents() {
        let items = ["a", "b", "c", "d", "e"]
        #expect(TreeNotation.forest(items: items, parents: [nil, "a", "a", "c", nil])
                == [TreeNode("a", [TreeNode("b"), TreeNode("c", [TreeNode("d")])]), TreeNode("e")])
        // Without parents (a board that is no tree's): every item top level.
        #expect(TreeNotation.write(TreeNotation.forest(items: items, parents: nil)) == "a b c d e")
        #expect(TreeNotation.sectionText("home", []) == "home:")
        #expect(TreeNotation.sectionText("to do", [TreeNode("a", [TreeNode("b")])]) == #""to do": a (b)"#)
    }

    @Test func theTreeStepsParse() throws {
        let lines = try ScriptParser.parse("""
            board b.json
            drag a into b
            drag a after c at depth 2
            drag "my card" after c at depth 0 then cancel
            expect tree home: a (b c (d)) e
            expect tree "to do" : x(y)
            expect tree done:
            """)
        #expect(lines.map(\.step) == [
            .board("b.json"),
            .drag(item: "a", to: .into("b"), cancel: false),
            .drag(item: "a", to: .afterAt("c", depth: 2), cancel: false),
            .drag(item: "my card", to: .afterAt("c", depth: 0), cancel: true),
            .expectTree(section: "home", forest: [TreeNode("a", [TreeNode("b"), TreeNode("c", [TreeNode("d")])]), TreeNode("e")]),
            .expectTree(section: "to do", forest: [TreeNode("x", [TreeNode("y")])]),
            .expectTree(section: "done", forest: []),
        ])
        #expect(lines[4].step.keyword == "expect tree")
        #expect(lines[4].step.isExpectation)
    }

    @Test(arguments: [
        "drag a after c at depth", "drag a after c at depth -1", "drag a after c at depth 33", "drag a after c at depth x",
        "drag a into", "expect tree home a (b)", "expect tree : a", "expect tree home: a (b",
    ])
    func aWrongTreeStepIsAReadErrorAtItsLine(_ line: String) {
        #expect(throws: ScriptProblem.self) { try ScriptParser.parse("board b.json\n\(line)") }
    }
}
