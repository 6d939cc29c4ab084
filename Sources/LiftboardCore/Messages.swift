// The protocol's vocabulary as values (contract §3 and §5), in one file, each message type next
// to the ones it carries, to be read against docs/protocol.md. LiftboardWire turns them into JSON
// and back; LiftboardCore only ever sees these types.

/// The client's viewport in CSS pixels, and its device pixel ratio.
public struct Viewport: Hashable, Sendable {
    public var w: Double
    public var h: Double
    public var dpr: Double
    public init(w: Double, h: Double, dpr: Double = 1) { self.w = w; self.h = h; self.dpr = dpr }
}

/// What kind of device a pointer is.
public enum PointerKind: String, Sendable, Hashable {
    case mouse, touch, pen
}

/// Modifier keys held with a `down` or a `key` (extension: `mods`, any of "shift", "ctrl",
/// "meta", "alt"). Ctrl and Meta mean the same to the server (the page sends Cmd as meta).
public struct Modifiers: OptionSet, Hashable, Sendable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    public static let shift = Modifiers(rawValue: 1)
    public static let ctrl = Modifiers(rawValue: 2)
    public static let meta = Modifiers(rawValue: 4)
    public static let alt = Modifiers(rawValue: 8)
    /// Ctrl or Meta: toggles a cell's selection on a click.
    public var toggles: Bool { !isDisjoint(with: [.ctrl, .meta]) }
    /// Each key and its name, in the wire's order.
    static let named: [(Modifiers, String)] = [(.shift, "shift"), (.ctrl, "ctrl"), (.meta, "meta"), (.alt, "alt")]
    public var names: [String] { Self.named.filter { contains($0.0) }.map(\.1) }
    public init?(name: String) {
        guard let (m, _) = Self.named.first(where: { $0.1 == name }) else { return nil }
        self = m
    }
}

/// A `ping` id: the contract echoes it back unchanged, so it keeps its JSON type.
public enum PingID: Hashable, Sendable {
    case int(Int)
    case string(String)
}

/// The first message of a session.
public struct Hello: Hashable, Sendable {
    public var v: Int
    public var board: String
    public var viewport: Viewport
    public var config: SessionConfig
    public init(v: Int = 1, board: String, viewport: Viewport, config: SessionConfig = SessionConfig()) {
        self.v = v; self.board = board; self.viewport = viewport; self.config = config
    }
}

/// A client message, decoded and validated (contract §3). Its time comes separately.
public enum ClientEvent: Hashable, Sendable {
    // `hello` and `external` are boxed: they are rare and large (a config, a commit), and
    // every event is as large as its largest case; unboxed, each `move` copied 150 bytes.
    indirect case hello(Hello)
    /// `button` is the DOM button (0 the primary; 2 the secondary, which opens the page's
    /// "Move to…" menu): only the primary presses, lifts, pans, taps and clicks.
    case down(pointer: Int, at: Point, kind: PointerKind?, mods: Modifiers = [], button: Int = 0)
    case move(pointer: Int, at: Point)
    case up(pointer: Int, at: Point)
    case cancel(pointer: Int)
    /// `at` (extension, columns): the pointer's viewport position; `dy` scrolls the column
    /// under it. Lists and grids ignore it.
    case wheel(dx: Double, dy: Double, at: Point? = nil)
    case resize(Viewport)
    case key(String, mods: Modifiers = [])
    case ping(id: PingID)
    /// Revert this session's last commit (as a new commit), if its items are still where it
    /// left them.
    case undo
    /// "Move to…" (a single-pointer alternative to dragging, WCAG 2.5.7): item `id` to `place`
    /// of `section`, committed as the change a drag there would commit.
    case moveTo(id: String, section: String, place: MovePlace)
    /// Trees: collapse or expand item `id` for this session only.
    case toggle(id: String)
    /// Replay only: move the clock.
    case advance
    /// Replay only (and the hub, live): a commit made by another session on this board.
    indirect case external(Commit)
    /// Replay only (and the hub, live): the committed order is the store's `order` at
    /// `version`, whatever the session had (a drop the store refused, or another process's
    /// commit that came first); answered by a `layout`.
    indirect case resync(version: Int, order: [SectionOrder])
    /// Replay only (and the hub, live): the committed order goes back to the store's `order`
    /// at `version` with nothing sent, before the commits that follow as `external` (another
    /// process's commit came first and this process's drops landed after it).
    indirect case rebase(version: Int, order: [SectionOrder])
    /// Replay only (and the hub, live; issue 44): who is on the board and what each holds.
    /// The items other sessions hold do not lift here; the session passes it on as `presence`.
    indirect case presence(Presence)
    /// Replay only (and the server, live; issue 44): holds go through the shared store, and
    /// its answers to this session's claims (`ClaimInput`).
    indirect case claim(ClaimInput)
}

