import Testing
@testable import LiftboardCore

/// A change names items, never indexes (contract §4): applied to any committed order.
@Suite struct ChangeTests {
    static func board(_ sections: [[String]], pinned: Set<String> = []) -> Board {
        Board(id: "b", sections: sections.enumerated().map { s, ids in
            Section(id: "s\(s)", items: ids.map { Item(id: $0, movable: !pinned.contains($0)) })
        })
    }

    static func ids(_ b: Board) -> [[String]] { b.sections.map { $0.items.map(\.id) } }

    @Test func everyInsertOfEveryItemAfterEveryAnchorMatchesAnArrayModel() {
        let start = [["a", "b", "c"], ["d", "e"], []]
        let all = start.flatMap { $0 }
        for x in all {
            for t in start.indices {
                for anchor in [nil] + all.filter({ $0 != x }) {
                    var model = start.map { $0.filter { $0 != x } }
                    let at: Int
                    if let y = anchor, let k = model[t].firstIndex(of: y) { at = k + 1 } else if anchor == nil { at = 0 } else { at = min(1, model[t].count) }
                    model[t].insert(x, at: at)
                    let change = Change.insert(id: x, section: "s\(t)", after: anchor, index: 1)
                    let result = Self.board(start).applying(change)
                    if model == start {
                        #expect(result == nil, "\(change) changes nothing")
                    } else {
                        #expect(result.map { Self.ids($0.board) } == model, "\(change)")
                        #expect(result?.board.version == 1)
                        #expect(result?.moves.first?.id == x)
                    }
                }
            }
        }
    }

    @Test func anExchangeOfItemsInTwoSectionsIsNothing() {
        let b = Self.board([["a", "b"], ["c"]])
        #expect(b.applying(.swap("a", "c")) == nil)
        #expect(b.applying(.swap("a", "a")) == nil)
        let swapped = b.applying(.swap("b", "a"))
        #expect(swapped.map { Self.ids($0.board) } == [["b", "a"], ["c"]])
        #expect(swapped?.moves.count == 2)
    }

    @Test func pinnedItemsTakeTheirIndexesBackAfterAnInsert() {
        // a b P c: c first -> c a b, P back at index 2 -> c a P b; P is reported only if it moved.
        let b = Self.board([["a", "b", "P", "c"]], pinned: ["P"])
        let r = b.applying(.insert(id: "c", section: "s0", after: nil, index: 0))
        #expect(r.map { Self.ids($0.board) } == [["c", "a", "P", "b"]])
        #expect(r?.moves.map(\.id) == ["c"])
        // A pinned item is never moved by a change, and never anchors one past itself.
        #expect(b.applying(.insert(id: "P", section: "s0", after: nil, index: 0)) == nil)
        // Its section too short for its index: it goes to the last index.
        let short = Self.board([["a", "P"], []], pinned: ["P"]).applying(.insert(id: "a", section: "s1", after: nil, index: 0))
        #expect(short.map { Self.ids($0.board) } == [["P"], ["a"]])
        #expect(short?.moves.map(\.id) == ["a", "P"])
    }

    @Test func anAnchorGoneFromTheSectionPlacesTheItemAtItsIndexClamped() {
        let b = Self.board([["a", "b", "c", "d"], ["e"]])
        let r = b.applying(.insert(id: "a", section: "s0", after: "e", index: 9))
        #expect(r.map { Self.ids($0.board) } == [["b", "c", "d", "a"], ["e"]])
        #expect(b.applying(.insert(id: "zz", section: "s0", after: nil, index: 0)) == nil)
        #expect(b.applying(.insert(id: "a", section: "nope", after: nil, index: 0)) == nil)
    }

    @Test func applyingInPlaceAndApplyingACommitAgree() {
        var b = Self.board([["a", "b", "c"], ["d"]])
        let change = Change.insert(id: "c", section: "s1", after: "d", index: 1)
        let expected = b.applying(change)
        let moves = b.apply(change)
        #expect(moves == expected?.moves)
        #expect(b == expected?.board)
        // A commit with its change and no order (commitOrder "none") applies through the change.
        let c = Commit(board: "b", version: 2, by: "x", moves: [], order: [], change: .swap("a", "b"))
        let applied = b.apply(c)
        #expect(applied)
        #expect(Self.ids(b) == [["b", "a"], ["d", "c"]] && b.version == 2)
        let stale = b.apply(Commit(board: "b", version: 9, by: "x", moves: [], order: [], change: .swap("a", "b")))
        #expect(!stale && b.version == 2)
    }

