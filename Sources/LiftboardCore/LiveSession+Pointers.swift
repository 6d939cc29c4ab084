/// Pointer input: the long press, panning, and handing drags to the reorder engine.
extension LiveSession {
    func pointerIndex(_ p: Int) -> Int? { pointers.firstIndex { $0.id == p } }
    func dragIndex(_ p: Int) -> Int? { drags.firstIndex { $0.pointer == p } }

    mutating func pointerDown(_ p: Int, at: Point, kind: PointerKind?, mods: Modifiers = [], button: Int = 0, now: Double) {
        identity.lastInput = now
        guard pointerIndex(p) == nil else {
            step.errors.append(.error(code: .badMessage, message: "down: pointer \(p) is already down"))
            return
        }
        // A finger on a flung list stops it, as on iOS (columns: every fling).
        scrolling.deceleration = nil
        scrolling.flings = []
        let recognizer = LongPressRecognizer(at: at, time: now, pressMs: config.pressMs,
                                             allowableMovement: config.allowableMovement)
        var pointer = PointerState(id: p, kind: kind, mods: mods, recognizer: recognizer, position: at,
                                   scrollAtDown: scrolling.y, samples: [(now, at.y)])
        if scrollsSections {
            pointer.scrollXAtDown = scrolling.x
            pointer.columnAtDown = column(atX: at.x + scrolling.x)
            pointer.columnScrollAtDown = pointer.columnAtDown.map { scrolling.columns[$0] } ?? 0
        }
        // Not the primary button (the secondary opens the page's menu): it presses nothing,
        // and its move and up do nothing either.
        if button != 0 { pointer.recognizer.cancel(); pointer.phase = .inert }
        pointers.append(pointer)
        askClaim(pointer: pointers.count - 1, at: at)
        // A press on a drag handle lifts at once, whatever the pointer (UIKit's reorder control).
        if onHandle(at) {
            pointers[pointers.count - 1].recognizer = LongPressRecognizer(at: at, time: now, pressMs: 0,
                                                                        allowableMovement: config.allowableMovement)
            pressBegan(p, now: now)
        }
    }

    /// The width of a drag handle's band along its edge of the cell (Apple's minimum target).
    static let handleBand = 44.0

    /// Whether `at` (viewport) is within `handleBand` of the handle edge of a movable cell
    /// that has a handle and that no drag holds.
    func onHandle(_ at: Point) -> Bool {
        let c = contentPoint(at)
        guard case .cell(let h) = arr.region(at: c), let edge = arr.grips[h],
              arr.movable[h], liftedBy[h] == nil else { return false }
        let f = arr.frame(of: h)
        // Content x (columns scroll sideways; lists and grids do not, so it is the viewport's).
        switch edge {
        case .leading: return c.x < f.minX + Self.handleBand
        case .trailing: return c.x >= f.maxX - Self.handleBand
        }
    }

    mutating func pointerMove(_ p: Int, to at: Point, now: Double) {
        guard let k = pointerIndex(p) else { return }  // a hovering mouse
        identity.lastInput = now
        pointers[k].position = at
        let state = pointers[k].recognizer.move(to: at)
        switch pointers[k].phase {
        case .pending:
            if state == .failed { pointers[k].phase = .panning; pan(k, now: now) }
        case .panning: pan(k, now: now)
        case .inert: break
        case .dragging:
            guard let d = dragIndex(p) else { return }
            followPointer(d, to: at, now: now)
        }
    }

    mutating func pointerUp(_ p: Int, at: Point, now: Double) {
        guard let k = pointerIndex(p) else { return }
        identity.lastInput = now
        pointers[k].position = at; pointers[k].recognizer.up()
        let pointer = pointers.remove(at: k)
        switch pointer.phase {
        case .pending:
            // Up before the long press began, within `allowableMovement`: a tap (a click).
            tapped(at: contentPoint(at), mods: pointer.mods, now: now)
        case .inert:
            break
        case .panning:
            var moved = pointer
            moved.samples.append((now, scrollsSections && moved.panAxis == .x ? at.x : at.y))
            if scrollsSections { startFling(from: moved, now: now) } else { startDeceleration(from: moved, now: now) }
        case .dragging:
            if let d = dragIndex(p) {
                followPointer(d, to: at, now: now)
                endDrag(d, cancelled: false, now: now)
            }
        }
    }

    mutating func pointerCancel(_ p: Int, now: Double) {
        guard let k = pointerIndex(p) else { return }
        identity.lastInput = now
        pointers[k].recognizer.cancel()
        let pointer = pointers.remove(at: k)
        if pointer.phase == .dragging, let d = dragIndex(p) { endDrag(d, cancelled: true, now: now) }
    }

    /// The long-press timer fired: lift the movable cell under the pointer, if any.
    mutating func pressBegan(_ p: Int, now: Double) {
        guard let k = pointerIndex(p), pointers[k].recognizer.fire(at: now) else { return }
        let at = pointers[k].position
        let content = contentPoint(at)
        // In swap mode a palette's items do not lift under a pointer: a copy follows the insert
        // rules, which do not mix with exchanges in one section.
        guard case .cell(let h) = arr.region(at: content), arr.movable[h], liftedBy[h] == nil,
              !(config.mode == .swap && arr.hasRules && arr.rules[arr.sectionOf[h]].copy) else {
            pointers[k].phase = .inert
            return
        }
        guard roleLifts(h) else {
            // Recognized, but the role lifts nothing here: the page's predicted lift is undone.
            pointers[k].phase = .inert
            pointers[k].roleRefused = true
            return
        }
        if let (holder, x) = heldInSubtree(h) {
            // Held elsewhere (on a tree, it or a descendant): nothing lifts; the cell already
            // carries `heldBy`.
            pointers[k].phase = .inert
            return announce("\(holder) is moving \(arr.labels[x]).")
        }
        guard claimAllowsLift(h, pointer: k) else { return }
        pointers[k].phase = .dragging
        lift(h, pointer: p, at: at, now: now)
    }

