/// Applying a `Change` to a committed order (contract §4, "A commit is one change").
///
/// The order is `[[T]]`, one array per section, so that the session (item handles) and the
/// board (items) share one implementation. Pinned items take their indexes back afterwards, as
/// they do after every move: each pinned item keeps the index it had before the change,
/// clamped to its section, and the movable items fill the other places in their order.
enum ChangeRule {
    /// A change whose items and section are resolved to `T`s and a section index.
    enum Resolved<T: Equatable> {
        case insert(T, section: Int, after: T?, index: Int)
        case swap(T, T)
        /// Items (in the order they land) after `after` in `section`.
        case group([T], section: Int, after: T?, index: Int)
        /// Changes applied one after another.
        case batch([Resolved<T>])
    }

    /// One item's place before and after a change.
    struct Displacement<T> {
        var item: T
        var from: (section: Int, index: Int)
        var to: (section: Int, index: Int)
    }

    /// Applies `change` to `order`. Returns the items whose places changed, the changed items
    /// first (in the change's order), then pinned items that took their indexes back; empty
    /// when the change changed nothing (then `order` is as it was).
    /// - Complexity: O(items of the sections involved); `order` is changed in place (no copy of
    ///   a section when the caller holds the only reference to it).
    static func apply<T: Equatable>(_ change: Resolved<T>, to order: inout [[T]],
                                    movable: (T) -> Bool, hints: Hints<T>? = nil) -> [Displacement<T>] {
        /// Where `x` is: looked for around `guess`, then around the hint's place, then everywhere.
        func locate(_ x: T, guess: (section: Int, index: Int)? = nil) -> (section: Int, index: Int)? {
            func near(_ g: (section: Int, index: Int)?) -> (section: Int, index: Int)? {  // no array of the two: one a call
                guard let g, g.section >= 0, g.section < order.count else { return nil }
                return position(of: x, in: order[g.section], near: g.index).map { (g.section, $0) }
            }
            return near(guess) ?? near(hints?.near(x)) ?? place(of: x, in: order)
        }
        /// `y`'s index in section `t`, if it is there.
        func find(_ y: T, inSection t: Int) -> Int? {
            if let g = hints?.near(y), g.section == t { return position(of: y, in: order[t], near: g.index) }
            return order[t].firstIndex(of: y)
        }
        func pinned(_ s: Int) -> [(home: Int, item: T)] {
            if let hints, hints.noPinned(s) { return [] }
            return order[s].enumerated().filter { !movable($0.element) }.map { ($0.offset, $0.element) }
        }
        var touched: [(section: Int, pinned: [(home: Int, item: T)])] = []
        var primary: [(item: T, from: (section: Int, index: Int))] = []
        /// Where each primary item was put (before pinned items took their indexes back).
        var landed: [(section: Int, index: Int)] = []
        func touch(_ s: Int) { if !touched.contains(where: { $0.section == s }) { touched.append((s, pinned(s))) } }
        switch change {
        case .insert(let x, let t, let after, let index):
            guard t >= 0, t < order.count, movable(x), let (s, i) = locate(x) else { return [] }
            let pinnedS = pinned(s), pinnedT = s == t ? [] : pinned(t)
            var j = 0
            if s == t {
                // Within its section: the removal and the insertion as one shift of the items
                // between the two places, O(distance) rather than twice the section's tail.
                if let y = after {
                    if y != x, let k = find(y, inSection: t) { j = (k > i ? k - 1 : k) + 1 } else { j = min(max(0, index), order[t].count - 1) }
                }
                if j > i {
                    for k in i..<j { order[s][k] = order[s][k + 1] }
                } else {
                    for k in stride(from: i, to: j, by: -1) { order[s][k] = order[s][k - 1] }
                }
                order[s][j] = x
            } else {
                order[s].remove(at: i)
                if let y = after {
                    if let k = find(y, inSection: t) { j = k + 1 } else { j = min(max(0, index), order[t].count) }
                }
                order[t].insert(x, at: j)
            }
            // No pinned item takes its index back (the usual drop): `x`'s is the one displacement.
            if pinnedS.isEmpty && pinnedT.isEmpty { return s == t && i == j ? [] : [Displacement(item: x, from: (s, i), to: (t, j))] }
            touched = s == t ? [(s, pinnedS)] : [(s, pinnedS), (t, pinnedT)]
            (primary, landed) = ([(x, (s, i))], [(t, j)])
        case .swap(let x, let y):
            guard x != y, movable(x), movable(y), let (s, i) = locate(x), let j = find(y, inSection: s) else { return [] }
            order[s].swapAt(i, j)
            (primary, landed) = ([(x, (s, i)), (y, (s, j))], [(s, j), (s, i)])
        case .group(let xs, let t, let after, let index):
            guard t >= 0, t < order.count else { return [] }
            var items: [T] = []
            for x in xs where movable(x) && !items.contains(x) {
                if let from = locate(x) { items.append(x); primary.append((x, from)) }
            }
            guard !items.isEmpty else { return [] }
            for (_, from) in primary { touch(from.section) }
            touch(t)
            for (x, from) in primary { order[from.section].remove(at: order[from.section].firstIndex(of: x) ?? from.index) }
            // First without an anchor; after it where it is, else (one of the group, or gone) at `index`.
            var j = after == nil ? 0 : min(max(0, index), order[t].count)
            if let y = after, !items.contains(y), let k = order[t].firstIndex(of: y) { j = k + 1 }
            order[t].insert(contentsOf: items, at: j)
            landed = items.indices.map { (t, j + $0) }
        case .batch(let changes):
            return applyAll(changes, to: &order, movable: movable)
        }
        for (s, p) in touched where !p.isEmpty { restorePinned(&order[s], pinned: p, movable: movable) }
        var out: [Displacement<T>] = []
        for (k, (x, from)) in primary.enumerated() {
            guard let to = locate(x, guess: k < landed.count ? landed[k] : nil) else { continue }
            if from != to { out.append(Displacement(item: x, from: from, to: to)) }
        }
        // An insert that left its item in place changed nothing (pinned items sat at homes).
        guard !out.isEmpty else { return [] }
        for (s, p) in touched {
            for (home, x) in p {
                if let i = position(of: x, in: order[s], near: home), i != home { out.append(Displacement(item: x, from: (s, home), to: (s, i))) }
            }
        }
        return out
    }

