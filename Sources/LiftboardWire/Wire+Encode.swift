// Over 500 lines on purpose: every server message's encoder in one file, the fast pieces of a
// frame (cells, snapshots, events written through one cursor each) beside the plain writer
// calls they must equal byte for byte.
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
        let end = JSONWriter.write(over: &out, from: out.count) {
            message(event, line: line, commitOrder: commitOrder, &$0)
        }
        out.removeSubrange(end...)
    }

    /// Writes one server message into `buffer` from `start`, over whatever lies there, and
    /// returns where it ends; the bytes past the end are left as they are (room for the next
    /// message, not made again).
    public static func encode(_ event: ServerEvent, commitOrder: CommitOrderMode = .full, over buffer: inout [UInt8],
                              from start: Int) -> Int {
        JSONWriter.write(over: &buffer, from: start) { message(event, line: nil, commitOrder: commitOrder, &$0) }
    }

    /// One server message as a JSON object (also each of a frame's inline `events`).
    static func message(_ event: ServerEvent, line: Int?, commitOrder: CommitOrderMode, _ w: inout JSONWriter) {
        // `lift`, `moved` and `drop` are written whole, as inside a frame's `events`.
        if gestureEvent(event, &w) { return }
        w.beginObject()
        switch event {
        case .welcome(let m):
            w.key("t"); w.literal("welcome")
            w.key("v"); w.int(m.v)
            w.key("session"); w.string(m.session)
            w.key("board"); w.string(m.board)
            w.key("config"); config(m.config, springMs: m.tree ? m.config.springMs : nil, &w)
        case .layout(let m):
            w.key("t"); w.literal("layout")
            if let kind = m.layout { w.key("layout"); w.string(kind.rawValue) }
            if let i = m.treeIndent { w.key("tree"); w.beginObject(); w.key("indent"); w.number(i); w.endObject() }
            w.key("version"); w.int(m.version)
            w.member(#""content":{"w":"#, m.content.w); w.member(#""h":"#, m.content.h); w.raw("}")  // as a frame's
            w.member(#""scroll":{"x":"#, m.scroll.x); w.member(#""y":"#, m.scroll.y); w.raw("}")
            w.key("sections"); sections(m.sections, &w)
            w.key("cells"); w.array(m.cells, cellInfo)
            if !m.snapshots.isEmpty { w.key("snapshots"); w.array(m.snapshots, snapshot) }
        case .frame(let f):
            frame(f, commitOrder: commitOrder, &w)
        case .lift, .moved, .drop:
            break  // written by `gestureEvent` above
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
        case .presence(let p):
            w.key("t"); w.literal("presence")
            presenceBody(p, &w)
        case .presenceDelta(let d):
            w.key("t"); w.literal("presence"); presenceDelta(d, &w)
        }
        w.endObject()
    }

    /// A commit's members after `t` (also what `external` carries as `commit`).
    public static func commitBody(_ c: Commit, withOrder: Bool = true, _ w: inout JSONWriter) {
        w.key("board"); w.string(c.board)
        w.key("version"); w.int(c.version)
        w.key("by"); w.string(c.by)
        if let user = c.user { w.key("user"); w.string(user) }  // issue 42: only a signed commit has them
        if let name = c.name { w.key("name"); w.string(name) }
        w.key("moves"); moves(c.moves, &w)
        if let change = c.change { w.key("change"); self.change(change, &w) }
        if withOrder { w.key("order"); order(c.order, &w) }
    }

    /// `[{"id", "from": {"section", "index"}, "to": {…}}…]`.
    static func moves(_ list: [Move], _ w: inout JSONWriter) {
        w.array(list) { m, w in
            w.beginObject()
            w.key("id"); w.string(m.id)
            w.key("from"); place(m.from, &w)
            w.key("to"); place(m.to, &w)
            w.endObject()
        }
    }

    /// `{"id", "section", "after", "index"}` (`after` null: first in the section),
    /// `{"swap": [x, y]}`, `{"group": [x, ...], "section", "after", "index"}`,
    /// `{"batch": [change, ...]}` or an edit (`{"edit": KIND, ...}`).
    static func change(_ c: Change, _ w: inout JSONWriter) {
        w.beginObject()
        switch c {
        case .insert(let id, let section, let after, let index):
            w.key("id"); w.string(id)
            at(section, after: after, index: index, &w)
        case .swap(let x, let y):
            w.key("swap"); w.beginArray(); w.string(x); w.string(y); w.endArray()
        case .group(let ids, let section, let after, let index):
            w.key("group"); w.array(ids) { $1.string($0) }
            at(section, after: after, index: index, &w)
        case .batch(let changes):
            w.key("batch"); w.beginArray(); for c in changes { change(c, &w) }; w.endArray()
        case .move(let id, let section, let parent, let after, let index):
            move(id, section: section, parent: parent, after: after, index: index, &w)
        case .addItem(let item, let section, let after, let parent):
            w.key("edit"); w.literal("addItem")
            w.key("item"); self.item(item, &w)
            at(section, after: after, index: nil, &w)
            if let parent { w.key("parent"); w.string(parent) }
        case .removeItem(let id):
            edit("removeItem", id: id, &w)
        case .copyItem(let id, let new, let section, let after, let index, let parent):
            edit("copyItem", id: id, &w)
            w.key("as"); w.string(new)
            at(section, after: after, index: index, &w)
            if let parent { w.key("parent"); w.string(parent) }
        case .updateItem(let u):
            edit("updateItem", id: u.id, &w)
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
            edit("addSection", id: id, &w)
            w.key("title"); w.string(title)
            w.key("after"); w.string(orNull: after)
        case .renameSection(let id, let title):
            edit("renameSection", id: id, &w)
            w.key("title"); w.string(title)
        case .setSubtitle(let id, let subtitle):
            edit("setSubtitle", id: id, &w)
            w.key("subtitle"); w.string(subtitle ?? "")
        case .removeSection(let id):
            edit("removeSection", id: id, &w)
        }
        w.endObject()
    }

    /// `"section":S,"after":A` (`after` null: first in the section) and, when given, `"index":I`.
    static func at(_ section: String, after: String?, index: Int?, _ w: inout JSONWriter) {
        w.key("section"); w.string(section); w.key("after"); w.string(orNull: after)
        if let index { w.key("index"); w.int(index) }
    }

    /// An edit's first members, `"edit":KIND,"id":ID` (all but `addItem`'s, which has no `id`).
    static func edit(_ kind: StaticString, id: String, _ w: inout JSONWriter) {
        w.key("edit"); w.literal(kind); w.key("id"); w.string(id)
    }

    /// An item as a board file writes it (`color` left out when empty, but for `everyColor`:
    /// a board as `GET /api/boards/{id}` returns it).
    /// `opensChildren`: the item's `children` array is left open for its children (a tree
    /// board's writer closes it).
    static func item(_ i: Item, everyColor: Bool = false, opensChildren: Bool = false, _ w: inout JSONWriter) {
        w.beginObject()
        w.key("id"); w.string(i.id)
        w.key("label"); w.string(i.label)
        if everyColor || !i.color.isEmpty { w.key("color"); w.string(i.color) }
        if let h = i.height { w.key("height"); w.number(h) }
        w.key("movable"); w.bool(i.movable)
        if let k = i.kind { w.key("kind"); w.string(k) }
        if let h = i.handle { w.key("handle"); w.string(h.rawValue) }
        cardMembers(i.card, &w)
        treeMembers(i, &w)
        if opensChildren { w.key("children"); w.beginArray() } else { w.endObject() }
    }

    /// A replay stream's `resync` or `rebase` line (`type`), as `--record` writes them: where the
    /// live hub resynced the session (its committed order became `order` at `version`), and where
    /// it told a rebase as commits (the order went back to `order` at `version`, with nothing
    /// sent, before the `external` lines that follow it).
    public static func encodeOrderLine(_ type: String, version: Int, order: [SectionOrder], ms: Double) -> [UInt8] {
        var w = JSONWriter()
        w.beginObject()
        w.key("t"); w.string(type)
        w.key("version"); w.int(version)
        w.key("order"); self.order(order, &w)
        w.key("ms"); w.number(ms)
        w.endObject()
        return w.bytes
    }

    /// Each section in one piece (one check for room, no separator bookkeeping per item): a
    /// commit carries the whole order, every item's id.
    static func order(_ order: [SectionOrder], _ w: inout JSONWriter) {
        w.beginArray()
        for s in order {
            var bound = PieceBound.section &+ ByteCursor.bound(s.section)
            for i in s.items { bound &+= 1 &+ ByteCursor.bound(i) }
            if let ps = s.parents { bound &+= 12; for p in ps { bound &+= 5 &+ (p.map(ByteCursor.bound) ?? 0) } }
            w.pieces(bound: bound) { o in
                o.put(#"{"section":"#); o.string(s.section)
                o.put(#","items":["#)
                for k in s.items.indices {
                    if k > 0 { o.byte(UInt8(ascii: ",")) }
                    o.string(s.items[k])
                }
                if let ps = s.parents { parents(ps, &o) }
                o.put("]}")
            }
        }
        w.endArray()
    }

    // Frames are most of what the server writes: each member is written whole (its name and
    // value in one piece), and the small fixed objects (points, sizes, rects) inline, opened by
    // their member's name and closed verbatim. The bytes are those of the piece-by-piece form.

    static func frame(_ f: FrameMessage, commitOrder: CommitOrderMode = .full, _ w: inout JSONWriter) {
        // Read here: a closure that captured `f` needed it in memory, a copy of the whole frame
        // (its arrays retained and released); so did a getter of its rare members (`f.rare`).
        frameHead(seq: f.seq, ms: f.ms, ack: f.ack, &w)
        if !f.events.isEmpty {
            // `hello.config.events: "inline"`: this input's lift, moved and drop, in order.
            w.member(#""events":"#); w.beginArray()
            for e in f.events where !gestureEvent(e, &w) { message(e, line: nil, commitOrder: .full, &w) }
            w.endArray()
        }
        if let s = f.scroll { w.member(#""scroll":{"x":"#, s.x); w.member(#""y":"#, s.y); w.raw("}") }
        if let d = f.scrollDur { w.member(#""scrollDur":"#, d) }
        if let c = f.content { w.member(#""content":{"w":"#, c.w); w.member(#""h":"#, c.h); w.raw("}") }
        if let s = f.rare?.sections { w.key("sections"); sections(s, &w) }
        if !f.cells.isEmpty { cells(f.cells, &w) }
        if let g = f.rare?.gone, !g.isEmpty { w.key("gone"); w.array(g) { $1.string($0) } }
        if let r = f.rare?.removed, !r.isEmpty {
            w.key("removed"); w.array(r) { $1.string($0) }; w.key("removeDur"); w.number(f.removeDur)
        }
        if !f.snapshots.isEmpty { snapshots(f.snapshots, &w) }
        if let focus = f.rare?.focus { w.key("focus"); w.string(focus) }
        // `hello.config.commits: "inline"`: the commit from elsewhere this frame animates, last
        // (read after the frame's changes, as the contract orders a frame and its commit).
        if let c = f.rare?.commit { w.key("commit"); message(.commit(c), line: nil, commitOrder: commitOrder, &w) }
    }

    /// A frame's first members, `"t":"frame","seq":N,"ms":M[,"ack":A]`.
    static func frameHead(seq: Int, ms: Double, ack: Int?, _ w: inout JSONWriter) {
        w.pieces(bound: PieceBound.frameHead) { o in
            o.put(#""t":"frame","seq":"#); o.int(seq)
            o.put(#","ms":"#); o.number(ms)
            if let ack { o.put(#","ack":"#); o.int(ack) }
        }
    }

    /// `{"t":"frame","seq":N,"ms":M[,"ack":A]` appended to `buffer`: a frame's bytes up to its
    /// `ms` (and `ack`), which a server's watchers of one view do not share (`frame`'s own head).
    public static func appendFrameHead(seq: Int, ms: Double, ack: Int?, to buffer: inout [UInt8]) {
        let end = frameHead(seq: seq, ms: ms, ack: ack, over: &buffer, from: buffer.count)
        buffer.removeSubrange(end...)
    }

    /// `appendFrameHead` written into `buffer` from `start`, over whatever lies there (as
    /// `encode(_:commitOrder:over:from:)` writes): returns where it ends.
    public static func frameHead(seq: Int, ms: Double, ack: Int?, over buffer: inout [UInt8], from start: Int) -> Int {
        JSONWriter.write(over: &buffer, from: start) { w in w.beginObject(); frameHead(seq: seq, ms: ms, ack: ack, &w) }
    }

    static func snapshot(_ s: SnapshotUpdate, _ w: inout JSONWriter) {
        withUnsafePointer(to: s) { s in w.pieces(bound: snapshotBound(s)) { snapshot(s, &$0) } }
    }

    // The fast encoders read each update in place, through a pointer: `for s in list`, or
    // passing `list[k]` on, copied the whole update first (its strings retained and released).

    /// `,"snapshots":[…]`, in one piece.
    static func snapshots(_ list: [SnapshotUpdate], _ w: inout JSONWriter) {
        list.withUnsafeBufferPointer { list in
            var bound = PieceBound.snapshots
            for k in list.indices { bound &+= snapshotBound(list.baseAddress! + k) &+ 1 }
            w.pieces(bound: bound) { o in
                o.put(#""snapshots":["#)
                for k in list.indices {
                    if k > 0 { o.byte(UInt8(ascii: ",")) }
                    snapshot(list.baseAddress! + k, &o)
                }
                o.byte(UInt8(ascii: "]"))
            }
        }
    }

    /// At most what `snapshot` writes (`PieceBound.snapshot`, a tree's `subtree`, and its id).
    @inline(__always)
    static func snapshotBound(_ s: UnsafePointer<SnapshotUpdate>) -> Int {
        PieceBound.snapshot &+ PieceBound.subtree &+ ByteCursor.bound(s.pointee.id)
    }

    @inline(__always)
    static func snapshot(_ s: UnsafePointer<SnapshotUpdate>, _ o: inout ByteCursor) {
        o.put(#"{"p":"#); o.int(s.pointee.p)
        o.put(#","id":"#); o.string(s.pointee.id)
        if let c = s.pointee.center { o.put(#","center":{"x":"#); o.number(c.x); o.put(#","y":"#); o.number(c.y); o.byte(UInt8(ascii: "}")) }
        if let z = s.pointee.size { o.put(#","size":{"w":"#); o.number(z.w); o.put(#","h":"#); o.number(z.h); o.byte(UInt8(ascii: "}")) }
        if let v = s.pointee.moveDur { o.put(#","moveDur":"#); o.number(v) }
        if let v = s.pointee.scale { o.put(#","scale":"#); o.number(v) }
        if let v = s.pointee.rotation { o.put(#","rotation":"#); o.number(v) }
        if let v = s.pointee.alpha { o.put(#","alpha":"#); o.number(v) }
        if let v = s.pointee.dur { o.put(#","dur":"#); o.number(v) }
        if let v = s.pointee.ease { o.put(#","ease":"#); ease(v, &o) }
        if let v = s.pointee.count { o.put(#","count":"#); o.int(v) }
        if let v = s.pointee.forbidden { o.put(#","forbidden":"#); o.bool(v) }
        if let v = s.pointee.subtree { o.put(#","subtree":"#); o.int(v) }
        if s.pointee.done { o.put(#","done":true}"#) } else { o.put(#","done":false}"#) }
    }

    /// `"linear"`, `"easeOut"` or `"easeInOut"`, quotes included.
    @inline(__always)
    static func ease(_ e: Ease, _ o: inout ByteCursor) {
        switch e {
        case .linear: o.put(#""linear""#)
        case .easeOut: o.put(#""easeOut""#)
        case .easeInOut: o.put(#""easeInOut""#)
        }
    }

    /// `,"cells":[…]`: each cell in one piece, read in place through the array's buffer (a
    /// cell's attributes bound as a value, `if let info`, were copied whole: their strings and
    /// card retained and released).
    static func cells(_ list: [CellUpdate], _ w: inout JSONWriter) {
        w.member(#""cells":"#)
        w.beginArray()
        list.withUnsafeBufferPointer { cells in
            for k in cells.indices {
                let c = cells.baseAddress! + k
                let info = infoPointer(c)
                var bound = PieceBound.cell &+ ByteCursor.bound(c.pointee.id) &+ treeBound(c, info)
                if let i = info {
                    bound &+= PieceBound.cellInfo &+ ByteCursor.bound(i.pointee.unsafelyUnwrapped.label) &+ ByteCursor.bound(i.pointee.unsafelyUnwrapped.color)
                        &+ ByteCursor.bound(i.pointee.unsafelyUnwrapped.section)
                    if !i.pointee.unsafelyUnwrapped.card.isEmpty { bound &+= cardBound(i.pointee.unsafelyUnwrapped.card) }
                }
                // Issue 44: `heldBy`, the update's own (a change) or else the attributes' (a
                // cell that comes whole while held). Rare: told by case tests, its name read out
                // of line (a `String?` in the loop cost about 47 Ir a `reorder` message).
                let held = sendsHeldBy(c, info)
                if held { bound &+= 20 &+ (heldBy(c, info).map(ByteCursor.bound) ?? 0) }
                w.pieces(bound: bound) { o in
                    cell(c, &o)
                    if held { heldByMember(c, info, &o) }
                    if let info { cellInfoMembers(info, &o) }
                    o.byte(UInt8(ascii: "}"))
                }
            }
        }
        w.endArray()
    }

    static func cardBound(_ c: Card) -> Int {
        var n = PieceBound.card
        if let v = c.detail { n &+= ByteCursor.bound(v) }
        if let v = c.image { n &+= ByteCursor.bound(v) }
        if let v = c.badge { n &+= ByteCursor.bound(v) }
        if let v = c.accent { n &+= ByteCursor.bound(v) }
        for t in c.tags { n &+= PieceBound.tag &+ ByteCursor.bound(t.text) &+ ByteCursor.bound(t.color) }
        return n
    }

    /// A cell's members up to its attributes (the object left open).
    @inline(__always)
    static func cell(_ c: UnsafePointer<CellUpdate>, _ o: inout ByteCursor) {
        o.put(#"{"id":"#); o.string(c.pointee.id)
        let r = c.pointee.frame
        o.put(#","frame":{"x":"#); o.number(r.x)
        o.put(#","y":"#); o.number(r.y)
        o.put(#","w":"#); o.number(r.w)
        o.put(#","h":"#); o.number(r.h)
        o.put(#"},"alpha":"#); o.number(c.pointee.alpha)
        if c.pointee.hidden { o.put(#","hidden":true,"dur":"#) } else { o.put(#","hidden":false,"dur":"#) }
        o.number(c.pointee.dur)
        o.put(#","ease":"#); ease(c.pointee.ease, &o)
        if c.pointee.appear { o.put(#","appear":true"#) }
        if let s = c.pointee.selected { o.put(#","selected":"#); o.bool(s) }
        if case .some = c.pointee.tree { treeChange(c.pointee.tree!, &o) }
    }

    /// The attributes of the update at `c`, where they lie, as the `CellInfo?` they are (read in
    /// place by `unsafelyUnwrapped`, checked here); nil when none (`!= nil` compared copies).
    @inline(__always)
    static func infoPointer(_ c: UnsafePointer<CellUpdate>) -> UnsafePointer<CellInfo?>? {
        guard case .some = c.pointee.info else { return nil }
        return c.pointer(to: \.info)
    }

    /// A frame cell's `label`, `color`, `section`, `index`, `movable`, `handle` and card.
    @inline(__always)
    static func cellInfoMembers(_ i: UnsafePointer<CellInfo?>, _ o: inout ByteCursor) {
        o.put(#","label":"#); o.string(i.pointee.unsafelyUnwrapped.label)
        o.put(#","color":"#); o.string(i.pointee.unsafelyUnwrapped.color)
        o.put(#","section":"#); o.string(i.pointee.unsafelyUnwrapped.section)
        o.put(#","index":"#); o.int(i.pointee.unsafelyUnwrapped.index)
        if i.pointee.unsafelyUnwrapped.movable { o.put(#","movable":true"#) } else { o.put(#","movable":false"#) }
        if case .some = i.pointee.unsafelyUnwrapped.tree { treeFacts(i.pointee.unsafelyUnwrapped.tree!, &o) }
        switch i.pointee.unsafelyUnwrapped.handle {
        case .leading?: o.put(#","handle":"leading""#)
        case .trailing?: o.put(#","handle":"trailing""#)
        case nil: break
        }
        if !i.pointee.unsafelyUnwrapped.card.isEmpty { cardMembers(i.pointee.unsafelyUnwrapped.card, &o) }
    }

    /// `cardMembers`, through a cursor (`cardBound` bytes at most).
    static func cardMembers(_ c: Card, _ o: inout ByteCursor) {
        if let v = c.detail { o.put(#","detail":"#); o.string(v) }
        if let v = c.image { o.put(#","image":"#); o.string(v) }
        if let v = c.badge { o.put(#","badge":"#); o.string(v) }
        if !c.tags.isEmpty {
            o.put(#","tags":["#)
            for k in c.tags.indices {
                if k > 0 { o.byte(UInt8(ascii: ",")) }
                o.put(#"{"text":"#); o.string(c.tags[k].text)
                if !c.tags[k].color.isEmpty { o.put(#","color":"#); o.string(c.tags[k].color) }
                o.byte(UInt8(ascii: "}"))
            }
            o.byte(UInt8(ascii: "]"))
        }
        if let v = c.accent { o.put(#","accent":"#); o.string(v) }
    }

    /// A frame's inline `lift`, `moved` or `drop`, in one piece; `false` (nothing written) for
    /// any other message.
    static func gestureEvent(_ e: ServerEvent, _ w: inout JSONWriter) -> Bool {
        switch e {
        case .lift(let p, let id, let from, let follow, let added):
            w.pieces(bound: PieceBound.gestureEvent &+ ByteCursor.bound(id) &+ ByteCursor.bound(from.section)) { o in
                o.put(#"{"t":"lift","p":"#); o.int(p)
                o.put(#","id":"#); o.string(id)
                o.put(#","from":{"section":"#); o.string(from.section); o.put(#","index":"#); o.int(from.index); depth(from, &o)
                o.byte(UInt8(ascii: "}"))
                if let follow {
                    o.put(#","grab":{"x":"#); o.number(follow.grab.x); o.put(#","y":"#); o.number(follow.grab.y)
                    if follow.lockX { o.put(#"},"axis":"y""#) } else { o.put(#"},"axis":"xy""#) }
                }
                if added { o.put(#","added":true"#) }
                o.byte(UInt8(ascii: "}"))
            }
        case .moved(let p, let id, let from, let to):
            w.pieces(bound: PieceBound.gestureEvent &+ ByteCursor.bound(id) &+ ByteCursor.bound(from.section) &+ ByteCursor.bound(to.section)) { o in
                o.put(#"{"t":"moved","p":"#); o.int(p)
                o.put(#","id":"#); o.string(id)
                o.put(#","from":{"section":"#); o.string(from.section); o.put(#","index":"#); o.int(from.index); depth(from, &o)
                o.put(#"},"to":{"section":"#); o.string(to.section); o.put(#","index":"#); o.int(to.index); depth(to, &o)
                o.put("}}")
            }
        case .drop(let p, let id, let at, let cancelled):
            w.pieces(bound: PieceBound.gestureEvent &+ ByteCursor.bound(id) &+ ByteCursor.bound(at.section)) { o in
                o.put(#"{"t":"drop","p":"#); o.int(p)
                o.put(#","id":"#); o.string(id)
                o.put(#","at":{"section":"#); o.string(at.section); o.put(#","index":"#); o.int(at.index); depth(at, &o)
                if cancelled { o.put(#"},"cancelled":true}"#) } else { o.put(#"},"cancelled":false}"#) }
            }
        default:
            return false
        }
        return true
    }

    static func cellInfo(_ c: CellInfo, _ w: inout JSONWriter) {
        w.beginObject()
        w.key("id"); w.string(c.id)
        w.key("label"); w.string(c.label)
        w.key("color"); w.string(c.color)
        w.key("section"); w.string(c.section)
        w.key("index"); w.int(c.index)
        w.key("movable"); w.bool(c.movable)
        if let t = c.tree { treeFacts(t, &w) }
        w.key("frame"); rect(c.frame, &w)
        if c.hidden { w.key("hidden"); w.bool(true) }
        if c.selected { w.key("selected"); w.bool(true) }
        if let h = c.handle { w.key("handle"); w.string(h.rawValue) }
        if let name = c.heldBy { w.key("heldBy"); w.string(name) }
        cardMembers(c.card, &w)
        w.endObject()
    }

    static func sections(_ list: [SectionInfo], _ w: inout JSONWriter) {
        w.array(list) { s, w in
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
            if let m = s.maxDepth { w.key("maxDepth"); w.int(m) }
            w.endObject()
        }
    }

    static func config(_ c: SessionConfig, springMs: Double? = nil, _ w: inout JSONWriter) {
        w.beginObject()
        w.key("pressMs"); w.number(c.pressMs)
        if let s = springMs { w.key("springMs"); w.number(s) }
        w.key("allowableMovement"); w.number(c.allowableMovement)
        w.key("mode"); w.string(c.mode.rawValue)
        for (name, p, _, _) in configNumbers { w.dynamicKey(name); w.number(c[keyPath: p]) }
        w.key("reducedMotion"); w.bool(c.reducedMotion)
        w.key("commitOrder"); w.string(c.commitOrder.rawValue)
        // Only when asked for, so that the default welcome stays as the contract shows it.
        if c.events != .separate { w.key("events"); w.string(c.events.rawValue) }
        if c.follow != .every { w.key("follow"); w.string(c.follow.rawValue) }
        if c.commits != .separate { w.key("commits"); w.string(c.commits.rawValue) }
        if c.layouts != .implicit { w.key("layouts"); w.string(c.layouts.rawValue) }
        if c.presence != .full { w.key("presence"); w.string(c.presence.rawValue) }
        w.endObject()
    }

    static func place(_ p: Place, _ w: inout JSONWriter) {
        w.beginObject()
        w.key("section"); w.string(p.section)
        w.key("index"); w.int(p.index)
        w.endObject()
    }

    static func rect(_ r: Rect, _ w: inout JSONWriter) {
        w.beginObject()
        w.key("x"); w.number(r.x); w.key("y"); w.number(r.y); w.key("w"); w.number(r.w); w.key("h"); w.number(r.h)
        w.endObject()
    }
}
