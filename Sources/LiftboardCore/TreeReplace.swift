/// A tree board replaced as a whole (the API's PUT; docs/protocol.md, "Trees"): the target's
/// forest reached by tree moves and edits, so that sessions see rows come, go and move as
/// for any commit.
extension Replacement {
    /// Places every item of `target` in pre-order, each under its target parent after its
    /// target previous sibling (both placed before it), moved (`move`, its subtree with it) or
    /// added; then removes the items `target` does not have. Placing in pre-order keeps every
    /// placed item's ancestors placed, so a later move never carries a placed item away and
    /// no move is into its own subtree; removing last takes no wanted item with a subtree.
    mutating func placeTree(_ target: Board) {
        for s in target.sections {
            let items = s.items
            for k in items.indices {
                let p = TreeOrder.place(of: k) { items[$0].depth }
                place(items[k], by: .move(items[k].id, section: s.id, parent: p.parent.map { items[$0].id },
                                          after: p.after.map { items[$0].id }, index: p.index), section: s.id)
            }
        }
        removeUnwanted(target)
    }
}