/// Where `moveTo` puts an item: the first or last place of a section, or one place up or down
/// within its own section.
public enum MovePlace: String, Hashable, Sendable {
    case first, last, up, down
    /// Trees only: X becomes its previous sibling's last child, or its parent's next sibling.
    case indent, outdent
}

/// Where an item is: its section's id and its 0-based index there.
public struct Place: Hashable, Sendable, CustomStringConvertible {
    public var section: String
    public var index: Int
    /// Trees: the depth at this place (`lift`, `moved`, `drop`; nil elsewhere).
    public var depth: Int? = nil
    public init(section: String, index: Int) { self.section = section; self.index = index }
    public var description: String { "\(section)[\(index)]" }
}

/// One section's items in order, as a commit carries it.
public struct SectionOrder: Hashable, Sendable {
    public var section: String
    public var items: [String]
    /// Trees: each item's parent id (`nil`: top level), in the order of `items` (nil: not a tree).
    public var parents: [String?]? = nil
    public init(section: String, items: [String]) { self.section = section; self.items = items }
}

/// One item's move in a commit. `to.index` is the index after removal (UIKit's `moveItem(at:to:)`).
public struct Move: Hashable, Sendable {
    public var id: String
    public var from: Place
    public var to: Place
    public init(id: String, from: Place, to: Place) { self.id = id; self.from = from; self.to = to }
}

/// What a commit did to the committed order (contract §4, "A commit is one change"). A change
/// names items, never indexes, so it applies on top of commits made meanwhile elsewhere.
public enum Change: Hashable, Sendable {
    /// Item `id` goes right after item `after` in `section` (first in `section` when `after` is
    /// nil). `index` is the index `id` had in `section` when it dropped: it places the item
    /// (clamped) only when `after` is no longer in `section` by the time the change is applied.
    case insert(id: String, section: String, after: String?, index: Int)
    /// The two items exchange places; nothing when they are no longer in one section.
    case swap(String, String)
    /// Several items dropped together (a multi-item drag): they leave their places and stand
    /// right after item `after` in `section`, one after another in the order given, by the
    /// insert rule (`index`, the first item's index at the drop, places them, clamped, only
    /// when `after` is no longer in `section`). Items the board lacks or that are pinned are
    /// passed over; an `after` that is one of `ids` counts as absent.
    case group(ids: [String], section: String, after: String?, index: Int)
    /// Reorder changes applied in order as one commit (an undo of a group drop, which puts
    /// every item back where it was). Edits are not batched.
    case batch([Change])
    /// Trees: item `move` and its subtree go to `section` under `parent` (nil: top level),
    /// right after its sibling `after`'s subtree (nil: first), `index` its place among those
    /// siblings after the removal (used when `after` is no longer a child of `parent`).
    case move(String, section: String, parent: String?, after: String?, index: Int)
    /// Edits (the board's content, not only its order): a new item right after `after` in
    /// `section` (first when nil; last when `after` is no longer there). On a tree board it
    /// goes under `parent` (nil: the top level) right after its child `after`'s subtree
    /// (docs/protocol.md, "Trees"); `parent` is nil on other boards.
    /// Indirect, as `updateItem`: an item inline made every change (and every commit, record
    /// and report that holds one) as large as the item, and each copy of a drop's change copied it.
    indirect case addItem(Item, section: String, after: String?, parent: String? = nil)
    /// The item leaves the board.
    case removeItem(String)
    /// A copy of item `id` (its attributes, id `as`) right after `after` in `section`: first
    /// when nil, at `index` (clamped) when `after` is no longer there (a drag out of a palette).
    case copyItem(id: String, as: String, section: String, after: String?, index: Int, parent: String? = nil)
    /// The item's attributes that are set change; its place stays.
    indirect case updateItem(ItemUpdate)
    /// A new, empty section right after section `after` (first when nil).
    case addSection(id: String, title: String, after: String?)
    case renameSection(id: String, title: String)
    /// The section's header gets `subtitle` as its second text (`nil`: none) (issue 25).
    case setSubtitle(id: String, subtitle: String?)
    /// An empty section leaves the board.
    case removeSection(String)

    /// Whether this change edits the board's content (not a drop's reorder).
    /// A batch of edits (`removeItem` and `addItem` only: a trash drop of a group, its undo)
    /// is an edit.
    public var isEdit: Bool {
        switch self {
        case .insert, .swap, .group, .move: false
        case .batch(let changes): changes.first?.isEdit ?? false
        default: true
        }
    }

