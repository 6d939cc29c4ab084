import LiftboardCore

/// Trees on the wire (docs/protocol.md, "Trees"): the `move` change, places' `depth`, orders'
/// `parents`.
extension Wire {
    /// `{"move", "section", "parent", "after", "index"}`.
    static func move(_ id: String, section: String, parent: String?, after: String?, index: Int, _ w: inout JSONWriter) {
        w.key("move"); w.string(id)
        w.key("section"); w.string(section)
        w.key("parent")
        if let parent { w.string(parent) } else { w.null() }
        w.key("after")
        if let after { w.string(after) } else { w.null() }
        w.key("index"); w.int(index)
    }

    /// A place's `,"depth":D` (trees only), inside its object.
    @inline(__always)
    static func depth(_ p: Place, _ o: inout ByteCursor) {
        if let d = p.depth { o.put(#","depth":"#); o.int(d) }
    }

    /// An order's `],"parents":[…` (the caller closes it as it closes `items`).
    static func parents(_ ps: [String?], _ o: inout ByteCursor) {
        o.put(#"],"parents":["#)
        for k in ps.indices {
            if k > 0 { o.byte(UInt8(ascii: ",")) }
            if let p = ps[k] { o.string(p) } else { o.put("null") }
        }
    }

    /// A `move` change's fields.
    static func move(_ f: Fields) throws(WireError) -> Change {
        let id = try f.string("move", maxLength: 256)
        let section = try f.string("section", maxLength: 256)
        let parent = try f.idOrNull("parent", null: "none"), after = try f.idOrNull("after", null: "none")
        let index = try f.int("index", in: 0...10_000_000)
        return .move(id, section: section, parent: parent, after: after, index: index)
    }

    /// An order's `parents`: one id or null per item.
    static func parents(_ f: Fields, count: Int) throws(WireError) -> [String?] {
        var out: [String?] = []
        let list = try f.array("parents", max: 1_000_000)
        guard list.count == count else { throw f.fail("parents", "expected one entry per item (\(count))") }
        for (k, v) in list.enumerated() {
            switch v {
            case .null: out.append(nil)
            case .string(let s) where !s.isEmpty: out.append(s)
            default: throw f.fail("parents[\(k)]", "expected an item id or null")
            }
        }
        return out
    }
}

/// Trees in board files: nested `children`, `collapsed`, `leaf`, `maxDepth`, `tree`.
extension Wire {
    /// `tree`'s fields (`{"indent"}`), read and written as the other layouts' metrics.
    static let treeFields: MetricFields<TreeMetrics> = [("indent", \.indent, false)]

    /// A section's `maxDepth`: an integer 0 ... 32.
    static func decodeMaxDepth(_ raw: JSONValue, path: String) throws(BoardError) -> Int? {
        guard let m = raw["maxDepth"] else { return nil }
        guard case .number(let d) = m, d.isFinite, d == d.rounded(), d >= 0, d <= Double(BoardLimits.maxDepth) else {
            throw .invalid(field: "\(path).maxDepth", reason: "expected an integer from 0 to \(BoardLimits.maxDepth)")
        }
        return Int(d)
    }

    /// An item's tree fields at `depth` (set on `item`), and its `children` to decode after it.
    static func decodeTreeFields(_ ri: JSONValue, path ip: String, depth: Int, layout: LayoutKind, section: Section,
                                 into item: inout Item) throws(BoardError) -> [JSONValue] {
        if depth > BoardLimits.maxDepth { throw .invalid(field: ip, reason: "deeper than \(BoardLimits.maxDepth) levels") }
        if let m = section.maxDepth, depth > m { throw .invalid(field: ip, reason: "deeper than maxDepth \(m)") }
        item.depth = depth
        if let c = ri["collapsed"] {
            guard case .bool(let b) = c else { throw .wrongType(field: "\(ip).collapsed", expected: "true or false") }
            item.collapsed = b
        }
        if let l = ri["leaf"] {
            guard case .bool(let b) = l else { throw .wrongType(field: "\(ip).leaf", expected: "true or false") }
            item.leaf = b
        }
        guard let cv = ri["children"] else { return [] }
        guard case .array(let children) = cv else { throw .wrongType(field: "\(ip).children", expected: "an array") }
        guard layout == .tree else { throw .invalid(field: "\(ip).children", reason: "only a tree board nests items") }
        if item.leaf && !children.isEmpty { throw .invalid(field: "\(ip).leaf", reason: "a leaf has no children") }
        return children
    }

    /// An item's `collapsed` and `leaf`, when set.
    static func treeMembers(_ i: Item, _ w: inout JSONWriter) {
        if i.collapsed { w.key("collapsed"); w.bool(true) }
        if i.leaf { w.key("leaf"); w.bool(true) }
    }

    /// Closes the `children` arrays (and their items) opened deeper than or at `depth`.
    static func closeChildren(down depth: Int, _ open: inout [Int], _ w: inout JSONWriter) {
        while let d = open.last, d >= depth {
            w.endArray()
            w.endObject()
            open.removeLast()
        }
    }
}

/// Trees in `layout` and frames: cells' `depth`, `parent`, `hasChildren`, `collapsed`.
extension Wire {
    /// A whole cell's tree members (after `movable`).
    static func treeFacts(_ t: TreeFacts, _ o: inout ByteCursor) {
        o.put(#","depth":"#); o.int(t.depth)
        if let p = t.parent { o.put(#","parent":"#); o.string(p) }
        if t.hasChildren { o.put(#","hasChildren":true"#) }
        if t.collapsed { o.put(#","collapsed":true"#) }
    }

    static func treeFacts(_ t: TreeFacts, _ w: inout JSONWriter) {
        w.key("depth"); w.int(t.depth)
        if let p = t.parent { w.key("parent"); w.string(p) }
        if t.hasChildren { w.key("hasChildren"); w.bool(true) }
        if t.collapsed { w.key("collapsed"); w.bool(true) }
    }

    /// A changed cell's tree members: each that changed, `false` and `null` included.
    static func treeChange(_ t: TreeChange, _ o: inout ByteCursor) {
        if let d = t.depth { o.put(#","depth":"#); o.int(d) }
        if let p = t.parent { o.put(#","parent":"#); if let p { o.string(p) } else { o.put("null") } }
        if let v = t.hasChildren { o.put(#","hasChildren":"#); o.bool(v) }
        if let v = t.collapsed { o.put(#","collapsed":"#); o.bool(v) }
    }

    /// What a cell's tree members take at most (0 on other boards); `info`: its attributes
    /// (`infoPointer`), read in place.
    @inline(__always)
    static func treeBound(_ c: UnsafePointer<CellUpdate>, _ info: UnsafePointer<CellInfo?>?) -> Int {
        var n = 0
        if case .some = c.pointee.tree { n &+= PieceBound.treeFacts &+ (c.pointee.tree!.parent.flatMap { $0 }.map(ByteCursor.bound) ?? 0) }
        if let i = info, case .some = i.pointee.unsafelyUnwrapped.tree { n &+= PieceBound.treeFacts &+ (i.pointee.unsafelyUnwrapped.tree!.parent.map(ByteCursor.bound) ?? 0) }
        return n
    }
}
