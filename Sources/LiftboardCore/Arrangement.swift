// Over 500 lines on purpose: the order's edits (moves, shifts, splices, setOrder) write
// `members`, `sectionOf`, `indexOf` and `tops`, which are `private(set)` so that no other file
// can leave them out of step; Swift lets only this file's code write them.
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
/// invert it. Where rows stack (lists, columns) it keeps per-section prefix sums (`tops`) so
/// that hit-testing and the target search are binary searches; grids are arithmetic. Where
/// things are and how a drag moves is its `layout`'s.
struct Arrangement: Sendable {
    /// The board's layout as its file states it (written back into a rebuilt board).
    let spec: LayoutSpec
    let layout: any Layout
    /// The layout's answers for the hot paths.
    let traits: LayoutTraits

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
    /// Always 0 on a tree: a pinned row keeps its place in the forest, not its row index
    /// (docs/protocol.md, "Trees": rows come and go as subtrees collapse and move).
    private(set) var pinnedNow: [Int]
    private(set) var sectionOf: [Int]
    private(set) var indexOf: [Int]
    /// Lists and columns: `tops[s][i]` is the y of item `i` of section `s` below the section's
    /// header (prefix sums of the rows above it).
    private(set) var tops: [[Double]]
    private(set) var sectionTop: [Double]
    private(set) var sectionHeight: [Double]
    private(set) var width: Double
    /// Cells in a row at this width (1 but in a grid).
    private(set) var cellsPerRow: Int
    /// Whether every sum of rows' heights and spacings is exact in a `Double` (each a multiple
    /// of 1/1024, all of them together under 2^40): then a top shifted by a difference of
    /// such sums is the top summed again, bit for bit (`splice`).
    let exactSums: Bool

    /// What moved since `clearChanges()`, for a frame that re-sends only those cells: one
    /// section's range of reindexed places, or `wide` (more than one section, or anything
    /// restacked: every cell may have moved).
    struct Changes: Sendable {
        var section = -1
        var lo = Int.max
        var hi = -1
        var wide = true

        /// Section `s`'s places `lo...hi` changed.
        @inline(__always) mutating func note(section s: Int, _ lo: Int, _ hi: Int) {
            guard section < 0 || section == s else { wide = true; return }
            section = s; self.lo = min(self.lo, lo); self.hi = max(self.hi, hi)
        }
    }
    /// A new arrangement is all new.
    private(set) var changes = Changes()
    /// Trees: depths, collapsed states and the tree's rules (nil on other boards).
    var tree: TreeState? = nil

    /// The sections whose order a move changed since the last whole new order (`setOrder`) or
    /// `clearVisited()`: the only ones where a drag can have left the live order other than the
    /// committed order's (what a commit applied in place must look at besides its own).
    private(set) var visited: [Int] = []
    private mutating func visit(_ s: Int) { if !visited.contains(s) { visited.append(s) } }
    mutating func clearVisited() { visited.removeAll() }

    mutating func clearChanges() { changes = Changes(wide: false) }

    init(board: Board, width: Double) {
        spec = LayoutSpec(of: board)
        let layout = spec.make()
        self.layout = layout
        traits = layout.traits
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
                heights.append(layout.cellHeight(declared: item.height))
                movable.append(item.movable)
                kinds.append(item.kind)
                grips.append(item.handle)
                cards.append(item.card)
                if !item.movable && board.layout != .tree { p += 1 }
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
        cellsPerRow = 1
        exactSums = Self.sumsExactly(heights, spacing: traits.rowSpacing)
        if spec.kind == .tree { tree = TreeState(board: board) }
        relayout(width: width)
    }

    @inline(__always) var itemCount: Int { ids.count }
    @inline(__always) var sectionCount: Int { members.count }
    @inline(__always) var headerHeight: Double { traits.headerHeight }
    /// Lists and columns stack rows: prefix sums, binary searches.
    @inline(__always) var stacksRows: Bool { traits.stacksRows }
    /// The space between two stacked rows.
    @inline(__always) var rowSpacing: Double { traits.rowSpacing }
    /// Each section scrolls on its own (columns).
    @inline(__always) var scrollsSections: Bool { traits.scrollsSections }
    /// Sections stacked vertically: their height. Sections that scroll on their own: 0 (each
    /// has its own, `sectionHeight`; the board is as tall as the viewport).
    var contentHeight: Double {
        scrollsSections || sectionCount == 0 ? 0 : sectionTop[sectionCount - 1] + sectionHeight[sectionCount - 1]
    }