    /// Whether this is an edit an edit batch may hold: `removeItem` or `addItem`.
    public var isItemEdit: Bool {
        switch self {
        case .removeItem, .addItem: true
        default: false
        }
    }
}

/// The attributes an `updateItem` edit sets; `nil` leaves one as it is.
public struct ItemUpdate: Hashable, Sendable {
    public var id: String
    public var label: String?
    public var color: String?
    public var height: Double?
    public var movable: Bool?
    /// The card's fields (issue 25): an empty text takes a field away, `tags: []` the chips.
    public var detail: String? = nil
    public var image: String? = nil
    public var badge: String? = nil
    public var tags: [Tag]? = nil
    public var accent: String? = nil
    public init(id: String, label: String? = nil, color: String? = nil, height: Double? = nil, movable: Bool? = nil) {
        self.id = id; self.label = label; self.color = color; self.height = height; self.movable = movable
    }

    /// `card` with this update's card fields set (an empty text: the field taken away).
    public func applied(to card: Card) -> Card {
        var c = card
        func set(_ v: String?, _ key: WritableKeyPath<Card, String?>) { if let v { c[keyPath: key] = v.isEmpty ? nil : v } }
        set(detail, \.detail); set(image, \.image); set(badge, \.badge); set(accent, \.accent)
        if let tags { c.tags = tags }
        return c
    }

    /// The update that sets `card`'s fields where they differ from `old`'s (`nil` fields stay).
    public mutating func setCard(_ card: Card, from old: Card) {
        if card.detail != old.detail { detail = card.detail ?? "" }
        if card.image != old.image { image = card.image ?? "" }
        if card.badge != old.badge { badge = card.badge ?? "" }
        if card.accent != old.accent { accent = card.accent ?? "" }
        if card.tags != old.tags { tags = card.tags }
    }
}

/// Animation curves the renderer knows.
public enum Ease: String, Sendable, Hashable {
    case linear, easeOut, easeInOut
}

/// A section's header and frame, in content coordinates.
public struct SectionInfo: Hashable, Sendable {
    public var id: String
    public var title: String
    public var frame: Rect
    /// Extension: the header's height (the top of `frame`), so the page can draw the title.
    public var header: Double = 0
    /// Extension: the drop slot, present while the section is empty.
    public var slot: Rect? = nil
    /// Extension, columns only: the column's own vertical scroll offset.
    public var scroll: Double? = nil
    /// Extension, columns only: the column's header plus its rows (or its empty slot).
    public var contentHeight: Double? = nil
    /// Extension (issue 25): the header's second line, when the section has one.
    public var subtitle: String? = nil
    /// Extension (issue 25): how many items the section holds (live, during a drag).
    public var count: Int = 0
    /// Extension (trees): the section's `maxDepth`, when its file sets one.
    public var maxDepth: Int? = nil
}

/// A cell as `layout` describes it: everything needed to draw it.
public struct CellInfo: Hashable, Sendable {
    public var id: String
    public var label: String
    public var color: String
    public var section: String
    public var index: Int
    public var movable: Bool
    public var frame: Rect
    /// Hidden while its item is lifted (the snapshot stands for it).
    public var hidden: Bool = false
    /// Extension: in this session's selection (sent only when true).
    public var selected: Bool = false
    /// Extension: the edge of the cell whose press lifts at once (sent only when set).
    public var handle: HandleEdge? = nil
    /// Extension (issue 25): detail, image, badge, tags and accent, each sent only when set.
    public var card = Card()
    /// Issue 44: the name of the other session that holds the item (sent only when set).
    public var heldBy: String? = nil
    /// Extension (trees): the row's depth, parent, children and collapsed state.
    public var tree: TreeFacts? = nil
}

/// The whole picture: after `welcome`, after `resize`, and on resync.
public struct LayoutMessage: Hashable, Sendable {
    public var version: Int
    public var content: Size
    public var scroll: Point
    public var sections: [SectionInfo]
    public var cells: [CellInfo]
    /// Snapshots of drags in flight (an extension: a resize during a drag keeps them).
    public var snapshots: [SnapshotUpdate] = []
    /// Extension: the layout this message names (`"layout"`), or nil for none: a columns board
    /// always says so; a list or a grid only to a session that asked (`SessionConfig.layouts`).
    public var layout: LayoutKind? = nil
    /// Extension (trees): the px a level indents (`"tree": {"indent"}`), on a tree board only.
    public var treeIndent: Double? = nil
}

