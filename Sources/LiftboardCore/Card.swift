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
///
/// Its fields live in one immutable box, none for an empty card (most cards): a card rides in
/// every `CellInfo` a frame sends, and copying or destroying one is then one retain or release
/// (none when empty) instead of five fields'. Setting a field makes a new box.
public struct Card: Hashable, Sendable {
    private final class Fields: Sendable {
        let detail: String?, image: String?, badge: String?, tags: [Tag], accent: String?
        init(detail: String?, image: String?, badge: String?, tags: [Tag], accent: String?) {
            self.detail = detail; self.image = image; self.badge = badge; self.tags = tags; self.accent = accent
        }
    }

    /// `nil`: the empty card.
    private var fields: Fields?

    public init(detail: String? = nil, image: String? = nil, badge: String? = nil, tags: [Tag] = [], accent: String? = nil) {
        let empty = detail == nil && image == nil && badge == nil && tags.isEmpty && accent == nil
        fields = empty ? nil : Fields(detail: detail, image: image, badge: badge, tags: tags, accent: accent)
    }

    /// A second line of text, wrapped to at most two lines.
    public var detail: String? {
        get { fields?.detail }
        set { self = Card(detail: newValue, image: image, badge: badge, tags: tags, accent: accent) }
    }
    /// A path on this server (`/media/...` or a file under `--public`), drawn as a thumbnail.
    public var image: String? {
        get { fields?.image }
        set { self = Card(detail: detail, image: newValue, badge: badge, tags: tags, accent: accent) }
    }
    /// A short text or number, drawn as a pill.
    public var badge: String? {
        get { fields?.badge }
        set { self = Card(detail: detail, image: image, badge: newValue, tags: tags, accent: accent) }
    }
    /// Up to `Card.maxTags` chips.
    public var tags: [Tag] {
        get { fields?.tags ?? [] }
        set { self = Card(detail: detail, image: image, badge: badge, tags: newValue, accent: accent) }
    }
    /// The color of a stripe along the card's leading edge.
    public var accent: String? {
        get { fields?.accent }
        set { self = Card(detail: detail, image: image, badge: badge, tags: tags, accent: newValue) }
    }

    public static func == (a: Card, b: Card) -> Bool {
        if a.fields === b.fields { return true }
        return a.detail == b.detail && a.image == b.image && a.badge == b.badge && a.tags == b.tags && a.accent == b.accent
    }

    public func hash(into h: inout Hasher) {
        h.combine(detail); h.combine(image); h.combine(badge); h.combine(tags); h.combine(accent)
    }

    /// The most tags a card holds.
    public static let maxTags = 5

    public var isEmpty: Bool { fields == nil }

    /// The card as one text, for a store's one column: each field a letter, its length in
    /// UTF-8 bytes, `:` and its bytes (`d9:Due today` `t3:bugc4:#e53`), so that any text
    /// survives. `nil` for an empty card.
    public var text: String? {
        guard !isEmpty else { return nil }
        var out = ""
        func field(_ key: String, _ v: String) { out += "\(key)\(v.utf8.count):\(v)" }
        for case let (key, v?) in [("d", detail), ("i", image), ("b", badge), ("a", accent)] { field(key, v) }
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
