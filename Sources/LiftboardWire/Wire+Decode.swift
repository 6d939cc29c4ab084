import LiftboardCore

extension Wire {
    static let coordinateRange = -1e7...1e7
    static let msRange = 0.0...1e13
    static let pointerRange = 0...Int(Int32.max)
    static let seqRange = 0...(1 << 53)

    /// Decodes and validates one client message. Validation comes before meaning: a wrong,
    /// missing or out-of-range field is `bad_message` whatever it refers to.
    public static func decodeClient(_ bytes: some Collection<UInt8>) -> Result<ClientMessage, WireError> {
        if let r = bytes.withContiguousStorageIfAvailable({ decodeClient(UnsafeRawBufferPointer($0)) }) { return r }
        if let e = oversize(bytes.count) { return .failure(e) }
        return decodeParsed(bytes)
    }

    /// `decodeClient` for a byte array (the server's receive buffer): the same answer, without
    /// the generic collection's dispatch on every message.
    public static func decodeClient(_ bytes: [UInt8]) -> Result<ClientMessage, WireError> {
        bytes.withUnsafeBytes { decodeClient($0) }
    }

    /// `decodeClient` for bytes where they lie (a whole message in lws's receive buffer): the
    /// same answer, without copying them into an array first.
    public static func decodeClient(_ bytes: UnsafeRawBufferPointer) -> Result<ClientMessage, WireError> {
        if let e = oversize(bytes.count) { return .failure(e) }
        if let m = fastMove(bytes) { return .success(m) }
        return decodeParsed(bytes)
    }

    /// The error for a message of `count` bytes over the limit; nil within it.
    private static func oversize(_ count: Int) -> WireError? {
        count <= maxMessageBytes ? nil : WireError(code: .tooLarge, message: "message of \(count) bytes is over the \(maxMessageBytes)-byte limit")
    }

    /// The general way: a JSON tree, then its fields.
    private static func decodeParsed(_ bytes: some Collection<UInt8>) -> Result<ClientMessage, WireError> {
        let value: JSONValue
        do { value = try JSONParser.parse(bytes) } catch {
            return .failure(WireError(code: .badJSON, message: error.description))
        }
        return Result { () throws(WireError) in try decodeClient(value) }
    }

    public static func decodeClient(_ value: JSONValue) throws(WireError) -> ClientMessage {
        guard case .object = value else {
            throw WireError(code: .badJSON, message: "a message must be a JSON object, got \(value.typeName)")
        }
        guard let tv = value["t"] else { throw WireError(code: .badMessage, message: "t: missing") }
        guard case .string(let t) = tv else { throw WireError(code: .badMessage, message: "t: expected a string, got \(tv.typeName)") }
        let f = Fields(object: value, path: t.utf8.count <= 32 ? t : "message")
        let seq = try f.optionalInt("seq", in: seqRange)
        let event: ClientEvent
        var ms: Double? = nil
        switch t {
        case "hello":
            ms = try f.optionalNumber("ms", in: msRange)
            event = .hello(try hello(f))
        case "down":
            let kind = f.has("kind") ? PointerKind(rawValue: try f.string("kind", maxLength: 16)) : nil
            if f.has("kind"), kind == nil { throw f.fail("kind", "expected mouse, touch or pen") }
            event = .down(pointer: try f.int("p", in: pointerRange), at: try point(f), kind: kind, mods: try mods(f),
                          button: try f.optionalInt("button", in: 0...4) ?? 0)
        case "move", "up":
            let pointer = try f.int("p", in: pointerRange), at = try point(f)
            event = t == "move" ? .move(pointer: pointer, at: at) : .up(pointer: pointer, at: at)
        case "cancel":
            event = .cancel(pointer: try f.int("p", in: pointerRange))
        case "wheel":
            let dx = try f.number("dx", in: coordinateRange), dy = try f.number("dy", in: coordinateRange)
            // Extension (columns): the pointer's place, both or none.
            let x = try f.optionalNumber("x", in: coordinateRange), y = try f.optionalNumber("y", in: coordinateRange)
            if (x == nil) != (y == nil) { throw f.fail(x == nil ? "x" : "y", "missing (wheel x and y come together)") }
            event = .wheel(dx: dx, dy: dy, at: x.flatMap { x in y.map { Point(x: x, y: $0) } })
        case "resize":
            event = .resize(try viewport(f))
        case "key":
            event = .key(try f.string("key", maxLength: 32), mods: try mods(f))
        case "ping":
            guard let id = f.object["id"] else { throw f.fail("id", "missing") }
            switch id {
            case .string(let s) where s.utf8.count <= 256: event = .ping(id: .string(s))
            case .number(let d) where d.isFinite && d == d.rounded() && abs(d) <= 9e15: event = .ping(id: .int(Int(d)))
            default: throw f.fail("id", "expected an integer or a string of at most 256 bytes")
            }
        case "undo":
            event = .undo
        case "moveTo":
            let place = try f.string("place", maxLength: 8)
            guard let p = MovePlace(rawValue: place) else { throw f.fail("place", "expected \"first\", \"last\", \"up\", \"down\", \"indent\" or \"outdent\"") }
            event = .moveTo(id: try f.string("id", maxLength: 256), section: try f.string("section", maxLength: 256), place: p)
        case "toggle":
            event = .toggle(id: try f.string("id", maxLength: 256))
        case "advance":
            event = .advance
        case "external":
            event = .external(try commit(try f.object("commit")))
        case "resync", "rebase":
            let version = try f.int("version", in: 0...Int(Int32.max)), order = try self.order(f)
            event = t == "resync" ? .resync(version: version, order: order) : .rebase(version: version, order: order)
        case "presence":
            event = .presence(try presence(f))
        case "claims":
            event = .claim(.required)
        case "claimed":
            event = .claim(try claimed(f))
        default:
            throw WireError(code: .unknownType, message: "unknown message type \"\(t.utf8.count <= 64 ? t : String(t.prefix(64)) + "…")\"")
        }
        if case .hello = event {} else { ms = try f.number("ms", in: msRange) }
        return ClientMessage(event: event, seq: seq, ms: ms)
    }