/// A cell's new target state in a `frame`. A cell that enters the window comes whole
/// (`info` set); a cell already there comes with its new frame and visibility.
public struct CellUpdate: Hashable, Sendable {
    public var id: String
    public var frame: Rect
    public var alpha: Double = 1
    public var hidden: Bool
    public var dur: Double
    public var ease: Ease
    /// Set when the cell enters the window or its section/index changed: label, color, section,
    /// index, movable as in `layout`.
    public var info: CellInfo? = nil
    /// Extension: the item is new on the board (an edit): the renderer fades it in over `dur`.
    public var appear = false
    /// Extension: the cell entered (`true`) or left (`false`) the selection; `nil`: unchanged.
    public var selected: Bool? = nil
    /// Issue 44: another session began (`.some(name)`) or ended (`.some(nil)`) holding the
    /// item; `nil`: unchanged.
    public var heldBy: String?? = nil
    /// Extension (trees): the row's facts that changed, when `info` does not carry them whole.
    public var tree: TreeChange? = nil
}

/// A lifted item's snapshot, in viewport coordinates. Keys with nothing to say are `nil` and
/// left out on the wire: `center` animates over `moveDur`, the transform over `dur`.
public struct SnapshotUpdate: Hashable, Sendable {
    public var p: Int
    public var id: String
    public var center: Point? = nil
    public var size: Size? = nil
    public var moveDur: Double? = nil
    public var scale: Double? = nil
    public var rotation: Double? = nil
    public var alpha: Double? = nil
    public var dur: Double? = nil
    public var ease: Ease? = nil
    public var done = false
    /// Extension: how many items the drag carries, when more than its own (a multi-item drag).
    public var count: Int? = nil
    /// Extension: whether the center is over a section that refuses what the drag carries.
    public var forbidden: Bool? = nil
    /// Extension (trees): the descendants a lifted subtree carries (the page shows "+N").
    public var subtree: Int? = nil
}

/// What changed since the last frame. `nil` and empty members are left out on the wire.
public struct FrameMessage: Hashable, Sendable {
    public var seq: Int
    public var ms: Double
    /// The highest client `seq` handled before this frame; `nil` while the client sent none.
    public var ack: Int?
    public var scroll: Point?
    /// Extension: when set, the renderer animates the scroll over this many ms (idle reset,
    /// keyboard focus); absent, it jumps (following a finger, a wheel, deceleration ticks).
    public var scrollDur: Double?
    public var content: Size?
    public var cells: [CellUpdate]
    /// Extension: how long the fade of `removed` (and of appearing cells) lasts.
    public var removeDur: Double
    public var snapshots: [SnapshotUpdate]
    /// Extension: the `lift`, `moved` and `drop` of this input when the client asked for them inline.
    public var events: [ServerEvent]

    /// The members most frames leave empty (sections, gone, removed, focus, commit), in one
    /// immutable box, none when all are (a copy of a frame retains the box, not each of them).
    /// Setting one makes a new box. Read through `rare` where a frame is read in its event's box:
    /// a getter called on the frame there copied the whole frame out first (about 230 Ir).
    public final class Rare: Hashable, Sendable {
        public let sections: [SectionInfo]?
        public let gone: [String]
        public let removed: [String]
        public let focus: String?
        public let commit: Commit?
        init(sections: [SectionInfo]?, gone: [String], removed: [String], focus: String?, commit: Commit?) {
            self.sections = sections; self.gone = gone; self.removed = removed; self.focus = focus; self.commit = commit
        }
        public static func == (a: Rare, b: Rare) -> Bool {
            a === b || (a.sections, a.gone, a.removed, a.focus, a.commit) == (b.sections, b.gone, b.removed, b.focus, b.commit)
        }
        public func hash(into h: inout Hasher) {
            h.combine(sections); h.combine(gone); h.combine(removed); h.combine(focus); h.combine(commit)
        }
    }
    public private(set) var rare: Rare?

    fileprivate static func rare(sections: [SectionInfo]?, gone: [String], removed: [String], focus: String?, commit: Commit?) -> Rare? {
        // Case tests, not `== nil` (on an Equatable payload that compares copies).
        if gone.isEmpty, removed.isEmpty, case .none = sections, case .none = focus,
           case .none = commit { return nil }
        return Rare(sections: sections, gone: gone, removed: removed, focus: focus, commit: commit)
    }

