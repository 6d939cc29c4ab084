import LiftboardCore

/// Issue 44: the `presence` message's members, written for the server's message and a
/// recording's input, and read back from a replay stream.
extension Wire {
    /// A `presence`'s members after `t` (also what a recording's `presence` input carries):
    /// `board`, `people` (each `session`, `user` (null for a guest), `name`, `color`, `role`,
    /// `holds`, `target` while holding: `{section, index}` and, on a tree board, `depth`),
    /// `watching`.
    public static func presenceBody(_ p: Presence, _ w: inout JSONWriter) {
        w.key("board"); w.string(p.board)
        w.key("people"); w.beginArray()
        for e in p.people {
            w.beginObject()
            w.key("session"); w.string(e.session)
            w.key("user")
            if let u = e.user { w.string(u) } else { w.null() }
            w.key("name"); w.string(e.name)
            w.key("color"); w.string(e.color)
            w.key("role"); w.string(e.role.rawValue)
            w.key("holds"); w.beginArray(); for id in e.holds { w.string(id) }; w.endArray()
            // A tree's target carries its depth (the page draws the marker at it).
            if let t = e.target { w.key("target"); target(t, &w) }
            w.endObject()
        }
        w.endArray()
        w.key("watching"); w.int(p.watching)
        if p.more > 0 { w.key("more"); w.int(p.more) }
    }

    private static func target(_ t: Place, _ w: inout JSONWriter) {
        w.beginObject()
        w.key("section"); w.string(t.section)
        w.key("index"); w.int(t.index)
        if let d = t.depth { w.key("depth"); w.int(d) }
        w.endObject()
    }

    /// A `presence` to a session that asked for differences (`config.presence: "delta"`), after
    /// `t`: `v`, then whole (`presenceBody`) or `base` and the changes: `board`, `changed`
    /// (each `session`, `at` and every member when added, else the members that changed; a
    /// `target` that only moved within its section as `{index}`, one gone as null; left out
    /// when empty), `gone` (sessions no longer listed; left out when empty), `watching` and
    /// `more` when they changed.
    public static func presenceDelta(_ d: PresenceDelta, _ w: inout JSONWriter) {
        w.key("v"); w.int(Int(d.v))
        guard let base = d.base else { return presenceBody(d.presence, &w) }
        w.key("base"); w.int(Int(base))
        w.key("board"); w.string(d.presence.board)
        if !d.changed.isEmpty {
            w.key("changed"); w.beginArray()
            for c in d.changed { change(c, of: d.presence.people[c.index], &w) }
            w.endArray()
        }
        if !d.gone.isEmpty { w.key("gone"); w.beginArray(); for s in d.gone { w.string(s) }; w.endArray() }
        if d.watchingChanged { w.key("watching"); w.int(d.presence.watching) }
        if d.moreChanged { w.key("more"); w.int(d.presence.more) }
    }

    private static func change(_ c: PresenceDelta.Change, of e: Presence.Entry, _ w: inout JSONWriter) {
        w.beginObject()
        w.key("session"); w.string(e.session)
        if c.added { w.key("at"); w.int(c.index) }
        if c.fields.contains(.user) {
            w.key("user")
            if let u = e.user { w.string(u) } else { w.null() }
        }
        if c.fields.contains(.name) { w.key("name"); w.string(e.name) }
        if c.fields.contains(.color) { w.key("color"); w.string(e.color) }
        if c.fields.contains(.role) { w.key("role"); w.string(e.role.rawValue) }
        if c.fields.contains(.holds) { w.key("holds"); w.beginArray(); for id in e.holds { w.string(id) }; w.endArray() }
        if c.fields.contains(.target) {
            // Added: only when it has one, as the whole presence lists it.
            if let t = e.target { w.key("target"); target(t, &w) } else if !c.added { w.key("target"); w.null() }
        } else if c.fields.contains(.targetIndex), let t = e.target {
            w.key("target"); w.beginObject(); w.key("index"); w.int(t.index); w.endObject()
        }
        w.endObject()
    }

    /// A `presence` input (issue 44): the members of the server's `presence` message.
    static func presence(_ f: Fields) throws(WireError) -> Presence {
        var people: [Presence.Entry] = []
        for (k, v) in try f.array("people", max: 10_000).enumerated() {
            guard case .object = v else { throw f.fail("people[\(k)]", "expected an object") }
            let pf = Fields(object: v, path: "\(f.path).people[\(k)]")
            let holds = try pf.strings("holds", max: 100_000)
            var user: String? = nil
            if let u = pf.object["user"], u != .null { user = try pf.string("user", maxLength: 256) }
            guard let role = Role(rawValue: try pf.string("role", maxLength: 8)) else {
                throw pf.fail("role", "expected \"view\", \"move\", \"edit\" or \"admin\"")
            }
            var target: Place? = nil
            if pf.has("target") {
                let tf = try pf.object("target")
                target = Place(section: try tf.string("section", maxLength: 256), index: try tf.int("index", in: 0...Int(Int32.max)))
                target?.depth = try tf.optionalInt("depth", in: 0...32)
            }
            people.append(Presence.Entry(session: try pf.string("session", maxLength: 256), user: user,
                                         name: try pf.string("name", maxLength: 256), color: try pf.string("color", maxLength: 32),
                                         role: role, holds: holds, target: target))
        }
        return Presence(board: try f.string("board", maxLength: 256), people: people,
                        watching: try f.int("watching", in: 0...Int(Int32.max)),
                        more: try f.optionalInt("more", in: 0...Int(Int32.max)) ?? 0)
    }
}

/// Issue 44: a frame cell's `heldBy` (`Wire.cells` writes it).
extension Wire {
    /// Whether a cell sends `heldBy`: its update's own (a change), or its attributes'.
    @inline(__always)
    static func sendsHeldBy(_ c: UnsafePointer<CellUpdate>, _ info: UnsafePointer<CellInfo?>?) -> Bool {
        if case .some = c.pointee.heldBy { return true }
        guard let i = info, case .some = i.pointee.unsafelyUnwrapped.heldBy else { return false }
        return true
    }

    /// The name a cell sends as `heldBy` (nil: released), where `sendsHeldBy`.
    @inline(never)
    static func heldBy(_ c: UnsafePointer<CellUpdate>, _ info: UnsafePointer<CellInfo?>?) -> String? {
        if case .some(let name) = c.pointee.heldBy { return name }
        return info?.pointee.unsafelyUnwrapped.heldBy
    }

    /// `,"heldBy":` and the name or `null`.
    @inline(never)
    static func heldByMember(_ c: UnsafePointer<CellUpdate>, _ info: UnsafePointer<CellInfo?>?, _ o: inout ByteCursor) {
        o.put(#","heldBy":"#)
        if let name = heldBy(c, info) { o.string(name) } else { o.put("null") }
    }
}
