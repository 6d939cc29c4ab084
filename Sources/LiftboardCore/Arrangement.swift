/// What lies under a point in content coordinates.
enum Region: Hashable, Sendable {
    /// A cell (by item handle), the dragged item's own slot included.
    case cell(Int)
    /// A section's header (by section index).
    case header(Int)
    /// The drop slot of an empty section.
    case slot(Int)
    /// The blank end of a grid section's last row, after its last item.
    case trailing(Int)
    /// Spacing, or outside the content.
    case none
}

/// The live arrangement of a board's items and its geometry, in content coordinates.
///
/// Items are addressed by an integer handle (their position in the board file), never by a
/// stale index. `members[s]` is section `s`'s items in live order; `sectionOf` and `indexOf`
/// invert it. Lists keep per-section prefix sums (`tops`) so that hit-testing and the target
/// search are binary searches; grids are arithmetic.
struct Arrangement: Sendable {
    let kind: LayoutKind
    let list: ListMetrics
    let grid: GridMetrics
    let cols: ColumnMetrics

    // Item attributes, by handle.
    private(set) var ids: [String]
    private(set) var labels: [String]
    private(set) var colors: [String]
    /// Row heights in a list (resolved against `rowHeight`); the item height in a grid.
    private(set) var heights: [Double]
    private(set) var movable: [Bool]
    private(set) var handleOf: [String: Int]
    /// Kinds (`Item.kind`) and drag handles (`Item.handle`).
    private(set) var kinds: [String?]
    private(set) var grips: [HandleEdge?]
    /// What each card shows besides its label and color (issue 25).
    private(set) var cards: [Card]

    // Sections, by index.
    let sectionIDs: [String]
    let titles: [String]
    let subtitles: [String?]
    let sectionIndexOf: [String: Int]
    /// Each section's placement rules, and whether any section states one.
    let rules: [SectionRules]
    let hasRules: Bool

    private(set) var members: [[Int]]
    /// How many pinned items each section holds in this order: a drag never takes one to
    /// another section, but an order from elsewhere can (a board replaced through the API).
    private(set) var pinnedNow: [Int]
    private(set) var sectionOf: [Int]
    private(set) var indexOf: [Int]
    /// Lists and columns: `tops[s][i]` is the y of item `i` of section `s` below the section's
    /// header (prefix sums of the rows above it).
    private(set) var tops: [[Double]]
    private(set) var sectionTop: [Double]
    private(set) var sectionHeight: [Double]
    private(set) var width: Double
    private(set) var columns: Int

    /// What moved since `clearChanges()`, for a frame that re-sends only those cells: one
    /// section's range of reindexed places, or `wide` (more than one section, or anything
    /// restacked: every cell may have moved).
    struct Changes: Sendable {
        var section = -1
        var lo = Int.max
        var hi = -1
        var wide = true
    }
    /// A new arrangement is all new.
    private(set) var changes = Changes()

    /// The sections whose order a move changed since the last whole new order (`setOrder`) or
    /// `clearVisited()`: the only ones where a drag can have left the live order other than the
    /// committed order's (what a commit applied in place must look at besides its own).
    private(set) var visited: [Int] = []
    private mutating func visit(_ s: Int) { if !visited.contains(s) { visited.append(s) } }
    mutating func clearVisited() { visited.removeAll() }

    mutating func clearChanges() { changes = Changes(wide: false) }

