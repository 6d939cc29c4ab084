/// Columns (docs/protocol.md, "Columns"): sections side by side, the board scrolling sideways
/// (`scrollX`) and each column vertically on its own (`colScroll`); drags in both axes, pans
/// that lock to one axis, auto-scroll in both directions at once, and the keyboard across
/// columns. Lists and grids never come here.
extension LiveSession {
    var isColumns: Bool { arr.kind == .columns }

    // MARK: Coordinates

    /// Content coordinates of viewport point `p`. Columns: x in the board's content; y in the
    /// column's own coordinates, scrolled by that column's offset below its header (a header
    /// does not scroll). Lists and grids: `(x, y + scrollY)`.
    func contentPoint(_ p: Point) -> Point {
        guard isColumns else { return Point(x: p.x, y: p.y + scrollY) }
        let x = p.x + scrollX
        guard p.y >= arr.headerHeight, let k = arr.column(atX: x) else { return Point(x: x, y: p.y) }
        return Point(x: x, y: p.y + colScroll[k])
    }

    /// Viewport coordinates of content point `p` of section `s` (a cell's center).
    func viewportPoint(_ p: Point, section s: Int) -> Point {
        guard isColumns else { return Point(x: p.x, y: p.y - scrollY) }
        return Point(x: p.x - scrollX, y: p.y - (s >= 0 && s < colScroll.count ? colScroll[s] : 0))
    }

    var maxScrollX: Double { isColumns ? max(0, arr.contentWidth - viewport.w) : 0 }
    func maxColumnScroll(_ k: Int) -> Double { max(0, arr.columnHeight(k) - viewport.h) }

    /// The board's content size: columns are as tall as the viewport.
    var contentSize: Size {
        isColumns ? Size(w: arr.contentWidth, h: viewport.h) : Size(w: viewport.w, h: arr.contentHeight)
    }

    /// Sections as `layout` and frames carry them: columns add their scroll and content height.
    func sectionInfos() -> [SectionInfo] {
        var list = arr.sections()
        guard isColumns else { return list }
        for k in list.indices {
            list[k].scroll = colScroll[k]
            list[k].contentHeight = arr.columnHeight(k)
        }
        return list
    }

    /// Whether an offset is past its end (the rows changed under it).
    /// - Complexity: O(columns).
    var columnScrollOutOfRange: Bool {
        guard isColumns else { return false }
        if colScroll.count != arr.sectionCount || scrollX > maxScrollX { return true }
        return colScroll.indices.contains { colScroll[$0] > maxColumnScroll($0) }
    }

    /// Clamps every column's offset to its rows (they changed) and the board's to its width.
    /// Returns whether any offset moved.
    @discardableResult
    mutating func clampColumnScrolls() -> Bool {
        guard isColumns else { return false }
        var moved = false
        if colScroll.count != arr.sectionCount { colScroll = Array(repeating: 0, count: arr.sectionCount); moved = true }
        let x = min(max(0, scrollX), maxScrollX)
        if x != scrollX { scrollX = x; moved = true }
        for k in colScroll.indices {
            let y = min(max(0, colScroll[k]), maxColumnScroll(k))
            if y != colScroll[k] { colScroll[k] = y; moved = true }
        }
        if moved { step.cellsDirty = true }
        return moved
    }

    /// After the live order changed: offsets past their columns' ends come back, which moves
    /// content under still snapshots, so every pointer drag is retargeted until nothing moves
    /// (at most 2 × drags + 2 rounds).
    mutating func settleColumns(now: Double) {
        for _ in 0..<(2 * drags.count + 2) {
            let clamped = clampColumnScrolls()
            let pointerDrags = drags.reduce(0) { $0 + ($1.pointer >= 0 ? 1 : 0) }
            guard clamped || pointerDrags > 1 else { return }
            var moved = false
            for d in drags.indices where drags[d].pointer >= 0 { moved = retarget(d, now: now) || moved }
            if !moved { clampColumnScrolls(); return }
        }
        clampColumnScrolls()
    }

