/// A tree row's place in its forest, as a whole cell carries it (docs/protocol.md, "Trees").
public struct TreeFacts: Hashable, Sendable {
    public var depth: Int
    /// The parent's id (nil: top level).
    public var parent: String?
    /// It has children in the committed order, visible or not.
    public var hasChildren: Bool
    /// Collapsed in this session.
    public var collapsed: Bool
    public init(depth: Int, parent: String?, hasChildren: Bool, collapsed: Bool) {
        self.depth = depth; self.parent = parent; self.hasChildren = hasChildren; self.collapsed = collapsed
    }
}

/// What changed of a tree row's facts since the frame that last sent them (nil: unchanged).
public struct TreeChange: Hashable, Sendable {
    public var depth: Int? = nil
    /// `.some(nil)`: it became top level.
    public var parent: String?? = nil
    public var hasChildren: Bool? = nil
    public var collapsed: Bool? = nil
    public init() {}
}

extension TreeFacts {
    /// These facts with `t`'s changes made.
    mutating func apply(_ t: TreeChange) {
        if let d = t.depth { depth = d }
        if let p = t.parent { parent = p }
        if let h = t.hasChildren { hasChildren = h }
        if let c = t.collapsed { collapsed = c }
    }
}

extension TreeChange {
    /// This change followed by `t` (nil: nothing more): `t`'s keys win.
    func followed(by t: TreeChange?) -> TreeChange {
        guard let t else { return self }
        var m = self
        if let d = t.depth { m.depth = d }
        if let p = t.parent { m.parent = p }
        if let h = t.hasChildren { m.hasChildren = h }
        if let c = t.collapsed { m.collapsed = c }
        return m
    }
}
