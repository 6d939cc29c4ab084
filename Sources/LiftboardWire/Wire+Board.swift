import LiftboardCore

extension Wire {
    /// Decodes and validates a board file (contract §2): typed errors name the field.
    public static func decodeBoard(_ bytes: some Collection<UInt8>) throws(BoardError) -> Board {
        let value: JSONValue
        do { value = try JSONParser.parse(bytes) } catch {
            throw .invalid(field: "(file)", reason: error.description)
        }
        return try decodeBoard(value)
    }

    public static func decodeBoard(_ v: JSONValue) throws(BoardError) -> Board {
        guard case .object = v else { throw .wrongType(field: "(file)", expected: "an object") }
        let id = try nonEmptyString(v, "id", path: "id")
        let layoutName = try optionalString(v, "layout", path: "layout") ?? LayoutKind.list.rawValue
        guard let layout = LayoutKind(rawValue: layoutName) else { throw .unknownLayout(field: "layout", value: layoutName) }
        let list = try metrics(v, "list", listFields, ListMetrics())
        let grid = try metrics(v, "grid", gridFields, GridMetrics())
        let columns = try metrics(v, "columns", columnFields, ColumnMetrics())
        let version = try count(v, "version", path: "version") ?? 0
        guard let sv = v["sections"] else { throw .missing(field: "sections") }
        guard case .array(let rawSections) = sv else { throw .wrongType(field: "sections", expected: "an array") }
        var sections: [Section] = []
        var sectionIDs = Set<String>(), itemIDs = Set<String>()
        var position = 0
        for (s, raw) in rawSections.enumerated() {
            let path = "sections[\(s)]"
            guard case .object = raw else { throw .wrongType(field: path, expected: "an object") }
            let sid = try nonEmptyString(raw, "id", path: "\(path).id")
            guard sectionIDs.insert(sid).inserted else { throw .duplicateID(field: "\(path).id", id: sid) }
            let title = try optionalString(raw, "title", path: "\(path).title") ?? sid
            var section = Section(id: sid, title: title, items: [])
            if let sub = try optionalString(raw, "subtitle", path: "\(path).subtitle"), !sub.isEmpty { section.subtitle = sub }
            try decodeRules(raw, path: path, into: &section)
            section.maxDepth = try decodeMaxDepth(raw, path: path)
            var items: [Item] = []
            /// Item `ri` at `depth`, then its children (trees), in pre-order.
            func decodeItem(_ ri: JSONValue, _ ip: String, depth: Int) throws(BoardError) {
                guard case .object = ri else { throw .wrongType(field: ip, expected: "an object") }
                let iid = try nonEmptyString(ri, "id", path: "\(ip).id")
                guard itemIDs.insert(iid).inserted else { throw .duplicateID(field: "\(ip).id", id: iid) }
                let label = try optionalString(ri, "label", path: "\(ip).label") ?? iid
                let color = try optionalString(ri, "color", path: "\(ip).color") ?? Board.palette[position % Board.palette.count]
                let height = try measure(ri, "height", path: "\(ip).height")
                let movable = try optionalBool(ri, "movable", path: "\(ip).movable") ?? true
                let kind = try optionalString(ri, "kind", path: "\(ip).kind")
                if let kind, kind.isEmpty { throw .invalid(field: "\(ip).kind", reason: "must not be empty") }
                var item = Item(id: iid, label: label, color: color, height: height, movable: movable, kind: kind,
                                handle: try optionalChoice(ri, "handle", path: "\(ip).handle"), card: try decodeCard(ri, path: ip))
                let children = try decodeTreeFields(ri, path: ip, depth: depth, layout: layout, section: section, into: &item)
                if let accepts = section.accepts, !(kind.map(accepts.contains) ?? false) {
                    throw .invalid(field: "\(ip).kind", reason: "section \"\(sid)\" does not accept \(kind.map { "\"\($0)\"" } ?? "items without a kind")")
                }
                items.append(item)
                position += 1
                for (k, c) in children.enumerated() { try decodeItem(c, "\(ip).children[\(k)]", depth: depth + 1) }
            }
            if let iv = raw["items"] {
                guard case .array(let rawItems) = iv else { throw .wrongType(field: "\(path).items", expected: "an array") }
                for (k, ri) in rawItems.enumerated() { try decodeItem(ri, "\(path).items[\(k)]", depth: 0) }
            }
            if let max = section.max, items.count > max {
                throw .invalid(field: "\(path).items", reason: "holds \(items.count) items, more than its max \(max)")
            }
            if section.drop == .remove, !items.isEmpty {
                throw .invalid(field: "\(path).items", reason: "a section with drop \"remove\" holds no items")
            }
            section.items = items
            sections.append(section)
        }
        // Validated whatever the layout, kept for a columns board only: another board carries the
        // defaults, as `encodeBoard` (which writes `columns` for columns boards alone) reads back.
        var board = Board(id: id, layout: layout, list: list, grid: grid, columns: layout == .columns ? columns : ColumnMetrics(),
                          sections: sections, version: version)
        // Validated whatever the layout, kept for a tree board only (as `columns`).
        let tree = try metrics(v, "tree", treeFields, TreeMetrics())
        if layout == .tree { board.tree = tree }
        return board
    }

    /// A section's placement rules (issue 23): `accepts`, `max`, `copy`, `drop`.
    static func decodeRules(_ raw: JSONValue, path: String, into section: inout Section) throws(BoardError) {
        if let a = raw["accepts"] {
            guard case .array(let list) = a else { throw .wrongType(field: "\(path).accepts", expected: "an array of strings") }
            var kinds: [String] = []
            for (k, x) in list.enumerated() {
                guard case .string(let kind) = x, !kind.isEmpty else {
                    throw .invalid(field: "\(path).accepts[\(k)]", reason: "expected a non-empty string")
                }
                if !kinds.contains(kind) { kinds.append(kind) }
            }
            section.accepts = kinds
        }
        if let m = try count(raw, "max", path: "\(path).max") { section.max = m }
        if let c = try optionalBool(raw, "copy", path: "\(path).copy") { section.copy = c }
        section.drop = try optionalChoice(raw, "drop", path: "\(path).drop")
        if section.copy && section.drop != nil {
            throw .invalid(field: "\(path).drop", reason: "a palette (copy) cannot be a trash (drop)")
        }
    }

    /// The fields of the layouts' metrics objects as a board file names them, in the order
    /// `encodeBoard` writes them; `true`: above 0 (a size), `false`: at least 0 (a gap).
    typealias MetricFields<M> = [(StaticString, WritableKeyPath<M, Double> & Sendable, Bool)]
    static let listFields: MetricFields<ListMetrics> = [
        ("rowHeight", \.rowHeight, true), ("headerHeight", \.headerHeight, false), ("spacing", \.spacing, false)]
    static let gridFields: MetricFields<GridMetrics> = [
        ("itemWidth", \.itemWidth, true), ("itemHeight", \.itemHeight, true), ("spacing", \.spacing, false),
        ("headerHeight", \.headerHeight, false)]
    static let columnFields: MetricFields<ColumnMetrics> = [
        ("width", \.width, true), ("gap", \.gap, false), ("headerHeight", \.headerHeight, false),
        ("rowHeight", \.rowHeight, true), ("spacing", \.spacing, false)]

    /// The board's metrics object `key` (each of its `fields` optional), over `defaults`.
    static func metrics<M>(_ v: JSONValue, _ key: String, _ fields: MetricFields<M>, _ defaults: M) throws(BoardError) -> M {
        guard let o = v[key] else { return defaults }
        guard case .object = o else { throw .wrongType(field: key, expected: "an object") }
        var m = defaults
        for (name, p, size) in fields {
            let f = "\(name)", path = "\(key).\(name)"
            if let d = try measure(o, f, path: path, above0: size) { m[keyPath: p] = d }
        }
        return m
    }

    static func writeMetrics<M>(_ key: StaticString, _ m: M, _ fields: MetricFields<M>, _ w: inout JSONWriter) {
        w.key(key); w.beginObject()
        for (f, p, _) in fields { w.key(f); w.number(m[keyPath: p]) }
        w.endObject()
    }

    private static func nonEmptyString(_ v: JSONValue, _ key: String, path: String) throws(BoardError) -> String {
        guard let s = try optionalString(v, key, path: path) else { throw .missing(field: path) }
        guard !s.isEmpty else { throw .invalid(field: path, reason: "must not be empty") }
        return s
    }

    static func optionalString(_ v: JSONValue, _ key: String, path: String) throws(BoardError) -> String? {
        guard let x = v[key] else { return nil }
        guard case .string(let s) = x else { throw .wrongType(field: path, expected: "a string") }
        return s
    }

    private static func optionalBool(_ v: JSONValue, _ key: String, path: String) throws(BoardError) -> Bool? {
        guard let x = v[key] else { return nil }
        guard case .bool(let b) = x else { throw .wrongType(field: path, expected: "true or false") }
        return b
    }

    /// One of `T`'s cases by its raw value, if present; the error lists them (`expected "leading" or "trailing"`).
    private static func optionalChoice<T: RawRepresentable & CaseIterable>(_ v: JSONValue, _ key: String,
                                                                           path: String) throws(BoardError) -> T? where T.RawValue == String {
        guard let x = v[key] else { return nil }
        guard case .string(let s) = x, let c = T(rawValue: s) else {
            throw .invalid(field: path, reason: "expected " + T.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: " or "))
        }
        return c
    }

    /// A size (`above0`: greater than 0) or a gap (at least 0), at most 1000000.
    private static func measure(_ v: JSONValue, _ key: String, path: String,
                                above0: Bool = true) throws(BoardError) -> Double? {
        guard let x = v[key] else { return nil }
        guard case .number(let d) = x else { throw .wrongType(field: path, expected: "a number") }
        guard d.isFinite, above0 ? d > 0 : d >= 0, d <= 1e6 else {
            let least = above0 ? "greater than" : "at least"
            throw .invalid(field: path, reason: "must be finite and \(least) 0 (at most 1000000)")
        }
        return d
    }

    /// A non-negative integer (at most `Int32.max`).
    private static func count(_ v: JSONValue, _ key: String, path: String) throws(BoardError) -> Int? {
        guard let x = v[key] else { return nil }
        guard case .number(let d) = x, d.isFinite, d == d.rounded(), d >= 0, d <= Double(Int32.max) else {
            throw .invalid(field: path, reason: "expected a non-negative integer")
        }
        return Int(d)
    }

    /// Encodes a board as `GET /api/boards/{id}` returns it: the board file's fields plus
    /// `version` and `order`. `decodeBoard(encodeBoard(b)) == b`.
    public static func encodeBoard(_ b: Board) -> [UInt8] {
        var w = JSONWriter()
        w.beginObject()
        w.key("id"); w.string(b.id)
        w.key("layout"); w.string(b.layout.rawValue)
        writeMetrics("list", b.list, listFields, &w)
        writeMetrics("grid", b.grid, gridFields, &w)
        // `columns` only for a columns board: the other layouts' documents stay as they were.
        if b.layout == .columns { writeMetrics("columns", b.columns, columnFields, &w) }
        if b.layout == .tree { writeMetrics("tree", b.tree, treeFields, &w) }
        w.key("version"); w.int(b.version)
        w.key("sections"); w.beginArray()
        for s in b.sections {
            w.beginObject()
            w.key("id"); w.string(s.id)
            w.key("title"); w.string(s.title)
            w.key("items"); w.beginArray()
            var open: [Int] = []  // the depths of the items whose `children` are open
            for (k, i) in s.items.enumerated() {
                closeChildren(down: i.depth, &open, &w)
                let opens = k + 1 < s.items.count && s.items[k + 1].depth > i.depth
                item(i, everyColor: true, opensChildren: opens, &w)
                if opens { open.append(i.depth) }
            }
            closeChildren(down: 0, &open, &w)
            w.endArray()
            if let a = s.accepts { w.key("accepts"); w.array(a) { $1.string($0) } }
            if let m = s.max { w.key("max"); w.int(m) }
            if s.copy { w.key("copy"); w.bool(true) }
            if let d = s.drop { w.key("drop"); w.string(d.rawValue) }
            if let sub = s.subtitle { w.key("subtitle"); w.string(sub) }
            if let m = s.maxDepth { w.key("maxDepth"); w.int(m) }
            w.endObject()
        }
        w.endArray()
        w.key("order"); order(b.order, &w)
        w.endObject()
        return w.bytes
    }
}