    static func point(_ f: Fields) throws(WireError) -> Point {
        Point(x: try f.number("x", in: coordinateRange), y: try f.number("y", in: coordinateRange))
    }

    static func viewport(_ f: Fields) throws(WireError) -> Viewport {
        Viewport(w: try f.number("w", in: 1...1e5), h: try f.number("h", in: 1...1e5),
                 dpr: try f.number("dpr", above: 0, upTo: 16))
    }

    /// A config's numbers after `mode`, in the wire's order (`hello` reads them, `welcome` writes
    /// them), each with its range (`above`: above its lower bound, not at it).
    static let configNumbers: [(String, WritableKeyPath<SessionConfig, Double> & Sendable, ClosedRange<Double>,
                                above: Bool)] = [
        ("edgeScrollRange", \.edgeScrollRange, 0...1e4, false), ("edgeScrollSpeed", \.edgeScrollSpeed, 0...1e5, false),
        ("liftScale", \.liftScale, 0...10, true), ("liftRotation", \.liftRotation, -3.2...3.2, false),
        ("liftAlpha", \.liftAlpha, 0...1, false), ("liftMs", \.liftMs, 0...1e4, false),
        ("shiftMs", \.shiftMs, 0...1e4, false), ("dropMs", \.dropMs, 0...1e4, false),
        ("idleResetMs", \.idleResetMs, 0...1e9, false)]

    static func hello(_ f: Fields) throws(WireError) -> Hello {
        let v = try f.int("v", in: Int(Int32.min)...Int(Int32.max))
        let board = try f.string("board", maxLength: 256)
        let vp = try viewport(try f.object("viewport"))
        var config = SessionConfig()
        if f.has("config") {
            let c = try f.object("config")
            if let x = try c.optionalNumber("pressMs", in: 0...1e4) { config.pressMs = x }
            if let x = try c.optionalNumber("springMs", in: 0...1e4) { config.springMs = x }
            if let x = try c.optionalNumber("allowableMovement", in: 0...1e4) { config.allowableMovement = x }
            if let m = try c.optionalChoice("mode", ReorderMode.self) { config.mode = m }
            for (key, p, range, above) in configNumbers where c.has(key) {
                config[keyPath: p] = try above ? c.number(key, above: range.lowerBound, upTo: range.upperBound)
                    : c.number(key, in: range)
            }
            if c.has("reducedMotion") { config.reducedMotion = try c.bool("reducedMotion") }
            if let m = try c.optionalChoice("commitOrder", CommitOrderMode.self) { config.commitOrder = m }
            if let m = try c.optionalChoice("events", EventsMode.self) { config.events = m }
            if let m = try c.optionalChoice("follow", FollowMode.self) { config.follow = m }
            if let m = try c.optionalChoice("commits", CommitsMode.self) { config.commits = m }
            if let m = try c.optionalChoice("layouts", LayoutsMode.self) { config.layouts = m }
            if let m = try c.optionalChoice("presence", PresenceMode.self) { config.presence = m }
        }
        return Hello(v: v, board: board, viewport: vp, config: config)
    }

