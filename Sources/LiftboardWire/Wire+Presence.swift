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
            if let t = e.target {
                // A tree's target carries its depth (the page draws the marker at it).
                w.key("target"); w.beginObject()
                w.key("section"); w.string(t.section)
                w.key("index"); w.int(t.index)
                if let d = t.depth { w.key("depth"); w.int(d) }
                w.endObject()
            }
            w.endObject()
        }
        w.endArray()
        w.key("watching"); w.int(p.watching)
        if p.more > 0 { w.key("more"); w.int(p.more) }
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
