import LiftboardCore
import LiftboardWire

/// The pilot on a columns board (docs/protocol.md, "Columns"): it aims in both axes, lets the
/// board scroll sideways at the viewport's left and right edges and the item's column at its
/// body's top and the viewport's bottom, and reads each column's own scroll from the frames.
extension DragPilot {
    /// The content point (x in the board, y in the column) the snapshot's center heads for.
    /// A place right after Y is just below Y's midpoint (entering a column puts the item
    /// before the first row whose midpoint is below the center; within its column the list
    /// rule passes Y there); going up within the column, just above the midpoint of the movable
    /// row after Y. First in a column: just above its first movable row, or its slot.
    func columnAim(_ driver: StreamDriver, ontoFrame: Rect?) -> Point? {
        guard let order = driver.session.liveOrder else { return nil }
        let view = driver.view
        let without = order.map { SectionOrder(section: $0.section, items: $0.items.filter { $0 != item }) }
        let mov = movable(in: driver)
        let here = order.firstIndex { $0.items.contains(item) }
        // A row the frames do not carry (out of its column's window): toward the band of its
        // column's side it lies beyond, which scrolls that column once the item is in it.
        func offscreen(_ id: String, in s: Int) -> Point? {
            guard let info = view.section(order[s].section) else { return nil }
            let rows = order[s].items
            guard let j = rows.firstIndex(of: id) else { return nil }
            let shown = rows.indices.filter { view.cells[rows[$0]] != nil && rows[$0] != item }
            let top = info.scroll ?? 0
            let up = shown.first.map { j < $0 } ?? false
            return Point(x: info.frame.midX, y: up ? top + info.header / 2 : top + view.viewport.h - 1)
        }
        func above(_ id: String, _ s: Int) -> Point? {
            view.cells[id].map { Point(x: $0.midX, y: $0.midY - 1) } ?? offscreen(id, in: s)
        }
        func below(_ id: String, _ s: Int) -> Point? {
            view.cells[id].map { Point(x: $0.midX, y: $0.midY + 1) } ?? offscreen(id, in: s)
        }
        switch target {
        case .into, .afterAt: return nil  // trees are lists, not columns
        case .onto(let y):
            return (ontoFrame ?? view.cells[y]).map { $0.center }
        case .after(let y):
            guard let s = without.firstIndex(where: { $0.items.contains(y) }) else { return nil }
            if s == here, let i = order[s].items.firstIndex(of: item), let j = order[s].items.firstIndex(of: y), i > j {
                // Up within the column: over the movable row that follows Y.
                let rest = without[s].items.drop { $0 != y }.dropFirst()
                if let z = rest.first(where: { mov[$0] ?? true }) { return above(z, s) }
            }
            return below(y, s)
        case .first(let section):
            guard let s = without.firstIndex(where: { $0.section == section }), let info = view.section(section) else { return nil }
            if let z = without[s].items.first(where: { mov[$0] ?? true }) { return above(z, s) }
            return info.slot?.center ?? Point(x: info.frame.midX, y: info.frame.minY + info.header + 1)
        }
    }

    private func movable(in driver: StreamDriver) -> [String: Bool] {
        var m: [String: Bool] = [:]
        for s in driver.board.sections { for i in s.items { m[i.id] = i.movable } }
        return m
    }

    /// The column the item is in now (its live section), as the frames describe it.
    private func itemColumn(_ driver: StreamDriver) -> SectionInfo? {
        guard let order = driver.session.liveOrder, let s = order.first(where: { $0.items.contains(item) }) else { return nil }
        return driver.view.section(s.section)
    }

    /// Out of the bands: the nearest point inside them, if the snapshot's center stays over
    /// the item's own cell there.
    func columnExit(_ pointer: Point, grab: Point, _ driver: StreamDriver) -> Point? {
        let r = config.edgeScrollRange, view = driver.view
        guard let own = view.cells[item], let column = itemColumn(driver) else { return nil }
        let top = column.header
        let to = Point(x: min(max(pointer.x, r), view.viewport.w - r), y: min(max(pointer.y, top + r), view.viewport.h - r))
        let c = Point(x: to.x + grab.x + view.scrollX, y: to.y + grab.y + (column.scroll ?? 0))
        return own.contains(c) ? to : nil
    }

