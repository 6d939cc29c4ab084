import LiftboardCore
import LiftboardWire

/// Trees over HTTP (issue 43; docs/protocol.md, "Trees"): `PATCH /api/boards/{id}/items/{item}`
/// with `parent`, `after` and `section` moves the item with its subtree, as a drop would (one
/// `move` change): under `parent` (`null`: the top level; absent: where it is) right after its
/// sibling `after` (`null`: first; absent: last among the parent's children), in `section`
/// (absent: its own).
extension BoardsAPI {
    static let treeMoveFields: Set<String> = ["parent", "after", "section"]

    /// A body's `parent` or `after`: absent (`.none`), `null` (`.some(nil)`) or a non-empty id;
    /// anything else is a 400.
    static func treeID(_ key: String, in fields: [(String, JSONValue)]) throws(APIFailure) -> String?? {
        switch fields.last(where: { $0.0 == key })?.1 {
        case nil: return .none
        case .null?: return .some(nil)
        case .string(let s)? where !s.isEmpty: return .some(s)
        default: throw APIFailure(response: .error(400, .badRequest, "body.\(key): expected an item id or null"))
        }
    }

    /// The `move` a PATCH body asks for, when it names none but `treeMoveFields`; nil when it
    /// names none of them (an edit). Throws 400 for a body that mixes both or a board that is
    /// no tree's, 404 for an id the board does not have.
    static func treeMove(_ id: String, fields: [(String, JSONValue)], board: Board) throws(APIFailure) -> Change? {
        guard fields.contains(where: { treeMoveFields.contains($0.0) }) else { return nil }
        func bad(_ message: String) -> APIFailure { APIFailure(response: .error(400, .badRequest, message)) }
        func missing(_ what: String, _ code: HTTPErrorCode) -> APIFailure {
            APIFailure(response: .error(404, code, "no \(what) on board \(board.id)"))
        }
        if let extra = fields.first(where: { !treeMoveFields.contains($0.0) }) {
            throw bad("body.\(extra.0): a move takes parent, after and section only (an edit of the item is a write of its own)")
        }
        guard board.layout == .tree else { throw bad("body: only a tree board's items move by parent and after") }
        guard let (s0, _) = board.locate(item: id) else { throw missing("item \(id)", .itemNotFound) }
        var section = board.sections[s0].id
        if case .string(let s)? = fields.last(where: { $0.0 == "section" })?.1 { section = s }
        else if fields.contains(where: { $0.0 == "section" }) { throw bad("body.section: expected a section id") }
        guard let items = board.sections.first(where: { $0.id == section })?.items else { throw missing("section \(section)", .sectionNotFound) }
        let depth = items.firstIndex { $0.id == id }.map { items[$0].depth }
        let parent: String? = try treeID("parent", in: fields) ?? (depth == nil ? nil : Forest.parent(of: id, in: items))
        if let parent, !items.contains(where: { $0.id == parent }) { throw missing("item \(parent) in section \(section)", .itemNotFound) }
        let children = Forest.children(of: parent, in: items).filter { $0 != id }
        let after: String? = try treeID("after", in: fields) ?? children.last
        if let after, !children.contains(after) {
            throw APIFailure(response: .error(404, .itemNotFound, "no item \(after) under \(parent ?? "the top level") in section \(section)"))
        }
        let index = after.flatMap { children.firstIndex(of: $0) }.map { $0 + 1 } ?? 0
        return .move(id, section: section, parent: parent, after: after, index: index)
    }