    /// What the caller knows that spares scanning the order: where an item probably is (its
    /// section exactly, its index roughly: searched outward from it), and which sections hold
    /// no pinned item. A wrong guess costs a scan, never a wrong answer.
    struct Hints<T> {
        var near: (T) -> (section: Int, index: Int)?
        var noPinned: (Int) -> Bool
    }

    /// The index of `x` in `a`, searched outward from index `i`.
    /// - Complexity: O(distance from `i`); O(n) when `x` is not there.
    static func position<T: Equatable>(of x: T, in a: [T], near i: Int) -> Int? { position(in: a, near: i) { $0 == x } }

    /// The index of the first element of `a` that `matches`, searched outward from index `i`.
    @inline(__always)
    static func position<C: RandomAccessCollection<E>, E>(in a: C, near i: Int, where matches: (E) -> Bool) -> Int? where C.Index == Int {
        guard !a.isEmpty else { return nil }
        let i = min(max(0, i), a.count - 1)
        var lo = i, hi = i + 1
        while lo >= 0 || hi < a.count {
            if lo >= 0 { if matches(a[lo]) { return lo }; lo -= 1 }
            if hi < a.count { if matches(a[hi]) { return hi }; hi += 1 }
        }
        return nil
    }

    /// Applies `changes` one after another; returns the net displacements (each item's place
    /// before the first and after the last, in the order items were first displaced), empty
    /// when together they changed nothing.
    static func applyAll<T: Equatable>(_ changes: [Resolved<T>], to order: inout [[T]],
                                       movable: (T) -> Bool) -> [Displacement<T>] {
        let before = order
        var first: [(item: T, from: (section: Int, index: Int))] = []
        for c in changes {
            for d in apply(c, to: &order, movable: movable) where !first.contains(where: { $0.item == d.item }) {
                // Where it was before the batch, not before the change that moved it first.
                first.append((d.item, place(of: d.item, in: before) ?? d.from))
            }
        }
        return first.compactMap { x, from in
            place(of: x, in: order).flatMap { to in from != to ? Displacement(item: x, from: from, to: to) : nil }
        }
    }