    /// Moves the board sideways to `x` (clamped) and retargets every pointer drag.
    mutating func scrollBoard(to x: Double, now: Double) {
        let clamped = min(max(0, x), maxScrollX)
        guard clamped != scrollX else { return }
        scrollX = clamped
        step.cellsDirty = true
        for d in drags.indices where drags[d].pointer >= 0 { retarget(d, now: now) }
        settleColumns(now: now)
    }

    /// Moves column `k` to offset `y` (clamped to its rows) and retargets every pointer drag.
    mutating func scrollColumn(_ k: Int, to y: Double, now: Double) {
        guard k >= 0, k < colScroll.count else { return }
        let clamped = min(max(0, y), maxColumnScroll(k))
        guard clamped != colScroll[k] else { return }
        colScroll[k] = clamped
        step.cellsDirty = true
        for d in drags.indices where drags[d].pointer >= 0 { retarget(d, now: now) }
        settleColumns(now: now)
    }

    /// `wheel`: `dy` scrolls the column under the pointer (none without `at`, or over no
    /// column), `dx` the board.
    mutating func wheelColumns(dx: Double, dy: Double, at: Point?, now: Double) {
        flings = []
        if dx != 0 { scrollBoard(to: scrollX + dx, now: now) }
        if dy != 0, let at, let k = arr.column(atX: at.x + scrollX) { scrollColumn(k, to: colScroll[k] + dy, now: now) }
    }

    // MARK: Targeting

    /// Drag `d`'s place from its snapshot's center: the target column by the center's x (gaps
    /// keep a bordering current column, else go left; outside, the first or last); entering
    /// another column, the place before its first row (without the item, in its scroll) whose
    /// midpoint is below the center's y clamped to the viewport's body; within the current
    /// column, the list rule. A refusing column is no target. Swap mode exchanges within the
    /// lift's column.
    mutating func retargetColumns(_ d: Int) {
        let h = drags[d].item
        let cur = arr.sectionOf[h]
        let c = drags[d].center
        let x = c.x + scrollX
        let t = arr.targetColumn(atX: x, current: cur)
        // `swaps(drags[d])` spelled out (a non-mutating call here copies the session).
        if config.mode == .swap && drags[d].pointer >= 0 && drags[d].copyFrom == nil {
            retargetColumnsSwap(d, target: t, x: x)
            return
        }
        if t != cur {
            guard !arr.hasRules || allows(t, for: h) else { return }
            enterColumn(h, t, viewportY: c.y)
        }
        retargetInColumn(h, y: c.y + colScroll[arr.sectionOf[h]])
    }

    /// Item `h` enters column `t` before the first row whose midpoint is below the center.
    mutating func enterColumn(_ h: Int, _ t: Int, viewportY: Double) {
        let y = min(max(viewportY, arr.headerHeight), viewport.h) + colScroll[t]
        let i = arr.entryIndex(column: t, y: y, without: h)
        arr.move(h, toSection: t, index: i, pinnedHome: pinnedHome)
    }

    /// Whether the list rule, within item `h`'s column only, moves it down (+1), up (-1) or
    /// not (0) for column y `y`. A column that refuses its drag (the palette it is copied
    /// out of) passes nothing.
    func columnStep(_ h: Int, y: Double) -> Int {
        let s = arr.sectionOf[h], i = arr.indexOf[h]
        if arr.hasRules && !allows(s, for: h) { return 0 }
        if let j = nextMovable(section: s, after: i), y >= arr.frame(section: s, index: j).midY { return 1 }
        if let j = prevMovable(section: s, before: i), y <= arr.frame(section: s, index: j).midY { return -1 }
        return 0
    }

    /// Passes neighbours within the column while the center is at or beyond their midpoints.
    /// - Complexity: O(cells passed).
    mutating func retargetInColumn(_ h: Int, y: Double) {
        for _ in 0...arr.itemCount {
            let dir = columnStep(h, y: y)
            if dir == 0 { return }
            let s = arr.sectionOf[h], i = arr.indexOf[h]
            guard let j = dir > 0 ? nextMovable(section: s, after: i) : prevMovable(section: s, before: i) else { return }
            arr.exchange(section: s, i, j)
            // Another drag's item whose own rule would pass it straight back: not passed.
            if passesBackInColumn(arr.members[s][i], dir: dir) { arr.exchange(section: s, i, j); return }
        }
    }

