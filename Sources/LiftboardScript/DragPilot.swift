import LiftboardCore
import LiftboardWire

/// Finds a drag's path by driving the session itself: long-press the item's cell, then step the
/// pointer 8 px every 1000/60 ms toward where the item's place is drawn, reading the engine's
/// live order after every step, and release once the item is there and the pointer is out of
/// the edge bands. Whatever the engine does (mixed heights, pinned items, grids, sections, an
/// auto-scroll that brings the place on screen) is what the next step steers by.
struct DragPilot {
    static let stepPx = 8.0
    /// Steps after the lift before the place counts as not reached.
    static let maxSteps = 2000

    let item: String
    let target: DragTarget
    let cancel: Bool
    let config: SessionConfig
    let isGrid: Bool
    /// What the long press lifted.
    private(set) var lifted: String?
    /// Trees: the lifted item's depth at the lift.
    private(set) var liftDepth: Int?

    init(item: String, target: DragTarget, cancel: Bool, config: SessionConfig, isGrid: Bool) {
        self.item = item; self.target = target; self.cancel = cancel; self.config = config; self.isGrid = isGrid
    }

    mutating func run(_ driver: inout StreamDriver) -> FailureKind? {
        let p = ScriptRunner.pointer
        var pointer = Self.bringIntoView(item, &driver, config: config)
        let t0 = driver.clock
        var out = driver.send(Self.pointerMessage("down", at: pointer, p: Double(p)) + [("kind", .string("touch"))], ms: t0)
        out += driver.send([("t", .string("advance"))], ms: Self.ceilMs(t0 + config.pressMs))
        for e in Self.unwrapped(out) { if case .lift(p, let id, _, _, false) = e { lifted = id } }
        guard lifted == item else {
            driver.send(Self.pointerMessage("up", at: pointer, p: Double(p)), ms: driver.clock)
            return .notLifted(item: item, got: lifted)
        }
        liftDepth = driver.view.liftDepth[p]
        let pressX = pointer.x
        // Swap mode aims at the target's cell in the committed layout: where it is now.
        var ontoFrame: Rect?
        if case .onto(let y) = target { ontoFrame = driver.view.cells[y] }
        let grab = driver.view.follow[p]?.grab ?? .zero
        let lockX = driver.view.follow[p]?.lockX ?? !isGrid
        let tMoves = driver.clock
        var reached = false
        // How far past its aim the pilot reaches while the item does not move: a pass that
        // would make an empty section's slot appear or vanish waits for the layout after it.
        var push = 0.0
        var lastPlace = driver.session.liveOrder
        for k in 1...Self.maxSteps {
            if driver.session.liveOrder != lastPlace { push = 0; lastPlace = driver.session.liveOrder }
            let there = isThere(driver)
            if there, releasable(pointer, driver) { reached = true; break }
            var want: Point
            if there {
                // At the place but in an edge band that still scrolls. Out of the band, if the
                // snapshot's center stays over the item's own cell on the way (so nothing
                // passes); else the place itself lies in the band, and holding still lets the
                // content scroll it inward (what that moves, the next steps steer back).
                want = exit(pointer, grab: grab, driver) ?? pointer
            } else if let y = springTarget(driver), let f = driver.view.cells[y] {
                want = Point(x: pointer.x, y: springY(center: pointer.y + grab.y, over: f, driver) - grab.y)
            } else if let aim = driver.view.columns ? columnAim(driver, ontoFrame: ontoFrame) : aim(driver, ontoFrame: ontoFrame) {
                let drawn = driver.view.viewportPoint(aim)
                want = Point(x: drawn.x - grab.x, y: drawn.y - grab.y + push)
                if let x = treeX(pressX: pressX, driver) { want.x = x } else if lockX { want.x = pointer.x }
                if Self.step(from: pointer, toward: want) == pointer {
                    push += isForward(driver) ? Self.stepPx : -Self.stepPx
                }
            } else {
                // The place is not in the picture yet: toward the edge it lies beyond, which
                // auto-scrolls it into view.
                want = Point(x: pointer.x, y: isForward(driver) ? driver.view.viewport.h : 0)
            }
            want.x = min(max(want.x, 0), driver.view.viewport.w)
            want.y = min(max(want.y, 0), driver.view.viewport.h)
            pointer = Self.step(from: pointer, toward: want)
            driver.send(Self.pointerMessage("move", at: pointer, p: Double(p)), ms: Self.roundMs(tMoves + Double(k) * ScriptRunner.stepMs))
        }
        if !reached {
            driver.send([("t", .string("cancel")), ("p", .number(Double(p)))], ms: driver.clock)
            return .notReached("\(item) not reached \(Self.targetText(target)) within \(Self.maxSteps) steps")
        }
        let end = Self.roundMs(driver.clock + ScriptRunner.stepMs)
        if cancel {
            driver.send([("t", .string("cancel")), ("p", .number(Double(p)))], ms: end)
        } else {
            driver.send(Self.pointerMessage("up", at: pointer, p: Double(p)), ms: end)
        }
        return nil
    }

