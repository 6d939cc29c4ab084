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
    /// - Complexity: O(items of the sections involved).
    static func apply<T: Equatable>(_ change: Resolved<T>, to order: inout [[T]],
                                    movable: (T) -> Bool) -> [Displacement<T>] {
        func locate(_ x: T) -> (section: Int, index: Int)? {
            for s in order.indices { if let i = order[s].firstIndex(of: x) { return (s, i) } }
            return nil
        }
        let before = order
        var touched: [Int] = []
        var primary: [T] = []
        switch change {
        case .insert(let x, let t, let after, let index):
            guard t >= 0, t < order.count, movable(x), let (s, i) = locate(x) else { return [] }
            order[s].remove(at: i)
            var j = 0
            if let y = after {
                if let k = order[t].firstIndex(of: y) { j = k + 1 } else { j = min(max(0, index), order[t].count) }
            }
            order[t].insert(x, at: j)
            touched = s == t ? [s] : [s, t]
            primary = [x]
        case .swap(let x, let y):
            guard x != y, movable(x), movable(y), let (s, i) = locate(x), let j = order[s].firstIndex(of: y) else { return [] }
            order[s].swapAt(i, j)
            touched = [s]
            primary = [x, y]
        }
        for s in touched { restorePinned(&order[s], homesFrom: before[s], movable: movable) }
        guard order != before else { return [] }

        func place(_ x: T, in o: [[T]]) -> (section: Int, index: Int) {
            for s in o.indices { if let i = o[s].firstIndex(of: x) { return (s, i) } }
            return (-1, -1)
        }
        var out: [Displacement<T>] = []
        for x in primary {
            let from = place(x, in: before), to = place(x, in: order)
            if from != to { out.append(Displacement(item: x, from: from, to: to)) }
        }
        for s in touched {
            for (i, x) in order[s].enumerated() where !movable(x) {
                if let was = before[s].firstIndex(of: x), was != i {
                    out.append(Displacement(item: x, from: (s, was), to: (s, i)))
                }
            }
        }
        return out
    }

    /// Puts the pinned items of a section back at the indexes they had in `homesFrom` (clamped,
    /// in that order) and lets the movable items fill the other places in their order.
    /// - Complexity: O(n) of the section.
    static func restorePinned<T: Equatable>(_ section: inout [T], homesFrom old: [T], movable: (T) -> Bool) {
        var pinned: [(home: Int, item: T)] = []
        for (i, x) in old.enumerated() where !movable(x) && section.contains(x) { pinned.append((i, x)) }
        guard !pinned.isEmpty else { return }
        let n = section.count, k = pinned.count
        var slots: [T?] = Array(repeating: nil, count: n)
        for (j, p) in pinned.enumerated() { slots[min(p.home, n - k + j)] = p.item }
        var rest = section.filter(movable).makeIterator()
        for i in 0..<n where slots[i] == nil { slots[i] = rest.next() }
        section = slots.map { $0! }
    }
}

extension Board {
    /// The board after `change` (version + 1) and the moves that describe it, or `nil` when
    /// the change changes nothing here (an item or section the board does not have, an
    /// exchange of items no longer in one section, an insert that leaves everything in place).
    /// - Complexity: O(n).
    public func applying(_ change: Change) -> (board: Board, moves: [Move])? {
        let itemsByID = Dictionary(sections.flatMap(\.items).map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        var order = sections.map { $0.items.map(\.id) }
        let resolved: ChangeRule.Resolved<String>
        switch change {
        case .insert(let id, let section, let after, let index):
            guard itemsByID[id] != nil, let t = sections.firstIndex(where: { $0.id == section }) else { return nil }
            resolved = .insert(id, section: t, after: after, index: index)
        case .swap(let x, let y):
            resolved = .swap(x, y)
        }
        let moved = ChangeRule.apply(resolved, to: &order, movable: { itemsByID[$0]?.movable ?? false })
        guard !moved.isEmpty else { return nil }
        var out = self
        for s in out.sections.indices { out.sections[s].items = order[s].map { itemsByID[$0]! } }
        out.version += 1
        let moves = moved.map {
            Move(id: $0.item, from: Place(section: sections[$0.from.section].id, index: $0.from.index),
                 to: Place(section: sections[$0.to.section].id, index: $0.to.index))
        }
        return (out, moves)
    }
}