    init(board: Board, width: Double) {
        kind = board.layout
        list = board.list
        grid = board.grid
        cols = board.columns
        var ids: [String] = [], labels: [String] = [], colors: [String] = [], heights: [Double] = []
        var movable: [Bool] = [], handleOf: [String: Int] = [:]
        var kinds: [String?] = [], grips: [HandleEdge?] = [], cards: [Card] = []
        var members: [[Int]] = [], pinned: [Int] = []
        var sectionIndexOf: [String: Int] = [:]
        for (s, section) in board.sections.enumerated() {
            sectionIndexOf[section.id] = s
            var m: [Int] = []
            var p = 0
            for item in section.items {
                let h = ids.count
                handleOf[item.id] = h
                ids.append(item.id)
                labels.append(item.label)
                colors.append(item.color.isEmpty ? Board.palette[h % Board.palette.count] : item.color)
                heights.append(board.layout == .grid ? board.grid.itemHeight
                               : (item.height ?? (board.layout == .columns ? board.columns.rowHeight : board.list.rowHeight)))
                movable.append(item.movable)
                kinds.append(item.kind)
                grips.append(item.handle)
                cards.append(item.card)
                if !item.movable { p += 1 }
                m.append(h)
            }
            members.append(m)
            pinned.append(p)
        }
        self.ids = ids; self.labels = labels; self.colors = colors; self.heights = heights
        self.movable = movable; self.handleOf = handleOf
        self.kinds = kinds; self.grips = grips; self.cards = cards
        rules = board.sections.map(\.rules)
        hasRules = board.sections.contains(where: \.hasRules)
        sectionIDs = board.sections.map(\.id)
        titles = board.sections.map(\.title)
        subtitles = board.sections.map(\.subtitle)
        self.sectionIndexOf = sectionIndexOf
        pinnedNow = pinned
        self.members = members
        sectionOf = Array(repeating: 0, count: ids.count)
        indexOf = Array(repeating: 0, count: ids.count)
        tops = Array(repeating: [], count: members.count)
        sectionTop = Array(repeating: 0, count: members.count)
        sectionHeight = Array(repeating: 0, count: members.count)
        self.width = width
        columns = 1
        relayout(width: width)
    }

    @inline(__always) var itemCount: Int { ids.count }
    @inline(__always) var sectionCount: Int { members.count }
    var headerHeight: Double {
        switch kind {
        case .list: list.headerHeight
        case .grid: grid.headerHeight
        case .columns: cols.headerHeight
        }
    }
    /// Lists and columns stack rows: prefix sums, binary searches.
    var stacksRows: Bool { kind != .grid }
    /// The space between two rows, and an empty section's slot height (lists and columns).
    var rowSpacing: Double { kind == .columns ? cols.spacing : list.spacing }
    var rowHeight: Double { kind == .columns ? cols.rowHeight : list.rowHeight }
    /// Lists and grids: the height of the stacked sections. Columns: 0 (each column has its
    /// own, `columnHeight`; the board is as tall as the viewport).
    var contentHeight: Double {
        kind == .columns || sectionCount == 0 ? 0 : sectionTop[sectionCount - 1] + sectionHeight[sectionCount - 1]
    }

    func place(of h: Int) -> Place { Place(section: sectionIDs[sectionOf[h]], index: indexOf[h]) }

    /// The order as a commit names it.
    var order: [SectionOrder] {
        (0..<sectionCount).map { SectionOrder(section: sectionIDs[$0], items: members[$0].map { ids[$0] }) }
    }

    // MARK: Geometry

    /// Recomputes everything that depends on the viewport width.
    /// - Complexity: O(n).
    mutating func relayout(width: Double) {
        self.width = width
        if kind == .grid {
            let c = ((width + grid.spacing) / (grid.itemWidth + grid.spacing)).rounded(.down)
            columns = max(1, c.isFinite && c < 1e9 ? Int(c) : 1)
        }
        for s in 0..<sectionCount { reindex(section: s, from: 0) }
        restack(from: 0)
    }