    // MARK: Where the item is and where it should go

    /// The live order's sections, the dragged item's section index and index in it.
    private func locate(_ order: [SectionOrder], _ id: String) -> (s: Int, i: Int)? {
        for (s, sec) in order.enumerated() { if let i = sec.items.firstIndex(of: id) { return (s, i) } }
        return nil
    }

    private func movable(_ driver: StreamDriver) -> [String: Bool] {
        var m: [String: Bool] = [:]
        for s in driver.board.sections { for i in s.items { m[i.id] = i.movable } }
        return m
    }

    /// Whether the live order has the item where the target says: what the drop's change
    /// would name (pinned items between do not count).
    func isThere(_ driver: StreamDriver) -> Bool {
        guard let order = driver.session.liveOrder, let (s, i) = locate(order, item), let target = rowTarget(driver) else { return false }
        let items = order[s].items
        let mov = movable(driver)
        let before = items[..<i].last { mov[$0] ?? true }
        switch target {
        case .into, .afterAt: return false  // rowTarget names a row
        case .after(let y): return before == y && depthReached(driver)
        case .first(let section): return order[s].section == section && before == nil
        case .onto(let y):
            guard let committed = driver.session.committedOrder, let at = locate(committed, y) else { return false }
            return at.s == s && at.i == i
        }
    }

    /// Whether the item has to go later in the board's order (down, or on in a grid).
    func isForward(_ driver: StreamDriver) -> Bool {
        guard let order = driver.session.liveOrder, let x = locate(order, item) else { return true }
        let without = order.map { SectionOrder(section: $0.section, items: $0.items.filter { $0 != item }) }
        let goal: (s: Int, i: Int)
        switch rowTarget(driver) {
        case nil, .into?, .afterAt?: return true
        case .after(let y)?, .onto(let y)?:
            guard let at = locate(without, y) else { return true }
            goal = (at.s, at.i + 1)
        case .first(let section)?:
            guard let s = without.firstIndex(where: { $0.section == section }) else { return true }
            goal = (s, 0)
        }
        return x.s < goal.s || (x.s == goal.s && x.i < goal.i)
    }

    /// The content point the snapshot's center should head for, when the picture shows it.
    func aim(_ driver: StreamDriver, ontoFrame: Rect?) -> Point? {
        guard let order = driver.session.liveOrder else { return nil }
        let view = driver.view
        let forward = isForward(driver)
        // Just past a midpoint in the direction of travel (a list passes at the midpoint).
        let nudge = isGrid ? 0.0 : (forward ? 1.0 : -1.0)
        func cellCenter(_ id: String) -> Point? { view.cells[id].map { Point(x: $0.midX, y: $0.midY + nudge) } }
        func header(_ s: SectionInfo) -> Point { Point(x: s.frame.midX, y: s.frame.minY + s.header / 2 + nudge) }
        let without = order.map { SectionOrder(section: $0.section, items: $0.items.filter { $0 != item }) }
        let mov = movable(driver)
        // Pinned cells keep their index whatever enters them: the pilot heads for movable ones.
        func firstMovable(_ s: Int, from i: Int) -> String? {
            without[s].items.dropFirst(i).first { mov[$0] ?? true }
        }
        // Up over the next section's header puts X at the end of section `s`.
        func belowEnd(_ s: Int) -> Point? {
            guard s + 1 < without.count, let next = view.section(without[s + 1].section) else { return nil }
            return header(next)
        }
        switch rowTarget(driver) {
        case nil, .into?, .afterAt?: return nil
        case .onto(let y)?:
            return (ontoFrame ?? view.cells[y]).map { $0.center }
        case .after(let y)?:
            guard let at = locate(without, y) else { return nil }
            if forward { return cellCenter(y) }
            // Backward: over the movable item that follows Y puts X between them.
            if let z = firstMovable(at.s, from: at.i + 1) { return cellCenter(z) }
            return belowEnd(at.s) ?? cellCenter(y)
        case .first(let section)?:
            guard let s = without.firstIndex(where: { $0.section == section }), let info = view.section(section) else { return nil }
            if without[s].items.isEmpty, let slot = info.slot { return slot.center }
            if forward { return header(info) }
            if let z = firstMovable(s, from: 0) { return cellCenter(z) }
            return belowEnd(s) ?? header(info)
        }
    }

    /// The nearest point out of the edge band `pointer` is in, when going there keeps the
    /// snapshot's center over the item's own cell.
    func exit(_ pointer: Point, grab: Point, _ driver: StreamDriver) -> Point? {
        if driver.view.columns { return columnExit(pointer, grab: grab, driver) }
        let r = config.edgeScrollRange, h = driver.view.viewport.h
        guard let own = driver.view.cells[item] else { return nil }
        let to = Point(x: pointer.x, y: pointer.y < r ? r : h - r)
        let scroll = driver.view.scrollY
        for p in [pointer, to] {
            let c = Point(x: p.x + grab.x, y: p.y + grab.y + scroll)
            // A list keeps the snapshot's x: only y has to be over the row.
            let inside = isGrid ? own.contains(c) : (c.y >= own.minY && c.y < own.maxY)
            if !inside { return nil }
        }
        return to
    }

