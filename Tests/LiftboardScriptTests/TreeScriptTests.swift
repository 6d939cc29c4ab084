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

    /// A script on the example tree board (Examples/tests/boards/tree.json) with `body` after its setup lines.
    func run(_ body: String) -> ScriptResult {
        let board = Files.root.appendingPathComponent("Examples/tests/boards/tree.json").path
        let script = "board \(board)\nviewport 400 600\n\(body)\n"
        return ScriptFile.run(path: "t.lbtest", read: Files.reader(["t.lbtest": script]))
    }

    @Test func aDragIntoAnItemAndOneAtADepthCommitTheTreeTheyName() {
        let r = run("""
            drag bike into groceries
            drag seeds after milk at depth 2
            expect tree home: groceries (milk (seeds) eggs bike) garden (shed) bills (water phone)
            expect commits 2
            """)
        #expect(r.outcome == .passed, "\(TestReport.text(r))")
    }

    @Test func aFailedTreeExpectationNamesItsLineAndPrintsBothTrees() {
        let r = run("""
            drag bike into bills
            expect tree home: groceries (milk eggs) garden (seeds shed) bike (bills)
            """)
        expectTreeFailure(r, line: 4, expected: "home: groceries (milk eggs) garden (seeds shed) bike (bills)",
                          got: "home: groceries (milk eggs) garden (seeds shed) bills (water phone bike)")
        let text = TestReport.text(r)
        #expect(text.hasPrefix("t.lbtest:4: expect tree home: groceries (milk eggs) garden (seeds shed) bike (bills)\n"))
        #expect(text.contains("- expected home: groceries (milk eggs) garden (seeds shed) bike (bills)\n"))
        #expect(text.contains("+ got home: groceries (milk eggs) garden (seeds shed) bills (water phone bike)\n"))
        #expect(text.contains("version 1 by replay: bike under bills after phone in home -> home: groceries (milk eggs) garden (seeds shed) bills (water phone bike)"))
    }

    @Test func aDepthTheClampsRefuseIsNotReached() {
        // Under the leaf eggs nothing nests; and home takes no third level.
        for line in ["drag bike after eggs at depth 2", "drag bike after milk at depth 3"] {
            let r = run(line)
            guard case .failed(let f) = r.outcome, case .notReached = f.kind else { Issue.record("\(line): \(r.outcome)"); continue }
            #expect(r.stream.count > 2)
        }
    }

    @Test func anUnknownSectionInATreeExpectationIsAReadError() {
        #expect(run("expect tree nowhere: a").outcome == .broken(ScriptProblem(line: 3, error: .noSection(step: "expect tree", id: "nowhere"))))
    }

    @Test func describeWritesATreeDropAsItsRowAndDepthAndItsOrdersAsTrees() throws {
        let path = Files.golden.appendingPathComponent("tree-depth-sideways.jsonl").path
        let boardPath = Files.golden.appendingPathComponent("boards/outline.json").path
        let board = try Wire.decodeBoard(try #require(Files.read(boardPath)))
        let script = StreamDescriber.describe(stream: try #require(Files.read(path)), board: board, boardPath: boardPath)
        #expect(script.contains("\ndrag bills after eggs at depth 1\nexpect tree home: groceries (milk eggs bills) garden (seeds)\n"), "\(script)")
        #expect(!script.contains("expect order"))
        // Garden is collapsed: the row before milk is garden, not the seeds it hides.
        let undo = StreamDescriber.describe(stream: try #require(Files.read(Files.golden.appendingPathComponent("tree-undo.jsonl").path)),
                                            board: board, boardPath: boardPath)
        #expect(undo.contains("\ndrag milk after garden at depth 0\n"), "\(undo)")
    }

    /// The example board with garden collapsed (seeds and shed hidden): `drag X into garden`
    /// rests over garden's middle half until it springs open, then drops X as its last child.
    func runCollapsed(_ body: String) -> ScriptResult {
        let path = Files.root.appendingPathComponent("Examples/tests/boards/tree.json").path
        let file = String(decoding: Files.read(path)!, as: UTF8.self)
            .replacingOccurrences(of: #"{"id": "garden", "children""#, with: #"{"id": "garden", "collapsed": true, "children""#)
        let script = "board collapsed.json\nviewport 400 600\n\(body)\n"
        return ScriptFile.run(path: "t.lbtest", read: Files.reader(["t.lbtest": script, "collapsed.json": file]))
    }

    @Test func aDragIntoACollapsedItemSpringsItOpenAndLandsAsItsLastChildFromAboveAndBelow() {
        let r = runCollapsed("""
            drag bike into garden
            expect tree home: groceries (milk eggs) garden (seeds shed bike) bills (water phone)
            drag milk into garden
            expect tree home: groceries (eggs) garden (seeds shed bike milk) bills (water phone)
            expect commits 2
            """)
        #expect(r.outcome == .passed, "\(TestReport.text(r))")
        // Resting there took springMs (500) of the stream's time: 30 steps of 1000/60 ms at one point.
        #expect(r.stream.count > 60)
    }

    /// A drop one level right of a collapsed item before it springs open: X becomes its first
    /// child, where X's row was drawn (contract "Trees", spring-open).
    @Test func aDropUnderACollapsedItemBeforeItSpringsOpenLandsAsItsFirstChild() {
        let r = runCollapsed("""
            drag bike after garden at depth 1
            expect tree home: groceries (milk eggs) garden (bike seeds shed) bills (water phone)
            """)
        #expect(r.outcome == .passed, "\(TestReport.text(r))")
    }

    @Test func aDragIntoACollapsedItemThatExpectsItElsewhereFails() {
        let r = runCollapsed("""
            drag bike into garden
            expect tree home: groceries (milk eggs) garden (seeds shed) bike (bills)
            """)
        expectTreeFailure(r, line: 4, expected: "home: groceries (milk eggs) garden (seeds shed) bike (bills)",
                          got: "home: groceries (milk eggs) garden (seeds shed bike) bills (water phone)")
    }

    /// `r` failed at `line` on an `expect tree` that wanted `expected` and saw `got`.
    func expectTreeFailure(_ r: ScriptResult, line: Int, expected: String, got: String) {
        guard case .failed(let f) = r.outcome else { Issue.record("expected a failure, got \(r.outcome)"); return }
        #expect(f.line.number == line)
        #expect(f.kind == .expectation(expected: expected, got: got))
    }
}
