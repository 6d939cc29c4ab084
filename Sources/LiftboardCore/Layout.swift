/// A layout: where cells and sections are, what lies under a point, how a dragged item's place
/// follows its snapshot (the step rule and its hysteresis), which axes scroll, and what a
/// keyboard arrow means. One type per file (`ListLayout`, `GridLayout`, `ColumnsLayout`), as
/// dnd-kit keeps one file per sorting strategy; `Arrangement` keeps the order and the items'
/// attributes (and the prefix sums a layout reads) and asks its layout the rest.
///
/// Adding a layout is one new file and one case in `LayoutSpec.make()`.
protocol Layout: Sendable {
    /// The answers the hot paths read on every input, asked once and kept by `Arrangement`.
    var traits: LayoutTraits { get }

    // MARK: Geometry

    /// A cell's height: the item's own (`Item.height`) or the layout's.
    func cellHeight(declared: Double?) -> Double
    /// What a board file says of a cell height `h` the layout resolved (`nil`: the layout's own).
    func declaredHeight(_ h: Double) -> Double?
    /// How many cells a row holds at viewport width `width` (1 but in a grid).
    func cellsPerRow(width: Double) -> Int
    /// Section `s`'s height below its header: its rows, or its empty slot.
    func contentHeight(ofSection s: Int, in a: Arrangement) -> Double
    /// The content's width (a list and a grid: the viewport's).
    func contentWidth(in a: Arrangement) -> Double
    func sectionFrame(_ s: Int, in a: Arrangement) -> Rect
    func headerFrame(_ s: Int, in a: Arrangement) -> Rect
    /// The empty-section slot of section `s` (meaningful when it has no items).
    func slotFrame(_ s: Int, in a: Arrangement) -> Rect

    // MARK: Hit testing

    /// What lies under `p` (content coordinates).
    func region(at p: Point, in a: Arrangement) -> Region
    /// The handles of the cells that intersect content `[y0, y1)`, in order, appended to `out`
    /// (sections that scroll on their own have no such band: nothing).
    func cells(from y0: Double, to y1: Double, in a: Arrangement, into out: inout [Int])
    /// The section with its own vertical scroll whose span holds content x `x` (sections that
    /// do not scroll on their own: none).
    func scrolledSection(atX x: Double, in a: Arrangement) -> Int?
    /// The section a drag's center at content x `x` goes to, its item being in `current`
    /// (sections stacked vertically: `current`, the step rule decides).
    func targetSection(atX x: Double, current: Int, in a: Arrangement) -> Int
    /// The section whose frame holds content point `p` (a refusing section the drag is over).
    func sectionUnder(_ p: Point, in a: Arrangement) -> Int?
    /// The section whose band along the board holds `p`, by its one coordinate across the
    /// sections (lists and grids: y; columns: x): a copy back over its palette.
    func sectionAlong(_ p: Point, in a: Arrangement) -> Int?

    // MARK: Gestures

    /// Drag `d`'s place from its snapshot's center `c` (content coordinates) by the insert rules.
    /// Static, called on `arr.layoutType`: a move copied the boxed layout out of the session it passes (49 Ir: move59).
    static func retarget(_ d: Int, center c: Point, in s: inout LiveSession)
    /// The same in swap mode (a pointer drag that is no palette's copy).
    static func retargetSwap(_ d: Int, center c: Point, in s: inout LiveSession)
    /// The item an arrow key moves the focus to from item `h`.
    func focusTarget(from h: Int, key: String, in s: LiveSession) -> Int?
    /// A lifted item's step for an arrow key.
    func keyboardStep(_ h: Int, key: String, in s: inout LiveSession)
}

/// An arrow key's step along one axis: -1 (ArrowUp, ArrowLeft), 1 (ArrowDown, ArrowRight), nil
/// (another key, or the other axis).
enum Arrow {
    static func vertical(_ key: String) -> Int? { key == "ArrowUp" ? -1 : key == "ArrowDown" ? 1 : nil }
    static func horizontal(_ key: String) -> Int? { key == "ArrowLeft" ? -1 : key == "ArrowRight" ? 1 : nil }
}

/// What a layout answers on every input, kept as plain values (no call through the protocol).
struct LayoutTraits: Sendable {
    var headerHeight: Double
    /// Rows stacked below the header `rowSpacing` apart, their tops kept as prefix sums (lists
    /// and columns); `false`: cells placed by arithmetic (grids).
    var stacksRows: Bool
    var rowSpacing: Double
    /// Scroll axes: each section scrolls vertically on its own and the board sideways
    /// (columns); `false`: the content scrolls vertically as one.
    var scrollsSections: Bool
    /// The snapshot follows the pointer vertically only (lists).
    var locksFollowX: Bool
    /// The step rule acts when the center enters a region, remembered across inputs (grids);
    /// `false`: it compares the center with the neighbours' midpoints.
    var entersRegions: Bool
    /// Where a cell is: `Arrangement.frame` works it out from this on every cell of every
    /// frame, inline (through the protocol, a call per cell cost about 3 % of a `reorder`
    /// message's engine instructions).
    var placement: CellPlacement
}

