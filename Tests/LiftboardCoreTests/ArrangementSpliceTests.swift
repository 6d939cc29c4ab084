import Testing
@testable import LiftboardCore

/// `Arrangement.splice` (a tree's toggle) shifts the rows after the splice by one index and one
/// top difference where sums of heights are exact (`exactSums`): every index and top is then
/// what summing the rows in order gives, bit for bit (`invariantViolations` compares the tops
/// exactly; `setOrder` sums every section again from its first row).
@Suite struct ArrangementSpliceTests {
    static func board(heights: [Double?], rng: inout SplitMix64) -> Board {
        var n = 0
        let sections = (0..<3).map { s in
            Section(id: "s\(s)", items: (0..<Int.random(in: 1...60, using: &rng)).map { _ in
                n += 1
                return Fixtures.node("i\(n)", 0, label: nil).with(height: heights[Int.random(in: 0..<heights.count, using: &rng)])
            })
        }
        var b = Board(id: "t", layout: .tree, sections: sections)
        b.tree = TreeMetrics(indent: 24)
        return b
    }

    /// Heights such as 0.1 do not sum exactly: such a board sums its tops again (as before).
    @Test func exactSumsOnlyWhereEveryHeightIsExact() {
        var rng = SplitMix64(seed: 4344)
        #expect(Arrangement(board: Self.board(heights: [30, nil, 44.5], rng: &rng), width: 400).exactSums)
        #expect(!Arrangement(board: Self.board(heights: [0.1, 33.3, nil], rng: &rng), width: 400).exactSums)
    }

    @Test func splicesLeaveEveryIndexAndTopSummed() {
        var rng = SplitMix64(seed: 4343)
        for _ in 0..<40 {
            var a = Arrangement(board: Self.board(heights: [30, nil, 44.5, 0.25], rng: &rng), width: 400)
            #expect(a.exactSums)
            var parked: [Int] = []
            for _ in 0..<30 {
                let s = Int.random(in: 0..<a.sectionCount, using: &rng), n = a.members[s].count
                let lo = Int.random(in: 0...n, using: &rng), count = Int.random(in: 0...(n - lo), using: &rng)
                let removed = Array(a.members[s][lo..<(lo + count)])
                parked.shuffle(using: &rng)
                let k = Int.random(in: 0...parked.count, using: &rng)
                let rows = Array(parked.prefix(k))
                parked = Array(parked.dropFirst(k)) + removed
                a.splice(section: s, at: lo, removing: count, inserting: rows)
                var summed = a
                summed.setOrder(a.members)
                let v = a.invariantViolations()
                #expect(v.isEmpty, "\(v.prefix(3))")
                #expect(a.tops == summed.tops && a.indexOf == summed.indexOf && a.sectionOf == summed.sectionOf)
                if !v.isEmpty || a.tops != summed.tops { return }
            }
        }
    }
}

private extension Item {
    func with(height: Double?) -> Item {
        var i = self
        i.height = height
        return i
    }
}