    /// Recomputes `indexOf`, `sectionOf` and `tops` of section `s` from index `i` to `end`.
    /// - Complexity: O(end - i).
    private mutating func reindex(section s: Int, from i: Int, through end: Int? = nil) {
        let m = members[s]
        let last = min(end ?? (m.count - 1), m.count - 1)
        if stacksRows {
            // Entries before `i` stay valid; only the length follows the section's.
            if tops[s].count > m.count { tops[s].removeLast(tops[s].count - m.count) }
            if tops[s].count < m.count { tops[s].append(contentsOf: repeatElement(0, count: m.count - tops[s].count)) }
        }
        guard i <= last else { return }
        if changes.section < 0 || changes.section == s {
            changes.section = s
            changes.lo = min(changes.lo, i)
            changes.hi = max(changes.hi, last)
        } else {
            changes.wide = true
        }
        let spacing = rowSpacing
        var y = (i == 0 || kind == .grid) ? 0 : tops[s][i - 1] + heights[m[i - 1]] + spacing
        for k in i...last {
            let h = m[k]
            sectionOf[h] = s
            indexOf[h] = k
            if stacksRows {
                tops[s][k] = y
                y += heights[h] + spacing
            }
        }
    }

    private func contentHeight(ofSection s: Int) -> Double {
        let n = members[s].count
        switch kind {
        case .list, .columns:
            return n == 0 ? rowHeight : tops[s][n - 1] + heights[members[s][n - 1]]
        case .grid:
            if n == 0 { return grid.itemHeight }
            let rows = (n + columns - 1) / columns
            return Double(rows) * (grid.itemHeight + grid.spacing) - grid.spacing
        }
    }

    /// Recomputes section heights and tops from section `s` down.
    /// - Complexity: O(sections).
    private mutating func restack(from s: Int) {
        changes.wide = true
        if kind == .columns {
            // Side by side: every column starts at the top; only the changed ones can differ,
            // but the heights are O(1) each.
            for k in s..<sectionCount {
                sectionTop[k] = 0
                sectionHeight[k] = headerHeight + contentHeight(ofSection: k)
            }
            return
        }
        var y = s == 0 ? 0 : sectionTop[s - 1] + sectionHeight[s - 1]
        for k in s..<sectionCount {
            sectionTop[k] = y
            sectionHeight[k] = headerHeight + contentHeight(ofSection: k)
            y += sectionHeight[k]
        }
    }

    // MARK: Columns

    /// Columns: the content x where column `s` starts.
    func columnX(_ s: Int) -> Double { Double(s) * (cols.width + cols.gap) }
    /// Columns: the board's content width, `n * width + (n - 1) * gap`.
    var contentWidth: Double { sectionCount == 0 ? 0 : Double(sectionCount) * cols.width + Double(sectionCount - 1) * cols.gap }
    /// Columns: column `s`'s content height, its header and its rows (or its slot).
    func columnHeight(_ s: Int) -> Double { sectionHeight[s] }

    /// Columns: the column whose span `[x_k, x_k + width)` holds content x `x`, or nil (a gap,
    /// outside the board).
    /// - Complexity: O(1).
    func column(atX x: Double) -> Int? {
        guard sectionCount > 0, x >= 0 else { return nil }
        let pitch = cols.width + cols.gap
        let k = (x / pitch).rounded(.down)
        guard k.isFinite, k < Double(sectionCount) else { return nil }
        let s = Int(k)
        return x - columnX(s) < cols.width ? s : nil
    }

    /// Columns: the target column for content x `x` when the item is in column `current`:
    /// the column whose span holds it; in a gap, `current` if it borders the gap, else the
    /// column left of it; left of the first column the first, right of the last the last.
    /// - Complexity: O(1).
    func targetColumn(atX x: Double, current: Int) -> Int {
        guard sectionCount > 0 else { return 0 }
        if x < 0 { return 0 }
        let pitch = cols.width + cols.gap
        let k = (x / pitch).rounded(.down)
        guard k.isFinite, k < Double(sectionCount) else { return sectionCount - 1 }
        let s = Int(k)
        if x - columnX(s) < cols.width { return s }
        if s + 1 >= sectionCount { return s }  // right of the last column
        return current == s + 1 ? s + 1 : s
    }

