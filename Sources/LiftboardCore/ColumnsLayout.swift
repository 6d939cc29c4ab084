/// Columns (docs/protocol.md, "Columns"): sections side by side, section k's content x from
/// `k * (width + gap)` to that plus `width`; each a header and rows stacked below it, scrolling
/// vertically on its own while the board scrolls sideways (`LiveSession+Columns.swift`). A
/// drag's center x picks its column; within it, the list rule (`LiveSession+ListRule.swift`)
/// runs inside the column's frame.
struct ColumnsLayout: StackedRows {
    let metrics: ColumnMetrics
    var rowHeight: Double { metrics.rowHeight }

    var traits: LayoutTraits {
        LayoutTraits(headerHeight: metrics.headerHeight, stacksRows: true, rowSpacing: metrics.spacing,
                     scrollsSections: true, locksFollowX: false, entersRegions: false,
                     placement: .rows(pitch: metrics.width + metrics.gap, width: metrics.width))
    }

    // MARK: Geometry

    /// Every column's width and the gaps between: `n * width + (n - 1) * gap`.
    func contentWidth(in a: Arrangement) -> Double {
        let n = a.sectionCount
        return n == 0 ? 0 : Double(n) * metrics.width + Double(n - 1) * metrics.gap
    }

    /// The content x where column `s` starts.
    func columnX(_ s: Int) -> Double { Double(s) * (metrics.width + metrics.gap) }

    func sectionFrame(_ s: Int, in a: Arrangement) -> Rect { Rect(x: columnX(s), y: 0, w: metrics.width, h: a.sectionHeight[s]) }
    func headerFrame(_ s: Int, in a: Arrangement) -> Rect { Rect(x: columnX(s), y: 0, w: metrics.width, h: metrics.headerHeight) }

    // MARK: Hit testing

    // `region(at:in:)` (`StackedRows`'s): x in the board's content, y in the column's own
    // (unscrolled) coordinates.

    /// None: each column has its own band (`LiveSession.columnWindowCells`).
    func cells(from y0: Double, to y1: Double, in a: Arrangement, into out: inout [Int]) {}

    func scrolledSection(atX x: Double, in a: Arrangement) -> Int? { column(atX: x, in: a) }
    func targetSection(atX x: Double, current: Int, in a: Arrangement) -> Int { targetColumn(atX: x, current: current, in: a) }
    func sectionUnder(_ p: Point, in a: Arrangement) -> Int? { column(atX: p.x, in: a) }
    func sectionAlong(_ p: Point, in a: Arrangement) -> Int? { column(atX: p.x, in: a) }

    /// The column whose span `[x_k, x_k + width)` holds content x `x`, or nil (a gap, outside
    /// the board).
    /// - Complexity: O(1).
    func column(atX x: Double, in a: Arrangement) -> Int? {
        guard a.sectionCount > 0, x >= 0 else { return nil }
        let pitch = metrics.width + metrics.gap
        let k = (x / pitch).rounded(.down)
        guard k.isFinite, k < Double(a.sectionCount) else { return nil }
        let s = Int(k)
        return x - columnX(s) < metrics.width ? s : nil
    }

    /// The target column for content x `x` when the item is in column `current`: the column
    /// whose span holds it; in a gap, `current` if it borders the gap, else the column left of
    /// it; left of the first column the first, right of the last the last.
    /// - Complexity: O(1).
    func targetColumn(atX x: Double, current: Int, in a: Arrangement) -> Int {
        guard a.sectionCount > 0 else { return 0 }
        if let s = column(atX: x, in: a) { return s }
        if x < 0 { return 0 }
        // In a gap, or right of the last column.
        let k = (x / (metrics.width + metrics.gap)).rounded(.down)
        guard k.isFinite, k < Double(a.sectionCount - 1) else { return a.sectionCount - 1 }
        return current == Int(k) + 1 ? current : Int(k)
    }

    /// The index before which item `h` enters column `t`: the first row of `t`, without `h`,
    /// whose midpoint is strictly below column y `y`; the count when none.
    /// - Complexity: O(log n) (the rows' midpoints grow with their index).
    func entryIndex(column t: Int, y: Double, without h: Int, in a: Arrangement) -> Int {
        let m = a.members[t], tp = a.tops[t]
        let skip = a.sectionOf[h] == t ? a.indexOf[h] : -1
        let base = metrics.headerHeight, spacing = metrics.spacing
        let shift = skip >= 0 ? a.heights[h] + spacing : 0
        let n = skip >= 0 ? m.count - 1 : m.count
        // Midpoint of row j of the column without h (j counts the rows without it).
        func mid(_ j: Int) -> Double {
            let k = skip >= 0 && j >= skip ? j + 1 : j
            return base + tp[k] - (skip >= 0 && k > skip ? shift : 0) + a.heights[m[k]] / 2
        }
        return Arrangement.firstIndex(upTo: n) { mid($0) > y }
    }

