import Testing
import LiftboardCore
import LiftboardWire
@testable import LiftboardScript

@Suite struct GoldenTwinTests {
    static let twins = Files.list(Files.root.appendingPathComponent("Tests/twins"), suffix: ".lbtest")

    /// A twin's run commits the orders its golden stream commits, in the same sequence.
    @Test(arguments: twins)
    func aTwinCommitsWhatItsGoldenStreamCommits(_ path: String) throws {
        let text = String(decoding: try #require(Files.read(path)), as: UTF8.self)
        let name = try #require(text.split(separator: "\n").first { $0.hasPrefix("# twin of: ") }).dropFirst(11)
        let golden = String(decoding: try #require(Files.read(Files.golden.appendingPathComponent(String(name)).path)), as: UTF8.self)
        let boardFile = String(golden.split(separator: "\n")[0].dropFirst(9).split(separator: " ")[0])
        let board = try Wire.decodeBoard(try #require(Files.read(Files.golden.appendingPathComponent("boards/\(boardFile)").path)))

        let r = ScriptFile.run(path: path, read: Files.read)
        #expect(r.outcome == .passed, "\(TestReport.text(r))")
        var twin = StreamDriver(board: board, viewport: Size(w: 1, h: 1))
        for l in r.stream { twin.send(l) }
        var recorded = StreamDriver(board: board, viewport: Size(w: 1, h: 1))
        for l in golden.split(separator: "\n", omittingEmptySubsequences: false) { recorded.send(Array(l.utf8)) }
        #expect(twin.commits.map(\.order) == recorded.commits.map(\.order))
        #expect(twin.ownCommits == recorded.ownCommits)
    }

    @Test func thereAreTwins() { #expect(Self.twins.count >= 5) }
}
