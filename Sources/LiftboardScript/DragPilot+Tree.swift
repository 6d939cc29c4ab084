import LiftboardCore

/// Trees (docs/protocol.md, "Trees (ours)"): `drag X into Y` and `drag X after Y at depth N`.
/// The row is found as `drag X after R` finds it (R the row X must follow); the depth by the
/// finger's sideways travel from the press point, `(N − the lift's depth) × indent`, which the
/// engine rounds to exactly N unless a clamp refuses it (then the place is not reached).
extension DragPilot {
    /// The row X must follow and the depth it must take, as the live picture stands; nil for a
    /// target that is no tree's, or while the picture does not show the rows it needs.
    func treeAim(_ driver: StreamDriver) -> (row: String, depth: Int)? {
        switch target {
        case .afterAt(let y, let depth): return (y, depth)
        case .into(let y):
            if driver.view.collapsed.contains(y) { return nil }  // it springs open first
            // Y's last shown descendant (or Y), in the live order without X: X goes after it,
            // one level under Y.
            guard let order = driver.session.liveOrder, let sec = order.first(where: { $0.items.contains(y) }),
                  let dy = driver.view.depths[y] else { return nil }
            let rows = sec.items.filter { $0 != item }
            guard let at = rows.firstIndex(of: y) else { return nil }
            var last = y
            for id in rows[(at + 1)...] {
                guard let d = driver.view.depths[id], d > dy else { break }
                last = id
            }
            return (last, dy + 1)
        case .after, .first, .onto: return nil
        }
    }

    /// `drag X into Y` with Y collapsed: Y, which the pilot hovers over until the engine
    /// springs it open (docs/protocol.md, Trees, "Spring-open"), so that X can go last among
    /// its children.
    func springTarget(_ driver: StreamDriver) -> String? {
        guard case .into(let y) = target, driver.view.collapsed.contains(y), driver.view.cells[y] != nil else { return nil }
        return y
    }

    /// Where the snapshot's center rests over collapsed row `f` until it springs open: inside
    /// its middle half (`springMs` there opens it), on the near side of its midpoint, an eighth
    /// of its height away. At the midpoint itself the list rule passes the row (X's row and Y's
    /// exchange places), which takes Y's middle half from under the center before the time is up.
    /// Each step of the pilot is `ScriptRunner.stepMs` of the stream's time, so resting there
    /// for `springMs` is that many steps at one point (no sleep).
    func springY(center y: Double, over f: Rect, _ driver: StreamDriver) -> Double {
        let mid = driver.view.viewportPoint(f.center).y
        return y < mid ? mid - f.h / 8 : mid + f.h / 8
    }

    /// The target the row steering works toward: `after R` for a tree's targets.
    func rowTarget(_ driver: StreamDriver) -> DragTarget? {
        switch target {
        case .into, .afterAt: treeAim(driver).map { .after($0.row) }
        default: target
        }
    }

    /// Whether X's live depth is the tree target's (true for other targets).
    func depthReached(_ driver: StreamDriver) -> Bool {
        guard let want = treeAim(driver)?.depth else {
            if case .into = target { return false }  // Y's depth not known yet
            return true
        }
        return driver.view.liftDepth[ScriptRunner.pointer] == want
    }

    /// The pointer's x that makes the engine project the tree target's depth: the press point
    /// plus whole indents (nil for other targets).
    func treeX(pressX: Double, _ driver: StreamDriver) -> Double? {
        guard let want = treeAim(driver)?.depth, let d0 = liftDepth else { return nil }
        return pressX + Double(want - d0) * driver.view.indent
    }
}
