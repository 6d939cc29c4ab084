extension FrameMessage {
    /// This frame followed by `next`, as one frame: what a reader that fell behind needs to
    /// reach the same picture. Later values win; a cell that left and came back is whole. The
    /// result keeps `next`'s `seq`: frame numbers are the session's, so a merged frame skips
    /// the numbers it swallowed rather than renumbering (live frames keep a replay's numbers).
    /// - Complexity: O(cells + snapshots).
    public func merged(with next: FrameMessage) -> FrameMessage {
        var m = self
        m.seq = next.seq
        m.ms = next.ms
        m.ack = next.ack ?? ack
        m.events += next.events
        if let s = next.scroll { m.scroll = s; m.scrollDur = next.scrollDur }
        if let c = next.content { m.content = c }
        if let s = next.sections { m.sections = s }
        if let f = next.focus { m.focus = f }
        var index: [String: Int] = [:]
        for (k, c) in m.cells.enumerated() { index[c.id] = k }
        let nextGone = Set(next.gone)
        for c in next.cells {
            if let k = index[c.id] {
                var merged = c
                let was = m.cells[k]
                if merged.info == nil {
                    merged.info = was.info
                    // A tree row's change lands in the whole facts the earlier frame sent, or
                    // follows the earlier change: neither frame's depth or parent is lost.
                    if merged.info?.tree != nil, let t = c.tree {
                        merged.info!.tree!.apply(t)
                        merged.tree = nil
                    } else if let t0 = was.tree {
                        merged.tree = t0.followed(by: c.tree)
                    }
                }
                if merged.selected == nil { merged.selected = was.selected }
                if merged.heldBy == nil { merged.heldBy = was.heldBy }
                m.cells[k] = merged
            } else {
                index[c.id] = m.cells.count
                m.cells.append(c)
            }
        }
        let cameBack = Set(next.cells.filter { $0.info != nil }.map(\.id))
        var gone = m.gone.filter { !cameBack.contains($0) }
        m.cells.removeAll { nextGone.contains($0.id) }
        for g in next.gone where !gone.contains(g) { gone.append(g) }
        m.gone = gone
        if !next.removed.isEmpty {
            let removed = Set(next.removed)
            m.cells.removeAll { removed.contains($0.id) }
            m.gone.removeAll { removed.contains($0) }
            m.removed += next.removed
            m.removeDur = next.removeDur
        }
        for u in next.snapshots { m.snapshots.merge(u) }
        return m
    }
}

extension Array where Element == SnapshotUpdate {
    /// Adds `u`, merged into the update of the same snapshot if there is one.
    mutating func merge(_ u: SnapshotUpdate) {
        if let k = firstIndex(where: { $0.p == u.p && $0.id == u.id }) {
            self[k] = self[k].merging(u)
        } else {
            append(u)
        }
    }
}

extension SnapshotUpdate {
    /// This update followed by `u`: `u`'s keys win, `done` sticks.
    public func merging(_ u: SnapshotUpdate) -> SnapshotUpdate {
        var s = self
        if let v = u.center { s.center = v }
        if let v = u.size { s.size = v }
        if let v = u.moveDur { s.moveDur = v }
        if let v = u.scale { s.scale = v }
        if let v = u.rotation { s.rotation = v }
        if let v = u.alpha { s.alpha = v }
        if let v = u.dur { s.dur = v }
        if let v = u.ease { s.ease = v }
        if let v = u.count { s.count = v }
        if let v = u.forbidden { s.forbidden = v }
        if let v = u.subtree { s.subtree = v }
        s.done = s.done || u.done
        return s
    }
}
