import Testing
@testable import LiftboardCore

/// A palette on a tree board (docs/protocol.md, "Trees": palettes copy the whole subtree). A
/// pointer drag out of it committed a `move`: the template left the palette.
@Suite struct TreePaletteTests {
    func item(_ id: String, _ depth: Int) -> Item { Fixtures.node(id, depth) }

    /// Rows 44 tall, headers 32: templates (tpl, step1, step2), then main (a, b).
    func board() -> Board {
        var palette = Section(id: "templates", title: "Templates", items: [item("tpl", 0), item("step1", 1), item("step2", 1)])
        palette.copy = true
        var b = Board(id: "t", layout: .tree, sections: [palette, Section(id: "main", title: "Main", items: [item("a", 0), item("b", 1)])])
        b.list = ListMetrics(rowHeight: 44, headerHeight: 32, spacing: 0)
        return b
    }

    func forest(_ b: Board?, _ s: Int) -> [String] { b?.sections[s].items.map { "\($0.id):\($0.depth)" } ?? [] }

    @Test func aDragOutOfATreePaletteDropsACopyOfTheSubtreeWhereTheRowAndDepthSay() {
        var d = Driver(board())
        // tpl lifted (its steps leave the rows: main's header then stands at 76, a at 108, b at
        // 152), taken below b and one indent right: under a, after b.
        d.drag(from: Point(x: 200, y: 54), to: Point(x: 224, y: 230), at: 0)
        let committed = d.session.committedBoard
        #expect(forest(committed, 0) == ["tpl:0", "step1:1", "step2:1"], "the palette keeps its template")
        #expect(forest(committed, 1) == ["a:0", "b:1", "tpl~1:1", "step1~1:2", "step2~1:2"])
        guard case .copyItem(let id, let new, let section, let after, _, let parent)? = d.ownCommits.last?.change else {
            Issue.record("no copy: \(String(describing: d.ownCommits.last?.change))")
            return
        }
        #expect((id, new, section, after, parent) == ("tpl", "tpl~1", "main", "b", "a"))
        #expect(d.announcements.last == "Copied tpl to Main, position 3.")
    }

    /// Found by the `tree` fuzz target: a copy dropped under a collapsed item (one indent right
    /// of it, after its hidden child) was parked, and the drop read its frame out of range (a
    /// trap: the server would have crashed). It lands as a row, as a moved item does: the
    /// collapsed item expands in this session.
    @Test func aCopyDroppedUnderACollapsedItemLandsAsARowAndTheItemExpands() {
        var b = board()
        b.sections[1].items[0].collapsed = true
        var d = Driver(b)
        // tpl lifted (its steps leave the rows: main's header at 76, a at 108; b hidden under
        // a), taken below a and one indent right: a child of a.
        d.drag(from: Point(x: 200, y: 54), to: Point(x: 224, y: 190), at: 0)
        let main = forest(d.session.committedBoard, 1)
        #expect(Set(main) == ["a:0", "b:1", "tpl~1:1", "step1~1:2", "step2~1:2"], "the copy is a's child, its steps under it")
        let rows = d.session.liveOrder?[1].items ?? []
        #expect(Set(rows) == ["a", "b", "tpl~1", "step1~1", "step2~1"], "a expanded: every row shown, the copy a row")
        #expect(d.announcements.last?.hasPrefix("Copied tpl to Main, position ") == true)
    }

    /// The same change applied by another process (a commit from elsewhere, a store) gives the
    /// copies the same ids, `~2` where the board has one already; undo takes the subtree away.
    @Test func aCopyAppliedElsewhereNamesItsItemsAlikeAndItsRevertRemovesThem() {
        var b = board()
        b.sections[1].items.append(item("step1~1", 0))
        let copy = Change.copyItem(id: "tpl", as: "tpl~1", section: "main", after: nil, index: 0, parent: nil)
        let revert = b.revert(of: copy)
        #expect(b.apply(copy) != nil)
        #expect(forest(b, 1) == ["tpl~1:0", "step1~1~2:1", "step2~1:1", "a:0", "b:1", "step1~1:0"])
        #expect(b.apply(revert!) != nil)
        #expect(forest(b, 1) == ["a:0", "b:1", "step1~1:0"])
    }
}
