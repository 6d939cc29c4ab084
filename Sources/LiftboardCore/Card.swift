/// A chip on a card: a short text on a color (issue 25).
public struct Tag: Hashable, Sendable {
    public var text: String
    /// A CSS color; empty: the page's own chip color.
    public var color: String
    public init(text: String, color: String = "") { self.text = text; self.color = color }
}

/// What a card shows besides its title (`Item.label`) and color: a second line, a thumbnail,
/// a count, chips and a stripe (issue 25). None of it changes a cell's size or how it moves:
/// the board's `height`/`rowHeight` decide, and the page fits the content into the cell.
public struct Card: Hashable, Sendable {
    /// A second line of text, wrapped to at most two lines.
    public var detail: String?
    /// A path on this server (`/media/...` or a file under `--public`), drawn as a thumbnail.
    public var image: String?
    /// A short text or number, drawn as a pill.
    public var badge: String?
    /// Up to `Card.maxTags` chips.
    public var tags: [Tag]
    /// The color of a stripe along the card's leading edge.
    public var accent: String?

    /// The most tags a card holds.
    public static let maxTags = 5

    public init(detail: String? = nil, image: String? = nil, badge: String? = nil, tags: [Tag] = [], accent: String? = nil) {
        self.detail = detail; self.image = image; self.badge = badge; self.tags = tags; self.accent = accent
    }

    public var isEmpty: Bool { detail == nil && image == nil && badge == nil && tags.isEmpty && accent == nil }

    /// The card as one text, for a store's one column: each field a letter, its length in
    /// UTF-8 bytes, `:` and its bytes (`d9:Due today` `t3:bugc4:#e53`), so that any text
    /// survives. `nil` for an empty card.
    public var text: String? {
        guard !isEmpty else { return nil }
        var out = ""
        func field(_ key: String, _ v: String) { out += "\(key)\(v.utf8.count):\(v)" }
        if let v = detail { field("d", v) }
        if let v = image { field("i", v) }
        if let v = badge { field("b", v) }
        if let v = accent { field("a", v) }
        for t in tags { field("t", t.text); field("c", t.color) }
        return out
    }

    /// The card `text` wrote (what it cannot read ends the reading).
    public init(text: String) {
        self.init()
        var bytes = Array(text.utf8)[...]
        while let key = bytes.first, let colon = bytes.firstIndex(of: UInt8(ascii: ":")),
              let n = Int(String(decoding: bytes[(bytes.startIndex + 1)..<colon], as: UTF8.self)),
              n >= 0, colon + 1 + n <= bytes.endIndex {
            let value = String(decoding: bytes[(colon + 1)..<(colon + 1 + n)], as: UTF8.self)
            bytes = bytes[(colon + 1 + n)...]
            switch key {
            case UInt8(ascii: "d"): detail = value
            case UInt8(ascii: "i"): image = value
            case UInt8(ascii: "b"): badge = value
            case UInt8(ascii: "a"): accent = value
            case UInt8(ascii: "t"): tags.append(Tag(text: value))
            case UInt8(ascii: "c"): if !tags.isEmpty { tags[tags.count - 1].color = value }
            default: return
            }
        }
    }
}