    static func place(_ v: JSONValue, path: String) throws(WireError) -> Place {
        guard case .object = v else { throw WireError(code: .badMessage, message: "\(path): expected an object") }
        let f = Fields(object: v, path: path)
        return Place(section: try f.string("section", maxLength: 256), index: try f.int("index", in: 0...10_000_000))
    }

    /// A `commit` message's body (as `external` carries it).
    static func commit(_ f: Fields) throws(WireError) -> Commit {
        let board = try f.string("board", maxLength: 256)
        let version = try f.int("version", in: 1...Int(Int32.max))
        let by = try f.string("by", maxLength: 256, allowEmpty: true)
        let moves = try self.moves(try f.array("moves", max: 100_000), path: "\(f.path).moves")
        let change = f.has("change") ? try self.change(try f.object("change")) : nil
        // A commit may leave its order out when it carries its change (`commitOrder: "none"`).
        let order = change != nil && !f.has("order") ? [] : try self.order(f)
        let user = f.has("user") ? try f.string("user", maxLength: 256) : nil
        let name = f.has("name") ? try f.string("name", maxLength: 256, allowEmpty: true) : nil
        return Commit(board: board, version: version, by: by, moves: moves, order: order, change: change, user: user, name: name)
    }

    /// A list of moves (`[{"id", "from": {"section", "index"}, "to": {…}}…]`), errors named under `path`.
    static func moves(_ list: [JSONValue], path: String) throws(WireError) -> [Move] {
        try list.enumerated().map { (k, m) throws(WireError) in
            guard case .object = m else { throw WireError(code: .badMessage, message: "\(path)[\(k)]: expected an object") }
            let mf = Fields(object: m, path: "\(path)[\(k)]")
            guard let from = mf.object["from"] else { throw mf.fail("from", "missing") }
            guard let to = mf.object["to"] else { throw mf.fail("to", "missing") }
            return Move(id: try mf.string("id", maxLength: 256),
                        from: try place(from, path: "\(mf.path).from"), to: try place(to, path: "\(mf.path).to"))
        }
    }

    /// An `order` member: `[{"section", "items": [id…]}…]`.
    static func order(_ f: Fields) throws(WireError) -> [SectionOrder] {
        try f.array("order", max: 100_000).enumerated().map { (k, s) throws(WireError) in
            guard case .object = s else { throw f.fail("order[\(k)]", "expected an object") }
            let sf = Fields(object: s, path: "\(f.path).order[\(k)]")
            let items = try sf.strings("items", max: 1_000_000)
            var o = SectionOrder(section: try sf.string("section", maxLength: 256), items: items)
            if sf.has("parents") { o.parents = try parents(sf, count: items.count) }
            return o
        }
    }

    /// `mods` (optional): modifier keys, any of "shift", "ctrl", "meta", "alt", each once.
    static func mods(_ f: Fields) throws(WireError) -> Modifiers {
        guard f.has("mods") else { return [] }
        var m: Modifiers = []
        for v in try f.array("mods", max: 4) {
            guard case .string(let name) = v, let one = Modifiers(name: name), m.insert(one).inserted else {
                throw f.fail("mods", "expected distinct names of \"shift\", \"ctrl\", \"meta\", \"alt\"")
            }
        }
        return m
    }

    /// The most items a `group` change moves, and the most changes a `batch` holds.
    static let maxGroup = 1000

    /// A commit's `change`: `{"id", "section", "after", "index"}`, `{"swap": [x, y]}`,
    /// `{"group": [x, ...], "section", "after", "index"}`, `{"batch": [change, ...]}` (reorder
    /// changes only, not nested) or an edit.
    static func change(_ f: Fields, inBatch: Bool = false) throws(WireError) -> Change {
        if f.has("edit") {
            let e = try edit(f)
            if inBatch, !e.isItemEdit { throw f.fail("edit", "a batch holds reorder changes, or removeItem and addItem edits") }
            return e
        }
        if f.has("batch") {
            if inBatch { throw f.fail("batch", "a batch does not nest") }
            let changes = try f.array("batch", max: maxGroup).enumerated().map { (k, v) throws(WireError) in
                guard case .object = v else { throw f.fail("batch[\(k)]", "expected a change object, got \(v.typeName)") }
                return try change(Fields(object: v, path: "\(f.path).batch[\(k)]"), inBatch: true)
            }
            guard !changes.isEmpty else { throw f.fail("batch", "expected at least one change") }
            if changes.contains(where: \.isEdit) && !changes.allSatisfy(\.isItemEdit) {
                throw f.fail("batch", "a batch holds reorder changes or item edits, not both")
            }
            return .batch(changes)
        }
        if f.has("group") {
            var ids: [String] = []
            for v in try f.array("group", max: maxGroup) {
                guard case .string(let id) = v, !id.isEmpty, id.utf8.count <= 256, !ids.contains(id) else {
                    throw f.fail("group", "expected distinct item ids")
                }
                ids.append(id)
            }
            guard !ids.isEmpty else { throw f.fail("group", "expected at least one item id") }
            let (section, after, index) = try insertPlace(f)
            return .group(ids: ids, section: section, after: after, index: index)
        }
        if f.has("move") { return try move(f) }
        if f.has("swap") {
            let pair = try f.array("swap", max: 2)
            guard pair.count == 2, case .string(let x) = pair[0], case .string(let y) = pair[1], !x.isEmpty, !y.isEmpty else {
                throw f.fail("swap", "expected two item ids")
            }
            return .swap(x, y)
        }
        let id = try f.string("id", maxLength: 256)
        let (section, after, index) = try insertPlace(f)
        return .insert(id: id, section: section, after: after, index: index)
    }

