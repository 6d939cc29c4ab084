import Testing
@testable import LiftboardCore

/// `TreeOrder`: a forest as a pre-order with depths, and where a `move` puts a subtree.
@Suite struct TreeOrderTests {
    @Test func parentsFollowTheDepths() {
        #expect(TreeOrder.parents(depths: [0, 1, 2, 1, 0, 1]) == [nil, 0, 1, 0, nil, 4])
        #expect(TreeOrder.isPreOrder([0, 1, 2, 1, 0]))
        #expect(!TreeOrder.isPreOrder([0, 2]))
        #expect(!TreeOrder.isPreOrder([1]))
    }

    @Test func theDepthRoundsHalvesAwayFromZero() {
        #expect(DepthProjection.levels(dx: 12, indent: 24) == 1)
        #expect(DepthProjection.levels(dx: -12, indent: 24) == -1)
        #expect(DepthProjection.levels(dx: 11.9, indent: 24) == 0)
        #expect(DepthProjection.levels(dx: 60, indent: 24) == 3)
        #expect(DepthProjection.levels(dx: 500, indent: 0) == 0)
    }

    @Test func theBoundsAreTheRowAboveAndBelowThenMaxDepthAndLeaves() {
        #expect(DepthProjection.bounds(above: (2, false), below: 1, height: 0, deepest: 32) == 1...3)
        #expect(DepthProjection.bounds(above: (2, true), below: 1, height: 0, deepest: 32) == 1...2)
        #expect(DepthProjection.bounds(above: nil, below: nil, height: 0, deepest: 32) == 0...0)
        #expect(DepthProjection.bounds(above: (1, false), below: nil, height: 1, deepest: 1) == 0...0)
        #expect(DepthProjection.bounds(above: (0, false), below: 1, height: 1, deepest: 1) == nil)
    }

    /// Every item of every small forest moved under every parent after every sibling: the
    /// result is a forest again, the subtree whole and where the change says.
    @Test func everyMoveOfEverySmallForestKeepsAForest() {
        let forests: [[Int]] = [[0, 1, 1, 0], [0, 1, 2, 0, 1], [0, 0, 0], [0, 1, 2, 3], [0, 1, 0, 1, 2, 0]]
        for depths in forests {
            let n = depths.count
            for x in 0..<n {
                for parent in [nil] + (0..<n).map(Optional.some) {
                    for after in [nil] + (0..<n).map(Optional.some) {
                        var order = [Array(0..<n)]
                        var depth = depths
                        guard let plan = TreeOrder.plan(x, section: 0, parent: parent, after: after, index: 0, order: order,
                                                        depth: { depth[$0] }, leaf: { _ in false }, movable: { _ in true },
                                                        maxDepth: { _ in nil }) else { continue }
                        let subtree = Array(order[0][plan.start..<plan.end])
                        for h in subtree { depth[h] += plan.delta }
                        TreeOrder.carry(plan, in: &order)
                        let ds = order[0].map { depth[$0] }
                        #expect(TreeOrder.isPreOrder(ds), "\(depths): \(x) under \(String(describing: parent)) after \(String(describing: after)): \(ds)")
                        #expect(Set(order[0]) == Set(0..<n))
                        let i = order[0].firstIndex(of: x)!
                        #expect(Array(order[0][i..<(i + subtree.count)]) == subtree)
                        let p = TreeOrder.parents(depths: ds)[i].map { order[0][$0] }
                        if let parent, !subtree.contains(parent) { #expect(p == parent) }
                    }
                }
            }
        }
    }

    @Test func aParentInsideTheSubtreeOrALeafIsMoot() {
        let order = [[0, 1, 2, 3]]
        let depth = [0, 1, 0, 0]
        func plan(_ x: Int, _ p: Int?, leaf: Bool = false) -> TreeOrder.MovePlan? {
            TreeOrder.plan(x, section: 0, parent: p, after: nil, index: 0, order: order, depth: { depth[$0] },
                           leaf: { _ in leaf }, movable: { _ in true }, maxDepth: { _ in nil })
        }
        #expect(plan(0, 1) == nil)
        #expect(plan(0, 0) == nil)
        #expect(plan(3, 2, leaf: true) == nil)
        #expect(plan(3, 2) != nil)
    }

    @Test func aBoardAppliesAMoveAndItsRevertPutsItBack() {
        var b = Board(id: "t", layout: .tree, sections: [Section(id: "s", items: [Item(id: "a"), Item(id: "b"), Item(id: "c")])])
        b.sections[0].items[1].depth = 1
        let before = b
        let change = Change.move("c", section: "s", parent: "a", after: "b", index: 1)
        let revert = b.revert(of: change)
        #expect(revert == .move("c", section: "s", parent: nil, after: "a", index: 1))
        let moves = b.apply(change)
        #expect(moves == [Move(id: "c", from: Place(section: "s", index: 2), to: Place(section: "s", index: 2))])
        #expect(b.sections[0].items.map(\.depth) == [0, 1, 1])
        #expect(b.order[0].parents == [nil, "a", "a"])
        _ = b.apply(revert!)
        #expect(b.sections == before.sections)
    }
}