    /// Where `x` is in `order`, by a scan.
    static func place<T: Equatable>(of x: T, in order: [[T]]) -> (section: Int, index: Int)? {
        for s in order.indices { if let i = order[s].firstIndex(of: x) { return (s, i) } }
        return nil
    }

    /// Puts a section's pinned items back at their homes (clamped, in order of home) and lets
    /// the movable items fill the other places in their order.
    /// - Complexity: O(n) of the section.
    static func restorePinned<T: Equatable>(_ section: inout [T], pinned: [(home: Int, item: T)], movable: (T) -> Bool) {
        let n = section.count, k = pinned.count
        var slots: [T?] = Array(repeating: nil, count: n)
        for (j, p) in pinned.enumerated() { slots[min(p.home, n - k + j)] = p.item }
        var rest = section.filter(movable).makeIterator()
        for i in 0..<n where slots[i] == nil { slots[i] = rest.next() }
        section = slots.map { $0! }
    }

    /// A reorder change with its items resolved by `item` and its section by `section` (nil for
    /// what they lack: a section, or every item of a group), for a board (`Board.resolveReorder`)
    /// or a session (`LiveSession.resolve`).
    static func resolve<T: Equatable>(_ change: Change, item: (String) -> T?, section: (String) -> Int?) -> Resolved<T>? {
        switch change {
        case .insert(let id, let s, let after, let index):
            guard let x = item(id), let t = section(s) else { return nil }
            return .insert(x, section: t, after: after.flatMap(item), index: index)
        case .swap(let a, let b):
            guard let x = item(a), let y = item(b) else { return nil }
            return .swap(x, y)
        case .group(let ids, let s, let after, let index):
            let xs = ids.compactMap(item)
            guard !xs.isEmpty, let t = section(s) else { return nil }
            return .group(xs, section: t, after: after.flatMap(item), index: index)
        case .batch(let changes):
            return .batch(changes.compactMap { resolve($0, item: item, section: section) })
        default:
            return nil
        }
    }
}

extension Board {
    /// The board after `change` (version + 1) and the moves that describe it, or `nil` when
    /// the change changes nothing here (an item or section the board does not have, an
    /// exchange of items no longer in one section, an insert that leaves everything in place).
    /// - Complexity: O(n).
    public func applying(_ change: Change) -> (board: Board, moves: [Move])? {
        var out = self
        guard let moves = out.apply(change) else { return nil }
        return (out, moves)
    }

    /// Applies `change` in place (version + 1) and returns its moves, or `nil`, changing
    /// nothing, when it changes nothing here.
    /// - Complexity: O(n), by scanning, with no copy of a uniquely held board: a hub applies a
    ///   drop on a board of a million items in milliseconds.
    public mutating func apply(_ change: Change) -> [Move]? {
        if change.isEdit {
            guard applyEdit(change) else { return nil }
            version += 1
            return []
        }
        if case .move(let id, let section, let parent, let after, let index) = change {
            return applyTreeMove(id, section: section, parent: parent, after: after, index: index)
        }
        if case .insert(let id, let section, let after, let index) = change,
           let place = placeInsertWithinSection(id: id, section: section, after: after, index: index) {
            return place.from == place.to ? nil : shiftWithinSection(id: id, place)
        }
        // The rule moves each item as its place before the change (two integers), not as the
        // item: comparing and copying items (their strings, their card) cost about 600
        // instructions an item of the sections involved.
        guard let resolved = resolveReorder(change, item: { locate(item: $0).map { ItemPlace(section: $0.section, index: $0.index) } }) else {
            return nil
        }
        var order = sections.indices.map { s in sections[s].items.indices.map { ItemPlace(section: s, index: $0) } }
        let moved = ChangeRule.apply(resolved, to: &order, movable: { sections[$0.section].items[$0.index].movable })
        guard !moved.isEmpty else { return nil }
        let ids = moved.map { sections[$0.item.section].items[$0.item.index].id }
        // The sections the change reordered are rebuilt from the items as they were (the
        // usual drop, an insert within a section that pins nothing, is the shift above).
        let old = sections.map(\.items)
        for (s, places) in order.enumerated() where !Self.isIdentity(places, section: s, count: old[s].count) {
            sections[s].items = places.map { old[$0.section][$0.index] }
        }
        version += 1
        return zip(moved, ids).map { d, id in
            Move(id: id, from: Place(section: sections[d.from.section].id, index: d.from.index),
                 to: Place(section: sections[d.to.section].id, index: d.to.index))
        }
    }

