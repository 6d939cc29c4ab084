import LiftboardCore

extension Wire {
    /// Encodes one server message as one line of JSON (no newline). `line` is added to
    /// `error` messages in a replay; `commitOrder` `.none` leaves `order` out of commits (a
    /// client that asked for changes only).
    public static func encode(_ event: ServerEvent, line: Int? = nil, commitOrder: CommitOrderMode = .full) -> [UInt8] {
        var out: [UInt8] = []
        encode(event, line: line, commitOrder: commitOrder, into: &out)
        return out
    }

    /// Appends one server message to `out`: the server's hot path reuses one buffer.
    public static func encode(_ event: ServerEvent, line: Int? = nil, commitOrder: CommitOrderMode = .full,
                              into out: inout [UInt8]) {
        var w = JSONWriter(into: out)
        out = []
        message(event, line: line, commitOrder: commitOrder, &w)
        out = w.takeBytes()
    }

    /// One server message as a JSON object (also each of a frame's inline `events`).
    static func message(_ event: ServerEvent, line: Int?, commitOrder: CommitOrderMode, _ w: inout JSONWriter) {
        w.beginObject()
        switch event {
        case .welcome(let m):
            w.key("t"); w.literal("welcome")
            w.key("v"); w.int(m.v)
            w.key("session"); w.string(m.session)
            w.key("board"); w.string(m.board)
            w.key("config"); config(m.config, &w)
        case .layout(let m):
            w.key("t"); w.literal("layout")
            if m.columns { w.key("layout"); w.literal("columns") }
            w.key("version"); w.int(m.version)
            w.key("content"); size(m.content, &w)
            w.key("scroll"); point(m.scroll, &w)
            w.key("sections"); sections(m.sections, &w)
            w.key("cells"); w.beginArray()
            for c in m.cells { cellInfo(c, &w, open: true) }
            w.endArray()
            if !m.snapshots.isEmpty {
                w.key("snapshots"); w.beginArray()
                for s in m.snapshots { snapshot(s, &w) }
                w.endArray()
            }
        case .frame(let f):
            frame(f, commitOrder: commitOrder, &w)
        case .lift(let p, let id, let from, let follow, let added):
            w.member(#""t":"lift","p":"#, int: p)
            w.member(#""id":"#, id)
            w.member(#""from":{"section":"#, from.section); w.member(#""index":"#, int: from.index); w.raw("}")
            if let follow {
                w.member(#""grab":{"x":"#, follow.grab.x); w.member(#""y":"#, follow.grab.y); w.raw("}")
                w.member(#""axis":"#, literal: follow.lockX ? "y" : "xy")
            }
            if added { w.member(#""added":"#, bool: true) }
        case .moved(let p, let id, let from, let to):
            w.member(#""t":"moved","p":"#, int: p)
            w.member(#""id":"#, id)
            w.member(#""from":{"section":"#, from.section); w.member(#""index":"#, int: from.index); w.raw("}")
            w.member(#""to":{"section":"#, to.section); w.member(#""index":"#, int: to.index); w.raw("}")
        case .drop(let p, let id, let at, let cancelled):
            w.member(#""t":"drop","p":"#, int: p)
            w.member(#""id":"#, id)
            w.member(#""at":{"section":"#, at.section); w.member(#""index":"#, int: at.index); w.raw("}")
            w.member(#""cancelled":"#, bool: cancelled)
        case .commit(let c), .persist(let c):
            w.key("t"); w.literal("commit")
            commitBody(c, withOrder: commitOrder == .full, &w)
        case .announce(let text):
            w.key("t"); w.literal("announce")
            w.key("text"); w.string(text)
        case .error(let code, let message):
            w.key("t"); w.literal("error")
            w.key("code"); w.string(code.rawValue)
            w.key("message"); w.string(message)
            if let line { w.key("line"); w.int(line) }
        case .pong(let id, let ms):
            w.key("t"); w.literal("pong")
            w.key("id")
            switch id {
            case .int(let i): w.int(i)
            case .string(let s): w.string(s)
            }
            w.key("ms"); w.number(ms)
        }
        w.endObject()
    }

    /// A commit's members after `t` (also what `external` carries as `commit`).
    public static func commitBody(_ c: Commit, withOrder: Bool = true, _ w: inout JSONWriter) {
        w.key("board"); w.string(c.board)
        w.key("version"); w.int(c.version)
        w.key("by"); w.string(c.by)
        w.key("moves"); moves(c.moves, &w)
        if let change = c.change { w.key("change"); self.change(change, &w) }
        if withOrder { w.key("order"); order(c.order, &w) }
    }

    /// `[{"id", "from": {"section", "index"}, "to": {…}}…]`.
    static func moves(_ list: [Move], _ w: inout JSONWriter) {
        w.beginArray()
        for m in list {
            w.beginObject()
            w.key("id"); w.string(m.id)
            w.key("from"); place(m.from, &w)
            w.key("to"); place(m.to, &w)
            w.endObject()
        }
        w.endArray()
    }

    /// `{"id", "section", "after", "index"}` (`after` null: first in the section),
    /// `{"swap": [x, y]}`, `{"group": [x, ...], "section", "after", "index"}`,
    /// `{"batch": [change, ...]}` or an edit (`{"edit": KIND, ...}`).
    static func change(_ c: Change, _ w: inout JSONWriter) {
        w.beginObject()
        switch c {
        case .insert(let id, let section, let after, let index):
            w.key("id"); w.string(id)
            w.key("section"); w.string(section)
            w.key("after")
            if let after { w.string(after) } else { w.null() }
            w.key("index"); w.int(index)
        case .swap(let x, let y):
            w.key("swap"); w.beginArray(); w.string(x); w.string(y); w.endArray()
        case .group(let ids, let section, let after, let index):
            w.key("group"); w.beginArray(); for id in ids { w.string(id) }; w.endArray()
            w.key("section"); w.string(section)
            w.key("after")
            if let after { w.string(after) } else { w.null() }
            w.key("index"); w.int(index)
        case .batch(let changes):
            w.key("batch"); w.beginArray(); for c in changes { change(c, &w) }; w.endArray()
        case .addItem(let item, let section, let after):
            w.key("edit"); w.literal("addItem")
            w.key("item"); self.item(item, &w)
            w.key("section"); w.string(section)
            w.key("after")
            if let after { w.string(after) } else { w.null() }
        case .removeItem(let id):
            w.key("edit"); w.literal("removeItem")
            w.key("id"); w.string(id)
        case .copyItem(let id, let new, let section, let after, let index):
            w.key("edit"); w.literal("copyItem")
            w.key("id"); w.string(id)
            w.key("as"); w.string(new)
            w.key("section"); w.string(section)
            w.key("after")
            if let after { w.string(after) } else { w.null() }
            w.key("index"); w.int(index)
        case .updateItem(let u):
            w.key("edit"); w.literal("updateItem")
            w.key("id"); w.string(u.id)
            if let v = u.label { w.key("label"); w.string(v) }
            if let v = u.color { w.key("color"); w.string(v) }
            if let v = u.height { w.key("height"); w.number(v) }
            if let v = u.movable { w.key("movable"); w.bool(v) }
            if let v = u.detail { w.key("detail"); w.string(v) }
            if let v = u.image { w.key("image"); w.string(v) }
            if let v = u.badge { w.key("badge"); w.string(v) }
            if let v = u.tags { w.key("tags"); tags(v, &w) }
            if let v = u.accent { w.key("accent"); w.string(v) }
        case .addSection(let id, let title, let after):
            w.key("edit"); w.literal("addSection")
            w.key("id"); w.string(id)
            w.key("title"); w.string(title)
            w.key("after")
            if let after { w.string(after) } else { w.null() }
        case .renameSection(let id, let title):
            w.key("edit"); w.literal("renameSection")
            w.key("id"); w.string(id)
            w.key("title"); w.string(title)
        case .setSubtitle(let id, let subtitle):
            w.key("edit"); w.literal("setSubtitle")
            w.key("id"); w.string(id)
            w.key("subtitle"); w.string(subtitle ?? "")
        case .removeSection(let id):
            w.key("edit"); w.literal("removeSection")
            w.key("id"); w.string(id)
        }
        w.endObject()
    }

    /// An item as a board file writes it.
    static func item(_ i: Item, _ w: inout JSONWriter) {
        w.beginObject()
        w.key("id"); w.string(i.id)
        w.key("label"); w.string(i.label)
        if !i.color.isEmpty { w.key("color"); w.string(i.color) }
        if let h = i.height { w.key("height"); w.number(h) }
        w.key("movable"); w.bool(i.movable)
        if let k = i.kind { w.key("kind"); w.string(k) }
        if let h = i.handle { w.key("handle"); w.string(h.rawValue) }
        cardMembers(i.card, &w)
        w.endObject()
    }

    /// An order, as commits and `GET /api/boards/{id}` carry it.
    /// A replay stream's `resync` line: the session's committed order became `order` at
    /// `version` (what `--record` writes where the live hub resynced the session).
    public static func encodeResyncLine(version: Int, order: [SectionOrder], ms: Double) -> [UInt8] {
        orderLine("resync", version: version, order: order, ms: ms)
    }

    /// A replay stream's `rebase` line: the session's committed order went back to `order` at
    /// `version`, with nothing sent, before the `external` lines that follow it (what `--record`
    /// writes where the live hub told a rebase as commits).
    public static func encodeRebaseLine(version: Int, order: [SectionOrder], ms: Double) -> [UInt8] {
        orderLine("rebase", version: version, order: order, ms: ms)
    }

    private static func orderLine(_ type: String, version: Int, order: [SectionOrder], ms: Double) -> [UInt8] {
        var w = JSONWriter()
        w.beginObject()
        w.key("t"); w.string(type)
        w.key("version"); w.int(version)
        w.key("order"); self.order(order, &w)
        w.key("ms"); w.number(ms)
        w.endObject()
        return w.bytes
    }

    static func order(_ order: [SectionOrder], _ w: inout JSONWriter) {
        w.beginArray()
        for s in order {
            w.beginObject()
            w.key("section"); w.string(s.section)
            w.key("items"); w.beginArray()
            for i in s.items { w.string(i) }
            w.endArray()
            w.endObject()
        }
        w.endArray()
    }

    // Frames are most of what the server writes: each member is written whole (its name and
    // value in one piece), and the small fixed objects (points, sizes, rects) inline, opened by
    // their member's name and closed verbatim. The bytes are those of the piece-by-piece form.

    static func frame(_ f: FrameMessage, commitOrder: CommitOrderMode = .full, _ w: inout JSONWriter) {
        w.member(#""t":"frame","seq":"#, int: f.seq)
        w.member(#""ms":"#, f.ms)
        if let ack = f.ack { w.member(#""ack":"#, int: ack) }
        if !f.events.isEmpty {
            // `hello.config.events: "inline"`: this input's lift, moved and drop, in order.
            w.member(#""events":"#); w.beginArray()
            for e in f.events { message(e, line: nil, commitOrder: .full, &w) }
            w.endArray()
        }
        if let s = f.scroll { w.member(#""scroll":{"x":"#, s.x); w.member(#""y":"#, s.y); w.raw("}") }
        if let d = f.scrollDur { w.member(#""scrollDur":"#, d) }
        if let c = f.content { w.member(#""content":{"w":"#, c.w); w.member(#""h":"#, c.h); w.raw("}") }
        if let s = f.sections { w.key("sections"); sections(s, &w) }
        if !f.cells.isEmpty {
            w.member(#""cells":"#); w.beginArray()
            for c in f.cells {
                w.beginObject()
                w.member(#""id":"#, c.id)
                w.member(#""frame":{"x":"#, c.frame.x); w.member(#""y":"#, c.frame.y)
                w.member(#""w":"#, c.frame.w); w.member(#""h":"#, c.frame.h); w.raw("}")
                w.member(#""alpha":"#, c.alpha)
                w.member(#""hidden":"#, bool: c.hidden)
                w.member(#""dur":"#, c.dur)
                w.member(#""ease":"#, literal: easeName(c.ease))
                if c.appear { w.member(#""appear":"#, bool: true) }
                if let s = c.selected { w.member(#""selected":"#, bool: s) }
                if let i = c.info {
                    w.member(#""label":"#, i.label)
                    w.member(#""color":"#, i.color)
                    w.member(#""section":"#, i.section)
                    w.member(#""index":"#, int: i.index)
                    w.member(#""movable":"#, bool: i.movable)
                    if let h = i.handle { w.member(#""handle":"#, h.rawValue) }
                    if !i.card.isEmpty { cardMembers(i.card, &w) }
                }
                w.endObject()
            }
            w.endArray()
        }
        if !f.gone.isEmpty {
            w.key("gone"); w.beginArray()
            for g in f.gone { w.string(g) }
            w.endArray()
        }
        if !f.removed.isEmpty {
            w.key("removed"); w.beginArray()
            for g in f.removed { w.string(g) }
            w.endArray()
            w.key("removeDur"); w.number(f.removeDur)
        }
        if !f.snapshots.isEmpty {
            w.member(#""snapshots":"#); w.beginArray()
            for s in f.snapshots { snapshot(s, &w) }
            w.endArray()
        }
        if let focus = f.focus { w.key("focus"); w.string(focus) }
        // `hello.config.commits: "inline"`: the commit from elsewhere this frame animates, last
        // (read after the frame's changes, as the contract orders a frame and its commit).
        if let c = f.commit { w.key("commit"); message(.commit(c), line: nil, commitOrder: commitOrder, &w) }
    }

    static func snapshot(_ s: SnapshotUpdate, _ w: inout JSONWriter) {
        w.beginObject()
        w.member(#""p":"#, int: s.p)
        w.member(#""id":"#, s.id)
        if let c = s.center { w.member(#""center":{"x":"#, c.x); w.member(#""y":"#, c.y); w.raw("}") }
        if let z = s.size { w.member(#""size":{"w":"#, z.w); w.member(#""h":"#, z.h); w.raw("}") }
        if let v = s.moveDur { w.member(#""moveDur":"#, v) }
        if let v = s.scale { w.member(#""scale":"#, v) }
        if let v = s.rotation { w.member(#""rotation":"#, v) }
        if let v = s.alpha { w.member(#""alpha":"#, v) }
        if let v = s.dur { w.member(#""dur":"#, v) }
        if let v = s.ease { w.member(#""ease":"#, literal: easeName(v)) }
        if let v = s.count { w.member(#""count":"#, int: v) }
        if let v = s.forbidden { w.member(#""forbidden":"#, bool: v) }
        w.member(#""done":"#, bool: s.done)
        w.endObject()
    }

    static func cellInfo(_ c: CellInfo, _ w: inout JSONWriter, open: Bool) {
        w.beginObject()
        w.key("id"); w.string(c.id)
        w.key("label"); w.string(c.label)
        w.key("color"); w.string(c.color)
        w.key("section"); w.string(c.section)
        w.key("index"); w.int(c.index)
        w.key("movable"); w.bool(c.movable)
        w.key("frame"); rect(c.frame, &w)
        if c.hidden { w.key("hidden"); w.bool(true) }
        if c.selected { w.key("selected"); w.bool(true) }
        if let h = c.handle { w.key("handle"); w.string(h.rawValue) }
        cardMembers(c.card, &w)
        w.endObject()
    }

    static func sections(_ list: [SectionInfo], _ w: inout JSONWriter) {
        w.beginArray()
        for s in list {
            w.beginObject()
            w.key("id"); w.string(s.id)
            w.key("title"); w.string(s.title)
            w.key("frame"); rect(s.frame, &w)
            w.key("header"); w.number(s.header)
            if let slot = s.slot { w.key("slot"); rect(slot, &w) }
            if let scroll = s.scroll { w.key("scroll"); w.number(scroll) }
            if let h = s.contentHeight { w.key("contentHeight"); w.number(h) }
            if let sub = s.subtitle { w.key("subtitle"); w.string(sub) }
            w.key("count"); w.int(s.count)
            w.endObject()
        }
        w.endArray()
    }

    static func config(_ c: SessionConfig, _ w: inout JSONWriter) {
        w.beginObject()
        w.key("pressMs"); w.number(c.pressMs)
        w.key("allowableMovement"); w.number(c.allowableMovement)
        w.key("mode"); w.string(c.mode.rawValue)
        w.key("edgeScrollRange"); w.number(c.edgeScrollRange)
        w.key("edgeScrollSpeed"); w.number(c.edgeScrollSpeed)
        w.key("liftScale"); w.number(c.liftScale)
        w.key("liftRotation"); w.number(c.liftRotation)
        w.key("liftAlpha"); w.number(c.liftAlpha)
        w.key("liftMs"); w.number(c.liftMs)
        w.key("shiftMs"); w.number(c.shiftMs)
        w.key("dropMs"); w.number(c.dropMs)
        w.key("idleResetMs"); w.number(c.idleResetMs)
        w.key("reducedMotion"); w.bool(c.reducedMotion)
        w.key("commitOrder"); w.string(c.commitOrder.rawValue)
        // Only when asked for, so that the default welcome stays as the contract shows it.
        if c.events != .separate { w.key("events"); w.string(c.events.rawValue) }
        if c.follow != .every { w.key("follow"); w.string(c.follow.rawValue) }
        if c.commits != .separate { w.key("commits"); w.string(c.commits.rawValue) }
        w.endObject()
    }

    /// An ease's name, as a literal (its `rawValue` would make a String each time).
    static func easeName(_ e: Ease) -> StaticString {
        switch e {
        case .linear: "linear"
        case .easeOut: "easeOut"
        case .easeInOut: "easeInOut"
        }
    }

    static func place(_ p: Place, _ w: inout JSONWriter) {
        w.beginObject()
        w.key("section"); w.string(p.section)
        w.key("index"); w.int(p.index)
        w.endObject()
    }

    static func point(_ p: Point, _ w: inout JSONWriter) {
        w.beginObject(); w.key("x"); w.number(p.x); w.key("y"); w.number(p.y); w.endObject()
    }

    static func size(_ s: Size, _ w: inout JSONWriter) {
        w.beginObject(); w.key("w"); w.number(s.w); w.key("h"); w.number(s.h); w.endObject()
    }

    static func rect(_ r: Rect, _ w: inout JSONWriter) {
        w.beginObject()
        w.key("x"); w.number(r.x); w.key("y"); w.number(r.y); w.key("w"); w.number(r.w); w.key("h"); w.number(r.h)
        w.endObject()
    }
}
