/// The scroll axes of a layout whose sections scroll on their own (columns, docs/protocol.md,
/// "Columns"): the board scrolling sideways (`scrollX`) and each column vertically on its own
/// (`colScroll`); pans that lock to one axis, flings, auto-scroll in both directions at once.
/// Where the cells are and how a drag moves is `ColumnsLayout`'s. Lists and grids never come
/// here.
extension LiveSession {
    /// The layout's scroll axes: each section scrolls on its own (columns).
    @inline(__always) var scrollsSections: Bool { arr.scrollsSections }

    /// The column with its own scroll under content x `x`.
    func column(atX x: Double) -> Int? { arr.layout.scrolledSection(atX: x, in: arr) }

    // MARK: Coordinates

    /// Content coordinates of viewport point `p`. Columns: x in the board's content; y in the
    /// column's own coordinates, scrolled by that column's offset below its header (a header
    /// does not scroll). Lists and grids: `(x, y + scrolling.y)`.
    func contentPoint(_ p: Point) -> Point {
        guard scrollsSections else { return Point(x: p.x, y: p.y + scrolling.y) }
        let x = p.x + scrolling.x
        guard p.y >= arr.headerHeight, let k = column(atX: x) else { return Point(x: x, y: p.y) }
        return Point(x: x, y: p.y + scrolling.columns[k])
    }

    /// Viewport coordinates of content point `p` of section `s` (a cell's center).
    func viewportPoint(_ p: Point, section s: Int) -> Point {
        guard scrollsSections else { return Point(x: p.x, y: p.y - scrolling.y) }
        return Point(x: p.x - scrolling.x, y: p.y - (s >= 0 && s < scrolling.columns.count ? scrolling.columns[s] : 0))
    }

    var maxScrollX: Double { scrollsSections ? max(0, arr.contentWidth - viewport.w) : 0 }
    func maxColumnScroll(_ k: Int) -> Double { max(0, arr.sectionHeight[k] - viewport.h) }

    /// The board's content size: columns are as tall as the viewport.
    var contentSize: Size {
        scrollsSections ? Size(w: arr.contentWidth, h: viewport.h) : Size(w: viewport.w, h: arr.contentHeight)
    }

    /// Sections as `layout` and frames carry them: columns add their scroll and content height.
    func sectionInfos() -> [SectionInfo] {
        var list = arr.sections()
        guard scrollsSections else { return list }
        for k in list.indices {
            list[k].scroll = scrolling.columns[k]
            list[k].contentHeight = arr.sectionHeight[k]
        }
        return list
    }

    /// Whether an offset is past its end (the rows changed under it).
    /// - Complexity: O(columns).
    var columnScrollOutOfRange: Bool {
        guard scrollsSections else { return false }
        if scrolling.columns.count != arr.sectionCount || scrolling.x > maxScrollX { return true }
        return scrolling.columns.indices.contains { scrolling.columns[$0] > maxColumnScroll($0) }
    }

    /// Clamps every column's offset to its rows (they changed) and the board's to its width.
    /// Returns whether any offset moved.
    @discardableResult
    mutating func clampColumnScrolls() -> Bool {
        guard scrollsSections else { return false }
        var moved = false
        if scrolling.columns.count != arr.sectionCount { scrolling.columns = Array(repeating: 0, count: arr.sectionCount); moved = true }
        for t in -1..<scrolling.columns.count { moved = setScroll(t, to: scrollRange(t).offset) || moved }
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

    /// The offset of the board's sideways scroll (`t` -1, as a `Fling` names it) or of column
    /// `t`, and the end it stops at.
    func scrollRange(_ t: Int) -> (offset: Double, end: Double) {
        t < 0 ? (scrolling.x, maxScrollX) : (scrolling.columns[t], maxColumnScroll(t))
    }

    /// Sets the board's offset (`t` -1) or column `t`'s to `v`, clamped to its end: whether it
    /// moved.
    mutating func setScroll(_ t: Int, to v: Double) -> Bool {
        let (offset, end) = scrollRange(t)
        let clamped = min(max(0, v), end)
        if t < 0 { scrolling.x = clamped } else { scrolling.columns[t] = clamped }
        return clamped != offset
    }

    /// Moves the board sideways (`t` -1) or column `t` to `v` (clamped to its end) and
    /// retargets every pointer drag.
    mutating func scrollColumns(_ t: Int, to v: Double, now: Double) {
        guard t < scrolling.columns.count, setScroll(t, to: v) else { return }
        step.cellsDirty = true
        for d in drags.indices where drags[d].pointer >= 0 { retarget(d, now: now) }
        settleColumns(now: now)
    }

    /// `wheel`: `dy` scrolls the column under the pointer (none without `at`, or over no
    /// column), `dx` the board.
    mutating func wheelColumns(dx: Double, dy: Double, at: Point?, now: Double) {
        scrolling.flings = []
        if dx != 0 { scrollColumns(-1, to: scrolling.x + dx, now: now) }
        if dy != 0, let at, let k = column(atX: at.x + scrolling.x) { scrollColumns(k, to: scrolling.columns[k] + dy, now: now) }
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
            scrollColumns(-1, to: pointers[k].scrollXAtDown - dx, now: now)
        } else if let c = pointers[k].columnAtDown {
            scrollColumns(c, to: pointers[k].columnScrollAtDown - dy, now: now)
        }
    }

