extension Board {
    /// Applies `commit` in place; `false`, changing nothing, where `applying` gives `nil`.
    public mutating func apply(_ commit: Commit) -> Bool {
        if commit.version == version + 1, let change = commit.change {
            guard apply(change) != nil else { return false }
            version = commit.version
            return true
        }
        guard let next = applying(commit) else { return false }
        self = next
        return true
    }

    /// The board with `commit`'s order and version, or `nil` when the order does not name
    /// every section and item of the board exactly once (a commit without its order: its
    /// change, applied to this board at the version before it).
    /// - Complexity: O(n).
    public func applying(_ commit: Commit) -> Board? {
        guard commit.board == id else { return nil }
        if commit.version == version + 1, let change = commit.change {
            // The change on the order it was made on gives the commit's order: O(n) by
            // scanning, and it works for commits that leave their order out.
            guard var next = applying(change)?.board else { return nil }
            next.version = commit.version
            return next
        }
        guard commit.order.count == sections.count else { return nil }
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
