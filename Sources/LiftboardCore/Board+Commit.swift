extension Board {
    /// Applies `commit` in place; `false`, changing nothing, where `applying` gives `nil`.
    /// A commit at the next version with its change is that change applied where it is (the
    /// board's id is the caller's to check); any other by its order, `O(n)`.
    public mutating func apply(_ commit: Commit) -> Bool {
        if commit.version == version + 1, let change = commit.change {
            guard apply(change) != nil else { return false }
            version = commit.version
            return true
        }
        guard let next = byOrder(commit) else { return false }
        self = next
        return true
    }

    /// The board with `commit` applied (its change, or its order), or `nil` when the commit is
    /// another board's, its change changes nothing here, or its order does not name every
    /// section and item of the board exactly once.
    /// - Complexity: O(n).
    public func applying(_ commit: Commit) -> Board? {
        guard commit.board == id else { return nil }
        var next = self
        return next.apply(commit) ? next : nil
    }

    /// The board with `commit`'s order and version; `nil` as `applying` says.
    private func byOrder(_ commit: Commit) -> Board? {
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