    /// A pan's release: its axis keeps its velocity and decelerates, a fling of its own.
    mutating func startFling(from pointer: PointerState, now: Double) {
        guard let axis = pointer.panAxis else { return }
        let recent = pointer.samples.filter { now - $0.t <= 100 }
        guard let first = recent.first, let last = recent.last, last.t > first.t else { return }
        let velocity = -(last.y - first.y) / (last.t - first.t)
        guard abs(velocity) * 1000 >= 10 else { return }
        // The board's (-1), or the column under the pan's `down` (none: no fling).
        let target = axis == .x ? -1 : pointer.columnAtDown ?? scrolling.columns.count
        guard target < scrolling.columns.count else { return }
        let (offset, end) = scrollRange(target)
        if (velocity < 0 && offset <= 0) || (velocity > 0 && offset >= end) { return }
        scrolling.flings.removeAll { $0.target == target }
        scrolling.flings.append(Fling(target: target, velocity: velocity, nextTick: now + tickMs))
    }

    /// One tick of fling `i`.
    mutating func flingTick(_ i: Int, now: Double) {
        guard i < scrolling.flings.count else { return }
        var f = scrolling.flings[i]
        scrollColumns(f.target, to: scrollRange(f.target).offset + f.velocity * Self.distancePerTick, now: now)
        f.velocity *= Self.decayPerTick
        f.nextTick = now + tickMs
        let (offset, end) = f.target < scrolling.columns.count ? scrollRange(f.target) : (0, 0)
        let atEnd = offset <= 0 || offset >= end
        if abs(f.velocity) * 1000 < 10 || atEnd { scrolling.flings.remove(at: i) } else { scrolling.flings[i] = f }
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
        if (v.board < 0 && scrolling.x > 0) || (v.board > 0 && scrolling.x < maxScrollX) { return true }
        for k in v.columns.indices {
            let c = v.columns[k]
            if (c < 0 && scrolling.columns[k] > 0) || (c > 0 && scrolling.columns[k] < maxColumnScroll(k)) { return true }
        }
        return false
    }

    /// One tick: the board and every asked-for column move by their sums (clamped), then every
    /// drag is retargeted; the clock stops when a tick moved nothing.
    mutating func columnAutoScrollTick(now: Double) {
        let v = columnAutoScrollVelocities()
        var moved = setScroll(-1, to: scrolling.x + v.board * tickMs)
        for k in v.columns.indices where v.columns[k] != 0 {
            moved = setScroll(k, to: scrolling.columns[k] + v.columns[k] * tickMs) || moved
        }
        if moved {
            step.cellsDirty = true
            for d in drags.indices where drags[d].pointer >= 0 { retarget(d, now: now) }
            settleColumns(now: now)
        }
        scrolling.autoScrollAt = moved && columnAutoScrollWanted() ? now + tickMs : nil
    }

    // MARK: The frames' window

    /// The cells of every column near the visible part of the board, each column within one
    /// viewport's height of its own visible rows, appended to `out` column by column.
    /// - Complexity: O(columns + log n + k) for k cells.
    func columnWindowCells(into out: inout [Int]) {
        let x0 = scrolling.x - viewport.w, x1 = scrolling.x + 2 * viewport.w
        for k in 0..<arr.sectionCount {
            let f = arr.sectionFrame(k)
            let y0 = scrolling.columns[k] - viewport.h, y1 = scrolling.columns[k] + 2 * viewport.h
            guard f.minX < x1, f.maxX > x0, !arr.members[k].isEmpty, y1 > y0 else { continue }
            arr.stackedCells(k, base: arr.headerHeight, from: y0, to: y1, into: &out)
        }
    }

    /// Whether frame `f` of column `s` is in the frames' window.
    func inColumnWindow(_ f: Rect, section s: Int) -> Bool {
        let x0 = scrolling.x - viewport.w, x1 = scrolling.x + 2 * viewport.w
        guard f.x < x1, f.x + f.w > x0 else { return false }
        return f.y < scrolling.columns[s] + 2 * viewport.h && f.y + f.h > scrolling.columns[s] - viewport.h
    }

    // MARK: Keyboard

    /// Scrolls the board just enough to show item `h`'s column, and the column just enough to
    /// show its cell below the header, animated.
    mutating func columnScrollIntoView(_ h: Int) {
        let s = arr.sectionOf[h]
        guard s >= 0 else { return }
        let f = arr.frame(of: h)
        var x = scrolling.x, y = scrolling.columns[s]
        if f.minX < x { x = f.minX } else if f.maxX > x + viewport.w { x = f.maxX - viewport.w }
        if f.minY - arr.headerHeight < y { y = f.minY - arr.headerHeight } else if f.maxY > y + viewport.h { y = f.maxY - viewport.h }
        let movedX = setScroll(-1, to: x), movedY = setScroll(s, to: y)
        if movedX || movedY {
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
