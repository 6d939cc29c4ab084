import Testing
@testable import LiftboardCore

@Suite struct ArrangementTests {
    static func board(_ kind: LayoutKind, sizes: [Int], pinnedAt: Set<String> = []) -> Board {
        var n = 0
        let sections = sizes.enumerated().map { (s, count) in
            Section(id: "s\(s)", items: (0..<count).map { _ in
                defer { n += 1 }
                let id = "i\(n)"
                return Item(id: id, height: n % 3 == 0 ? 80 : nil, movable: !pinnedAt.contains(id))
            })
        }
        return Board(id: "b", layout: kind, sections: sections)
    }

    /// Moves every item to every place, within and across sections, checking the invariants
    /// and the result against a plain array model after each step.
    @Test(arguments: [LayoutKind.list, .grid])
    func everyFromToMoveKeepsTheInvariantsAndMatchesTheArrayModel(kind: LayoutKind) {
        for sizes in [[1, 0], [3], [4, 2], [3, 0, 2]] {
            let b = Self.board(kind, sizes: sizes)
            let start = Arrangement(board: b, width: 300)
            for h in 0..<start.itemCount {
                for t in 0..<start.sectionCount {
                    let limit = start.members[t].count + (start.sectionOf[h] == t ? 0 : 1)
                    for j in 0..<max(1, limit) {
                        var a = start
                        var model = a.members
                        let s = a.sectionOf[h]
                        model[s].removeAll { $0 == h }
                        model[t].insert(h, at: min(j, model[t].count))
                        let placed = a.move(h, toSection: t, index: j, pinnedHome: Array(repeating: 0, count: a.itemCount))
                        #expect(a.members == model, "\(kind) \(sizes): \(h) -> (\(t), \(j))")
                        #expect(placed == Place(section: "s\(t)", index: min(j, model[t].count - 1)))
                        #expect(a.invariantViolations().isEmpty, "\(a.invariantViolations())")
                    }
                }
            }
        }
    }

    @Test func pinnedItemsKeepTheirIndexAndClampToTheEndWhenTheSectionShrinks() {
        // s0 = [i0, i1 (pinned), i2], s1 = [i3]
        let b = Self.board(.list, sizes: [3, 1], pinnedAt: ["i1"])
        var a = Arrangement(board: b, width: 300)
        var home = Array(repeating: 0, count: a.itemCount)
        home[1] = 1
        a.move(0, toSection: 0, index: 2, pinnedHome: home)      // i0 to the end: hops i1
        #expect(a.members[0] == [2, 1, 0])
        a.move(0, toSection: 1, index: 0, pinnedHome: home)      // out: s0 = [i2, i1]
        a.move(2, toSection: 1, index: 0, pinnedHome: home)      // out: s0 = [i1], clamped to 0
        #expect(a.members[0] == [1])
        a.move(2, toSection: 0, index: 0, pinnedHome: home)      // back: i1 returns to index 1
        #expect(a.members[0] == [2, 1])
        #expect(a.invariantViolations().isEmpty)
    }

    @Test func hitTestingFindsCellsHeadersSlotsAndGaps() {
        let b = Self.board(.list, sizes: [2, 0])
        let a = Arrangement(board: b, width: 300)
        // header 0-32, i0 (80) 32-112, gap 112-113, i1 (56) 113-169, s1 header 169-201, slot 201-257
        #expect(a.region(at: Point(x: 10, y: 5)) == .header(0))
        #expect(a.region(at: Point(x: 10, y: 40)) == .cell(0))
        #expect(a.region(at: Point(x: 10, y: 112.5)) == .none)
        #expect(a.region(at: Point(x: 10, y: 150)) == .cell(1))
        #expect(a.region(at: Point(x: 10, y: 180)) == .header(1))
        #expect(a.region(at: Point(x: 10, y: 220)) == .slot(1))
        #expect(a.region(at: Point(x: 10, y: 300)) == .none)
    }

    @Test func theWindowQueryReturnsExactlyTheCellsThatIntersectIt() {
        for kind in [LayoutKind.list, .grid] {
            let b = Self.board(kind, sizes: [40, 0, 25])
            let a = Arrangement(board: b, width: 400)
            for y0 in stride(from: -50.0, through: a.contentHeight, by: 37) {
                let y1 = y0 + 211
                let expected = (0..<a.itemCount).filter { a.frame(of: $0).maxY > y0 && a.frame(of: $0).minY < y1 }
                    .sorted { (a.sectionOf[$0], a.indexOf[$0]) < (a.sectionOf[$1], a.indexOf[$1]) }
                var got: [Int] = []
                a.cells(from: y0, to: y1, into: &got)
                #expect(got == expected, "\(kind) \(y0)")
            }
        }
    }
}

@Suite struct BoardCommitTests {
    @Test func applyingACommitReordersItemsAcrossSectionsAndSetsTheVersion() {
        let b = Fixtures.listBoard()
        let c = Commit(board: "demo", version: 3, by: "s", moves: [],
                       order: [SectionOrder(section: "done", items: ["a"]), SectionOrder(section: "todo", items: ["d", "c", "b"]),
                               SectionOrder(section: "doing", items: ["e"])])
        let after = b.applying(c)
        #expect(after?.version == 3)
        #expect(after?.sections.map(\.id) == ["done", "todo", "doing"])
        #expect(after?.sections[1].items.map(\.id) == ["d", "c", "b"])
        #expect(after?.sections[1].items[1].movable == false)
    }

    @Test func aCommitThatLosesOrDuplicatesAnItemIsRefused() {
        let b = Fixtures.listBoard()
        let missing = Commit(board: "demo", version: 1, by: "s", moves: [],
                             order: [SectionOrder(section: "todo", items: ["a", "b", "c"]), SectionOrder(section: "doing", items: ["e"]),
                                     SectionOrder(section: "done", items: [])])
        #expect(b.applying(missing) == nil)
        var twice = missing
        twice.order[0].items = ["a", "b", "c", "d", "a"]
        #expect(b.applying(twice) == nil)
    }
}

/// `Arrangement.sharedPrefix` and `lastDifference` (eight handles at a time) answer what the
/// element-by-element loops they replaced answer, on random pairs of every length up to 40 and
/// differences anywhere.
@Suite struct SharedRangeTests {
    @Test func theBlockComparisonsEqualTheElementByElementLoops() {
        var rng = SplitMix64(seed: 28_100)
        var checked = 0
        for _ in 0..<4000 {
            let count = Int.random(in: 0...40, using: &rng)
            let a = (0..<count).map { _ in Int.random(in: 0..<5, using: &rng) }
            var b = a
            for _ in 0..<Int.random(in: 0...3, using: &rng) where count > 0 { b[Int.random(in: 0..<count, using: &rng)] = Int.random(in: 0..<5, using: &rng) }
            if Bool.random(using: &rng) && count > 0 { b.removeLast(Int.random(in: 0...count, using: &rng)) }
            let n = min(a.count, b.count)
            var i = 0
            while i < n && a[i] == b[i] { i += 1 }
            #expect(Arrangement.sharedPrefix(a, b, upTo: n) == i, "\(a) \(b)")
            if a.count == b.count && count > 0 {
                let from = min(i, count - 1)
                var end = count - 1
                while end > from && a[end] == b[end] { end -= 1 }
                #expect(Arrangement.lastDifference(a, b, above: from) == end, "\(a) \(b) above \(from)")
                checked += 1
            }
        }
        #expect(checked > 1000)
    }
}