    /// Whether item `n`, held by another pointer drag targeting its own column by the insert
    /// rules, would move in direction `dir` under that drag's still snapshot.
    func passesBackInColumn(_ n: Int, dir: Int) -> Bool {
        let s = arr.sectionOf[n]
        // A swap drag in its lift's column exchanges; outside it, it follows the insert rules.
        guard let p = liftedBy[n], p >= 0, let k = dragIndex(p), drags[k].item == n,
              !(swaps(drags[k]) && s == drags[k].liftSection) else { return false }
        guard arr.targetColumn(atX: drags[k].center.x + scrollX, current: s) == s else { return false }
        return columnStep(n, y: drags[k].center.y + colScroll[s]) == dir
    }

    /// Swap mode in columns: over a cell of the lift's column (in the committed layout, with
    /// that column's scroll) the item exchanges with it; once the target column is another,
    /// the exchange is undone and the item enters that column by the insert rule, then
    /// follows it. Only a cell of the lift's column brings it back.
    mutating func retargetColumnsSwap(_ d: Int, target t: Int, x: Double) {
        let h = drags[d].item, ls = drags[d].liftSection
        let c = drags[d].center
        let cur = arr.sectionOf[h]
        if t == ls {
            guard c.y >= arr.headerHeight, let ref = committedLayout,
                  case .cell(let other) = ref.region(at: Point(x: x, y: c.y + colScroll[ls])), ref.sectionOf[other] == ls else {
                return  // over no cell of the lift's column: the live order stays
            }
            if cur != ls { arr.move(h, toSection: ls, index: ref.indexOf[h], pinnedHome: pinnedHome) }
            if other == h {
                setSwapTarget(d, nil)
            } else if arr.movable[other] && !isHeld(other, byOtherThan: d) {
                setSwapTarget(d, other)
            }
            return
        }
        if t != cur {
            guard !arr.hasRules || allows(t, for: h) else { return }
            setSwapTarget(d, nil)
            enterColumn(h, t, viewportY: c.y)
        }
        retargetInColumn(h, y: c.y + colScroll[arr.sectionOf[h]])
    }

    // MARK: Pans and flings

    /// A pan decides its axis once (UIScrollView's directional lock): sideways when |dx| >
    /// |dy|, scrolling the board, else vertically, scrolling the column under its `down`.
    mutating func panColumns(_ k: Int, now: Double) {
        let origin = pointers[k].recognizer.origin
        let dx = pointers[k].position.x - origin.x, dy = pointers[k].position.y - origin.y
        if pointers[k].panAxis == nil {
            pointers[k].panAxis = abs(dx) > abs(dy) ? .x : .y
            pointers[k].samples = []
        }
        let sideways = pointers[k].panAxis == .x
        pointers[k].samples.append((now, sideways ? pointers[k].position.x : pointers[k].position.y))
        pointers[k].samples.removeAll { now - $0.t > 100 }
        if sideways {
            scrollBoard(to: pointers[k].scrollXAtDown - dx, now: now)
        } else if let c = pointers[k].columnAtDown {
            scrollColumn(c, to: pointers[k].columnScrollAtDown - dy, now: now)
        }
    }

    /// A pan's release: its axis keeps its velocity and decelerates, a fling of its own.
    mutating func startFling(from pointer: PointerState, now: Double) {
        guard let axis = pointer.panAxis else { return }
        let recent = pointer.samples.filter { now - $0.t <= 100 }
        guard let first = recent.first, let last = recent.last, last.t > first.t else { return }
        let velocity = -(last.y - first.y) / (last.t - first.t)
        guard abs(velocity) * 1000 >= 10 else { return }
        let target: Int
        switch axis {
        case .x: target = -1
        case .y:
            guard let c = pointer.columnAtDown, c < colScroll.count else { return }
            target = c
        }
        let (offset, end) = target < 0 ? (scrollX, maxScrollX) : (colScroll[target], maxColumnScroll(target))
        if (velocity < 0 && offset <= 0) || (velocity > 0 && offset >= end) { return }
        flings.removeAll { $0.target == target }
        flings.append(Fling(target: target, velocity: velocity, nextTick: now + tickMs))
    }