    /// The `section`, `after` and `index` of an insert or a group.
    static func insertPlace(_ f: Fields) throws(WireError) -> (section: String, after: String?, index: Int) {
        let section = try f.string("section", maxLength: 256)
        let after = try f.idOrNull("after", null: "first in the section")
        let index = try f.optionalInt("index", in: 0...10_000_000) ?? 0
        return (section, after, index)
    }

    /// An edit change: `{"edit": KIND, ...}` (docs/protocol.md, "Edits").
    static func edit(_ f: Fields) throws(WireError) -> Change {
        func optionalID(_ key: String) throws(WireError) -> String? { try f.idOrNull(key, null: "first", what: "an id") }
        switch try f.string("edit", maxLength: 32) {
        case "addItem":
            // `parent` (trees): optional, absent as null.
            let parent = f.object["parent"] == nil ? nil : try optionalID("parent")
            return .addItem(try item(try f.object("item")), section: try f.string("section", maxLength: 256), after: try optionalID("after"),
                            parent: parent)
        case "removeItem":
            return .removeItem(try f.string("id", maxLength: 256))
        case "copyItem":
            return .copyItem(id: try f.string("id", maxLength: 256), as: try f.string("as", maxLength: 256),
                             section: try f.string("section", maxLength: 256), after: try optionalID("after"),
                             index: try f.int("index", in: 0...10_000_000),
                             parent: f.object["parent"] == nil ? nil : try optionalID("parent"))
        case "updateItem":
            var u = ItemUpdate(id: try f.string("id", maxLength: 256))
            if f.has("label") { u.label = try f.string("label", maxLength: 1024, allowEmpty: true) }
            if f.has("color") { u.color = try f.string("color", maxLength: 64, allowEmpty: true) }
            if f.has("height") { u.height = try f.number("height", above: 0, upTo: 1e6) }
            if f.has("movable") { u.movable = try f.bool("movable") }
            try decodeCardUpdate(f, into: &u)
            return .updateItem(u)
        case "addSection":
            let id = try f.string("id", maxLength: 256)
            let title = f.has("title") ? try f.string("title", maxLength: 1024, allowEmpty: true) : id
            return .addSection(id: id, title: title, after: try optionalID("after"))
        case "renameSection":
            return .renameSection(id: try f.string("id", maxLength: 256), title: try f.string("title", maxLength: 1024, allowEmpty: true))
        case "setSubtitle":
            let subtitle = try f.string("subtitle", maxLength: BoardLimits.maxSubtitleBytes, allowEmpty: true)
            return .setSubtitle(id: try f.string("id", maxLength: 256), subtitle: subtitle.isEmpty ? nil : subtitle)
        case "removeSection":
            return .removeSection(try f.string("id", maxLength: 256))
        default:
            throw f.fail("edit", "expected addItem, copyItem, removeItem, updateItem, addSection, renameSection, setSubtitle or removeSection")
        }
    }

    /// An item as a board file gives it (label defaults to the id; color to the palette).
    static func item(_ f: Fields) throws(WireError) -> Item {
        let id = try f.string("id", maxLength: 256)
        let label = f.has("label") ? try f.string("label", maxLength: 1024, allowEmpty: true) : id
        let color = f.has("color") ? try f.string("color", maxLength: 64, allowEmpty: true) : ""
        let height = f.has("height") ? try f.number("height", above: 0, upTo: 1e6) : nil
        let movable = f.has("movable") ? try f.bool("movable") : true
        let kind = f.has("kind") ? try f.string("kind", maxLength: 256) : nil
        return Item(id: id, label: label, color: color, height: height, movable: movable, kind: kind,
                    handle: try f.optionalChoice("handle", HandleEdge.self), card: try decodeCard(f))
    }
}
