/// A board replaced as a whole (the API's PUT): the difference as the changes every session
/// already understands, so that people dragging see cells come, go and move as they would for
/// any commit.
extension Board {
    /// The changes that take this board's sections and items to `target`'s, in order, each a
    /// version: sections added, items removed, added, changed and moved, sections renamed and
    /// removed (and subtitles set). `nil` when `target` cannot be reached that way: another layout or metrics,
    /// sections in another order, a pinned item out of its place, a height taken away.
    /// - Complexity: O(n²) in the worst case (each move scans its section).
    public func changes(to target: Board) -> [Change]? {
        guard layout == target.layout, list == target.list, grid == target.grid, columns == target.columns,
              tree == target.tree else { return nil }
        var r = Replacement(current: self)
        for (k, s) in target.sections.enumerated() where !sections.contains(where: { $0.id == s.id }) {
            r.apply(.addSection(id: s.id, title: s.title, after: k > 0 ? target.sections[k - 1].id : nil))
        }
        if layout == .tree {
            r.placeTree(target)
        } else {
            r.removeUnwanted(target)
            for s in target.sections {
                for (k, it) in s.items.enumerated() {
                    r.place(it, by: .insert(id: it.id, section: s.id, after: k > 0 ? s.items[k - 1].id : nil, index: k), section: s.id)
                }
            }
        }
        for s in target.sections {
            if let c = r.current.sections.first(where: { $0.id == s.id }), c.title != s.title { r.apply(.renameSection(id: s.id, title: s.title)) }
            if let c = r.current.sections.first(where: { $0.id == s.id }), c.subtitle != s.subtitle { r.apply(.setSubtitle(id: s.id, subtitle: s.subtitle)) }
        }
        for s in r.current.sections where !target.sections.contains(where: { $0.id == s.id }) { r.apply(.removeSection(s.id)) }
        guard r.current.sections == target.sections else { return nil }
        return r.out
    }
}

/// A board on its way to a replacement (`Board.changes(to:)`): the changes so far, each
/// applied as it is made (one that changes nothing is left out).
struct Replacement {
    var current: Board
    var out: [Change] = []

    mutating func apply(_ c: Change) { if current.apply(c) != nil { out.append(c) } }

    /// Removes, with what they hold, the items `target` does not have.
    mutating func removeUnwanted(_ target: Board) {
        let wanted = Set(target.sections.flatMap { $0.items.map(\.id) })
        for s in current.sections { for it in s.items where !wanted.contains(it.id) { apply(.removeItem(it.id)) } }
    }

    /// Brings item `it` to where `move` puts it with its attributes: added (`addItem` in
    /// `section`, at the move's place) when the board does not have it yet, else moved and
    /// updated, a pinned item made movable before it moves and a movable one pinned after.
    mutating func place(_ it: Item, by move: Change, section: String) {
        guard let (s, i) = current.locate(item: it.id) else {
            switch move {
            case .move(_, _, let parent, let after, _): apply(.addItem(it, section: section, after: after, parent: parent))
            case .insert(_, _, let after, _): apply(.addItem(it, section: section, after: after))
            default: break
            }
            return
        }
        let now = current.sections[s].items[i]
        var update = ItemUpdate(id: it.id, label: now.label == it.label ? nil : it.label,
                                color: now.color == it.color ? nil : it.color,
                                height: now.height == it.height ? nil : it.height,
                                movable: now.movable == it.movable ? nil : it.movable)
        update.setCard(it.card, from: now.card)
        if !now.movable { apply(.updateItem(update)) }
        apply(move)
        if now.movable { apply(.updateItem(update)) }
    }
}

/// Where an insert within its item's own unpinned section takes the item
/// (`Board.placeInsertWithinSection`).
struct InsertPlace: Equatable {
    var section: Int
    var from: Int
    var to: Int
}

