import LiftboardCore
import LiftboardWire

/// The gestures that need no closed loop: a press held for a time, a pan at a finger's pace.
extension ScriptRunner {
    /// Presses `item`'s cell for `holdMs` and releases it where it began; returns what lifted.
    mutating func press(_ item: String, holdMs: Double) -> String? {
        let at = DragPilot.bringIntoView(item, &driver, config: config)
        let p = Double(Self.pointer)
        let t0 = driver.clock
        var lifted: String?
        var out = driver.send(DragPilot.pointerMessage("down", at: at, p: p) + [("kind", .string("touch"))], ms: t0)
        // A press is released once its timer has fired; a tap well before.
        let end = holdMs >= config.pressMs ? DragPilot.ceilMs(t0 + holdMs) : DragPilot.roundMs(t0 + holdMs)
        out += driver.send(DragPilot.pointerMessage("up", at: at, p: p), ms: end)
        for e in out {
            if case .lift(_, let id, _, _, false) = e { lifted = id }
        }
        return lifted
    }

    /// A mouse click on `item`'s cell (down, up 50 ms later) with `mods` held.
    mutating func click(_ item: String, mods: Modifiers) {
        let at = DragPilot.bringIntoView(item, &driver, config: config)
        let p = Double(Self.pointer)
        let t0 = driver.clock
        var down = DragPilot.pointerMessage("down", at: at, p: p) + [("kind", .string("mouse"))]
        if !mods.isEmpty { down.append(("mods", .array(mods.names.map { .string($0) }))) }
        driver.send(down, ms: t0)
        driver.send(DragPilot.pointerMessage("up", at: at, p: p), ms: DragPilot.roundMs(t0 + min(50, config.pressMs / 2)))
    }

    /// A finger from the viewport's center moving `px` in `direction` at 8 px a step, still for
    /// 100 ms before it lifts (so the content does not fling).
    mutating func pan(_ direction: PanDirection, _ px: Double) {
        let p = Double(Self.pointer)
        let start = Point(x: DragPilot.round(driver.view.viewport.w / 2), y: DragPilot.round(driver.view.viewport.h / 2))
        let sign = direction == .down || direction == .right ? 1.0 : -1.0
        let sideways = direction == .left || direction == .right
        var t = driver.clock
        let t0 = t
        driver.send(DragPilot.pointerMessage("down", at: start, p: p) + [("kind", .string("touch"))], ms: t)
        var done = 0.0
        var k = 0
        while done < px {
            done = min(px, done + DragPilot.stepPx)
            k += 1
            t = DragPilot.roundMs(t0 + Double(k) * Self.stepMs)
            let at = sideways ? Point(x: start.x + sign * done, y: start.y) : Point(x: start.x, y: start.y + sign * done)
            driver.send(DragPilot.pointerMessage("move", at: at, p: p), ms: t)
        }
        let end = sideways ? Point(x: start.x + sign * done, y: start.y) : Point(x: start.x, y: start.y + sign * done)
        driver.send(DragPilot.pointerMessage("up", at: end, p: p), ms: t + 100)
    }
}
