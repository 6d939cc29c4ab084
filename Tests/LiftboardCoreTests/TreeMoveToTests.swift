import Testing
@testable import LiftboardCore

/// "Move to…" on a tree board (docs/protocol.md, Trees): indent, outdent, first, last, up and
/// down each commit the `move` a drop there would; what cannot be done is `cannot_move`.
/// Board (maxDepth 2): groceries(0) milk(1) eggs(1, leaf) garden(0) bills(0); work (empty).
@Suite struct TreeMoveToTests {
    static func outline(maxDepth: Int? = 2) -> Board {
        func item(_ id: String, _ depth: Int, leaf: Bool = false) -> Item { Fixtures.node(id, depth, label: id.capitalized, leaf: leaf) }
        var home = Section(id: "home", title: "Home", items: [item("groceries", 0), item("milk", 1), item("eggs", 1, leaf: true),
                                                             item("garden", 0), item("bills", 0)])
        home.maxDepth = maxDepth
        return Board(id: "outline", layout: .tree, sections: [home, Section(id: "work", title: "Work", items: [])])
    }

    func depths(_ d: Driver) -> [String: Int] {
        var out: [String: Int] = [:]
        for c in d.ownCommits.suffix(1) { for so in c.order { for (k, id) in so.items.enumerated() {
            var depth = 0, p = so.parents?[k]
            while let q = p, let j = so.items.firstIndex(of: q) { depth += 1; p = so.parents?[j] }
            out[id] = depth
        } } }
        return out
    }

    @Test func indentMakesTheItemItsPreviousSiblingsLastChild() {
        var d = Driver(Self.outline())
        d.send(.moveTo(id: "bills", section: "home", place: .indent), at: 10)
        #expect(d.ownCommits.map(\.change) == [.move("bills", section: "home", parent: "garden", after: nil, index: 0)])
        d.send(.moveTo(id: "garden", section: "home", place: .indent), at: 20)
        #expect(d.ownCommits.last?.change == .move("garden", section: "home", parent: "groceries", after: "eggs", index: 2))
        #expect(depths(d)["bills"] == 2 && depths(d)["garden"] == 1)
        #expect(d.announcements.last == "Garden moved to position 3 of 3, nested under Groceries, level 2.")
    }

    @Test func indentIsRefusedWithNoPreviousSiblingALeafOrPastMaxDepth() {
        var d = Driver(Self.outline())
        d.send(.moveTo(id: "groceries", section: "home", place: .indent), at: 10)  // first: no previous sibling
        d.send(.moveTo(id: "milk", section: "home", place: .indent), at: 20)       // first child
        d.send(.moveTo(id: "eggs", section: "home", place: .indent), at: 30)       // under milk: fine
        #expect(d.ownCommits.map(\.change) == [.move("eggs", section: "home", parent: "milk", after: nil, index: 0)])
        d.send(.moveTo(id: "eggs", section: "home", place: .outdent), at: 40)
        // Under eggs (a leaf): refused.
        d.send(.moveTo(id: "milk", section: "home", place: .down), at: 50)
        d.send(.moveTo(id: "milk", section: "home", place: .indent), at: 60)
        #expect(d.errors == [.cannotMove, .cannotMove, .cannotMove])
        // Past maxDepth 1: eggs under milk would stand at depth 2.
        var m = Driver(Self.outline(maxDepth: 1))
        m.send(.moveTo(id: "eggs", section: "home", place: .indent), at: 10)
        #expect(m.ownCommits.isEmpty && m.errors == [.cannotMove])
    }

    @Test func outdentPutsTheItemAfterItsParentsSubtree() {
        var d = Driver(Self.outline())
        d.send(.moveTo(id: "milk", section: "home", place: .outdent), at: 10)
        #expect(d.ownCommits.map(\.change) == [.move("milk", section: "home", parent: nil, after: "groceries", index: 1)])
        #expect(d.order[0] == ["groceries", "eggs", "milk", "garden", "bills"])
        d.send(.moveTo(id: "garden", section: "home", place: .outdent), at: 20)
        #expect(d.errors == [.cannotMove])
    }

    @Test func firstLastUpAndDownMoveAmongSiblingsOrTopLevelItems() {
        var d = Driver(Self.outline())
        d.send(.moveTo(id: "eggs", section: "home", place: .up), at: 10)
        #expect(d.ownCommits.last?.change == .move("eggs", section: "home", parent: "groceries", after: nil, index: 0))
        d.send(.moveTo(id: "eggs", section: "home", place: .down), at: 20)
        #expect(d.ownCommits.last?.change == .move("eggs", section: "home", parent: "groceries", after: "milk", index: 1))
        d.send(.moveTo(id: "eggs", section: "home", place: .down), at: 30)  // last child already
        #expect(d.errors == [.cannotMove])
        d.send(.moveTo(id: "milk", section: "home", place: .last), at: 40)
        #expect(d.ownCommits.last?.change == .move("milk", section: "home", parent: nil, after: "bills", index: 3))
        d.send(.moveTo(id: "bills", section: "home", place: .first), at: 50)
        #expect(d.ownCommits.last?.change == .move("bills", section: "home", parent: nil, after: nil, index: 0))
        d.send(.moveTo(id: "groceries", section: "work", place: .last), at: 60)
        #expect(d.ownCommits.last?.change == .move("groceries", section: "work", parent: nil, after: nil, index: 0))
        #expect(d.order == [["bills", "garden", "milk"], ["groceries", "eggs"]])
        d.send(.moveTo(id: "garden", section: "work", place: .indent), at: 70)  // indent stays in its section
        #expect(d.errors == [.cannotMove, .cannotMove])
    }

    @Test func indentAndOutdentOnAListAreRefused() {
        var d = Driver(Fixtures.listBoard())
        d.send(.moveTo(id: "b", section: "todo", place: .indent), at: 10)
        d.send(.moveTo(id: "b", section: "todo", place: .outdent), at: 20)
        #expect(d.errors == [.cannotMove, .cannotMove] && d.ownCommits.isEmpty)
    }
}
