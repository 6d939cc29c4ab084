/// What layouts that stack things share: rows below a header (lists, columns: prefix sums,
/// binary searches) and sections one below the other (lists, grids).
extension Arrangement {
    /// Whether rows of these heights stack with exact sums (`exactSums`).
    static func sumsExactly(_ heights: [Double], spacing: Double) -> Bool {
        func fine(_ x: Double) -> Bool { x >= 0 && x < 0x1p30 && (x * 1024).rounded() == x * 1024 }
        guard fine(spacing) else { return false }
        var total = 0.0
        for h in heights {
            guard fine(h) else { return false }
            total += h + spacing
        }
        return total < 0x1p40
    }

    /// Sections stacked vertically: the section whose frame holds `p` (`strictly`: inside the
    /// content's width too), or nil outside the content.
    func stackedSection(under p: Point, strictly: Bool) -> Int? {
        guard sectionCount > 0, p.y >= 0, p.y < contentHeight else { return nil }
        if strictly && !(p.x >= 0 && p.x < width) { return nil }
        return section(at: p.y)
    }

    /// The first of `0..<n` where `above` holds, or `n` (a binary search: `above` is false up to
    /// some index and true from it on).
    /// - Complexity: O(log n) calls of `above`.
    @inline(__always) static func firstIndex(upTo n: Int, where above: (Int) -> Bool) -> Int {
        var lo = 0, hi = n
        while lo < hi {
            let mid = (lo + hi) / 2
            if above(mid) { hi = mid } else { lo = mid + 1 }
        }
        return lo
    }

    /// Stacked rows: the index of the last item of section `s` whose top is at or above
    /// `localY`, or -1.
    /// - Complexity: O(log n).
    func lastRow(section s: Int, atOrAbove localY: Double) -> Int {
        let t = tops[s]
        return Self.firstIndex(upTo: t.count) { t[$0] > localY } - 1
    }

    /// Stacked rows: the handles of the rows of section `s` whose local y span (below the
    /// header) intersects `[y0, y1)`, in order, appended to `out`; `base` is the header's
    /// bottom in the coordinates of `y0` and `y1`.
    /// - Complexity: O(log n + k) for k cells.
    func stackedCells(_ s: Int, base: Double, from y0: Double, to y1: Double, into out: inout [Int]) {
        let m = members[s]
        var i = max(0, lastRow(section: s, atOrAbove: y0 - base))
        while i < m.count, base + tops[s][i] < y1 {
            if base + tops[s][i] + heights[m[i]] > y0 { out.append(m[i]) }
            i += 1
        }
    }

    /// Sections stacked vertically: calls `body` with each section whose frame starts above
    /// `y1`, from the one that holds `y0`, and the y of its header's bottom; sections with no
    /// items are skipped.
    /// - Complexity: O(log sections) + O(sections visited).
    func forStackedSections(from y0: Double, to y1: Double, _ body: (_ s: Int, _ base: Double) -> Void) {
        guard sectionCount > 0, y1 > y0 else { return }
        var s = section(at: max(0, y0))
        while s < sectionCount, sectionTop[s] < y1 {
            if !members[s].isEmpty { body(s, sectionTop[s] + headerHeight) }
            s += 1
        }
    }
}
