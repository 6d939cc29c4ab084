import Testing
@testable import LiftboardCore

/// Two fingers on a tree board (docs/protocol.md, "Trees": the drop's parent walk). Finger 2
/// holds a lifted row; finger 1 drops just below that row, one indent right of it. The lifted
/// subtree travels with finger 2, so its row is no parent: the drop lands under the nearest row
/// above that no drag holds. Before the fix the walk took the lifted row as the parent: a
/// palette copy landed hidden inside finger 2's subtree and finger 1 got no `drop` and no
/// settled snapshot; a moved item vanished into finger 2's drag.
@Suite struct TreeTwoFingerDropTests {
    func item(_ id: String, _ depth: Int) -> Item { Fixtures.node(id, depth) }

    func forest(_ b: Board?, _ s: Int) -> [String] { b?.sections[s].items.map { "\($0.id):\($0.depth)" } ?? [] }

    /// Finger 1's `drop` of `id` (not cancelled) and its snapshot's landing (`done`).
    func settled(_ d: Driver, _ id: String) -> (drop: Place?, landed: Bool) {
        let drop = d.out.lazy.compactMap { if case .drop(1, id, let at, false) = $0 { at } else { nil } }.first
        let landed = d.out.contains { if case .frame(let f) = $0 { f.snapshots.contains { $0.p == 1 && $0.id == id && $0.done } } else { false } }
        return (drop, landed)
    }

    /// Rows 44 tall, headers 32: main (maxDepth 1) holding `items`, then `more` sections.
    /// a carries b, so it never goes deeper than 0.
    func board(_ items: [Item], then more: [Section] = []) -> Board {
        var main = Section(id: "main", title: "Main", items: items)
        main.maxDepth = 1
        var b = Board(id: "t", layout: .tree, sections: [main] + more)
        b.list = ListMetrics(rowHeight: 44, headerHeight: 32, spacing: 0)
        return b
    }

    /// Main (x, a, b under a), then templates (tpl).
    func paletteBoard() -> Board {
        var palette = Section(id: "templates", title: "Templates", items: [item("tpl", 0)])
        palette.copy = true
        return board([item("x", 0), item("a", 0), item("b", 1)], then: [palette])
    }

    @Test func aPaletteCopyDroppedBelowAnotherFingersLiftedRowLandsAsARowAndSettles() {
        var d = Driver(paletteBoard())
        // Finger 2 lifts a (x 32, a 76 ..< 120): b leaves the rows with it, the templates'
        // header rises to 120, tpl to 152 ..< 196.
        d.send(.down(pointer: 2, at: Point(x: 200, y: 98), kind: .touch), at: 0)
        d.send(.move(pointer: 2, at: Point(x: 200, y: 98)), at: 600)
        #expect(d.session.holds == ["a", "b"])
        // Finger 1 lifts tpl, takes it up into main below a's row and one indent right: drawn
        // at depth 1, just below a (whose depth cannot follow: forbidden).
        d.drag(p: 1, from: Point(x: 200, y: 174), to: Point(x: 224, y: 130), at: 700, release: false)
        #expect(d.session.liveTree?[0].map { "\($0.id):\($0.depth)" } == ["x:0", "a:0", "tpl:1"])
        d.send(.up(pointer: 1, at: Point(x: 224, y: 130)), at: 1000)
        // The copy is x's child (a travels with finger 2), a row, and finger 1 settles on it.
        #expect(forest(d.session.committedBoard, 0) == ["x:0", "tpl~1:1", "a:0", "b:1"])
        #expect(d.session.liveOrder?[0].items == ["x", "a", "tpl~1"], "the copy is a row where it was dropped")
        let s = settled(d, "tpl")
        #expect(s.drop?.section == "main" && s.drop?.index == 2, "finger 1's drop names the copy's row: \(String(describing: s.drop))")
        #expect(s.landed, "finger 1's snapshot lands")
        #expect(d.announcements.last == "Copied tpl to Main, position 3.")
        #expect(d.session.holds == ["a", "b"], "finger 2 still holds a with b, and nothing more")
        // Finger 2 drops where it is: the copy stays where finger 1 left it.
        d.send(.up(pointer: 2, at: Point(x: 200, y: 98)), at: 1100)
        d.settle()
        #expect(d.session.holds.isEmpty)
        #expect(forest(d.session.committedBoard, 0).contains("tpl~1:1"))
        #expect(d.session.liveOrder?[0].items.contains("tpl~1") == true)
    }

