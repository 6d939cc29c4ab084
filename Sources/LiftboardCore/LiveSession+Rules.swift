/// Placement rules in the drag (issue 23): the engine asks `PlacementRules` which sections
/// refuse what a drag carries; the insert rules skip those sections (as if they were not
/// there), the snapshot says `forbidden` while its center is over one, and a commit that would
/// break a rule on the committed order is applied as nothing (`rule_refused`).
extension LiveSession {
    /// The rule section `t` breaks when `items` land in it, counted against the committed
    /// order (`entering`: the items whose committed section is another).
    /// - Complexity: O(n) to find the items' committed sections.
    func refusal(into t: Int, carrying items: [Int]) -> Refusal? {
        guard arr.hasRules, arr.rules[t].hasRules else { return nil }
        // A trash the role may not use (issue 42) refuses the drag as a rule would.
        if roleRefusesTrash(t) { return .trash(section: arr.sectionIDs[t]) }
        let entering = items.filter { !base[t].contains($0) }.count
        return PlacementRules.refusal(arr.rules[t], section: arr.sectionIDs[t], holding: base[t].count,
                                      kinds: items.map { arr.kinds[$0] }, entering: entering)
    }

    /// Recomputes which sections refuse what drag `d` carries: the sections `touched` (a
    /// commit that changed only those of the committed order: what the others refuse is as it
    /// was), or every one (nil).
    /// - Complexity: O(n) when a section states a rule (O(items of `touched`)), else O(1).
    mutating func refreshRefusals(_ d: Int, sections touched: [Int]? = nil) {
        guard arr.hasRules else { drags[d].refused = []; return }
        let items = drags[d].carried
        var refused = touched == nil || drags[d].refused.isEmpty ? Array(repeating: false, count: arr.sectionCount) : drags[d].refused
        for t in touched ?? Array(0..<arr.sectionCount) { refused[t] = t == drags[d].copyFrom || refusal(into: t, carrying: items) != nil }
        drags[d].refused = refused.contains(true) ? refused : []
    }

    /// Every drag's refusals (`refreshRefusals(_:sections:)`), after the committed order or the
    /// board changed; a pointer drag's `forbidden` follows.
    mutating func refreshRefusals(sections touched: [Int]? = nil) {
        for d in drags.indices {
            refreshRefusals(d, sections: touched)
            if drags[d].pointer >= 0 { updateForbidden(d, center: contentPoint(drags[d].center)) }
        }
    }

    /// The sections that refuse what the drag holding item `h` carries (empty: none).
    @inline(__always) func refusedSections(of h: Int) -> [Bool] {
        guard arr.hasRules, let p = liftedBy[h], let d = dragIndex(p) else { return [] }
        return drags[d].refused
    }

    /// The nearest section after `s` (`step` 1) or before it (-1) that takes the drag of item `h`.
    @inline(__always) func allowedSection(from s: Int, by step: Int, for h: Int) -> Int? {
        let r = refusedSections(of: h)
        var t = s + step
        while t >= 0 && t < arr.sectionCount { if r.isEmpty || !r[t] { return t }; t += step }
        return nil
    }

    /// Whether section `t` takes the drag of item `h`.
    @inline(__always) func allows(_ t: Int, for h: Int) -> Bool {
        let r = refusedSections(of: h)
        return r.isEmpty || !r[t]
    }

    /// Sets drag `d`'s `forbidden` from its center `c` (content coordinates): over the frame
    /// of a section that refuses what it carries. A change goes in the snapshot; entering such
    /// a section (from outside, or from another refusing section) also announces why.
    mutating func updateForbidden(_ d: Int, center c: Point) {
        guard arr.hasRules else { return }
        var over: Int? = nil
        let r = drags[d].refused
        // Over its own palette: a cancel, not a refusal.
        if !r.isEmpty, let t = arr.layout.sectionUnder(c, in: arr), r[t] && t != drags[d].copyFrom { over = t }
        guard over != drags[d].forbiddenIn else { return }
        if (over != nil) != drags[d].forbidden {
            step.snapshots.append(SnapshotUpdate(p: drags[d].pointer, id: arr.ids[drags[d].item], forbidden: over != nil))
        }
        drags[d].forbiddenIn = over
        if let t = over, let why = refusal(into: t, carrying: drags[d].carried) { announce(words(why, title: arr.titles[t])) }
    }

    /// Words for a screen reader: why a section refuses the drag.
    func words(_ r: Refusal, title: String) -> String {
        switch r {
        case .kind(_, let k): "\(title) does not take \(k.map { "\($0) items" } ?? "items without a kind")."
        case .full(_, let m): "\(title) is full: it holds at most \(m) item\(m == 1 ? "" : "s")."
        case .palette: "\(title) is a palette: it takes no items."
        case .trash: "\(title) holds no items."
        }
    }

    /// The rule, if any, that `order` (the committed order after a change) breaks which
    /// `before` (the committed order) kept.
    /// - Complexity: O(items of the sections that state rules).
    func ruleViolation(_ order: [[Int]], since before: [[Int]]? = nil) -> Refusal? {
        guard arr.hasRules else { return nil }
        let kinds = arr.kinds
        return PlacementRules.violation(before: before ?? base, after: order, rules: arr.rules, sections: arr.sectionIDs,
                                        kind: { kinds[$0] })
    }
}