    /// The content follows the pointer's whole translation since `down`, clamped.
    mutating func pan(_ k: Int, now: Double) {
        if scrollsSections { panColumns(k, now: now); return }
        let p = pointers[k]
        pointers[k].samples.append((now, p.position.y))
        pointers[k].samples.removeAll { now - $0.t > 100 }
        scroll(to: p.scrollAtDown - (p.position.y - p.recognizer.origin.y), now: now)
    }

    /// Scrolls toward `y`, clamped to the content, and retargets every pointer drag (the
    /// content moved under its snapshot). A retarget can change the content's height (an
    /// empty section's slot appears or vanishes) and so the clamp: the offset is clamped again
    /// until it holds, so a pan held at one point ends where the same point would take it again.
    /// When the two feed back on each other (the move shrinks the content below the offset,
    /// the clamp takes the item back, the content grows again) the offset stays where the
    /// content holds it, before the move: an auto-scroll tick then sees no progress and stops.
    mutating func scroll(to y: Double, now: Double) {
        var tried: [Double] = []
        while true {
            let clamped = clampScroll(y)
            guard clamped != scrolling.y else { return }
            guard !tried.contains(clamped), tried.count <= arr.sectionCount + 1 else { break }
            tried.append(clamped)
            scrolling.y = clamped
            step.cellsDirty = true
            for d in drags.indices where drags[d].pointer >= 0 { retarget(d, now: now) }
        }
        if scrolling.y > maxScroll { settleDrags(now: now) }
    }

    // MARK: Deceleration

    /// 0.998 per ms over one tick, and the distance factor of one tick:
    /// v(t) = v0 * 0.998^t, so one tick moves v * (0.998^tick - 1) / ln(0.998).
    static let decayPerTick = 0.9671838174321288
    static let distancePerTick = 16.391677717811596

    mutating func startDeceleration(from pointer: PointerState, now: Double) {
        let recent = pointer.samples.filter { now - $0.t <= 100 }
        guard let first = recent.first, let last = recent.last, last.t > first.t else { return }
        let velocity = -(last.y - first.y) / (last.t - first.t)  // content px/ms
        guard abs(velocity) * 1000 >= 10 else { return }
        if (velocity < 0 && scrolling.y <= 0) || (velocity > 0 && scrolling.y >= maxScroll) { return }
        scrolling.deceleration = Deceleration(velocity: velocity, nextTick: now + tickMs)
    }

    mutating func decelerationTick(now: Double) {
        guard var d = scrolling.deceleration else { return }
        let target = scrolling.y + d.velocity * Self.distancePerTick
        scroll(to: target, now: now)
        d.velocity *= Self.decayPerTick
        d.nextTick = now + tickMs
        let atEnd = scrolling.y <= 0 || scrolling.y >= maxScroll
        scrolling.deceleration = (abs(d.velocity) * 1000 < 10 || atEnd) ? nil : d
    }

    // MARK: Edge auto-scroll

    /// How fast (px/ms, signed) the content should scroll for a dragging pointer at `y`.
    @inline(__always) func edgeVelocity(atViewportY y: Double) -> Double {
        let range = config.edgeScrollRange
        guard range > 0, config.edgeScrollSpeed > 0 else { return 0 }
        let perMs = config.edgeScrollSpeed / 1000
        if y < range { return -perMs * min(range, range - y) / range }
        if y > viewport.h - range { return perMs * min(range, y - (viewport.h - range)) / range }
        return 0
    }

    /// The content's auto-scroll velocity (px/ms, signed): the sum over every dragging
    /// pointer in an edge band, so two fingers in one band scroll twice as fast and two in
    /// opposite bands at equal depths hold the content still. Always inlined, as `nextTimer`: every
    /// move asks, from mutating code (outlined, about 45 Ir a call: docs/performance.md, move58).
    @inline(__always) func autoScrollVelocity() -> Double {
        var v = 0.0
        for d in drags.indices where drags[d].pointer >= 0 {
            if let k = pointerIndex(drags[d].pointer) { v += edgeVelocity(atViewportY: pointers[k].position.y) }
        }
        return v
    }

    /// Starts the auto-scroll clock (first tick one tick from now) when the dragging pointers
    /// in bands ask for a scroll that is not blocked at an end; stops it when they do not.
    mutating func updateAutoScroll(now: Double) {
        let v = scrollsSections ? 0 : autoScrollVelocity()
        let blocked = (v < 0 && scrolling.y <= 0) || (v > 0 && scrolling.y >= maxScroll)
        if scrollsSections ? !columnAutoScrollWanted() : v == 0 || blocked {
            scrolling.autoScrollAt = nil
        } else if scrolling.autoScrollAt == nil {
            scrolling.autoScrollAt = now + tickMs
        }
    }

    /// One tick: scroll by the summed velocity, retargeting every drag (in `scroll`).
    mutating func autoScrollTick(now: Double) {
        if scrollsSections { columnAutoScrollTick(now: now); return }
        let v = autoScrollVelocity()
        let before = scrolling.y
        scroll(to: scrolling.y + v * tickMs, now: now)
        // No progress toward the band's edge (an end, or a clamp that took the offset back): stop.
        scrolling.autoScrollAt = (scrolling.y - before) * v > 0 ? now + tickMs : nil
    }
}