    /// Rows 44 tall, header 32 (maxDepth 1): x 32, a 76, b (under a) 120, c 164.
    func moveBoard() -> Board { board([item("x", 0), item("a", 0), item("b", 1), item("c", 0)]) }

    @Test func aRowMovedBelowAnotherFingersLiftedRowStaysWhereItWasDropped() {
        var d = Driver(moveBoard())
        // Finger 2 lifts a: b leaves the rows, c's row rises to 120 ..< 164, right below a's.
        d.send(.down(pointer: 2, at: Point(x: 200, y: 98), kind: .touch), at: 0)
        d.send(.move(pointer: 2, at: Point(x: 200, y: 98)), at: 600)
        // Finger 1 lifts c and slides one indent right: drawn at depth 1, just below a.
        d.drag(p: 1, from: Point(x: 200, y: 142), to: Point(x: 224, y: 142), at: 700, release: false)
        #expect(d.session.liveTree?[0].map { "\($0.id):\($0.depth)" } == ["x:0", "a:0", "c:1"])
        d.send(.up(pointer: 1, at: Point(x: 224, y: 142)), at: 1000)
        #expect(d.ownCommits.map(\.change) == [.move("c", section: "main", parent: "x", after: nil, index: 0)])
        #expect(d.session.holds == ["a", "b"], "c is no part of finger 2's drag")
        #expect(d.session.liveOrder?[0].items == ["x", "a", "c"], "c is a row where it was dropped")
        let s = settled(d, "c")
        #expect(s.drop?.section == "main" && s.drop?.index == 2, "\(String(describing: s.drop))")
        #expect(s.landed)
        d.send(.up(pointer: 2, at: Point(x: 200, y: 98)), at: 1100)
        d.settle()
        #expect(d.session.holds.isEmpty)
        #expect(forest(d.session.committedBoard, 0).contains("c:1"), "c stays x's child")
    }

    /// The keyboard beside a finger: its words name the parent its drop commits, not the row
    /// the finger lifts.
    @Test func theKeyboardBelowAFingersLiftedRowSaysAndDropsUnderTheRowNoDragHolds() {
        var d = Driver(moveBoard())
        d.send(.down(pointer: 2, at: Point(x: 200, y: 98), kind: .touch), at: 0)
        d.send(.move(pointer: 2, at: Point(x: 200, y: 98)), at: 600)  // a lifted, b with it
        d.send(.key("Tab"), at: 700)
        for t in [800.0, 900] { d.send(.key("ArrowDown"), at: t) }
        #expect(d.announcements.last?.hasPrefix("c, ") == true, "\(d.announcements)")
        d.send(.key(" "), at: 1000)
        d.send(.key("ArrowRight"), at: 1100)
        #expect(d.announcements.last == "c moved to position 1 of 1, nested under x, level 2.")
        d.send(.key(" "), at: 1200)
        #expect(d.ownCommits.map(\.change) == [.move("c", section: "main", parent: "x", after: nil, index: 0)])
        #expect(d.announcements.last == "Dropped c, position 1 of 1, nested under x, level 2.")
        #expect(d.session.holds == ["a", "b"])
    }

    /// The nearest row above that no drag holds is a `leaf`: the move is moot (as any move
    /// under a leaf), nothing is committed, and the row settles back where it was, a row.
    @Test func belowAFingersLiftedRowWithALeafAboveTheDropIsMoot() {
        var b = moveBoard()
        b.sections[0].items[0].leaf = true
        var d = Driver(b)
        d.send(.down(pointer: 2, at: Point(x: 200, y: 98), kind: .touch), at: 0)
        d.send(.move(pointer: 2, at: Point(x: 200, y: 98)), at: 600)
        d.drag(p: 1, from: Point(x: 200, y: 142), to: Point(x: 224, y: 142), at: 700, release: false)
        #expect(d.session.liveTree?[0].map { "\($0.id):\($0.depth)" } == ["x:0", "a:0", "c:1"])
        d.send(.up(pointer: 1, at: Point(x: 224, y: 142)), at: 1000)
        #expect(d.ownCommits.isEmpty)
        #expect(d.session.liveTree?[0].map { "\($0.id):\($0.depth)" } == ["x:0", "a:0", "c:0"])
        let s = settled(d, "c")
        #expect(s.drop?.index == 2 && s.landed)
        #expect(d.session.holds == ["a", "b"])
    }
}