/// A trash (`drop: "remove"`): a drop there removes what the drag carries, as this session's
/// own edit, which its `undo` brings back where it was.
extension LiveSession {
    /// Commits `change` (an edit) as this session's own: the session is rebuilt around the
    /// board after it (as after another session's edit), and the commit persisted. `false`
    /// when it applies to nothing.
    @discardableResult
    mutating func commitEdit(_ change: Change, now: Double, undoable: Bool = true, revealing: [String] = []) -> Bool {
        let before = committedBoard()
        let revert = undoable ? before.revert(of: change) : nil
        var board = before
        guard board.applyEdit(change) else { return false }
        if let why = board.ruleViolation(since: before) {
            step.errors.append(.error(code: .ruleRefused, message: why.description))
            return false
        }
        rebuild(from: board, now: now, refreshed: [], revealing: revealing)
        version += 1
        step.commits.append(.persist(ownCommit(moves: [], change: change)))
        // Nothing to find where the commit left it: the revert itself says whether it still applies.
        if let revert { remember((revert, [])) }
        return true
    }

    /// `commitEdit(change)` with drag `d` (what it carries) out of the session while it
    /// commits: `false` when the edit applies to nothing, and the drag back as it was. On a tree
    /// the items `revealing` names land as rows (their collapsed ancestors expand), as a moved
    /// item does.
    mutating func commitEdit(dropping d: Int, _ change: Change, now: Double, revealing: [String] = []) -> Bool {
        let drag = drags.remove(at: d)
        for x in drag.carried { liftedBy[x] = nil }
        if commitEdit(change, now: now, revealing: revealing) { return true }
        drags.insert(drag, at: d)
        for x in drag.carried { liftedBy[x] = drag.pointer }
        return false
    }

    /// Ends drag `d` (already resolved to `change`, removing what it carries) on a trash: the
    /// items leave the board, the snapshot fades out where it is, a `drop` names the place it
    /// had in the trash. `false`, changing nothing, when the edit applies to nothing.
    mutating func dropRemoves(_ d: Int, change: Change, now: Double) -> Bool {
        let drag = drags[d]
        let h = drag.item
        let id = arr.ids[h], label = arr.labels[h], at = arr.place(of: h), n = drag.carried.count
        guard commitEdit(dropping: d, change, now: now) else { return false }
        step.gestures.append(.drop(p: drag.pointer, id: id, at: at, cancelled: false))
        step.snapshots.append(SnapshotUpdate(p: drag.pointer, id: id, moveDur: 0, scale: 1, rotation: 0, alpha: 0,
                                             dur: dur(config.shiftMs), ease: .easeOut, done: true))
        step.cellsDirty = true
        announce(n > 1 ? "\(n) items removed." : "\(label) removed.")
        updateAutoScroll(now: now)
        return true
    }
}

/// A palette (`copy: true`): a drag out of it leaves the original and drops a copy,
/// `copyItem` with the new id `X~V` (V the version it commits at).
extension LiveSession {
    /// The id of a copy of `id` committed at the next version: `id~V`, or `id~V~2`, `~3`...
    /// when the board has that id already.
    func copyID(of id: String) -> String {
        let base = "\(id)~\(version + 1)"
        var new = base, k = 2
        while arr.handleOf[new] != nil { new = "\(base)~\(k)"; k += 1 }
        return new
    }

    /// Whether `drag` is a copy that would drop back on its palette: still in it, or its
    /// center over the palette's frame.
    func isCopyBack(_ drag: Drag) -> Bool {
        guard let p = drag.copyFrom else { return false }
        return arr.sectionOf[drag.item] == p || arr.layout.sectionAlong(contentPoint(drag.center), in: arr) == p
    }

    /// Ends drag `d` out of a palette with its `copyItem`: the copy joins the board where the
    /// drag was, the original is back in its palette, the snapshot lands on the copy's cell.
    /// `false`, changing nothing, when the copy is refused (`rule_refused`) or applies to nothing.
    mutating func dropCopies(_ d: Int, change: Change, now: Double) -> Bool {
        guard case .copyItem(_, let new, _, _, _, _) = change else { return false }
        let drag = drags[d]
        let h = drag.item
        let id = arr.ids[h], label = arr.labels[h]
        // Dropped under a collapsed item, the copy lands as a row, as a moved item does
        // (docs/protocol.md, "Trees": its collapsed ancestors expand in this session).
        guard commitEdit(dropping: d, change, now: now, revealing: [new]), let n = arr.handleOf[new] else { return false }
        // Never hidden now (the drop's parent walk skips rows other drags lift); kept: a hidden copy has no frame.
        guard !arr.isParked(n) else { step.cellsDirty = true; return true }
        let f = arr.frame(of: n)
        step.gestures.append(.drop(p: drag.pointer, id: id, at: arr.place(of: n), cancelled: false))
        step.snapshots.append(SnapshotUpdate(p: drag.pointer, id: id, center: viewportPoint(f.center, section: arr.sectionOf[n]),
                                             moveDur: dur(config.dropMs), scale: 1, rotation: 0, alpha: 1,
                                             dur: dur(config.dropMs), ease: .easeOut, done: true))
        step.cellsDirty = true
        announce("Copied \(label) to \(arr.titles[arr.sectionOf[n]]), position \(arr.indexOf[n] + 1).")
        updateAutoScroll(now: now)
        return true
    }
}
