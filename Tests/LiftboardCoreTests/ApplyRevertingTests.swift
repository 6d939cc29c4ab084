import Testing
@testable import LiftboardCore

/// `Board.applyReverting` (a server's durable truth takes each commit and its revert, for
/// undo, from one search) agrees with `revert(of:)` on the board before and `apply` after.
@Suite struct ApplyRevertingTests {
    @Test func everyChangeGivesTheBoardMovesAndRevertOfRevertThenApply() {
        var random = SplitMix64(seed: 2826)
        func int(_ n: Int) -> Int { Int(random.next() % UInt64(n)) }
        var fast = 0
        for _ in 0..<2_000 {
            var next = 0
            let start: [[String]] = (0..<(1 + int(3))).map { _ in (0..<int(10)).map { _ in next += 1; return "i\(next)" } }
            let all = start.flatMap { $0 }
            // Pinned items on a board at times, in the drop's own section or not (there, the rule decides).
            let pinned = int(3) == 0 ? Set(all.filter { _ in int(3) == 0 }) : []
            let pick = { (ids: [String]) -> String in ids.isEmpty ? "absent" : ids[int(ids.count)] }
            let section = int(10) == 0 ? "absent" : "s\(int(start.count))"
            let change: Change = switch int(5) {
            case 0: .swap(pick(all), pick(all))
            case 1: .group(ids: [pick(all), pick(all)], section: section, after: int(3) == 0 ? nil : pick(all), index: int(6))
            default: .insert(id: int(8) == 0 ? "absent" : pick(all), section: section,
                             after: [nil, "absent", pick(all)][int(3)], index: int(14) - 3)
            }
            let board = ChangeTests.board(start, pinned: pinned)
            var expected = board
            let revert = board.revert(of: change)
            let moves = expected.apply(change)
            var taken = board
            let applied = taken.applyReverting(change)
            #expect(taken == expected, "\(change) on \(start), pinned \(pinned)")
            #expect(applied?.moves == moves)
            #expect(applied.map { $0.revert == revert } ?? true, "\(change) on \(start), pinned \(pinned)")
            if case .insert(_, let s, _, _) = change, moves != nil, let t = board.sections.firstIndex(where: { $0.id == s }),
               board.sections[t].items.allSatisfy(\.movable), moves?.count == 1, moves?[0].from.section == s {
                fast += 1
            }
        }
        // The usual drop (the search's own revert) was among them often enough to mean something.
        #expect(fast > 200)
    }
}