/// The limits every board is held to, wherever it comes from (a `--boards` file, the API, the
/// store): those of its ids and text, the ones the protocol and the API's edits hold each field
/// to, and its number of sections. Not its size: a board of a million items is valid.
public enum BoardLimits {
    /// Board, section and item ids: 1 to 256 bytes (what `hello.board` and an edit's ids take).
    public static let maxIDBytes = 256
    /// Labels and titles (what an edit's `label` and `title` take).
    public static let maxTextBytes = 1024
    /// Colors (what an edit's `color` takes).
    public static let maxColorBytes = 64
    /// Sections of one board.
    public static let maxSections = 1000
    /// Trees: the deepest an item may be (levels 1 ... 33).
    public static let maxDepth = 32
    /// A card's `detail` (issue 25): two lines' worth, and some.
    public static let maxDetailBytes = 1024
    /// A card's `image`: a path on this server.
    public static let maxImageBytes = 512
    /// A card's `badge`: a short text or number.
    public static let maxBadgeBytes = 32
    /// A tag's `text` (a card holds at most `Card.maxTags` tags).
    public static let maxTagBytes = 64
    /// A section's `subtitle`.
    public static let maxSubtitleBytes = 1024

    /// Whether `path` may be a card's `image`: a path on this server (`/media/a.png`), never
    /// another origin's URL (`https://…`, `//host/…`), so that a board cannot make its viewers'
    /// browsers fetch from elsewhere; no backslash or control character.
    public static func isValidImagePath(_ path: String) -> Bool {
        guard path.hasPrefix("/"), !path.hasPrefix("//") else { return false }
        return !path.unicodeScalars.contains { $0 == "\\" || $0.value < 0x20 || $0.value == 0x7F }
    }

