import LiftboardCore

/// A card's fields (issue 25) on the wire: `detail`, `image`, `badge`, `tags` and `accent`
/// wherever an item travels (board files, edits, `layout` and whole frame cells), each written
/// only when set.
extension Wire {
    /// Writes the card's members into the object being written, which has members before
    /// them (an item's or a cell's id): in one piece, by the cursor's `cardMembers`.
    static func cardMembers(_ c: Card, _ w: inout JSONWriter) {
        guard !c.isEmpty else { return }
        w.pieces(bound: cardBound(c), separated: false) { cardMembers(c, &$0) }
    }

    static func tags(_ tags: [Tag], _ w: inout JSONWriter) {
        w.array(tags) { t, w in
            w.beginObject()
            w.key("text"); w.string(t.text)
            if !t.color.isEmpty { w.key("color"); w.string(t.color) }
            w.endObject()
        }
    }

    /// A card's fields in a board file's item (`path` names it, as `sections[0].items[2]`).
    static func decodeCard(_ v: JSONValue, path: String) throws(BoardError) -> Card {
        func text(_ key: String) throws(BoardError) -> String? {
            try optionalString(v, key, path: "\(path).\(key)").flatMap { $0.isEmpty ? nil : $0 }
        }
        var card = Card(detail: try text("detail"), image: try text("image"), badge: try text("badge"), accent: try text("accent"))
        if let t = v["tags"] { card.tags = try decodeTags(t, path: "\(path).tags") }
        return card
    }

    static func decodeTags(_ v: JSONValue, path: String) throws(BoardError) -> [Tag] {
        guard case .array(let list) = v else { throw .wrongType(field: path, expected: "an array of {text, color}") }
        guard list.count <= Card.maxTags else {
            throw .invalid(field: path, reason: "\(list.count) tags, more than \(Card.maxTags)")
        }
        return try list.enumerated().map { (k, x) throws(BoardError) in
            guard case .object = x else { throw .wrongType(field: "\(path)[\(k)]", expected: "an object {text, color}") }
            guard case .string(let text)? = x["text"], !text.isEmpty else {
                throw .invalid(field: "\(path)[\(k)].text", reason: "expected a non-empty string")
            }
            return Tag(text: text, color: try optionalString(x, "color", path: "\(path)[\(k)].color") ?? "")
        }
    }

    /// A card's fields in an edit's item or update (`Fields` errors are `bad_message`), held to
    /// `BoardLimits`. In an update an empty text takes the field away.
    static func decodeCard(_ f: Fields) throws(WireError) -> Card {
        var u = ItemUpdate(id: "")
        try decodeCardUpdate(f, into: &u)
        return u.applied(to: Card())
    }

    static func decodeCardUpdate(_ f: Fields, into u: inout ItemUpdate) throws(WireError) {
        func text(_ key: String, max: Int) throws(WireError) -> String? {
            f.has(key) ? try f.string(key, maxLength: max, allowEmpty: true) : nil
        }
        u.detail = try text("detail", max: BoardLimits.maxDetailBytes)
        u.image = try text("image", max: BoardLimits.maxImageBytes)
        if let image = u.image, !image.isEmpty, !BoardLimits.isValidImagePath(image) {
            throw f.fail("image", "expected a path on this server (/media/…), not \"\(image)\"")
        }
        u.badge = try text("badge", max: BoardLimits.maxBadgeBytes)
        u.accent = try text("accent", max: BoardLimits.maxColorBytes)
        if let v = f.object["tags"] {
            do { u.tags = try decodeTags(v, path: "tags") } catch {
                throw WireError(code: .badMessage, message: "\(f.path).\(error.description)")
            }
            for (k, t) in (u.tags ?? []).enumerated() {
                if t.text.utf8.count > BoardLimits.maxTagBytes { throw f.fail("tags[\(k)].text", "longer than \(BoardLimits.maxTagBytes) bytes") }
                if t.color.utf8.count > BoardLimits.maxColorBytes { throw f.fail("tags[\(k)].color", "longer than \(BoardLimits.maxColorBytes) bytes") }
            }
        }
    }
}