    /// `Board.apply` moves items as their places and permutes sections in place; the rule
    /// applied to the ids themselves is the reference. Random boards with pinned items, random
    /// inserts, swaps, groups and batches, within and across sections.
    @Test func applyingMatchesTheRuleOnIdsForRandomChanges() {
        var random = SplitMix64(seed: 2811)
        func int(_ n: Int) -> Int { Int(random.next() % UInt64(n)) }
        for _ in 0..<400 {
            let sectionCount = 1 + int(3)
            var next = 0
            let start: [[String]] = (0..<sectionCount).map { _ in
                (0..<int(7)).map { _ in next += 1; return "i\(next)" }
            }
            let all = start.flatMap { $0 }
            guard !all.isEmpty else { continue }
            let pinned = Set(all.filter { _ in int(6) == 0 })
            func pick() -> String { all[int(all.count)] }
            func anchor() -> String? { int(4) == 0 ? nil : pick() }
            func one() -> Change {
                switch int(3) {
                case 0: .insert(id: pick(), section: "s\(int(sectionCount))", after: anchor(), index: int(8))
                case 1: .swap(pick(), pick())
                default: .group(ids: (0..<(1 + int(3))).map { _ in pick() }, section: "s\(int(sectionCount))", after: anchor(), index: int(8))
                }
            }
            let change: Change = int(5) == 0 ? .batch((0..<(2 + int(2))).map { _ in one() }) : one()
            var board = Board(id: "b", sections: start.enumerated().map { s, ids in
                Section(id: "s\(s)", items: ids.map { Item(id: $0, label: "L\($0)", movable: !pinned.contains($0)) })
            })
            var ids = start
            let expected: [ChangeRule.Displacement<String>]
            if let resolved = board.resolveReorder(change, item: { id in all.contains(id) ? id : nil }) {
                expected = ChangeRule.apply(resolved, to: &ids, movable: { !pinned.contains($0) })
            } else {
                expected = []
            }
            let copy = board  // shares the sections' storage: applying must not reach it
            let moves = board.apply(change)
            #expect(Self.ids(copy) == start && copy.version == 0)
            if expected.isEmpty {
                #expect(moves == nil, "\(change) on \(start)")
                #expect(Self.ids(board) == start)
                continue
            }
            #expect(Self.ids(board) == ids, "\(change) on \(start)")
            #expect(moves?.map(\.id) == expected.map(\.item), "\(change) on \(start)")
            #expect(moves?.map(\.to.index) == expected.map(\.to.index))
            #expect(moves?.map(\.from.section) == expected.map { "s\($0.from.section)" })
            // Every item kept its own attributes.
            #expect(board.sections.allSatisfy { $0.items.allSatisfy { $0.label == "L\($0.id)" && $0.movable == !pinned.contains($0.id) } })
            #expect(board.version == 1)
        }
    }

    /// The usual drop (an insert within its own section, nothing pinned there) is applied
    /// without the rule's places: it must agree with the rule on ids, item for item, move for
    /// move, anchors elsewhere, absent or the item itself, indexes out of range included.
    @Test func anInsertWithinAnUnpinnedSectionAgreesWithTheRuleOnIds() {
        var random = SplitMix64(seed: 2812)
        func int(_ n: Int) -> Int { Int(random.next() % UInt64(n)) }
        var checked = 0
        for _ in 0..<600 {
            let sectionCount = 1 + int(3)
            var next = 0
            let start: [[String]] = (0..<sectionCount).map { _ in (0..<(1 + int(12))).map { _ in next += 1; return "i\(next)" } }
            let all = start.flatMap { $0 }
            // Pinned items in the other sections only, at times: they must not matter.
            let pinned = Set(all.filter { id in int(5) == 0 && !start[0].contains(id) })
            let x = start[0][int(start[0].count)]
            let anchor: String? = switch int(6) {
            case 0: nil
            case 1: "absent"
            case 2: x
            case 3: all[int(all.count)]
            default: start[0][int(start[0].count)]
            }
            let change = Change.insert(id: x, section: "s0", after: anchor, index: int(20) - 4)
            var board = Self.board(start, pinned: pinned)
            var ids = start
            let resolved = board.resolveReorder(change, item: { id in all.contains(id) ? id : nil })
            let expected = resolved.map { ChangeRule.apply($0, to: &ids, movable: { !pinned.contains($0) }) } ?? []
            let copy = board
            let moves = board.apply(change)
            #expect(Self.ids(copy) == start && copy.version == 0)
            if expected.isEmpty {
                #expect(moves == nil, "\(change) on \(start)")
                #expect(Self.ids(board) == start && board.version == 0)
                continue
            }
            checked += 1
            #expect(Self.ids(board) == ids, "\(change) on \(start)")
            #expect(moves?.map(\.id) == expected.map(\.item))
            #expect(moves?.map(\.from.index) == expected.map(\.from.index))
            #expect(moves?.map(\.to.index) == expected.map(\.to.index))
            #expect(moves?.map(\.to.section) == expected.map { "s\($0.to.section)" })
            #expect(board.version == 1)
        }
        #expect(checked > 300)
    }
}