    /// Where the usual drop, an insert within the item's own section when that section pins
    /// nothing, takes its item (`section`'s index, and the item's index before and after), found
    /// as `ChangeRule` finds it (the item's one shift past the items between its two places; its
    /// move is the commit's only one) without building the places of every item: a server
    /// applies a commit to the hub's board and the store's. `nil` when the change is not that
    /// case (the rule decides); `from == to` when it changes nothing.
    ///
    /// Ids are unique in a board (`Item`), so the item and the anchor found in `section` are
    /// the ones `resolveReorder` finds: each is looked for there first, outward from the
    /// change's `index` (where a drop puts its item, next to its anchor; a drag is usually
    /// short), and only an anchor not there is looked for in the other sections.
    /// - Complexity: O(distance of the item from `index`) comparisons of ids, and a read of
    ///   each item's `movable` in `section`; O(items of the board) comparisons when the anchor
    ///   is not in `section`.
    func placeInsertWithinSection(id: String, section: String, after: String?, index: Int) -> InsertPlace? {
        guard let t = sections.firstIndex(where: { $0.id == section }) else { return nil }
        let found = sections[t].items.withUnsafeBufferPointer { items -> (pinned: Bool, item: Int?, anchor: Int?) in
            func near(_ x: String) -> Int? { ChangeRule.position(in: items, near: index) { $0.id == x } }
            if items.contains(where: { !$0.movable }) { return (true, nil, nil) }
            guard let i = near(id) else { return (false, nil, nil) }
            guard let after else { return (false, i, nil) }
            return (false, i, after == id ? i : near(after))
        }
        // The item not in the section (elsewhere, or absent), or the section pins items: the rule.
        guard !found.pinned, let i = found.item else { return nil }
        let count = sections[t].items.count
        // As the rule reads a resolved change: an anchor the board lacks is no anchor (first
        // place); one elsewhere, or the item itself, leaves `index` (clamped) to place it.
        var j = 0
        if let k = found.anchor, k != i {
            j = (k > i ? k - 1 : k) + 1
        } else if found.anchor != nil || after.map({ locate(item: $0) != nil }) == true {
            j = min(max(0, index), count - 1)
        }
        return InsertPlace(section: t, from: i, to: j)
    }

    /// Moves item `id`, at `place.from` of section `place.section`, to `place.to` (they differ),
    /// shifting the items between: O(distance) items moved, none copied.
    mutating func shiftWithinSection(id: String, _ place: InsertPlace) -> [Move] {
        let (i, j) = (place.from, place.to)
        sections[place.section].items.withUnsafeMutableBufferPointer { buffer in
            guard let p = buffer.baseAddress else { return }
            let held = (p + i).move()
            if j > i { (p + i).moveInitialize(from: p + i + 1, count: j - i) } else { (p + j + 1).moveInitialize(from: p + j, count: i - j) }
            (p + j).initialize(to: held)
        }
        version += 1
        let name = sections[place.section].id
        return [Move(id: id, from: Place(section: name, index: i), to: Place(section: name, index: j))]
    }

    /// Whether `places` are section `s`'s `count` items as they were, in order.
    private static func isIdentity(_ places: [ItemPlace], section s: Int, count: Int) -> Bool {
        places.count == count && places.indices.allSatisfy { places[$0].section == s && places[$0].index == $0 }
    }

    /// A reorder change with its items resolved by `item` (nil for what this board lacks:
    /// a section, or every item of a group).
    func resolveReorder<T: Equatable>(_ change: Change, item: (String) -> T?) -> ChangeRule.Resolved<T>? {
        ChangeRule.resolve(change, item: item, section: { id in sections.firstIndex { $0.id == id } })
    }

    /// An item of the board named by its place before a change (`apply(_:)`).
    struct ItemPlace: Equatable {
        var section: Int
        var index: Int
    }

    /// Where item `id` is: its section's and its own index.
    public func locate(item id: String) -> (section: Int, index: Int)? {
        for (s, section) in sections.enumerated() {
            if let i = section.items.firstIndex(where: { $0.id == id }) { return (s, i) }
        }
        return nil
    }