    /// Where `POST /api/boards/{id}/items` puts an item on a tree board: under `parent` (absent
    /// or `null`: the top level) right after its child `after` (absent: last; `null`: first), as
    /// the edit's `parent` and `after`. Throws 400 for `parent` on a board that is no tree's or
    /// a value that is no id, 404 for a parent or sibling the section does not have, 409 for a
    /// parent that takes no children there (a `leaf`, or one at the section's `maxDepth`).
    static func treeAddPlace(fields: [(String, JSONValue)], board: Board, section: JSONValue) throws(APIFailure) -> (parent: JSONValue, after: JSONValue) {
        func bad(_ message: String) -> APIFailure { APIFailure(response: .error(400, .badRequest, message)) }
        guard board.layout == .tree else { throw bad("body.parent: only a tree board's items nest") }
        let parent = try treeID("parent", in: fields) ?? nil
        let after = try treeID("after", in: fields)
        // A section the board lacks is the edit's 404 (`conflict`).
        guard case .string(let sid) = section, let items = board.sections.first(where: { $0.id == sid })?.items else {
            return (parent.map { .string($0) } ?? .null, (after ?? nil).map { .string($0) } ?? .null)
        }
        if let parent {
            guard let p = items.first(where: { $0.id == parent }) else {
                throw APIFailure(response: .error(404, .itemNotFound, "no item \(parent) in section \(sid)"))
            }
            if p.leaf { throw APIFailure(response: .error(409, .ruleRefused, "tree: \(parent) is a leaf: it takes no children")) }
            let deepest = min(board.sections.first { $0.id == sid }?.maxDepth ?? 32, 32)
            if p.depth + 1 > deepest {
                throw APIFailure(response: .error(409, .ruleRefused, "tree: under \(parent) the item would be at depth \(p.depth + 1), past \(deepest)"))
            }
        }
        let children = Forest.children(of: parent, in: items)
        let sibling: String? = after ?? children.last
        if let sibling, !children.contains(sibling) {
            throw APIFailure(response: .error(404, .itemNotFound, "no item \(sibling) under \(parent ?? "the top level") in section \(sid)"))
        }
        return (parent.map { .string($0) } ?? .null, sibling.map { .string($0) } ?? .null)
    }

    /// Why a tree `move` cannot apply to `board` (409), when it changes something but the tree
    /// refuses it: under itself or its own subtree, under a leaf, or deeper than `maxDepth`.
    static func treeMoveConflict(_ change: Change, on board: Board) -> APIResponse? {
        guard case .move(let id, let section, let parent, let after, _) = change else { return nil }
        if let items = board.sections.first(where: { $0.id == section })?.items, items.contains(where: { $0.id == id }),
           Forest.parent(of: id, in: items) == parent, Forest.previousSibling(of: id, in: items) == after {
            return nil  // where it is: unchanged, as a drop in place
        }
        var copy = board
        if copy.apply(change) == nil {
            return .error(409, .ruleRefused, "tree: \(id) cannot go there (under itself, under a leaf, or deeper than the section's maxDepth)")
        }
        return nil
    }
}

/// A section's forest read from its pre-order and depths (the board's `items`).
enum Forest {
    /// The parent of `id`: the nearest item before it that is one level up (nil at the top).
    static func parent(of id: String, in items: [Item]) -> String? {
        guard let i = items.firstIndex(where: { $0.id == id }), items[i].depth > 0 else { return nil }
        return items[..<i].last { $0.depth < items[i].depth }?.id
    }

    /// The sibling right before `id` under its parent, nil when it is first.
    static func previousSibling(of id: String, in items: [Item]) -> String? {
        guard let i = items.firstIndex(where: { $0.id == id }) else { return nil }
        let d = items[i].depth
        for j in stride(from: i - 1, through: 0, by: -1) {
            if items[j].depth < d { return nil }
            if items[j].depth == d { return items[j].id }
        }
        return nil
    }

    /// The children of `parent` (nil: the top-level items), in order.
    static func children(of parent: String?, in items: [Item]) -> [String] {
        guard let parent else { return items.filter { $0.depth == 0 }.map(\.id) }
        guard let p = items.firstIndex(where: { $0.id == parent }) else { return [] }
        let d = items[p].depth
        var out: [String] = []
        for item in items[(p + 1)...] {
            if item.depth <= d { break }
            if item.depth == d + 1 { out.append(item.id) }
        }
        return out
    }
}
