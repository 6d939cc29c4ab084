import Testing
@testable import LiftboardCore

/// A board replaced as a whole becomes a list of changes that sessions understand.
@Suite struct BoardReplaceTests {
    static func board(_ sections: [(String, [String])], pinned: Set<String> = [], labels: [String: String] = [:]) -> Board {
        Board(id: "b", sections: sections.map { id, ids in
            Section(id: id, title: id.uppercased(), items: ids.map { Item(id: $0, label: labels[$0] ?? $0, color: "#111", movable: !pinned.contains($0)) })
        })
    }

    /// Every permutation of which items stay, over two sections, with new ones and a new section.
    @Test func everyReachableTargetIsReachedByItsChangesOneVersionEach() {
        let start = Self.board([("s0", ["a", "b", "c"]), ("s1", ["d"])])
        let targets: [Board] = [
            Self.board([("s0", ["c", "a"]), ("s1", ["d", "b"])]),
            Self.board([("s0", []), ("s1", ["a", "b", "c", "d"])]),
            Self.board([("s0", ["n", "b"]), ("s1", ["d"]), ("s2", ["a", "m"])]),
            Self.board([("s0", ["a", "b", "c"])], labels: ["b": "Bee"]),
            Self.board([("new", ["d", "c"]), ("s0", ["a"])]),
            start,
        ]
        for target in targets {
            guard let changes = start.changes(to: target) else { Issue.record("unreachable: \(target.sections)"); continue }
            var b = start
            for c in changes { #expect(b.apply(c) != nil, "\(c) changes something") }
            #expect(b.sections == target.sections)
            #expect(b.version == changes.count)
        }
        #expect(start.changes(to: start) == [])
    }

    @Test func whatChangesCannotExpressIsRefused() {
        let start = Self.board([("s0", ["a", "p", "b"]), ("s1", [])], pinned: ["p"])
        // Sections in another order.
        #expect(start.changes(to: Self.board([("s1", []), ("s0", ["a", "p", "b"])], pinned: ["p"])) == nil)
        // Another layout.
        var grid = start
        grid.layout = .grid
        #expect(start.changes(to: grid) == nil)
        // A pinned item made movable and moved is fine.
        #expect(start.changes(to: Self.board([("s0", ["p", "a", "b"]), ("s1", [])])) != nil)
    }
}