    /// Applies an edit in place; `false`, changing nothing, when it cannot apply (an id that is
    /// taken or unknown, a section that is not empty, an update that changes nothing). Pinned
    /// items of the section take their indexes back, as after every change.
    /// - Complexity: O(n).
    mutating func applyEdit(_ change: Change) -> Bool {
        func pinned(_ s: Int) -> [(home: Int, item: Item)] {
            sections[s].items.enumerated().filter { !$0.element.movable }.map { ($0.offset, $0.element) }
        }
        /// `item` right after `after` in section `s` (first when nil; at `index`, clamped, when
        /// `after` is not there), the section's pinned items back at their indexes.
        func insert(_ item: Item, into s: Int, after: String?, index: Int) {
            let p = pinned(s)
            var at = 0
            if let after { at = sections[s].items.firstIndex(where: { $0.id == after }).map { $0 + 1 } ?? min(max(0, index), sections[s].items.count) }
            sections[s].items.insert(item, at: at)
            if !p.isEmpty { ChangeRule.restorePinned(&sections[s].items, pinned: p, movable: \.movable) }
        }
        switch change {
        case .batch(let changes) where change.isEdit:
            // An edit batch: each edit as alone, in order; those that apply nowhere are skipped.
            var any = false
            for c in changes where c.isItemEdit { any = applyEdit(c) || any }
            return any
        case .insert, .swap, .group, .batch, .move:
            return false
        case .addItem(let item, let section, let after, let parent):
            guard !item.id.isEmpty, locate(item: item.id) == nil, let s = sections.firstIndex(where: { $0.id == section }) else { return false }
            if layout == .tree { return addTreeItem(item, section: s, parent: parent, after: after) }
            guard parent == nil else { return false }
            insert(item, into: s, after: after, index: .max)
        case .copyItem(let id, let new, let section, let after, let index, let parent):
            guard !new.isEmpty, locate(item: new) == nil, let (s0, i0) = locate(item: id),
                  let s = sections.firstIndex(where: { $0.id == section }) else { return false }
            var item = sections[s0].items[i0]
            item.id = new
            // A tree's copy is the item's subtree, under `parent` after `after`'s subtree.
            if layout == .tree { return copyTreeSubtree(section: s0, index: i0, as: new, into: s, parent: parent, after: after) }
            guard parent == nil else { return false }
            insert(item, into: s, after: after, index: index)
        case .removeItem(let id):
            guard let (s, i) = locate(item: id) else { return false }
            if layout == .tree { removeTreeItem(section: s, index: i); return true }
            let p = pinned(s).filter { $0.item.id != id }
            sections[s].items.remove(at: i)
            if !p.isEmpty { ChangeRule.restorePinned(&sections[s].items, pinned: p, movable: \.movable) }
        case .updateItem(let u):
            guard let (s, i) = locate(item: u.id) else { return false }
            var item = sections[s].items[i]
            if let v = u.label { item.label = v }
            if let v = u.color { item.color = v }
            if let v = u.height { item.height = v }
            if let v = u.movable { item.movable = v }
            item.card = u.applied(to: item.card)
            guard item != sections[s].items[i] else { return false }
            sections[s].items[i] = item
        case .addSection(let id, let title, let after):
            // Right after `after`, or first without one; none when `after` names no section.
            let at = after.map { a in sections.firstIndex { $0.id == a }.map { $0 + 1 } } ?? 0
            guard !id.isEmpty, !sections.contains(where: { $0.id == id }), let at else { return false }
            sections.insert(Section(id: id, title: title, items: []), at: at)
        case .renameSection(let id, let title):
            guard let s = sections.firstIndex(where: { $0.id == id }), sections[s].title != title else { return false }
            sections[s].title = title
        case .setSubtitle(let id, let subtitle):
            guard let s = sections.firstIndex(where: { $0.id == id }), sections[s].subtitle != subtitle else { return false }
            sections[s].subtitle = subtitle
        case .removeSection(let id):
            guard let s = sections.firstIndex(where: { $0.id == id }), sections[s].items.isEmpty else { return false }
            sections.remove(at: s)
        }
        return true
    }
}
