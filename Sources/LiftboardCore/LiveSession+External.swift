/// Commits from elsewhere (another session's, another process's) and resyncs: the committed
/// order changes under the session, and every drag in flight keeps its live place. One
/// planner (`applyExternal`) chooses how, and says so (`ExternalPlan`).
extension LiveSession {
    /// `ChangeRule.apply` to `base`, with the hints of where items are. The hints hold the
    /// arrangement's place arrays; they are let go on return, before the live order changes,
    /// or its first write would copy them (two arrays of the board's length).
    mutating func applyToBase(_ resolved: ChangeRule.Resolved<Int>) -> [ChangeRule.Displacement<Int>] {
        let movable = arr.movable, hints = committedHints
        return ChangeRule.apply(resolved, to: &base, movable: { movable[$0] }, hints: hints)
    }

    /// The sections a change's displacements name, in order: every place it changed is one of theirs.
    static func sections(of moved: [ChangeRule.Displacement<Int>]) -> [Int] {
        var touched: [Int] = []
        for d in moved {  // kept sorted as it is made (`sorted()` made a second array)
            if !touched.contains(d.from.section) { touched.insert(d.from.section, at: touched.firstIndex { $0 > d.from.section } ?? touched.count) }
            if !touched.contains(d.to.section) { touched.insert(d.to.section, at: touched.firstIndex { $0 > d.to.section } ?? touched.count) }
        }
        return touched
    }

    /// `rebuildLive(reporting:touching:)` for the usual commit from elsewhere: an insert that
    /// moved one item `y` within its section `s`, from index `i` to `j` of the committed order
    /// (the items between shifting one place), not by a drag of this session. The live
    /// section is the committed one with the drags' items held at their live places and the
    /// others in committed order around them, so it changes as the committed one did: `y`
    /// passes over as many of the others as it did there, and the drags' items stay where
    /// they are. Done in place over the places between, O(the distance), where the rebuild
    /// copies and compares the whole section.
    /// `false`, changing nothing, where that does not hold or cannot be seen at once (swap
    /// mode, pinned items in `s` or in a section a drag reordered, a drag carrying several
    /// items or a palette's copy, `y` dragged here): the rebuild does it then.
    /// - Complexity: O(|i - j|) + O(drags) + O(the distance of each drag's item in `s` from
    ///   its committed place).
    mutating func shiftLive(_ d: ChangeRule.Displacement<Int>) -> Bool {
        let s = d.from.section, y = d.item, i = d.from.index, j = d.to.index
        guard config.mode != .swap, d.to.section == s, arr.pinnedNow[s] == 0, arr.sectionOf[y] == s,
              !arr.visited.contains(where: { arr.pinnedNow[$0] > 0 }) else { return false }
        // The drags' items: their live places in `s` (held), and how many of those committed
        // in `s` come before `y` there, before the change and after it.
        var held: [Int] = []
        var beforeI = 0, beforeJ = 0
        for k in drags.indices {
            let x = drags[k].item
            guard x != y, drags[k].copyFrom == nil, drags[k].group.allSatisfy({ $0 == x }) else { return false }
            if arr.sectionOf[x] == s { held.append(arr.indexOf[x]) }
            guard drags[k].liftSection == s else { continue }
            guard let now = ChangeRule.position(of: x, in: base[s], near: arr.sectionOf[x] == s ? arr.indexOf[x] : j) else { return false }
            // Its committed index before the change: the places between `i` and `j` moved one.
            let was = i < j && now >= i && now < j ? now + 1 : i > j && now > j && now <= i ? now - 1 : now
            if was < i { beforeI += 1 }
            if now < j { beforeJ += 1 }
        }
        // `y` among the items not held: where it is live, which must be where it was
        // committed, and where the change put it.
        let p = arr.indexOf[y]
        let from = p - held.reduce(0) { $0 + ($1 < p ? 1 : 0) }
        guard from == i - beforeI else { return false }
        let to = j - beforeJ
        // Shifted in place, drag or none: taking the committed section's storage when no drag
        // was under way made the next commit's write to either copy the whole section.
        if to != from { arr.shift(section: s, from: p, over: to - from, holding: held) }
        return true
    }