    /// Whether an `up` here moves nothing more: out of every band, or in bands whose scrolls
    /// are blocked at their ends.
    func columnReleasable(_ pointer: Point, _ driver: StreamDriver) -> Bool {
        let r = config.edgeScrollRange, view = driver.view
        if r <= 0 || config.edgeScrollSpeed <= 0 { return true }
        let maxX = max(0, view.content.w - view.viewport.w)
        let x = driver.session.scrollX ?? 0
        if pointer.x < r && x > 0 { return false }
        if pointer.x > view.viewport.w - r && x < maxX { return false }
        guard let column = itemColumn(driver) else { return true }
        let k = driver.view.sections.firstIndex { $0.id == column.id } ?? 0
        let y = driver.session.columnScrolls?[k] ?? 0
        let maxY = max(0, (column.contentHeight ?? 0) - view.viewport.h)
        if pointer.y < column.header + r && y > 0 { return false }
        if pointer.y > view.viewport.h - r && y < maxY { return false }
        return true
    }

    /// Scrolls the board and the item's column (wheels) so that its cell is drawn out of the
    /// edge bands, and returns its center in viewport coordinates.
    static func columnBringIntoView(_ item: String, _ driver: inout StreamDriver, config: SessionConfig) -> Point {
        let w = driver.view.viewport.w, h = driver.view.viewport.h, r = config.edgeScrollRange
        // A row out of its column's window has no frame in the picture: its column into view
        // sideways, then wheels of one viewport over it toward the row, until it has.
        if driver.view.cells[item] == nil, let order = driver.session.liveOrder,
           let s = order.firstIndex(where: { $0.items.contains(item) }), let info = driver.view.section(order[s].section) {
            if info.frame.minX < driver.view.scrollX || info.frame.maxX > driver.view.scrollX + w {
                let dx = round(info.frame.midX - driver.view.scrollX - w / 2)
                driver.send([("t", .string("wheel")), ("dx", .number(dx)), ("dy", .number(0))], ms: driver.clock)
            }
            var guardSteps = 0
            while driver.view.cells[item] == nil, guardSteps < 10_000 {
                guardSteps += 1
                let rows = order[s].items
                let shown = rows.indices.filter { driver.view.cells[rows[$0]] != nil }
                let up = shown.first.map { (rows.firstIndex(of: item) ?? 0) < $0 } ?? false
                let before = driver.session.columnScrolls
                let x = round(min(max(info.frame.midX - driver.view.scrollX, 0), w - 1))
                driver.send([("t", .string("wheel")), ("dx", .number(0)), ("dy", .number(up ? -h : h)),
                             ("x", .number(x)), ("y", .number(round(h / 2)))], ms: driver.clock)
                if driver.session.columnScrolls == before { break }
            }
        }
        guard let frame = driver.view.cells[item] else { return Point(x: round(w / 2), y: round(h / 2)) }
        var x = frame.midX - driver.view.scrollX
        if x < r || x > w - r {
            let dx = round(frame.midX - driver.view.scrollX - w / 2)
            driver.send([("t", .string("wheel")), ("dx", .number(dx)), ("dy", .number(0))], ms: driver.clock)
            x = frame.midX - driver.view.scrollX
        }
        let column = driver.view.column(atX: frame.midX)
        let top = column?.header ?? 0
        var y = frame.midY - (column?.scroll ?? 0)
        let scrolled = column?.scroll ?? 0
        if (y < top + r && scrolled > 0) || y > h - r {
            let dy = max(round(y - (top + h) / 2), -scrolled)
            driver.send([("t", .string("wheel")), ("dx", .number(0)), ("dy", .number(dy)),
                         ("x", .number(round(x))), ("y", .number(round(h / 2)))], ms: driver.clock)
            y = frame.midY - (driver.view.column(atX: frame.midX)?.scroll ?? 0)
        }
        return Point(x: round(x), y: round(y))
    }
}