    /// Columns: the index before which item `h` enters column `t`: the first row of `t`,
    /// without `h`, whose midpoint is strictly below column y `y`; the count when none.
    /// - Complexity: O(log n) (the rows' midpoints grow with their index).
    func entryIndex(column t: Int, y: Double, without h: Int) -> Int {
        let m = members[t], tp = tops[t]
        let skip = sectionOf[h] == t ? indexOf[h] : -1
        let base = headerHeight, spacing = rowSpacing
        let shift = skip >= 0 ? heights[h] + spacing : 0
        let n = skip >= 0 ? m.count - 1 : m.count
        // Midpoint of row j of the column without h (j counts the rows without it).
        func mid(_ j: Int) -> Double {
            let k = skip >= 0 && j >= skip ? j + 1 : j
            return base + tp[k] - (skip >= 0 && k > skip ? shift : 0) + heights[m[k]] / 2
        }
        var lo = 0, hi = n
        while lo < hi {
            let j = (lo + hi) / 2
            if mid(j) > y { hi = j } else { lo = j + 1 }
        }
        return lo
    }

    func sectionFrame(_ s: Int) -> Rect {
        kind == .columns ? Rect(x: columnX(s), y: 0, w: cols.width, h: sectionHeight[s])
            : Rect(x: 0, y: sectionTop[s], w: width, h: sectionHeight[s])
    }
    func headerFrame(_ s: Int) -> Rect {
        kind == .columns ? Rect(x: columnX(s), y: 0, w: cols.width, h: headerHeight)
            : Rect(x: 0, y: sectionTop[s], w: width, h: headerHeight)
    }

    /// The empty-section slot of section `s` (meaningful when it has no items).
    func slotFrame(_ s: Int) -> Rect {
        let y = sectionTop[s] + headerHeight
        switch kind {
        case .list: return Rect(x: 0, y: y, w: width, h: list.rowHeight)
        case .grid: return Rect(x: 0, y: y, w: grid.itemWidth, h: grid.itemHeight)
        case .columns: return Rect(x: columnX(s), y: y, w: cols.width, h: cols.rowHeight)
        }
    }

    /// The frame of the cell at index `i` of section `s` (for grids, also past the end).
    /// Always inlined: the session calls it from mutating code, where a call not inlined is
    /// passed a copy of the whole arrangement (336 bytes, memcpy'd) as its `self`.
    @inline(__always) func frame(section s: Int, index i: Int) -> Rect {
        let y0 = sectionTop[s] + headerHeight
        switch kind {
        case .list:
            let h = members[s][i]
            return Rect(x: 0, y: y0 + tops[s][i], w: width, h: heights[h])
        case .columns:
            let h = members[s][i]
            return Rect(x: columnX(s), y: y0 + tops[s][i], w: cols.width, h: heights[h])
        case .grid:
            let col = i % columns, row = i / columns
            return Rect(x: Double(col) * (grid.itemWidth + grid.spacing),
                        y: y0 + Double(row) * (grid.itemHeight + grid.spacing),
                        w: grid.itemWidth, h: grid.itemHeight)
        }
    }

    @inline(__always) func frame(of h: Int) -> Rect { frame(section: sectionOf[h], index: indexOf[h]) }

    func sections() -> [SectionInfo] {
        (0..<sectionCount).map {
            SectionInfo(id: sectionIDs[$0], title: titles[$0], frame: sectionFrame($0), header: headerHeight,
                        slot: members[$0].isEmpty ? slotFrame($0) : nil, subtitle: subtitles[$0], count: members[$0].count)
        }
    }

