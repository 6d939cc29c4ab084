/// Undo (`undo`, Ctrl/Cmd-Z on the page): reverts this session's last commit as a new commit,
/// when its items are still where that commit left them; else `cannot_undo` and nothing changes.
extension LiveSession {
    /// An item's place as a change names it: its section and the nearest movable item before
    /// it (pinned items are never anchors).
    struct Anchor: Hashable, Sendable {
        var section: String
        var after: String?
    }

    /// One of this session's commits as undo needs it: the change that reverts it, and where
    /// it left its items.
    struct OwnCommit: Hashable, Sendable {
        var revert: Change
        var items: [String]
        var left: [Anchor]
    }

    /// Undo goes back this many commits at most.
    static let undoDepth = 100

    /// Item `id`'s anchor in the committed order.
    /// - Complexity: O(n) of the board.
    func anchor(of id: String) -> Anchor? {
        guard let h = arr.handleOf[id], let (s, i) = ChangeRule.place(of: h, in: base) else { return nil }
        var k = i - 1
        while k >= 0 && !arr.movable[base[s][k]] { k -= 1 }
        return Anchor(section: arr.sectionIDs[s], after: k >= 0 ? arr.ids[base[s][k]] : nil)
    }

    /// The change that takes the committed order back from `change` (computed before it applies).
    func revert(of change: Change) -> (revert: Change, items: [String])? {
        switch change {
        case .insert(let id, _, _, _):
            guard let a = anchor(of: id), let h = arr.handleOf[id], let (_, i) = ChangeRule.place(of: h, in: base) else { return nil }
            return (.insert(id: id, section: a.section, after: a.after, index: i), [id])
        case .swap(let x, let y):
            return (.swap(x, y), [x, y])
        case .move(let id, _, _, _, _):
            return arr.handleOf[id].flatMap(treeMoveBack).map { ($0, [id]) }
        case .group(let ids, _, _, _):
            // Every item back after its movable predecessor, in the order of their places, so
            // that a predecessor that moved with the group is back before its follower.
            var back: [(section: Int, index: Int, insert: Change)] = []
            for id in ids {
                guard let h = arr.handleOf[id], let (s, i) = ChangeRule.place(of: h, in: base),
                      let a = anchor(of: id) else { return nil }
                back.append((s, i, .insert(id: id, section: a.section, after: a.after, index: i)))
            }
            return (.batch(back.sorted { ($0.section, $0.index) < ($1.section, $1.index) }.map(\.insert)), ids)
        default:
            return nil
        }
    }

    /// Remembers a commit of this session (after it applied) for undo.
    mutating func remember(_ r: (revert: Change, items: [String])) {
        // A loop, not `compactMap(anchor(of:))`: the method as a closure captured a copy of the
        // whole session (its arrays retained and released), about 2,500 instructions a drop.
        var left: [Anchor] = []
        left.reserveCapacity(r.items.count)
        for id in r.items {
            guard let a = anchor(of: id) else { return }
            left.append(a)
        }
        undoStack.append(OwnCommit(revert: r.revert, items: r.items, left: left))
        if undoStack.count > Self.undoDepth { undoStack.removeFirst() }
    }

    mutating func undo(now: Double) {
        identity.lastInput = now
        guard allowed("undo", needs: .move) else { return }
        guard let last = undoStack.popLast() else { return cannotUndo("this session has nothing left to undo") }
        let free = last.items.allSatisfy { id in arr.handleOf[id].map { liftedBy[$0] == nil } ?? false }
        guard free, last.items.indices.allSatisfy({ anchor(of: last.items[$0]) == last.left[$0] }) else {
            return cannotUndo("\(last.items.joined(separator: ", ")) moved since (or is being dragged)")
        }
        let othersBefore = drags.map { ($0.pointer, arr.place(of: $0.item)) }
        let before = version
        commit(last.revert, now: now, undoable: false)
        guard version != before else { return cannotUndo("it would change nothing") }
        rebuildLive(reporting: othersBefore)
        step.shiftDur = dur(config.shiftMs)
        step.cellsDirty = true
    }

    mutating func cannotUndo(_ why: String) { step.errors.append(.error(code: .cannotUndo, message: "undo: " + why)) }
}
