import LiftboardCore

/// What a client knows from the server's messages: the cells' frames, the sections, the scroll
/// offset and the drags' grab offsets. The pilot steers by this picture, as a finger steers by
/// what the page draws, so no second geometry of the engine exists here.
struct ClientView: Sendable {
    var viewport: Size
    var scrollY = 0.0
    /// Columns: the board's sideways offset (each column's own is its section's `scroll`).
    var scrollX = 0.0
    var columns = false
    var content = Size.zero
    /// Content coordinates, of the cells in the window the server keeps us told about.
    var cells: [String: Rect] = [:]
    var sections: [SectionInfo] = []
    /// Per pointer: how its snapshot's center follows it (from its `lift`).
    var follow: [Int: Follow] = [:]
    /// The items the frames marked selected (Ctrl/Meta and Shift clicks, Shift+Space).
    var selected: Set<String> = []
    /// Issue 44: the items the frames marked held by another person, and by whom.
    var heldBy: [String: String] = [:]
    /// Trees: a level's indent, each shown row's depth, and each pointer's lifted item's
    /// depth (from its `lift`, then each `moved`).
    var indent = 0.0
    var depths: [String: Int] = [:]
    var collapsed: Set<String> = []
    var liftDepth: [Int: Int] = [:]

    init(viewport: Size) { self.viewport = viewport }

    mutating func take(_ events: [ServerEvent]) {
        for e in events {
            switch e {
            case .layout(let l):
                scrollY = l.scroll.y
                scrollX = l.scroll.x
                columns = l.layout == .columns
                content = l.content
                sections = l.sections
                cells = [:]
                for c in l.cells { cells[c.id] = c.frame }
                indent = l.treeIndent ?? 0
                depths = [:]
                collapsed = []
                for c in l.cells { if let t = c.tree { depths[c.id] = t.depth; if t.collapsed { collapsed.insert(c.id) } } }
                // A layout names the selected cells of its window; the others it does not say.
                for c in l.cells { if c.selected { selected.insert(c.id) } else { selected.remove(c.id) } }
                for c in l.cells { heldBy[c.id] = c.heldBy }
            case .frame(let f):
                if let s = f.scroll { scrollY = s.y; scrollX = s.x }
                if let c = f.content { content = c }
                if let s = f.sections { sections = s }
                for c in f.cells {
                    cells[c.id] = c.frame
                    if let d = c.info?.tree?.depth ?? c.tree?.depth { depths[c.id] = d }
                    if let k = c.info?.tree?.collapsed ?? c.tree?.collapsed { if k { collapsed.insert(c.id) } else { collapsed.remove(c.id) } }
                    if let s = c.selected ?? c.info.map(\.selected) { if s { selected.insert(c.id) } else { selected.remove(c.id) } }
                    if let h = c.heldBy ?? c.info.map(\.heldBy) { heldBy[c.id] = h }
                }
                // Not kept: a cell out of the window may move unseen (another session's
                // commit), and a stale frame would press or aim at the wrong cell.
                for g in f.gone { cells[g] = nil; depths[g] = nil }
                for inner in f.events { take([inner]) }
            case .lift(let p, _, let from, let follow, let added):
                if let follow { self.follow[p] = follow }
                if !added, let d = from.depth { liftDepth[p] = d }
            case .moved(let p, _, _, let to):
                if let d = to.depth { liftDepth[p] = d }
            default:
                break
            }
        }
    }

    var maxScroll: Double { max(0, content.h - viewport.h) }

    func section(_ id: String) -> SectionInfo? { sections.first { $0.id == id } }

    /// Columns: the column whose span holds content x `x`.
    func column(atX x: Double) -> SectionInfo? { sections.first { x >= $0.frame.minX && x < $0.frame.maxX } }

    /// Where content point `p` is drawn: columns scroll the board sideways and each column's
    /// body by its own offset; lists and grids by `scrollY`.
    func viewportPoint(_ p: Point) -> Point {
        guard columns else { return Point(x: p.x, y: p.y - scrollY) }
        return Point(x: p.x - scrollX, y: p.y - (column(atX: p.x)?.scroll ?? 0))
    }

    /// The cell under a viewport point, if the picture has one there.
    func cell(at p: Point) -> String? {
        let c = Point(x: p.x, y: p.y + scrollY)
        return cells.sorted { $0.key < $1.key }.first { $0.value.contains(c) }?.key
    }
}