    /// One tick of fling `i`.
    mutating func flingTick(_ i: Int, now: Double) {
        guard i < flings.count else { return }
        var f = flings[i]
        if f.target < 0 {
            scrollBoard(to: scrollX + f.velocity * Self.distancePerTick, now: now)
        } else {
            scrollColumn(f.target, to: colScroll[f.target] + f.velocity * Self.distancePerTick, now: now)
        }
        f.velocity *= Self.decayPerTick
        f.nextTick = now + tickMs
        let (offset, end) = f.target < 0 ? (scrollX, maxScrollX)
            : (f.target < colScroll.count ? (colScroll[f.target], maxColumnScroll(f.target)) : (0, 0))
        let atEnd = offset <= 0 || offset >= end
        if abs(f.velocity) * 1000 < 10 || atEnd { flings.remove(at: i) } else { flings[i] = f }
    }

    // MARK: Auto-scroll

    /// The speeds (px/ms, signed) the dragging pointers ask for: the board's, and each
    /// column's, summed over the pointers.
    func columnAutoScrollVelocities() -> (board: Double, columns: [Double]) {
        var board = 0.0
        var columns = Array(repeating: 0.0, count: arr.sectionCount)
        let range = config.edgeScrollRange
        guard range > 0, config.edgeScrollSpeed > 0 else { return (0, columns) }
        let perMs = config.edgeScrollSpeed / 1000
        let top = arr.headerHeight
        for d in drags where d.pointer >= 0 {
            guard let k = pointerIndex(d.pointer) else { continue }
            let p = pointers[k].position
            if p.x < range { board -= perMs * min(range, range - p.x) / range }
            if p.x > viewport.w - range { board += perMs * min(range, p.x - (viewport.w - range)) / range }
            let s = arr.sectionOf[d.item]
            guard s >= 0 else { continue }
            if p.y < top + range { columns[s] -= perMs * min(range, top + range - p.y) / range }
            if p.y > viewport.h - range { columns[s] += perMs * min(range, p.y - (viewport.h - range)) / range }
        }
        return (board, columns)
    }

    /// Whether some asked-for scroll can still move toward its end.
    func columnAutoScrollWanted() -> Bool {
        // The usual move: no dragging pointer in any band (no sums to make).
        let range = config.edgeScrollRange, top = arr.headerHeight
        guard range > 0, config.edgeScrollSpeed > 0 else { return false }
        let inBand = drags.contains { d in
            guard d.pointer >= 0, let k = pointerIndex(d.pointer) else { return false }
            let p = pointers[k].position
            return p.x < range || p.x > viewport.w - range || p.y < top + range || p.y > viewport.h - range
        }
        guard inBand else { return false }
        let v = columnAutoScrollVelocities()
        if (v.board < 0 && scrollX > 0) || (v.board > 0 && scrollX < maxScrollX) { return true }
        for k in v.columns.indices {
            let c = v.columns[k]
            if (c < 0 && colScroll[k] > 0) || (c > 0 && colScroll[k] < maxColumnScroll(k)) { return true }
        }
        return false
    }

    /// One tick: the board and every asked-for column move by their sums (clamped), then every
    /// drag is retargeted; the clock stops when a tick moved nothing.
    mutating func columnAutoScrollTick(now: Double) {
        let v = columnAutoScrollVelocities()
        var moved = false
        let x = min(max(0, scrollX + v.board * tickMs), maxScrollX)
        if x != scrollX { scrollX = x; moved = true }
        for k in v.columns.indices where v.columns[k] != 0 {
            let y = min(max(0, colScroll[k] + v.columns[k] * tickMs), maxColumnScroll(k))
            if y != colScroll[k] { colScroll[k] = y; moved = true }
        }
        if moved {
            step.cellsDirty = true
            for d in drags.indices where drags[d].pointer >= 0 { retarget(d, now: now) }
            settleColumns(now: now)
        }
        autoScrollAt = moved && columnAutoScrollWanted() ? now + tickMs : nil
    }

    // MARK: The frames' window