extension Board {
    /// `apply(change)` with `revert(of: change)` as this board had it before (nil when none);
    /// nil, changing nothing, where `apply` gives nil. The usual drop takes its revert from the
    /// search that places it: the item's old index, and the item before it there, which is
    /// movable (its section pins nothing), as `revert` finds them with a second search of the
    /// board (a server's durable truth takes both for every commit, for undo).
    /// - Complexity: O(n).
    public mutating func applyReverting(_ change: Change) -> (moves: [Move], revert: Change?)? {
        if case .insert(let id, let section, let after, let index) = change,
           let place = placeInsertWithinSection(id: id, section: section, after: after, index: index) {
            guard place.from != place.to else { return nil }
            // Read in place: an array of the items held across the shift would make it copy them.
            let before = place.from > 0 ? sections[place.section].items[place.from - 1].id : nil
            let revert = Change.insert(id: id, section: sections[place.section].id, after: before, index: place.from)
            return (shiftWithinSection(id: id, place), revert)
        }
        let revert = revert(of: change)
        guard let moves = apply(change) else { return nil }
        return (moves, revert)
    }

    /// The change that takes this board back from `change`, computed on the board before
    /// `change` applies; `nil` when there is none (a change that does not apply here, an update
    /// that set a height the item did not have).
    /// - Complexity: O(n).
    public func revert(of change: Change) -> Change? {
        func predecessor(_ s: Int, _ i: Int, movableOnly: Bool) -> String? {
            var k = i - 1
            while k >= 0 && movableOnly && !sections[s].items[k].movable { k -= 1 }
            return k >= 0 ? sections[s].items[k].id : nil
        }
        switch change {
        case .insert(let id, _, _, _):
            guard let (s, i) = locate(item: id) else { return nil }
            return .insert(id: id, section: sections[s].id, after: predecessor(s, i, movableOnly: true), index: i)
        case .swap(let a, let b):
            return .swap(a, b)
        case .move(let id, _, _, _, _):
            return treeMoveBack(id)
        case .group(let ids, _, _, _):
            // Every item back after its movable predecessor, in the order of their places, so
            // that a predecessor that moved with the group is back before its follower.
            let places = ids.compactMap { id in locate(item: id).map { (id: id, at: $0) } }
                .sorted { ($0.at.section, $0.at.index) < ($1.at.section, $1.at.index) }
            guard !places.isEmpty else { return nil }
            return .batch(places.map { .insert(id: $0.id, section: sections[$0.at.section].id,
                                                after: predecessor($0.at.section, $0.at.index, movableOnly: true), index: $0.at.index) })
        case .batch(let changes) where change.isEdit:
            // Each edit's revert on the board it applies to, the last one first.
            var b = self
            var reverts: [Change] = []
            for c in changes {
                guard let r = b.revert(of: c), b.applyEdit(c) else { continue }
                reverts.insert(r, at: 0)
            }
            return reverts.isEmpty ? nil : .batch(reverts)
        case .batch:
            return nil
        case .addItem(let item, _, _, _):
            return .removeItem(item.id)
        case .copyItem(_, let new, _, _, _, _):
            return .removeItem(new)
        case .removeItem(let id):
            guard let (s, i) = locate(item: id) else { return nil }
            if layout == .tree { return treeSubtreeBack(section: s, index: i) }
            return .addItem(sections[s].items[i], section: sections[s].id, after: predecessor(s, i, movableOnly: false))
        case .updateItem(let u):
            guard let (s, i) = locate(item: u.id) else { return nil }
            let old = sections[s].items[i]
            if u.height != nil && old.height == nil { return nil }
            var back = ItemUpdate(id: u.id, label: u.label.map { _ in old.label }, color: u.color.map { _ in old.color },
                                  height: u.height.map { _ in old.height! }, movable: u.movable.map { _ in old.movable })
            back.setCard(old.card, from: u.applied(to: old.card))
            return .updateItem(back)
        case .addSection(let id, _, _):
            return .removeSection(id)
        case .renameSection(let id, _):
            return sections.first { $0.id == id }.map { .renameSection(id: id, title: $0.title) }
        case .setSubtitle(let id, _):
            return sections.first { $0.id == id }.map { .setSubtitle(id: id, subtitle: $0.subtitle) }
        case .removeSection(let id):
            guard let k = sections.firstIndex(where: { $0.id == id }) else { return nil }
            return .addSection(id: id, title: sections[k].title, after: k > 0 ? sections[k - 1].id : nil)
        }
    }
}
