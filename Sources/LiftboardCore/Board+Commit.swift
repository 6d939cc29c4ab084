extension Board {
    /// The board with `commit`'s order and version, or `nil` when the order does not name
    /// every section and item of the board exactly once.
    /// - Complexity: O(n).
    public func applying(_ commit: Commit) -> Board? {
        guard commit.board == id, commit.order.count == sections.count else { return nil }
        var items: [String: Item] = [:]
        for s in sections { for i in s.items { items[i.id] = i } }
        var byID: [String: Section] = [:]
        for s in sections { byID[s.id] = s }
        var out = self
        var seenSections = Set<String>()
        out.sections = []
        for so in commit.order {
            guard var section = byID[so.section], seenSections.insert(so.section).inserted else { return nil }
            section.items = []
            for id in so.items {
                guard let item = items.removeValue(forKey: id) else { return nil }
                section.items.append(item)
            }
            out.sections.append(section)
        }
        guard items.isEmpty else { return nil }
        out.version = commit.version
        return out
    }
}