    /// Whether `id` may name a board: 1 to 256 of URL's unreserved characters (letters and
    /// digits of ASCII, `-`, `.`, `_`, `~`), so that it is its own path segment in
    /// `/api/boards/{id}`, and neither `.` nor `..` (which URLs resolve away).
    public static func isValidBoardID(_ id: String) -> Bool {
        guard !id.isEmpty, id.utf8.count <= maxIDBytes, id != ".", id != ".." else { return false }
        return id.utf8.allSatisfy { c in
            (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A)
                || c == UInt8(ascii: "-") || c == UInt8(ascii: ".") || c == UInt8(ascii: "_") || c == UInt8(ascii: "~")
        }
    }

    /// The first field of `board` past a limit, named as in a board file (`sections[2].items[5].label`).
    public static func check(_ board: Board) throws(BoardError) {
        if !isValidBoardID(board.id) {
            throw .invalid(field: "id", reason: "a board id is 1 to \(maxIDBytes) of the characters A-Z a-z 0-9 - . _ ~ (not . or ..)")
        }
        if board.sections.count > maxSections {
            throw .invalid(field: "sections", reason: "\(board.sections.count) sections, more than \(maxSections)")
        }
        func text(_ s: String?, _ field: String, max: Int) throws(BoardError) {
            guard let s, s.utf8.count > max else { return }
            throw .invalid(field: field, reason: "\(s.utf8.count) bytes, longer than \(max)")
        }
        for (k, s) in board.sections.enumerated() {
            try text(s.id, "sections[\(k)].id", max: maxIDBytes)
            try text(s.title, "sections[\(k)].title", max: maxTextBytes)
            try text(s.subtitle, "sections[\(k)].subtitle", max: maxSubtitleBytes)
            for (n, item) in s.items.enumerated() {
                let path = "sections[\(k)].items[\(n)]", card = item.card
                try text(item.id, "\(path).id", max: maxIDBytes)
                try text(item.label, "\(path).label", max: maxTextBytes)
                try text(item.color, "\(path).color", max: maxColorBytes)
                try text(card.detail, "\(path).detail", max: maxDetailBytes)
                try text(card.image, "\(path).image", max: maxImageBytes)
                if let image = card.image, !isValidImagePath(image) {
                    throw .invalid(field: "\(path).image",
                                   reason: "expected a path on this server (/media/…), not \"\(image)\"")
                }
                try text(card.badge, "\(path).badge", max: maxBadgeBytes)
                try text(card.accent, "\(path).accent", max: maxColorBytes)
                if card.tags.count > Card.maxTags {
                    throw .invalid(field: "\(path).tags", reason: "\(card.tags.count) tags, more than \(Card.maxTags)")
                }
                for (t, tag) in card.tags.enumerated() {
                    try text(tag.text, "\(path).tags[\(t)].text", max: maxTagBytes)
                    try text(tag.color, "\(path).tags[\(t)].color", max: maxColorBytes)
                }
            }
        }
    }
}