    public var sections: [SectionInfo]? {
        get { rare?.sections }
        set { rare = Self.rare(sections: newValue, gone: gone, removed: removed, focus: focus, commit: commit) }
    }
    public var gone: [String] {
        get { rare?.gone ?? [] }
        set { rare = Self.rare(sections: sections, gone: newValue, removed: removed, focus: focus, commit: commit) }
    }
    /// Extension: items an edit took off the board: the renderer fades them out, then drops them.
    public var removed: [String] {
        get { rare?.removed ?? [] }
        set { rare = Self.rare(sections: sections, gone: gone, removed: newValue, focus: focus, commit: commit) }
    }
    /// Extension: the item the keyboard focus is on, when it changed (the renderer draws a ring).
    public var focus: String? {
        get { rare?.focus }
        set { rare = Self.rare(sections: sections, gone: gone, removed: removed, focus: newValue, commit: commit) }
    }
    /// Extension: the commit from elsewhere this frame animates, when the client asked for
    /// commits inline (`hello.config.commits`).
    public var commit: Commit? {
        get { rare?.commit }
        set { rare = Self.rare(sections: sections, gone: gone, removed: removed, focus: focus, commit: newValue) }
    }

    /// The version of `commit`, nil without one: whether a frame carries a commit, read
    /// without copying the commit out (`commit` hands a copy, about 60 instructions a read).
    public var commitVersion: Int? {
        guard let r = rare, case .some = r.commit else { return nil }
        return r.commit.unsafelyUnwrapped.version
    }
}

extension FrameMessage {
    /// By the memberwise init, as `CellInfo`'s: one that assigned the members one by one made
    /// each frame as a temporary, copied and destroyed (about 140 Ir a frame).
    public init(seq: Int, ms: Double, ack: Int? = nil, scroll: Point? = nil, scrollDur: Double? = nil, content: Size? = nil,
                sections: [SectionInfo]? = nil, cells: [CellUpdate] = [], gone: [String] = [], snapshots: [SnapshotUpdate] = [],
                focus: String? = nil) {
        self.init(seq: seq, ms: ms, ack: ack, scroll: scroll, scrollDur: scrollDur, content: content, cells: cells, removeDur: 0,
                  snapshots: snapshots, events: [],
                  rare: Self.rare(sections: sections, gone: gone, removed: [], focus: focus, commit: nil))
    }
}

/// Welcome: the session's id, its board and the config in force.
public struct Welcome: Hashable, Sendable {
    public var v = 1
    public var session: String
    public var board: String
    public var config: SessionConfig
    /// Trees only: `config.springMs` is repeated in the welcome (other boards' do not change).
    public var tree = false
}

/// How a dragged snapshot follows its pointer (contract §4, "Drag"): its center is the pointer
/// plus `grab`; in a list (`lockX`) its x stays where it was at the lift.
public struct Follow: Hashable, Sendable {
    public var grab: Point
    public var lockX: Bool
}

/// A server message (contract §5). Indirect: a frame is large and full of references, and
/// drivers copy events several times on their way out (queues, merges); boxed, a copy is one
/// retain.
public indirect enum ServerEvent: Hashable, Sendable {
    case welcome(Welcome)
    case layout(LayoutMessage)
    case frame(FrameMessage)
    /// `follow` (pointer drags only) is how the snapshot follows the pointer, so the page can
    /// draw it under the finger before the server's frame arrives.
    /// `added`: the item joined the drag of pointer `p` (a tap while it drags, or the rest of
    /// a selection lifted with it); it travels with that drag's snapshot.
    case lift(p: Int, id: String, from: Place, follow: Follow? = nil, added: Bool = false)
    case moved(p: Int, id: String, from: Place, to: Place)
    case drop(p: Int, id: String, at: Place, cancelled: Bool)
    /// A commit that another session made, or this session's own once it is durable: the
    /// message every session on the board receives.
    case commit(Commit)
    /// This session's own new commit (version = the session's previous version + 1). Never
    /// sent as is: the driver persists it and sends it as `.commit` once it is durable (a
    /// replay, at once).
    case persist(Commit)
    case announce(String)
    case error(code: ErrorCode, message: String)
    case pong(id: PingID, ms: Double)
    /// Who is on the board and what each holds (issue 44): sent when the board's people or
    /// holds change; one queued behind another is replaced by it.
    case presence(Presence)
    /// The same, to a session that asked for `config.presence: "delta"`: whole or as a difference.
    case presenceDelta(PresenceDelta)

    /// A frame's commit version (nil without one) and about how many bytes it takes on the wire
    /// (a driver's bound on a slow reader), read in the box: a frame bound out of it was copied.
    public var frameFacts: (commitVersion: Int?, size: Int)? {
        guard case .frame(let f) = self else { return nil }
        return (f.commitVersion, 80 + f.cells.count * 170 + f.snapshots.count * 100 + (f.rare?.gone.count ?? 0) * 12 + f.events.count * 120)
    }
}