    func place(of h: Int) -> Place {
        var p = Place(section: sectionIDs[sectionOf[h]], index: indexOf[h])
        p.depth = tree?.depth[h]
        return p
    }

    /// The order as a commit names it.
    var order: [SectionOrder] {
        (0..<sectionCount).map { SectionOrder(section: sectionIDs[$0], items: members[$0].map { ids[$0] }) }
    }

    // MARK: Geometry

    /// Recomputes everything that depends on the viewport width.
    /// - Complexity: O(n).
    mutating func relayout(width: Double) {
        self.width = width
        cellsPerRow = layout.cellsPerRow(width: width)
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
        changes.note(section: s, i, last)
        let spacing = rowSpacing
        var y = (i == 0 || !stacksRows) ? 0 : tops[s][i - 1] + heights[m[i - 1]] + spacing
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

    /// Recomputes section heights and tops from section `s` down.
    /// - Complexity: O(sections).
    private mutating func restack(from s: Int) {
        changes.wide = true
        let layout = self.layout, stacked = !scrollsSections  // columns: side by side, each at the top
        var y = !stacked || s == 0 ? 0 : sectionTop[s - 1] + sectionHeight[s - 1]
        for k in s..<sectionCount {
            sectionTop[k] = y
            sectionHeight[k] = headerHeight + layout.contentHeight(ofSection: k, in: self)
            if stacked { y += sectionHeight[k] }
        }
    }

    // MARK: Geometry, by the layout

    /// The content's width (columns: every column's; lists and grids: the viewport's).
    var contentWidth: Double { layout.contentWidth(in: self) }

    func sectionFrame(_ s: Int) -> Rect { layout.sectionFrame(s, in: self) }
    func headerFrame(_ s: Int) -> Rect { layout.headerFrame(s, in: self) }
    /// The empty-section slot of section `s` (meaningful when it has no items).
    func slotFrame(_ s: Int) -> Rect { layout.slotFrame(s, in: self) }

    /// The frame of the cell at index `i` of section `s` (for grids, also past the end), by
    /// the layout's placement.
    /// Always inlined: the session calls it from mutating code, where a call not inlined is
    /// passed a copy of the whole arrangement as its `self`.
    @inline(__always) func frame(section s: Int, index i: Int) -> Rect {
        let y0 = sectionTop[s] + headerHeight
        switch traits.placement {
        case .rows(let pitch, let w):
            return Rect(x: Double(s) * pitch, y: y0 + tops[s][i], w: w ?? width, h: heights[members[s][i]])
        case .indented(let indent):
            let h = members[s][i], x = Double(tree?.depth[h] ?? 0) * indent
            return Rect(x: x, y: y0 + tops[s][i], w: max(0, width - x), h: heights[h])
        case .grid(let w, let h, let spacing):
            let col = i % cellsPerRow, row = i / cellsPerRow
            return Rect(x: Double(col) * (w + spacing), y: y0 + Double(row) * (h + spacing), w: w, h: h)
        }
    }

    @inline(__always) func frame(of h: Int) -> Rect { frame(section: sectionOf[h], index: indexOf[h]) }

    func sections() -> [SectionInfo] {
        (0..<sectionCount).map {
            SectionInfo(id: sectionIDs[$0], title: titles[$0], frame: sectionFrame($0), header: headerHeight,
                        slot: members[$0].isEmpty ? slotFrame($0) : nil, subtitle: subtitles[$0],
                        count: members[$0].count, maxDepth: tree?.maxDepth[$0])
        }
    }

    /// The section whose frame holds `y`, clamped to the first and last (sections stacked).
    /// - Complexity: O(log sections).
    func section(at y: Double) -> Int { max(0, Self.firstIndex(upTo: sectionCount) { sectionTop[$0] > y } - 1) }

    /// What lies under `p` (content coordinates).
    /// - Complexity: O(log n).
    func region(at p: Point) -> Region { layout.region(at: p, in: self) }

    /// The handles of the cells that intersect `[y0, y1)`, in order, appended to `out` (a
    /// buffer the caller reuses).
    /// - Complexity: O(log n + k) for k cells.
    func cells(from y0: Double, to y1: Double, into out: inout [Int]) { layout.cells(from: y0, to: y1, in: self, into: &out) }

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
        // Within its section: the index among the others (the item's own place taken out).
        let j = min(max(0, j), members[t].count - (s == t ? 1 : 0))
        if s == t && i == j { return place(of: h) }
        members[s].remove(at: i)
        members[t].insert(h, at: j)
        if s == t {
            reindex(section: s, from: min(i, j), through: max(i, j))
        } else {
            reindex(section: s, from: i)
            reindex(section: t, from: j)
        }
        if pinnedNow[s] > 0 { fixPinned(section: s, pinnedHome: pinnedHome) }
        if s != t && pinnedNow[t] > 0 { fixPinned(section: t, pinnedHome: pinnedHome) }
        if s != t { restack(from: min(s, t)) }
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

    /// Section `s`'s rows `lo ..< lo + count` leave it (parked) and `rows` take their place: a
    /// tree's subtree collapsing or expanding (`LiveSession.toggleRows`). The rows after them
    /// keep their order, so their indexes and tops all move by the same amounts: where sums of
    /// heights are exact (`exactSums`), they are shifted by those amounts (an add a row, no
    /// height read, no section written) instead of being summed again; the sections restacked.
    /// - Complexity: O(count + rows.count + rows after them in the section) + O(sections); the
    ///   rows after them cost an add each (`shiftTail`).
    mutating func splice(section s: Int, at lo: Int, removing count: Int, inserting rows: [Int]) {
        let movable = self.movable, counts = tree == nil  // a tree counts no pinned rows (`pinnedNow`)
        for h in members[s][lo..<(lo + count)] {
            sectionOf[h] = -1; indexOf[h] = -1
            if counts && !movable[h] { pinnedNow[s] -= 1 }
        }
        for h in rows where counts && !movable[h] { pinnedNow[s] += 1 }
        let tail = lo + count < members[s].count
        guard exactSums, stacksRows, tail else {
            members[s].replaceSubrange(lo..<(lo + count), with: rows)
            reindex(section: s, from: lo)
            return restack(from: s)
        }
        // The tail's first top, before and after: the difference is every tail row's shift.
        let spacing = rowSpacing
        var y = lo == 0 ? 0 : tops[s][lo - 1] + heights[members[s][lo - 1]] + spacing
        let was = tops[s][lo + count]
        for h in rows { y += heights[h] + spacing }
        members[s].replaceSubrange(lo..<(lo + count), with: rows)
        tops[s].replaceSubrange(lo..<(lo + count), with: repeatElement(0, count: rows.count))
        reindex(section: s, from: lo, through: lo + rows.count - 1)
        shiftTail(section: s, from: lo + rows.count, by: rows.count - count, dy: y - was)
        restack(from: s)
    }

    /// Section `s`'s rows from index `i` on moved `dk` places and `dy` down, keeping their
    /// order: their indexes and tops follow. Only where `exactSums` (a top shifted equals the
    /// top summed again).
    /// - Complexity: O(rows from `i`), an add each.
    private mutating func shiftTail(section s: Int, from i: Int, by dk: Int, dy: Double) {
        let n = members[s].count
        guard i < n else { return }
        changes.note(section: s, i, n - 1)
        if dy != 0 { tops[s].withUnsafeMutableBufferPointer { t in for k in i..<n { t[k] += dy } } }
        guard dk != 0 else { return }
        let m = members[s]
        indexOf.withUnsafeMutableBufferPointer { index in
            m.withUnsafeBufferPointer { m in for k in i..<n { index[m[k]] += dk } }
        }
    }

    /// Replaces the whole order (a commit, a rebuild). The order names every item at most once;
    /// the items it leaves out are parked (carried by a multi-item drag).
    /// - Complexity: O(n).
    mutating func setOrder(_ order: [[Int]]) {
        members = order
        visited.removeAll()
        let movable = self.movable
        pinnedNow = order.map { tree != nil ? 0 : $0.reduce(0) { $0 + (movable[$1] ? 0 : 1) } }
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
            if tree == nil && (old.count != m.count || pinnedNow[s] > 0) { pinnedNow[s] = m.reduce(0) { $0 + (movable[$1] ? 0 : 1) } }
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
        guard ids == other.ids, labels == other.labels, colors == other.colors, heights == other.heights,
              movable == other.movable, kinds == other.kinds, grips == other.grips, cards == other.cards else { return false }
        ids = other.ids; labels = other.labels; colors = other.colors; heights = other.heights
        movable = other.movable; handleOf = other.handleOf; kinds = other.kinds; grips = other.grips; cards = other.cards
        return true
    }
}