    /// The cells of every column near the visible part of the board, each column within one
    /// viewport's height of its own visible rows, appended to `out` column by column.
    /// - Complexity: O(columns + log n + k) for k cells.
    func columnWindowCells(into out: inout [Int]) {
        let x0 = scrollX - viewport.w, x1 = scrollX + 2 * viewport.w
        for k in 0..<arr.sectionCount {
            let cx = arr.columnX(k)
            guard cx < x1, cx + arr.cols.width > x0 else { continue }
            arr.columnCells(k, from: colScroll[k] - viewport.h, to: colScroll[k] + 2 * viewport.h, into: &out)
        }
    }

    /// Whether frame `f` of column `s` is in the frames' window.
    func inColumnWindow(_ f: Rect, section s: Int) -> Bool {
        let x0 = scrollX - viewport.w, x1 = scrollX + 2 * viewport.w
        guard f.x < x1, f.x + f.w > x0 else { return false }
        return f.y < colScroll[s] + 2 * viewport.h && f.y + f.h > colScroll[s] - viewport.h
    }

    // MARK: Keyboard

    /// The focus's next item: Left/Right the nearest column that way with items (the same
    /// index, clamped); Up/Down within the column (nothing at its ends).
    func columnFocusTarget(from h: Int, key: String) -> Int? {
        let s = arr.sectionOf[h], i = arr.indexOf[h]
        switch key {
        case "ArrowUp": return i > 0 ? arr.members[s][i - 1] : nil
        case "ArrowDown": return i + 1 < arr.members[s].count ? arr.members[s][i + 1] : nil
        case "ArrowLeft", "ArrowRight":
            let step = key == "ArrowLeft" ? -1 : 1
            var t = s + step
            while t >= 0 && t < arr.sectionCount {
                if !arr.members[t].isEmpty { return arr.members[t][min(i, arr.members[t].count - 1)] }
                t += step
            }
            return nil
        default: return nil
        }
    }

    /// A lifted item's keyboard step: Left/Right to the nearest column that way that takes it
    /// (the same index, clamped); Up/Down one place within its column (pinned items hopped).
    mutating func columnKeyboardStep(_ h: Int, key: String) {
        let s = arr.sectionOf[h], i = arr.indexOf[h]
        let free = !arr.hasRules || allows(s, for: h)
        switch key {
        case "ArrowUp":
            if free, let j = prevMovable(section: s, before: i) { arr.exchange(section: s, i, j) }
        case "ArrowDown":
            if free, let j = nextMovable(section: s, after: i) { arr.exchange(section: s, i, j) }
        case "ArrowLeft":
            if let t = prevAllowed(before: s, for: h) { arr.move(h, toSection: t, index: min(i, arr.members[t].count), pinnedHome: pinnedHome) }
        case "ArrowRight":
            if let t = nextAllowed(after: s, for: h) { arr.move(h, toSection: t, index: min(i, arr.members[t].count), pinnedHome: pinnedHome) }
        default:
            break
        }
    }

    /// Scrolls the board just enough to show item `h`'s column, and the column just enough to
    /// show its cell below the header, animated.
    mutating func columnScrollIntoView(_ h: Int) {
        let s = arr.sectionOf[h]
        guard s >= 0 else { return }
        let f = arr.frame(of: h)
        var x = scrollX
        if f.minX < x { x = f.minX } else if f.maxX > x + viewport.w { x = f.maxX - viewport.w }
        x = min(max(0, x), maxScrollX)
        var y = colScroll[s]
        if f.minY - arr.headerHeight < y { y = f.minY - arr.headerHeight } else if f.maxY > y + viewport.h { y = f.maxY - viewport.h }
        y = min(max(0, y), maxColumnScroll(s))
        if x != scrollX || y != colScroll[s] {
            scrollX = x
            colScroll[s] = y
            step.scrollDur = dur(config.shiftMs)
            step.cellsDirty = true
        }
    }
}

/// A pan's fling in a columns board: the board's (`target` -1) or one column's.
struct Fling: Sendable {
    var target: Int
    /// Content velocity in px/ms.
    var velocity: Double
    var nextTick: Double
}
