/// A tree (docs/protocol.md, "Trees"): a list whose rows are the visible items of each
/// section's forest, indented `indent` px a level. Everything but the placement is the
/// list's; a drag's row follows the list rule, then its depth is projected from the
/// finger's sideways travel (`LiveSession+Tree.swift`). Left and Right indent and outdent a
/// lifted item.
struct TreeLayout: Layout {
    let list: ListLayout
    let metrics: TreeMetrics

    var traits: LayoutTraits {
        var t = list.traits
        t.placement = .indented(indent: metrics.indent)
        return t
    }

    // MARK: Geometry (the list's)

    func cellHeight(declared: Double?) -> Double { list.cellHeight(declared: declared) }
    func declaredHeight(_ h: Double) -> Double? { list.declaredHeight(h) }
    func cellsPerRow(width: Double) -> Int { 1 }
    func contentHeight(ofSection s: Int, in a: Arrangement) -> Double { list.contentHeight(ofSection: s, in: a) }
    func contentWidth(in a: Arrangement) -> Double { a.width }
    func sectionFrame(_ s: Int, in a: Arrangement) -> Rect { list.sectionFrame(s, in: a) }
    func headerFrame(_ s: Int, in a: Arrangement) -> Rect { list.headerFrame(s, in: a) }
    func slotFrame(_ s: Int, in a: Arrangement) -> Rect { list.slotFrame(s, in: a) }

    // MARK: Hit testing (the list's: a row is hit at any x)

    func region(at p: Point, in a: Arrangement) -> Region { list.region(at: p, in: a) }
    func cells(from y0: Double, to y1: Double, in a: Arrangement, into out: inout [Int]) { list.cells(from: y0, to: y1, in: a, into: &out) }
    func scrolledSection(atX x: Double, in a: Arrangement) -> Int? { nil }
    func targetSection(atX x: Double, current: Int, in a: Arrangement) -> Int { current }
    func sectionUnder(_ p: Point, in a: Arrangement) -> Int? { list.sectionUnder(p, in: a) }
    func sectionAlong(_ p: Point, in a: Arrangement) -> Int? { list.sectionAlong(p, in: a) }

    // MARK: Gestures

    static func retarget(_ d: Int, center c: Point, in s: inout LiveSession) {
        s.retargetByListRule(s.drags[d].item, centerY: c.y, acrossHeaders: true)
        // Every drag's: a row that moved next to another drag's changes that one's bounds.
        s.projectDepths()
    }

    /// Swap mode exchanges one row with another: a subtree has no such place, so a tree
    /// inserts in every mode.
    static func retargetSwap(_ d: Int, center c: Point, in s: inout LiveSession) { retarget(d, center: c, in: &s) }

    func focusTarget(from h: Int, key: String, in s: LiveSession) -> Int? { list.focusTarget(from: h, key: key, in: s) }

    func keyboardStep(_ h: Int, key: String, in s: inout LiveSession) {
        switch key {
        case "ArrowLeft": s.stepDepth(h, by: -1)
        case "ArrowRight": s.stepDepth(h, by: 1)
        default: list.keyboardStep(h, key: key, in: &s)
        }
        // Every drag's: the row that moved (or changed depth) bounds the drags beside it.
        s.projectDepths()
    }
}

/// Tree geometry (docs/protocol.md, "Trees"): rows take the list's metrics, indented `indent`
/// px a level.
public struct TreeMetrics: Hashable, Sendable {
    public var indent: Double = 24
    public init(indent: Double = 24) { self.indent = indent }
}
