/// Edits on a tree board (docs/protocol.md, "Trees"): an item added under a parent after a
/// sibling, an item removed with its subtree, and the edits that bring a removed subtree back.
extension Board {
    /// The rows of the item at `i` of section `s` with what goes with it: on a tree its
    /// subtree, on other layouts the item alone.
    /// - Complexity: O(subtree).
    public func subtree(section s: Int, index i: Int) -> Range<Int> {
        let items = sections[s].items
        return layout == .tree ? i..<TreeOrder.subtreeEnd(from: i, count: items.count) { items[$0].depth } : i..<i + 1
    }

    /// Inserts `item` in section `s` under `parent` (nil: the top level) right after its child
    /// `after`'s subtree (nil: first; a child it does not have: last), at the parent's depth
    /// plus one. `false`, changing nothing, for a parent the section does not hold, a `leaf`
    /// one, or a depth past the section's `maxDepth` (or the board's limit).
    /// - Complexity: O(items of the section).
    mutating func addTreeItem(_ item: Item, section s: Int, parent: String?, after: String?) -> Bool {
        var x = item
        x.depth = 0
        return addTreeItems([x], section: s, parent: parent, after: after)
    }

    /// Inserts the subtree `items` (pre-order, the first at depth 0, the others deeper) as
    /// `addTreeItem` inserts one item, every depth shifted by the place's; `false`, changing
    /// nothing, where its deepest item would pass the section's `maxDepth`.
    mutating func addTreeItems(_ subtree: [Item], section s: Int, parent: String?, after: String?) -> Bool {
        let items = sections[s].items
        var depth = 0, lo = 0, hi = items.count
        if let parent {
            guard let p = items.firstIndex(where: { $0.id == parent }), !items[p].leaf else { return false }
            depth = items[p].depth + 1
            lo = p + 1
            hi = TreeOrder.subtreeEnd(from: p, count: items.count) { items[$0].depth }
        }
        let height = subtree.map(\.depth).max() ?? 0
        guard depth + height <= min(sections[s].maxDepth ?? TreeOrder.maxDepth, TreeOrder.maxDepth) else { return false }
        var at = lo
        if let after {
            at = hi
            if let a = items[lo..<hi].firstIndex(where: { $0.id == after && $0.depth == depth }) {
                at = TreeOrder.subtreeEnd(from: a, count: items.count) { items[$0].depth }
            }
        }
        sections[s].items.insert(contentsOf: subtree.map { var x = $0; x.depth += depth; return x }, at: at)
        return true
    }

    /// A palette's copy on a tree (`copyItem`): the subtree of the item at `i0` of section
    /// `s0`, its root with id `new` and each other item D with `D~V` (V the version the copy
    /// lands at; `D~V~2`, `~3`... when the board has it), placed in section `s` as
    /// `addTreeItems` places it.
    /// - Complexity: O(items of the board + the subtree), the board's ids read once.
    mutating func copyTreeSubtree(section s0: Int, index i0: Int, as new: String, into s: Int, parent: String?, after: String?) -> Bool {
        let items = sections[s0].items
        let end = TreeOrder.subtreeEnd(from: i0, count: items.count) { items[$0].depth }
        var taken: Set<String> = [new]
        if end - i0 > 1 { for section in sections { for x in section.items { taken.insert(x.id) } } }
        var copies: [Item] = []
        for k in i0..<end {
            var x = items[k]
            x.depth -= items[i0].depth
            if k == i0 {
                x.id = new
            } else {
                let base = "\(x.id)~\(version + 1)"
                var fresh = base, n = 2
                while taken.contains(fresh) { fresh = "\(base)~\(n)"; n += 1 }
                x.id = fresh
            }
            taken.insert(x.id)
            copies.append(x)
        }
        return addTreeItems(copies, section: s, parent: parent, after: after)
    }

    /// Removes the item at `i` of section `s` with its subtree.
    mutating func removeTreeItem(section s: Int, index i: Int) {
        sections[s].items.removeSubrange(subtree(section: s, index: i))
    }

    /// The edits that put back the subtree of the item at `i` of section `s` as it stands (a
    /// removal's revert): each item added, in pre-order, under its parent after its sibling.
    func treeSubtreeBack(section s: Int, index i: Int) -> Change {
        let items = sections[s].items
        let end = TreeOrder.subtreeEnd(from: i, count: items.count) { items[$0].depth }
        let adds: [Change] = (i..<end).map { k in
            let p = TreeOrder.place(of: k) { items[$0].depth }
            return .addItem(items[k], section: sections[s].id, after: p.after.map { items[$0].id }, parent: p.parent.map { items[$0].id })
        }
        return adds.count == 1 ? adds[0] : .batch(adds)
    }
}