    /// Whether an `up` here leaves the item where it is: out of the edge bands, or in a band
    /// whose scroll is blocked at the content's end (no auto-scroll tick can come).
    func releasable(_ pointer: Point, _ driver: StreamDriver) -> Bool {
        if driver.view.columns { return columnReleasable(pointer, driver) }
        let r = config.edgeScrollRange, h = driver.view.viewport.h
        let scrollY = driver.session.scrollY ?? 0
        if r <= 0 || config.edgeScrollSpeed <= 0 { return true }
        if pointer.y < r { return scrollY <= 0 }
        if pointer.y > h - r { return scrollY >= driver.view.maxScroll }
        return true
    }

    // MARK: Messages and numbers

    /// Brings the item's cell into view, out of the edge bands (a wheel, when it is not), and
    /// returns its center in viewport coordinates.
    static func bringIntoView(_ item: String, _ driver: inout StreamDriver, config: SessionConfig) -> Point {
        if driver.view.columns { return columnBringIntoView(item, &driver, config: config) }
        let h = driver.view.viewport.h, r = config.edgeScrollRange
        // A cell far off has no frame in the picture: a wheel of one viewport toward it, until it has.
        var guardSteps = 0
        while driver.view.cells[item] == nil, guardSteps < 10_000 {
            guardSteps += 1
            let up = isAboveVisible(item, driver)
            let before = driver.session.scrollY
            driver.send([("t", .string("wheel")), ("dx", .number(0)), ("dy", .number(up ? -h : h))], ms: driver.clock)
            if driver.session.scrollY == before { break }
        }
        guard let frame = driver.view.cells[item] else { return Point(x: round(driver.view.viewport.w / 2), y: round(h / 2)) }
        var y = frame.midY - driver.view.scrollY
        if y < r || y > h - r || frame.minY < driver.view.scrollY || frame.maxY > driver.view.scrollY + h {
            let dy = round(frame.midY - driver.view.scrollY - h / 2)
            if dy != 0 { driver.send([("t", .string("wheel")), ("dx", .number(0)), ("dy", .number(dy))], ms: driver.clock) }
            y = frame.midY - driver.view.scrollY
        }
        return Point(x: round(frame.midX), y: round(y))
    }

    /// Whether `item` comes before every cell the picture has (so it lies above them).
    private static func isAboveVisible(_ item: String, _ driver: StreamDriver) -> Bool {
        guard let order = driver.session.liveOrder else { return false }
        let flat = order.flatMap(\.items)
        guard let at = flat.firstIndex(of: item) else { return false }
        let known = flat.indices.filter { driver.view.cells[flat[$0]] != nil }
        return known.first.map { at < $0 } ?? false
    }

    static func pointerMessage(_ t: String, at: Point, p: Double) -> [(String, JSONValue)] {
        [("t", .string(t)), ("p", .number(p)), ("x", .number(at.x)), ("y", .number(at.y))]
    }

    /// One step of at most `stepPx` from `a` toward `b`, on a 1/16 px grid (short decimals in
    /// the stream, exact in binary).
    static func step(from a: Point, toward b: Point) -> Point {
        let dx = b.x - a.x, dy = b.y - a.y
        let d = (dx * dx + dy * dy).squareRoot()
        if d <= stepPx { return Point(x: round(b.x), y: round(b.y)) }
        return Point(x: round(a.x + dx / d * stepPx), y: round(a.y + dy / d * stepPx))
    }

    static func round(_ v: Double) -> Double { (v * 16).rounded() / 16 }

    /// Times on a 1/8 ms grid: exact in binary, so sums of them are exact too, and short in
    /// the stream.
    static func roundMs(_ v: Double) -> Double { (v * 8).rounded() / 8 }

    /// A time at or after `v` on the same grid: for a line that must come once a timer due at
    /// `v` (computed by the engine the same way) has fired.
    static func ceilMs(_ v: Double) -> Double { (v * 8).rounded(.up) / 8 }

    /// The events of `out`, with those a frame carries inline taken out of it.
    static func unwrapped(_ out: [ServerEvent]) -> [ServerEvent] {
        out.flatMap { e -> [ServerEvent] in
            if case .frame(let f) = e { return f.events + [e] }
            return [e]
        }
    }

    static func targetText(_ t: DragTarget) -> String {
        switch t {
        case .after(let y): "after \(y)"
        case .first(let s): "first in \(s)"
        case .onto(let y): "onto \(y)"
        case .into(let y): "into \(y)"
        case .afterAt(let y, let d): "after \(y) at depth \(d)"
        }
    }
}