    /// A commit that another session (or another server process) made: it becomes the
    /// committed order; every drag in flight keeps its live place. The plan is chosen here,
    /// and returned: a change on the order it was made on is applied where it is (`.shift` or
    /// `.sections`), anything else (a commit by its order) by the whole rebuild (`.whole`),
    /// which `wholeRebuild` asks for whatever the commit (the reference the other plans equal,
    /// byte for byte).
    @discardableResult
    mutating func applyExternal(_ c: Commit, now: Double, wholeRebuild: Bool = false) -> ExternalPlan {
        guard c.board == boardID else {
            step.errors.append(.error(code: .badMessage, message: "external: commit for board \"\(c.board)\", this session is on \"\(boardID)\""))
            return .refused
        }
        guard c.version > version else {
            step.errors.append(.error(code: .badMessage, message: "external: version \(c.version) is not newer than \(version)"))
            return .refused
        }
        if let change = c.change, change.isEdit {
            guard c.version == version + 1, applyEdit(change, now: now) else {
                step.errors.append(.error(code: .badMessage, message: "external: the edit of v\(c.version) does not apply to v\(version)"))
                return .refused
            }
            version = c.version
            step.commits.append(.commit(withOrder(c)))
            return .edit
        }
        if let plan = applyTreeExternal(c, now: now) { return plan }
        var resolved: ChangeRule.Resolved<Int>? = nil
        if c.version == version + 1, let change = c.change { resolved = resolve(change) }
        let before = drags.map { ($0.pointer, arr.place(of: $0.item)) }
        let plan: ExternalPlan
        if let resolved, !wholeRebuild {
            // The change on top of the order it was made on, applied to the committed order
            // where it is: no copy of a section this session holds alone, and the sections it
            // touched are those its displacements name (every place it changed is one of
            // theirs), not found by comparing.
            let moved = applyToBase(resolved)
            let touched = Self.sections(of: moved)
            committedChanged(version: c.version, touching: touched, moved: moved)
            // One item put elsewhere (an insert, the usual drop): the items between its two
            // places shift by one. (A group's or a batch's one displacement can hide more.)
            if case .insert = resolved, moved.count == 1, shiftLive(moved[0]) {
                reportPlaces(since: before)
                step.reordered = true
                if drags.isEmpty { arr.clearVisited() }
                plan = .shift
            } else {
                rebuildLive(reporting: before, touching: touched)
                plan = .sections
            }
        } else {
            var next: [[Int]]
            if let resolved {
                next = base
                let movable = arr.movable
                _ = ChangeRule.apply(resolved, to: &next, movable: { movable[$0] })
            } else if let order = resolve(c.order) {
                next = order
            } else {
                step.errors.append(.error(code: .badMessage, message: "external: order must name every section and item of the board exactly once"))
                return .refused
            }
            setCommitted(next, version: c.version)
            rebuildLive(reporting: before)
            plan = .whole
        }
        step.shiftDur = dur(config.shiftMs)
        step.commits.append(.commit(withOrder(c)))
        return plan
    }

    /// `c` as this client gets it: a commit that came without its order (its change only) gets
    /// the committed order filled in for a client that asked for the whole order.
    func withOrder(_ c: Commit) -> Commit {
        guard c.order.isEmpty, config.commitOrder == .full else { return c }
        var full = c
        full.order = baseOrder
        return full
    }

    /// Makes `order` at `version` the committed order whatever this session had (a resync to
    /// the store's truth); drags in flight keep their live places. `false` when the order does
    /// not name every section and item of the board once.
    mutating func resync(to order: [SectionOrder], version: Int) -> Bool {
        guard let next = resolve(order) else { return false }
        if arr.tree != nil {
            guard let depth = treeDepths(order, handles: next) else { return false }
            arr.tree!.committedDepth = depth
        }
        let before = drags.map { ($0.pointer, arr.place(of: $0.item)) }
        setCommitted(next, version: version)
        refreshTreeShape()
        rebuildLive(reporting: before)
        // The order may be shorter (an item left a section for an empty one, which then
        // loses its drop slot): the scroll offset stays inside the content, as after a step.
        if scrolling.y > maxScroll { scrolling.y = maxScroll }
        clampColumnScrolls()
        return true
    }

    /// The order as handles, if it names every section and item exactly once.
    func resolve(_ order: [SectionOrder]) -> [[Int]]? {
        guard order.count == arr.sectionCount else { return nil }
        var out = Array(repeating: [Int](), count: arr.sectionCount)
        var seen = Array(repeating: false, count: arr.itemCount)
        var seenSection = Array(repeating: false, count: arr.sectionCount)
        var count = 0
        for so in order {
            guard let s = arr.sectionIndexOf[so.section], !seenSection[s] else { return nil }
            seenSection[s] = true
            for id in so.items {
                guard let h = arr.handleOf[id], !seen[h] else { return nil }
                seen[h] = true
                out[s].append(h)
                count += 1
            }
        }
        return count == arr.itemCount ? out : nil
    }
}

/// How a commit from elsewhere reached the live order: the plan `applyExternal` chose.
public enum ExternalPlan: Sendable, Hashable {
    /// Its change applied where it is, and its one item shifted in place over the places
    /// between in the live order (`shiftLive`): O(the distance).
    case shift
    /// Its change applied where it is, the live sections it touched made again
    /// (`rebuildLive(reporting:touching:)`).
    case sections
    /// The committed order made anew and the whole live order rebuilt from it: a commit by
    /// its order, or asked for.
    case whole
    /// An edit: the session rebuilt around the edited board.
    case edit
    /// Refused: an error answers it, nothing changed.
    case refused
}
