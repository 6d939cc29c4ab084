import LiftboardCore
import LiftboardWire

/// The boards API's bodies as edits (`Change`), and the refusals an edit gets before it is
/// applied: 404 for what the board does not have, 409 for what it cannot take.
extension BoardsAPI {
    /// The edit a write asks for (`edit` from the route, with the item or section of the path).
    /// Throws `APIFailure` (400) for a bad body.
    static func editChange(_ kind: BoardEdit, fields: [(String, JSONValue)], board: Board) throws(APIFailure) -> Change {
        func value(_ k: String) -> JSONValue? { fields.last { $0.0 == k }?.1 }
        func only(_ allowed: Set<String>) throws(APIFailure) {
            if let extra = fields.first(where: { !allowed.contains($0.0) }) {
                throw APIFailure(response: .error(400, .badRequest, "body.\(extra.0): unknown field (expected \(allowed.sorted().joined(separator: ", ")))"))
            }
        }
        var edit: [(String, JSONValue)]
        switch kind {
        case .addItem:
            try only(["id", "label", "color", "height", "movable", "kind", "handle", "section", "after", "parent",
                      "detail", "image", "badge", "tags", "accent"])
            var item = fields.filter { $0.0 != "section" && $0.0 != "after" && $0.0 != "parent" }
            if value("color") == nil {
                // As a board file colours an item with no color: by its position on the board.
                let count = board.sections.reduce(0) { $0 + $1.items.count }
                item.append(("color", .string(Board.palette[count % Board.palette.count])))
            }
            let section: JSONValue = value("section") ?? board.sections.first.map { .string($0.id) } ?? .null
            var after: JSONValue = .null
            if board.layout == .tree || value("parent") != nil {
                let (parent, after) = try treeAddPlace(fields: fields, board: board, section: section)
                edit = [("edit", .string("addItem")), ("item", .object(item)), ("section", section), ("after", after), ("parent", parent)]
                break
            }
            if let a = value("after") {
                after = a
            } else if case .string(let s) = section, let last = board.sections.first(where: { $0.id == s })?.items.last {
                after = .string(last.id)
            }
            edit = [("edit", .string("addItem")), ("item", .object(item)), ("section", section), ("after", after)]
        case .updateItem(let id):
            if let move = try treeMove(id, fields: fields, board: board) { return move }
            try only(["label", "color", "height", "movable", "detail", "image", "badge", "tags", "accent"])
            edit = [("edit", .string("updateItem")), ("id", .string(id))] + fields
        case .removeItem(let id):
            edit = [("edit", .string("removeItem")), ("id", .string(id))]
        case .addSection:
            try only(["id", "title", "after"])
            edit = [("edit", .string("addSection"))] + fields
            if value("after") == nil { edit.append(("after", board.sections.last.map { .string($0.id) } ?? .null)) }
        case .renameSection(let id):
            // A section's title or its subtitle (issue 25): each is an edit of its own.
            try only(["title", "subtitle"])
            if value("subtitle") != nil {
                guard value("title") == nil else {
                    throw APIFailure(response: .error(400, .badRequest, "body: title and subtitle are two edits: send one at a time"))
                }
                edit = [("edit", .string("setSubtitle")), ("id", .string(id))] + fields
            } else {
                edit = [("edit", .string("renameSection")), ("id", .string(id))] + fields
            }
        case .removeSection(let id):
            edit = [("edit", .string("removeSection")), ("id", .string(id))]
        }
        do {
            return try Wire.decodeEdit(.object(edit), path: "body")
        } catch {
            throw APIFailure(response: .error(400, .badRequest, error.message))
        }
    }

    /// Why `change` cannot apply to `board`, if it cannot.
    static func conflict(_ change: Change, on board: Board) -> APIResponse? {
        func hasSection(_ id: String) -> Bool { board.sections.contains { $0.id == id } }
        switch change {
        case .move:
            return treeMoveConflict(change, on: board)
        case .insert, .swap, .group, .batch:
            return nil
        case .addItem(let item, let section, _, _):
            if board.locate(item: item.id) != nil { return .error(409, .itemExists, "the board has an item \(item.id) already") }
            if !hasSection(section) { return .error(404, .sectionNotFound, "no section \(section) on board \(board.id)") }
        case .copyItem(let id, _, _, _, _, _):
            if board.locate(item: id) == nil { return .error(404, .itemNotFound, "no item \(id) on board \(board.id)") }
        case .removeItem(let id):
            if board.locate(item: id) == nil { return .error(404, .itemNotFound, "no item \(id) on board \(board.id)") }
        case .updateItem(let u):
            if board.locate(item: u.id) == nil { return .error(404, .itemNotFound, "no item \(u.id) on board \(board.id)") }
        case .addSection(let id, _, let after):
            if hasSection(id) { return .error(409, .sectionExists, "the board has a section \(id) already") }
            if let after, !hasSection(after) { return .error(404, .sectionNotFound, "no section \(after) on board \(board.id)") }
        case .renameSection(let id, _), .setSubtitle(let id, _):
            if !hasSection(id) { return .error(404, .sectionNotFound, "no section \(id) on board \(board.id)") }
        case .removeSection(let id):
            guard let s = board.sections.first(where: { $0.id == id }) else {
                return .error(404, .sectionNotFound, "no section \(id) on board \(board.id)")
            }
            if !s.items.isEmpty { return .error(409, .sectionNotEmpty, "section \(id) has \(s.items.count) items: remove or move them first") }
        }
        // A placement a section's rule refuses (an item of a kind it does not accept, one past its max).
        if case .addItem = change, let next = board.applying(change)?.board, let why = next.ruleViolation(since: board) {
            return .error(409, .ruleRefused, why.description)
        }
        return nil
    }
}
