/// A grid (contract §2): sections stacked vertically, each a header and cells of one size
/// in rows as many as the viewport's width holds, `spacing` apart (an empty section: a slot
/// one cell big); the content scrolls vertically. A drag acts when its center enters a region
/// (a cell, a header, a slot, a row's blank end), remembered across inputs.
struct GridLayout: Layout {
    let metrics: GridMetrics

    var traits: LayoutTraits {
        LayoutTraits(headerHeight: metrics.headerHeight, stacksRows: false, rowSpacing: metrics.spacing,
                     scrollsSections: false, locksFollowX: false, entersRegions: true,
                     placement: .grid(width: metrics.itemWidth, height: metrics.itemHeight, spacing: metrics.spacing))
    }

    // MARK: Geometry

    func cellHeight(declared: Double?) -> Double { metrics.itemHeight }
    func declaredHeight(_ h: Double) -> Double? { nil }

    func cellsPerRow(width: Double) -> Int {
        let c = ((width + metrics.spacing) / (metrics.itemWidth + metrics.spacing)).rounded(.down)
        return max(1, c.isFinite && c < 1e9 ? Int(c) : 1)
    }

    func contentHeight(ofSection s: Int, in a: Arrangement) -> Double {
        let n = a.members[s].count
        if n == 0 { return metrics.itemHeight }
        let rows = (n + a.cellsPerRow - 1) / a.cellsPerRow
        return Double(rows) * (metrics.itemHeight + metrics.spacing) - metrics.spacing
    }

    func slotFrame(_ s: Int, in a: Arrangement) -> Rect {
        Rect(x: 0, y: a.sectionTop[s] + metrics.headerHeight, w: metrics.itemWidth, h: metrics.itemHeight)
    }

    // MARK: Hit testing

    func region(at p: Point, in a: Arrangement) -> Region {
        guard let s = a.stackedSection(under: p, strictly: true) else { return .none }
        let ly = p.y - a.sectionTop[s] - metrics.headerHeight
        if ly < 0 { return .header(s) }
        let n = a.members[s].count
        if n == 0 { return slotFrame(s, in: a).contains(p) ? .slot(s) : .none }
        let columns = a.cellsPerRow
        let pitchY = metrics.itemHeight + metrics.spacing, pitchX = metrics.itemWidth + metrics.spacing
        let row = Int((ly / pitchY).rounded(.down)), col = Int((p.x / pitchX).rounded(.down))
        let lastRow = (n - 1) / columns
        guard row <= lastRow, ly - Double(row) * pitchY < metrics.itemHeight else { return .none }
        // The blank end of the last row: from the last cell's right edge to the content's
        // width, spacing and the strip past the last column included.
        if row == lastRow, p.x >= Double((n - 1) % columns) * pitchX + metrics.itemWidth { return .trailing(s) }
        guard col < columns, p.x - Double(col) * pitchX < metrics.itemWidth else { return .none }
        return .cell(a.members[s][row * columns + col])
    }

    func cells(from y0: Double, to y1: Double, in a: Arrangement, into out: inout [Int]) {
        let pitch = metrics.itemHeight + metrics.spacing, columns = a.cellsPerRow
        a.forStackedSections(from: y0, to: y1) { s, base in
            let m = a.members[s]
            let firstRow = max(0, Int(((y0 - base) / pitch).rounded(.down)))
            var i = firstRow * columns
            while i < m.count {
                let top = base + Double(i / columns) * pitch
                if top >= y1 { break }
                if top + metrics.itemHeight > y0 { out.append(m[i]) }
                i += 1
            }
        }
    }

    // MARK: Gestures

    static func retarget(_ d: Int, center c: Point, in s: inout LiveSession) { s.retargetGrid(d, center: c) }

    /// Swap mode: see `LiveSession.swapOverCommittedCell`. The center has gone into another
    /// section by the insert rules when it enters a header (but the lift section's own going
    /// down, and the first section's own going up: there is no section above), an empty slot,
    /// a row's blank end or a cell of another section; entering a refusing section's region
    /// leaves the live order as it is.
    static func retargetSwap(_ d: Int, center c: Point, in s: inout LiveSession) {
        if s.swapOverCommittedCell(d, center: c) { return }
        let h = s.drags[d].item, ls = s.drags[d].liftSection
        guard s.arr.sectionOf[h] == ls else { return s.retargetGrid(d, center: c, barred: ls) }
        let region = s.arr.region(at: c)
        let leaves: Bool
        switch region {
        case .header(let t):
            // Its own header going down, or the first section's going up: no other section.
            leaves = s.headerGoesDown(d, header: t) ? t != ls : !(t == 0 && ls == 0)
        case .slot(let t), .trailing(let t): leaves = t != ls
        case .cell(let x): leaves = s.arr.sectionOf[x] != ls
        case .none: leaves = false
        }
        guard leaves else { return }
        if s.arr.hasRules, s.gridTarget(d, entering: region) == nil { return }
        s.setSwapTarget(d, nil)
        s.retargetGrid(d, center: c, barred: ls)
        s.waitAtCommittedPlace(d)
    }

