import LiftboardCore

/// What an edit (an item or section added, changed or removed) does to the `items` and
/// `sections` tables, so that both stores write it the same way in the commit's transaction.
enum EditRow: Equatable {
    case insertItem(Item, section: String)
    case deleteItem(String)
    /// The item's label, color, height, movable and card as `after` has them.
    case updateItem(Item)
    case insertSection(id: String, title: String)
    case renameSection(id: String, title: String)
    case setSubtitle(id: String, subtitle: String?)
    case deleteSection(String)
    /// Every item of the section gets its index in it as its position.
    case itemPositions(Section)
    /// Every section gets its index on the board as its position.
    case sectionPositions([String])

    /// The rows `change` rewrites, given the board before and after it (`after` is
    /// `before.applying(change)`).
    /// - Complexity: O(items of the section concerned, or sections of the board).
    static func rows(for change: Change, before: Board, after: Board) -> [EditRow] {
        func section(_ id: String) -> Section? { after.sections.first { $0.id == id } }
        func item(_ id: String) -> Item? {
            for s in after.sections { if let x = s.items.first(where: { $0.id == id }) { return x } }
            return nil
        }
        switch change {
        case .batch(let changes) where change.isEdit:
            // Each edit's rows on the board it applies to, in order.
            var b = before
            var rows: [EditRow] = []
            for c in changes {
                guard let next = b.applying(c)?.board else { continue }
                rows += Self.rows(for: c, before: b, after: next)
                b = next
            }
            return rows
        case .insert, .swap, .group, .batch, .move:
            return []
        case .addItem(let x, let s, _, _):
            guard let sec = section(s), let stored = item(x.id) else { return [] }
            return [.insertItem(stored, section: s), .itemPositions(sec)]
        case .copyItem(_, let new, let s, _, _, _):
            guard let (t, i) = after.locate(item: new), let sec = section(s) else { return [] }
            // A tree's copy is the item's whole subtree.
            return after.subtree(section: t, index: i).map { .insertItem(after.sections[t].items[$0], section: s) } + [.itemPositions(sec)]
        case .removeItem(let id):
            guard let (s, i) = before.locate(item: id) else { return [] }
            let sid = before.sections[s].id
            // A tree's item leaves with its subtree.
            return before.subtree(section: s, index: i).map { .deleteItem(before.sections[s].items[$0].id) }
                + (section(sid).map { [.itemPositions($0)] } ?? [])
        case .updateItem(let u):
            return item(u.id).map { [.updateItem($0)] } ?? []
        case .addSection(let id, let title, _):
            return [.insertSection(id: id, title: title), .sectionPositions(after.sections.map(\.id))]
        case .renameSection(let id, let title):
            return [.renameSection(id: id, title: title)]
        case .setSubtitle(let id, let subtitle):
            return [.setSubtitle(id: id, subtitle: subtitle)]
        case .removeSection(let id):
            return [.deleteSection(id), .sectionPositions(after.sections.map(\.id))]
        }
    }
}
