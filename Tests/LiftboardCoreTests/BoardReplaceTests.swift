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

/// A tree board replaced as a whole: nesting changes, new nested items, a removed parent whose
/// child stays, each reached by tree moves and edits (it was refused: every change was a list's).
@Suite struct TreeBoardReplaceTests {
    /// A forest from "id:depth" words, one section each.
    static func tree(_ sections: [(String, [String])]) -> Board {
        Board(id: "t", layout: .tree, sections: sections.map { id, words in
            Section(id: id, title: id.uppercased(), items: words.map { w in
                let parts = w.split(separator: ":")
                var item = Item(id: String(parts[0]), label: String(parts[0]), color: "#111")
                item.depth = Int(parts[1])!
                return item
            })
        })
    }

    @Test func everyTargetForestIsReachedOneVersionAChange() {
        let start = Self.tree([("s0", ["a:0", "b:1", "c:2", "d:0", "e:1"]), ("s1", ["f:0"])])
        let targets: [Board] = [
            // Nesting only: c outdented, d under a, e to the top level.
            Self.tree([("s0", ["a:0", "b:1", "c:1", "d:1", "e:0"]), ("s1", ["f:0"])]),
            // A parent removed whose child stays (b's subtree without b), a new nested item.
            Self.tree([("s0", ["a:0", "c:1", "n:2", "d:0", "e:1"]), ("s1", ["f:0"])]),
            // A subtree across sections, under an item there, and reversed siblings.
            Self.tree([("s0", ["d:0", "e:1"]), ("s1", ["f:0", "a:1", "b:2", "c:3"])]),
            // An item moved under what was its own child.
            Self.tree([("s0", ["b:0", "a:1", "c:2", "d:0", "e:1"]), ("s1", ["f:0"])]),
            // Everything gone but one leaf, and a new section.
            Self.tree([("s0", ["c:0"]), ("s1", []), ("s2", ["x:0", "y:1"])]),
            start,
        ]
        for target in targets {
            guard let changes = start.changes(to: target) else { Issue.record("unreachable: \(target.sections.map { $0.items.map { "\($0.id):\($0.depth)" } })"); continue }
            var b = start
            for c in changes { #expect(b.apply(c) != nil, "\(c) changes something") }
            #expect(b.sections == target.sections, "\(b.sections.map { $0.items.map { "\($0.id):\($0.depth)" } })")
            #expect(b.version == changes.count)
        }
        #expect(start.changes(to: start) == [])
    }

    /// What tree changes cannot express is refused, as on a list: another indent, and a
    /// forest that `maxDepth` forbids.
    @Test func whatTreeChangesCannotExpressIsRefused() {
        let start = Self.tree([("s0", ["a:0", "b:1"])])
        var wider = Self.tree([("s0", ["a:0", "b:1"])])
        wider.tree.indent = 40
        #expect(start.changes(to: wider) == nil)
        var capped = Self.tree([("s0", ["a:0", "b:1"])])
        capped.sections[0].maxDepth = 1
        var deep = Self.tree([("s0", ["a:0", "b:1", "c:2"])])
        deep.sections[0].maxDepth = 1
        #expect(capped.changes(to: deep) == nil)
    }
}