    /// The section whose frame holds `y`, clamped to the first and last.
    /// - Complexity: O(log sections).
    func section(at y: Double) -> Int {
        var lo = 0, hi = sectionCount - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if sectionTop[mid] <= y { lo = mid } else { hi = mid - 1 }
        }
        return lo
    }

    /// The index of the last item of section `s` whose top is at or above `localY`, or -1.
    /// - Complexity: O(log n).
    private func lastRow(section s: Int, atOrAbove localY: Double) -> Int {
        let t = tops[s]
        var lo = 0, hi = t.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if t[mid] <= localY { lo = mid + 1 } else { hi = mid }
        }
        return lo - 1
    }

    /// What lies under `p` (content coordinates).
    /// - Complexity: O(log n).
    func region(at p: Point) -> Region {
        let s: Int
        if kind == .columns {
            // x in the board's content, y in the column's own (unscrolled) coordinates.
            guard let k = column(atX: p.x), p.y >= 0, p.y < sectionHeight[k] else { return .none }
            s = k
        } else {
            guard sectionCount > 0, p.y >= 0, p.y < contentHeight, p.x >= 0, p.x < width else { return .none }
            s = section(at: p.y)
        }
        let ly = p.y - sectionTop[s] - headerHeight
        if ly < 0 { return .header(s) }
        let n = members[s].count
        if n == 0 { return slotFrame(s).contains(p) ? .slot(s) : .none }
        switch kind {
        case .list, .columns:
            let i = lastRow(section: s, atOrAbove: ly)
            guard i >= 0, ly < tops[s][i] + heights[members[s][i]] else { return .none }
            return .cell(members[s][i])
        case .grid:
            let pitchY = grid.itemHeight + grid.spacing, pitchX = grid.itemWidth + grid.spacing
            let row = Int((ly / pitchY).rounded(.down)), col = Int((p.x / pitchX).rounded(.down))
            let lastRow = (n - 1) / columns
            guard row <= lastRow, ly - Double(row) * pitchY < grid.itemHeight else { return .none }
            // The blank end of the last row: from the last cell's right edge to the content's
            // width, spacing and the strip past the last column included.
            if row == lastRow, p.x >= Double((n - 1) % columns) * pitchX + grid.itemWidth { return .trailing(s) }
            guard col < columns, p.x - Double(col) * pitchX < grid.itemWidth else { return .none }
            return .cell(members[s][row * columns + col])
        }
    }

    /// The handles of the cells that intersect `[y0, y1)`, in order.
    /// - Complexity: O(log n + k) for k cells.
    func cells(from y0: Double, to y1: Double) -> [Int] {
        var out: [Int] = []
        cells(from: y0, to: y1, into: &out)
        return out
    }

    /// `cells(from:to:)` appended to `out` (a buffer the caller reuses).
    func cells(from y0: Double, to y1: Double, into out: inout [Int]) {
        guard kind != .columns, sectionCount > 0, y1 > y0 else { return }
        var s = section(at: max(0, y0))
        while s < sectionCount, sectionTop[s] < y1 {
            let base = sectionTop[s] + headerHeight
            let m = members[s]
            if !m.isEmpty {
                switch kind {
                case .list, .columns:  // columns never come here (`columnCells`)
                    var i = max(0, lastRow(section: s, atOrAbove: y0 - base))
                    while i < m.count, base + tops[s][i] < y1 {
                        if base + tops[s][i] + heights[m[i]] > y0 { out.append(m[i]) }
                        i += 1
                    }
                case .grid:
                    let pitch = grid.itemHeight + grid.spacing
                    let firstRow = max(0, Int(((y0 - base) / pitch).rounded(.down)))
                    var i = firstRow * columns
                    while i < m.count {
                        let top = base + Double(i / columns) * pitch
                        if top >= y1 { break }
                        if top + grid.itemHeight > y0 { out.append(m[i]) }
                        i += 1
                    }
                }
            }
            s += 1
        }
    }

    /// Columns: the handles of the rows of column `s` that intersect column y `[y0, y1)`, in
    /// order, appended to `out`.
    /// - Complexity: O(log n + k) for k cells.
    func columnCells(_ s: Int, from y0: Double, to y1: Double, into out: inout [Int]) {
        let m = members[s]
        guard !m.isEmpty, y1 > y0 else { return }
        let base = headerHeight
        var i = max(0, lastRow(section: s, atOrAbove: y0 - base))
        while i < m.count, base + tops[s][i] < y1 {
            if base + tops[s][i] + heights[m[i]] > y0 { out.append(m[i]) }
            i += 1
        }
    }

    // MARK: Moves

    /// Exchanges the items at indices `i` and `j` of section `s`, leaving every item between
    /// them where it is (how a dragged item hops over pinned items).
    /// - Complexity: O(|i - j|).
    mutating func exchange(section s: Int, _ i: Int, _ j: Int) {
        guard i != j else { return }
        visit(s)
        members[s].swapAt(i, j)
        reindex(section: s, from: min(i, j), through: max(i, j))
    }

    /// Moves item `h` to index `j` of section `t` (the index after removal), then puts the
    /// pinned items of the sections involved back at their homes. Returns where `h` ended up.
    /// - Complexity: O(cells displaced) without pinned items; O(section) with them.
    @discardableResult
    mutating func move(_ h: Int, toSection t: Int, index j: Int, pinnedHome: [Int]) -> Place {
        let s = sectionOf[h], i = indexOf[h]
        visit(s)
        visit(t)
        if s == t {
            let j = min(max(0, j), members[s].count - 1)
            if i == j { return place(of: h) }
            members[s].remove(at: i)
            members[s].insert(h, at: j)
            reindex(section: s, from: min(i, j), through: max(i, j))
            if pinnedNow[s] > 0 { fixPinned(section: s, pinnedHome: pinnedHome) }
            return place(of: h)
        }
        members[s].remove(at: i)
        let j = min(max(0, j), members[t].count)
        members[t].insert(h, at: j)
        reindex(section: s, from: i)
        reindex(section: t, from: j)
        if pinnedNow[s] > 0 { fixPinned(section: s, pinnedHome: pinnedHome) }
        if pinnedNow[t] > 0 { fixPinned(section: t, pinnedHome: pinnedHome) }
        restack(from: min(s, t))
        return place(of: h)
    }

    /// Puts the pinned items of section `s` at their home indices (clamped to the section, in
    /// their order) and lets the movable items fill the other places in their relative order.
    /// - Complexity: O(n) of the section.
    mutating func fixPinned(section s: Int, pinnedHome: [Int]) {
        let m = members[s]
        let movable = self.movable
        let pinned = m.filter { !movable[$0] }.sorted { pinnedHome[$0] < pinnedHome[$1] }
        guard !pinned.isEmpty else { return }
        let n = m.count, k = pinned.count
        var slots = Array(repeating: -1, count: n)
        for (j, p) in pinned.enumerated() { slots[min(pinnedHome[p], n - k + j)] = p }
        var rest = m.filter { movable[$0] }.makeIterator()
        for i in 0..<n where slots[i] < 0 { slots[i] = rest.next()! }
        if slots != m {
            visit(s)
            members[s] = slots
            reindex(section: s, from: 0)
        }
    }

    /// Moves the item at index `i` of section `s` over `n` of its places not in `held` (toward
    /// the end for `n > 0`): the items at the places it passes shift one place toward `i`, the
    /// items at `held` places stay. The section keeps its items, so nothing restacks, and what
    /// changed is one range of the section (`changes`).
    /// - Complexity: O(places between) + O(held) each.
    mutating func shift(section s: Int, from i: Int, over n: Int, holding held: [Int]) {
        guard n != 0 else { return }
        let step = n > 0 ? 1 : -1
        let h = members[s][i]
        var at = i, k = i, left = abs(n)
        while left > 0 {
            k += step
            precondition(k >= 0 && k < members[s].count, "shift: past the section's end")
            if held.contains(k) { continue }
            members[s][at] = members[s][k]
            at = k
            left -= 1
        }
        members[s][at] = h
        reindex(section: s, from: min(i, at), through: max(i, at))
    }

    /// Makes `order` section `s`'s members, where it differs from them only between indices
    /// `lo` and `hi` (its items the same): those places are reindexed, nothing restacks.
    /// - Complexity: O(hi - lo).
    mutating func adopt(section s: Int, _ order: [Int], changedFrom lo: Int, through hi: Int) {
        precondition(order.count == members[s].count, "adopt: the section keeps its items")
        members[s] = order
        reindex(section: s, from: lo, through: hi)
    }

    /// Replaces the whole order (a commit, a rebuild). The order names every item at most once;
    /// the items it leaves out are parked (carried by a multi-item drag).
    /// - Complexity: O(n).
    mutating func setOrder(_ order: [[Int]]) {
        members = order
        visited.removeAll()
        let movable = self.movable
        pinnedNow = order.map { $0.reduce(0) { $0 + (movable[$1] ? 0 : 1) } }
        for h in sectionOf.indices { sectionOf[h] = -1; indexOf[h] = -1 }
        for s in 0..<sectionCount { reindex(section: s, from: 0) }
        restack(from: 0)
    }

    /// Replaces the members of the sections named (a commit applied where it changed the
    /// order), leaving every other section as it is: each is reindexed from its first changed
    /// index, and the sections restacked. Together the new members hold the items the old ones
    /// held but those a drag parks now (they are parked) and those it parked before.
    /// - Complexity: O(changed tail of each section named) + O(sections).
    mutating func replaceSections(_ sections: [Int], with order: (Int) -> [Int]) {
        var left: [Int] = []
        var from = Int.max
        for s in sections {
            let m = order(s)
            let old = members[s]
            let n = min(old.count, m.count)
            let i = Self.sharedPrefix(old, m, upTo: n)
            if i == n && old.count == m.count { continue }
            // The same length: the items after the last difference keep their indexes.
            let end = old.count == m.count ? Self.lastDifference(old, m, above: i) : m.count - 1
            left.append(contentsOf: old[i..<(old.count == m.count ? end + 1 : old.count)])
            members[s] = m
            if old.count != m.count || pinnedNow[s] > 0 { pinnedNow[s] = m.reduce(0) { $0 + (movable[$1] ? 0 : 1) } }
            reindex(section: s, from: i, through: end)
            from = min(from, s)
        }
        guard from < Int.max else { return }
        // What left those sections and is in none of them now is parked.
        for h in left {
            let s = sectionOf[h], i = indexOf[h]
            if s < 0 || i >= members[s].count || members[s][i] != h { sectionOf[h] = -1; indexOf[h] = -1 }
        }
        restack(from: from)
    }

    /// How many of the first `n` handles `a` and `b` share. A commit on a long section changes
    /// a few of its thousands: compared eight at a time, with one branch each (about a fifth of
    /// the element-by-element loop's instructions).
    /// - Complexity: O(n).
    static func sharedPrefix(_ a: [Int], _ b: [Int], upTo n: Int) -> Int {
        precondition(n <= a.count && n <= b.count)
        return a.withUnsafeBufferPointer { pa in
            b.withUnsafeBufferPointer { pb in
                var i = 0
                while i + 8 <= n {
                    let d = (pa[i] ^ pb[i]) | (pa[i + 1] ^ pb[i + 1]) | (pa[i + 2] ^ pb[i + 2]) | (pa[i + 3] ^ pb[i + 3])
                        | (pa[i + 4] ^ pb[i + 4]) | (pa[i + 5] ^ pb[i + 5]) | (pa[i + 6] ^ pb[i + 6]) | (pa[i + 7] ^ pb[i + 7])
                    if d != 0 { break }
                    i += 8
                }
                while i < n && pa[i] == pb[i] { i += 1 }
                return i
            }
        }
    }

    /// For `a` and `b` of one length: the last index above `i` where they differ, or `i`.
    /// - Complexity: O(count - i).
    static func lastDifference(_ a: [Int], _ b: [Int], above i: Int) -> Int {
        precondition(a.count == b.count && i >= 0)
        return a.withUnsafeBufferPointer { pa in
            b.withUnsafeBufferPointer { pb in
                var end = a.count - 1
                while end - 7 > i {
                    let d = (pa[end] ^ pb[end]) | (pa[end - 1] ^ pb[end - 1]) | (pa[end - 2] ^ pb[end - 2]) | (pa[end - 3] ^ pb[end - 3])
                        | (pa[end - 4] ^ pb[end - 4]) | (pa[end - 5] ^ pb[end - 5]) | (pa[end - 6] ^ pb[end - 6]) | (pa[end - 7] ^ pb[end - 7])
                    if d != 0 { break }
                    end -= 8
                }
                while end > i && pa[end] == pb[end] { end -= 1 }
                return max(end, i)
            }
        }
    }

    /// Takes item `h` out of the order (a multi-item drag carries it): it is in no section and
    /// has no frame until a new order names it again; the items after it close the gap, and
    /// its section's pinned items keep their homes.
    /// - Complexity: O(section) + O(sections).
    mutating func park(_ h: Int, pinnedHome: [Int]) {
        let s = sectionOf[h], i = indexOf[h]
        guard s >= 0 else { return }
        visit(s)
        members[s].remove(at: i)
        sectionOf[h] = -1
        indexOf[h] = -1
        reindex(section: s, from: i)
        if pinnedNow[s] > 0 { fixPinned(section: s, pinnedHome: pinnedHome) }
        restack(from: s)
    }

    /// Whether item `h` is out of the order (see `park`).
    func isParked(_ h: Int) -> Bool { sectionOf[h] < 0 }

    // MARK: Sharing

    /// Takes `other`'s item attributes (ids, labels, colors, heights, movability, kinds,
    /// handles, cards) when they equal this arrangement's: two sessions on one board that
    /// differ in viewport or config (so share no view) then hold one copy of them,
    /// copy-on-write, instead of one each. Returns whether it did.
    /// - Complexity: O(n) to compare (at once when they are already shared).
    @discardableResult
    mutating func shareAttributes(with other: Arrangement) -> Bool {
        // `handleOf` is `ids` inverted: equal ids, equal maps.
        guard kind == other.kind, ids == other.ids, labels == other.labels, colors == other.colors, heights == other.heights,
              movable == other.movable, kinds == other.kinds, grips == other.grips, cards == other.cards else { return false }
        ids = other.ids; labels = other.labels; colors = other.colors; heights = other.heights
        movable = other.movable; handleOf = other.handleOf; kinds = other.kinds; grips = other.grips; cards = other.cards
        return true
    }

    // MARK: Invariants

    /// Every item is in exactly one place, the inverse maps agree, geometry is consistent.
    func invariantViolations() -> [String] {
        var v: [String] = []
        var seen = Array(repeating: false, count: itemCount)
        for s in 0..<sectionCount {
            for (i, h) in members[s].enumerated() {
                if seen[h] { v.append("item \(ids[h]) appears twice") }
                seen[h] = true
                if sectionOf[h] != s || indexOf[h] != i { v.append("item \(ids[h]) inverse map is stale") }
                if stacksRows {
                    let expected = i == 0 ? 0 : tops[s][i - 1] + heights[members[s][i - 1]] + rowSpacing
                    if tops[s][i] != expected { v.append("tops[\(s)][\(i)] is \(tops[s][i]), expected \(expected)") }
                }
            }
            if stacksRows, tops[s].count != members[s].count { v.append("tops[\(s)] has the wrong length") }
            let expectedTop = s == 0 || kind == .columns ? 0 : sectionTop[s - 1] + sectionHeight[s - 1]
            if sectionTop[s] != expectedTop { v.append("section \(sectionIDs[s]) top is stale") }
        }
        if let missing = seen.indices.first(where: { !seen[$0] && sectionOf[$0] >= 0 }) { v.append("item \(ids[missing]) is nowhere") }
        for h in seen.indices where seen[h] && sectionOf[h] < 0 { v.append("item \(ids[h]) is parked and placed") }
        return v
    }
}