    func focusTarget(from h: Int, key: String, in s: LiveSession) -> Int? {
        if let by = Arrow.horizontal(key) { return s.flatNeighbour(of: h, by: by) }
        guard let by = Arrow.vertical(key) else { return nil }
        let m = s.arr.members[s.arr.sectionOf[h]], i = s.arr.indexOf[h], cols = s.arr.cellsPerRow
        if m.indices.contains(i + by * cols) { return m[i + by * cols] }
        // Down from above a shorter last row: its last item.
        if by > 0 && i / cols < (m.count - 1) / cols { return m[m.count - 1] }
        return s.flatNeighbour(of: by > 0 ? m[m.count - 1] : m[0], by: by)
    }

    /// Left and Right one place in reading order; Up and Down a row within the section, or
    /// (none there) one place in reading order.
    func keyboardStep(_ h: Int, key: String, in s: inout LiveSession) {
        if let by = Arrow.horizontal(key) { return s.stepInReadingOrder(h, by: by) }
        guard let by = Arrow.vertical(key) else { return }
        let sec = s.arr.sectionOf[h], j = s.arr.indexOf[h] + by * s.arr.cellsPerRow
        guard j >= 0 && j < s.arr.members[sec].count else { return s.stepInReadingOrder(h, by: by) }
        s.arr.move(h, toSection: sec, index: j, pinnedHome: s.pinnedHome)
    }
}

/// The grid's step rule: regions entered.
extension LiveSession {
    /// Acts when the center enters a new region: a cell (take its place: pinned cells and
    /// cells other drags hold included), a header (down: the section's start; up: the end of
    /// the section above), an empty slot or a row's blank end. A move can slide another region
    /// under the still center (a section above shrank or grew): within the same input the
    /// rule is applied again against the new layout until the center is over a region it has
    /// acted on (its own cell, a pinned cell that gave its index back) or over nothing.
    /// `barred`: a section the insert rules must not take the item into (a swap drag outside
    /// its lift section comes back over a cell of it only); entering it leaves the item where
    /// it is.
    /// - Complexity: O(cells passed) per region entered, at most one pass per section and cell.
    mutating func retargetGrid(_ d: Int, center c: Point, barred: Int? = nil) {
        let h = drags[d].item
        var region = arr.region(at: c)
        // A region entered twice in one input would start a cycle: stop there, and take it as
        // the region the center is in, so the same point entered again moves nothing.
        var entered: [Region] = []
        while region != drags[d].lastRegion && !entered.contains(region) {
            entered.append(region)
            drags[d].lastRegion = region
            if let (t, index) = gridTarget(d, entering: region), t != barred {
                arr.move(h, toSection: t, index: index, pinnedHome: pinnedHome)
            }
            region = arr.region(at: c)
        }
        drags[d].lastRegion = region
    }

    /// Whether drag `d`'s center goes down into section `t`'s header: it does when its last
    /// vertical motion (content coordinates, between retargets) was down, whatever section
    /// the header belongs to; up when it was up. A center that has not moved vertically since
    /// the lift goes down into a later section's header than the item's, up into any other.
    func headerGoesDown(_ d: Int, header t: Int) -> Bool {
        drags[d].goingDown ?? (t > arr.sectionOf[drags[d].item])
    }

    /// Where the grid's insert rules put drag `d`'s item when its center enters `region`: `nil` for its own cell, spacing, the header of its own section going down and
    /// the first section's header going up from the first section (no section above).
    /// A header going down takes the item to that section's first place; going up, to the
    /// end of the section above. A section that refuses the drag is no target: entering its
    /// regions leaves the item where it is, and going up into a header takes it to the end of
    /// the nearest section above that takes it.
    func gridTarget(_ d: Int, entering region: Region) -> (section: Int, index: Int)? {
        let h = drags[d].item, s = arr.sectionOf[h]
        let r = refusedSections(of: h)
        func allowed(_ t: Int) -> Bool { r.isEmpty || !r[t] }
        switch region {
        case .cell(let other) where other != h:
            return allowed(arr.sectionOf[other]) ? (arr.sectionOf[other], arr.indexOf[other]) : nil
        case .header(let t):
            if headerGoesDown(d, header: t) { return t != s && allowed(t) ? (t, 0) : nil }
            if t > 0 {
                guard let u = allowedSection(from: t, by: -1, for: h) else { return nil }
                return (u, arr.members[u].count)
            }
            return s > 0 && allowed(0) ? (0, 0) : nil
        case .slot(let t):
            return allowed(t) ? (t, 0) : nil
        case .trailing(let t):
            return allowed(t) ? (t, arr.members[t].count) : nil
        default:
            return nil
        }
    }
}