    // MARK: Gestures

    /// The target column by the center's x (gaps keep a bordering current column, else go
    /// left; outside, the first or last); entering another column, the place before its first
    /// row (without the item, in its scroll) whose midpoint is below the center's y clamped
    /// to the viewport's body; within the current column, the list rule. A refusing column is
    /// no target. (Static: the columns' metrics are the session's, `arr.spec.columns`.)
    static func retarget(_ d: Int, center _: Point, in s: inout LiveSession) {
        let h = s.drags[d].item, c = s.drags[d].center, l = ColumnsLayout(metrics: s.arr.spec.columns)
        let t = l.targetColumn(atX: c.x + s.scrolling.x, current: s.arr.sectionOf[h], in: s.arr)
        l.followIntoColumn(d, t, viewportY: c.y, swapping: false, in: &s)
    }

    /// Drag `d`'s item into column `t` (unless it refuses the item; `swapping`: its exchange
    /// undone first), then the list rule within its column.
    private func followIntoColumn(_ d: Int, _ t: Int, viewportY y: Double, swapping: Bool, in s: inout LiveSession) {
        let h = s.drags[d].item
        if t != s.arr.sectionOf[h] {
            guard !s.arr.hasRules || s.allows(t, for: h) else { return }
            if swapping { s.setSwapTarget(d, nil) }
            // It enters column `t` before the first row whose midpoint is below the center.
            let cy = min(max(y, metrics.headerHeight), s.viewport.h) + s.scrolling.columns[t]
            let i = entryIndex(column: t, y: cy, without: h, in: s.arr)
            s.arr.move(h, toSection: t, index: i, pinnedHome: s.pinnedHome)
        }
        s.retargetByListRule(h, centerY: y + s.scrolling.columns[s.arr.sectionOf[h]], acrossHeaders: false)
    }

    /// Swap mode: over a cell of the lift's column (in the committed layout, with that
    /// column's scroll) the item exchanges with it; once the target column is another, the
    /// exchange is undone and the item enters that column by the insert rule, then follows it.
    /// Only a cell of the lift's column brings it back.
    static func retargetSwap(_ d: Int, center _: Point, in s: inout LiveSession) {
        let ls = s.drags[d].liftSection, c = s.drags[d].center, l = ColumnsLayout(metrics: s.arr.spec.columns)
        let x = c.x + s.scrolling.x
        let t = l.targetColumn(atX: x, current: s.arr.sectionOf[s.drags[d].item], in: s.arr)
        guard t == ls else { return l.followIntoColumn(d, t, viewportY: c.y, swapping: true, in: &s) }
        // Over a header (it does not scroll) no cell is.
        if c.y >= l.metrics.headerHeight { _ = s.swapOverCommittedCell(d, center: Point(x: x, y: c.y + s.scrolling.columns[ls])) }
    }

    /// Left/Right: the nearest column that way with items (the same index, clamped); Up/Down
    /// within the column (nothing at its ends).
    func focusTarget(from h: Int, key: String, in s: LiveSession) -> Int? {
        let a = s.arr, m = a.members[a.sectionOf[h]], i = a.indexOf[h]
        if let by = Arrow.vertical(key) { return m.indices.contains(i + by) ? m[i + by] : nil }
        guard let by = Arrow.horizontal(key), let t = stride(from: a.sectionOf[h] + by, to: by > 0 ? a.sectionCount : -1, by: by)
            .first(where: { !a.members[$0].isEmpty }) else { return nil }
        return a.members[t][min(i, a.members[t].count - 1)]
    }

    /// Left/Right to the nearest column that way that takes it (the same index, clamped);
    /// Up/Down one place within its column (pinned items hopped).
    func keyboardStep(_ h: Int, key: String, in s: inout LiveSession) {
        let sec = s.arr.sectionOf[h], i = s.arr.indexOf[h]
        if let by = Arrow.vertical(key) {
            guard !s.arr.hasRules || s.allows(sec, for: h), let j = s.movableRow(section: sec, from: i, by: by) else { return }
            s.arr.exchange(section: sec, i, j)
        } else if let by = Arrow.horizontal(key), let t = s.allowedSection(from: sec, by: by, for: h) {
            s.arr.move(h, toSection: t, index: min(i, s.arr.members[t].count), pinnedHome: s.pinnedHome)
        }
    }
}
