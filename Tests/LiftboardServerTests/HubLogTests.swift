import Testing
import LiftboardCore
@testable import LiftboardServer

/// The commit's info log line keeps its text: `board B vN: id section[i]->section[j], …`.
@Suite struct HubLogTests {
    @Test func aCommitsLogLineNamesTheBoardVersionAndEveryMoveAsItAlwaysDid() {
        let moves = [Move(id: "a", from: Place(section: "todo", index: 0), to: Place(section: "done", index: 3)),
                     Move(id: "card-ü 2", from: Place(section: "in progress", index: 12), to: Place(section: "todo", index: 0))]
        for count in 0...moves.count {
            let c = Commit(board: "team-board", version: 1_234 + count, by: "s1", moves: Array(moves.prefix(count)), order: [])
            // The line as it was written before: interpolated move by move, then joined.
            let before = "board \(c.board) v\(c.version): \(c.moves.map { "\($0.id) \($0.from)->\($0.to)" }.joined(separator: ", "))"
            #expect(Hub.logDetail(of: c) == before)
        }
        let one = Commit(board: "b", version: 7, by: "s1", moves: [moves[0]], order: [])
        #expect(Hub.logDetail(of: one) == "board b v7: a todo[0]->done[3]")
    }

    @Test func decimalsAreWrittenAsStringWritesThem() {
        for n in [0, 1, 9, 10, 99, 100, 1_234, -1, -10, -9_876, Int.max, Int.min, Int.max - 1, Int.min + 1] {
            let line = LogLine()
            line.append("x")
            line.appendDecimal(n)
            #expect(line.text == "x" + String(n))
        }
    }
}