/// How a layout places its cells (`LayoutTraits.placement`).
enum CellPlacement: Sendable {
    /// Rows stacked below their section's header (`Arrangement.tops`), section `s`'s at content
    /// x `s * pitch`, `width` wide (nil: the viewport's width).
    case rows(pitch: Double, width: Double?)
    /// Cells of one size, `Arrangement.cellsPerRow` to a row, `spacing` apart.
    case grid(width: Double, height: Double, spacing: Double)
    /// Rows stacked as `.rows(pitch: 0, width: nil)`, each indented `indent` px a level of its
    /// item's live depth (`Arrangement.tree`).
    case indented(indent: Double)
}

/// A board's layout as its file states it: its kind and every kind's metrics (a board keeps
/// them all, whichever it uses), written back unchanged into a board the session rebuilds.
struct LayoutSpec: Sendable, Hashable {
    var kind: LayoutKind
    var list: ListMetrics
    var grid: GridMetrics
    var columns: ColumnMetrics
    var tree: TreeMetrics

    init(of board: Board) { kind = board.layout; list = board.list; grid = board.grid; columns = board.columns; tree = board.tree }

    /// The one place that makes a layout from a board's kind.
    func make() -> any Layout {
        switch kind {
        case .list: ListLayout(metrics: list)
        case .grid: GridLayout(metrics: grid)
        case .columns: ColumnsLayout(metrics: columns)
        case .tree: TreeLayout(list: ListLayout(metrics: list), metrics: tree)
        }
    }
}

/// What most layouts share, sections stacked vertically and the content scrolling as one
/// (lists, grids): each overrides what it does otherwise.
extension Layout {
    func cellsPerRow(width: Double) -> Int { 1 }
    func contentWidth(in a: Arrangement) -> Double { a.width }
    /// As wide as the viewport, one below the other.
    func sectionFrame(_ s: Int, in a: Arrangement) -> Rect { Rect(x: 0, y: a.sectionTop[s], w: a.width, h: a.sectionHeight[s]) }
    func headerFrame(_ s: Int, in a: Arrangement) -> Rect { Rect(x: 0, y: a.sectionTop[s], w: a.width, h: a.headerHeight) }
    func scrolledSection(atX x: Double, in a: Arrangement) -> Int? { nil }
    func targetSection(atX x: Double, current: Int, in a: Arrangement) -> Int { current }
    func sectionUnder(_ p: Point, in a: Arrangement) -> Int? { a.stackedSection(under: p, strictly: true) }
    func sectionAlong(_ p: Point, in a: Arrangement) -> Int? { a.stackedSection(under: p, strictly: false) }
}

/// Rows stacked below each section's header, each as tall as its item says or `rowHeight`
/// (lists, columns; the prefix sums and searches are `Arrangement+Stacking.swift`'s): what
/// those layouts share. An empty section's slot is one row, as wide as the section.
protocol StackedRows: Layout {
    var rowHeight: Double { get }
}

extension StackedRows {
    func cellHeight(declared: Double?) -> Double { declared ?? rowHeight }
    func declaredHeight(_ h: Double) -> Double? { h }

    func contentHeight(ofSection s: Int, in a: Arrangement) -> Double {
        let m = a.members[s]
        return m.isEmpty ? rowHeight : a.tops[s][m.count - 1] + a.heights[m[m.count - 1]]
    }

    func slotFrame(_ s: Int, in a: Arrangement) -> Rect {
        let f = sectionFrame(s, in: a)
        return Rect(x: f.x, y: f.y + a.headerHeight, w: f.w, h: rowHeight)
    }

    /// Nothing outside the frame of the section under `p` (`sectionUnder`), else its header,
    /// its slot, a row, or the spacing between rows.
    /// - Complexity: O(log n).
    func region(at p: Point, in a: Arrangement) -> Region {
        guard let s = sectionUnder(p, in: a), p.y >= a.sectionTop[s], p.y < a.sectionTop[s] + a.sectionHeight[s] else {
            return .none
        }
        let ly = p.y - a.sectionTop[s] - a.headerHeight
        if ly < 0 { return .header(s) }
        let m = a.members[s]
        if m.isEmpty { return slotFrame(s, in: a).contains(p) ? .slot(s) : .none }
        let i = a.lastRow(section: s, atOrAbove: ly)
        guard i >= 0, ly < a.tops[s][i] + a.heights[m[i]] else { return .none }
        return .cell(m[i])
    }
}
