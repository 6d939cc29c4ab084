/// A list (contract §2): sections stacked vertically, each a header and rows of their own
/// heights `spacing` apart (an empty section: a slot one row tall); the content scrolls
/// vertically. A drag follows the list rule (`LiveSession+ListRule.swift`) across the whole
/// board, headers included.
struct ListLayout: StackedRows {
    let metrics: ListMetrics
    var rowHeight: Double { metrics.rowHeight }

    var traits: LayoutTraits {
        LayoutTraits(headerHeight: metrics.headerHeight, stacksRows: true, rowSpacing: metrics.spacing,
                     scrollsSections: false, locksFollowX: true, entersRegions: false,
                     placement: .rows(pitch: 0, width: nil))
    }

    // MARK: Hit testing

    func cells(from y0: Double, to y1: Double, in a: Arrangement, into out: inout [Int]) {
        a.forStackedSections(from: y0, to: y1) { s, base in a.stackedCells(s, base: base, from: y0, to: y1, into: &out) }
    }

    // MARK: Gestures

    static func retarget(_ d: Int, center c: Point, in s: inout LiveSession) {
        s.retargetByListRule(s.drags[d].item, centerY: c.y, acrossHeaders: true)
    }

    /// Swap mode: see `LiveSession.swapOverCommittedCell`. Out of the lift's section the item
    /// goes straight across the header it passed (the insert rules' pass of a header), never
    /// through the lift section's own items, which stay in committed order.
    static func retargetSwap(_ d: Int, center c: Point, in s: inout LiveSession) {
        if s.swapOverCommittedCell(d, center: c) { return }
        let h = s.drags[d].item, ls = s.drags[d].liftSection
        guard s.arr.sectionOf[h] == ls else {
            return s.retargetByListRule(h, centerY: c.y, acrossHeaders: true, barred: ls)
        }
        // Gone into another section by the insert rules: past a header's midpoint.
        let down = ls + 1 < s.arr.sectionCount && c.y >= s.arr.headerFrame(ls + 1).midY
        let up = ls > 0 && c.y <= s.arr.headerFrame(ls).midY
        guard down || up else { return }
        // Refusing sections are not there: the nearest one that takes it, reached as the list
        // rule reaches it. None that way: the live order stays as it is, as over no cell.
        var across: Int? = nil
        if let t = s.allowedSection(from: ls, by: up ? -1 : 1, for: h),
           up ? (t == ls - 1 || c.y < s.arr.sectionTop[t + 1]) : c.y >= s.arr.headerFrame(t).midY {
            across = t
        } else if s.arr.hasRules {
            return
        }
        s.setSwapTarget(d, nil)
        if let t = across {
            s.arr.move(h, toSection: t, index: up ? s.arr.members[t].count : 0, pinnedHome: s.pinnedHome)
            s.retargetByListRule(h, centerY: c.y, acrossHeaders: true, barred: ls)
        }
        s.waitAtCommittedPlace(d)
    }

    func focusTarget(from h: Int, key: String, in s: LiveSession) -> Int? {
        Arrow.vertical(key).flatMap { s.flatNeighbour(of: h, by: $0) }
    }

    func keyboardStep(_ h: Int, key: String, in s: inout LiveSession) {
        if let by = Arrow.vertical(key) { s.stepInReadingOrder(h, by: by) }
    }
}
