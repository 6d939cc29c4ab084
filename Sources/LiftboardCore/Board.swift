/// How a board lays its cells out.
public enum LayoutKind: String, Sendable, Hashable {
    case list, grid
    /// Sections side by side as columns, each scrolling vertically on its own; the board
    /// scrolls sideways (docs/protocol.md, "Columns").
    case columns
    /// An outline: each section a forest whose items nest, drawn as indented list rows; a drag
    /// carries a subtree and its depth follows the finger sideways (docs/protocol.md, "Trees").
    case tree
}

/// List geometry (contract §2). Defaults are the contract's.
public struct ListMetrics: Hashable, Sendable {
    public var rowHeight: Double = 56
    public var headerHeight: Double = 32
    public var spacing: Double = 1
    public init(rowHeight: Double = 56, headerHeight: Double = 32, spacing: Double = 1) {
        self.rowHeight = rowHeight; self.headerHeight = headerHeight; self.spacing = spacing
    }
}

/// Grid geometry (contract §2). Defaults are the contract's.
public struct GridMetrics: Hashable, Sendable {
    public var itemWidth: Double = 120
    public var itemHeight: Double = 120
    public var spacing: Double = 8
    public var headerHeight: Double = 32
    public init(itemWidth: Double = 120, itemHeight: Double = 120, spacing: Double = 8, headerHeight: Double = 32) {
        self.itemWidth = itemWidth; self.itemHeight = itemHeight; self.spacing = spacing; self.headerHeight = headerHeight
    }
}

/// Columns geometry (docs/protocol.md, "Columns"): section k's content x runs from
/// `k * (width + gap)` to that plus `width`; its header is its top `headerHeight`, its rows
/// stack below it `spacing` apart, each `height` tall (default `rowHeight`).
public struct ColumnMetrics: Hashable, Sendable {
    public var width: Double = 280
    public var gap: Double = 12
    public var headerHeight: Double = 40
    public var rowHeight: Double = 56
    public var spacing: Double = 8
    public init(width: Double = 280, gap: Double = 12, headerHeight: Double = 40, rowHeight: Double = 56, spacing: Double = 8) {
        self.width = width; self.gap = gap; self.headerHeight = headerHeight; self.rowHeight = rowHeight; self.spacing = spacing
    }
}

/// One cell's content. Identity is `id`, unique in the board.
public struct Item: Hashable, Sendable {
    public var id: String
    public var label: String
    public var color: String
    /// Row height in a list; `nil` means the list's `rowHeight`. Ignored by grids.
    public var height: Double?
    /// `false` pins the item to its index in its section (contract §2).
    public var movable: Bool
    /// What the item is, for sections that accept some kinds only (`Section.accepts`).
    public var kind: String? = nil
    /// The edge of the cell whose press lifts at once (no long press).
    public var handle: HandleEdge? = nil
    /// What the card shows besides `label` and `color`: detail, image, badge, tags, accent.
    public var card: Card = Card()
    /// Trees: the item's depth (0: top level). A section's `items` are its forest in pre-order,
    /// each item followed by its descendants (docs/protocol.md, "Trees").
    public var depth: Int = 0
    /// Trees: the state every session starts in (toggles are per session, never committed).
    public var collapsed: Bool = false
    /// Trees: the item takes no children.
    public var leaf: Bool = false
    public init(id: String, label: String? = nil, color: String? = nil, height: Double? = nil, movable: Bool = true,
                kind: String? = nil, handle: HandleEdge? = nil, card: Card = Card()) {
        self.id = id; self.label = label ?? id; self.color = color ?? ""; self.height = height; self.movable = movable
        self.kind = kind; self.handle = handle; self.card = card
    }
}

/// A section: a header and its items, in order.
public struct Section: Hashable, Sendable {
    public var id: String
    public var title: String
    public var items: [Item]
    /// The kinds of items it takes (`nil`: any); an item without a kind is refused by a list.
    public var accepts: [String]? = nil
    /// The most items it holds: while it holds `max`, items from other sections are refused.
    public var max: Int? = nil
    /// A palette: a drag out of it leaves the original and drops a copy; nothing is placed in it.
    public var copy: Bool = false
    /// What a drop there does: `.remove` makes it a trash (it holds no items).
    public var drop: SectionDrop? = nil
    /// A second line under the title in the header (issue 25).
    public var subtitle: String? = nil
    /// Trees: the deepest depth the section takes (`nil`: up to the board limit).
    public var maxDepth: Int? = nil
    public init(id: String, title: String? = nil, items: [Item], accepts: [String]? = nil, max: Int? = nil,
                copy: Bool = false, drop: SectionDrop? = nil, subtitle: String? = nil) {
        self.id = id; self.title = title ?? id; self.items = items
        self.accepts = accepts; self.max = max; self.copy = copy; self.drop = drop; self.subtitle = subtitle
    }

    /// Whether the section states a placement rule.
    public var hasRules: Bool { accepts != nil || max != nil || copy || drop != nil }
}

/// A board: its definition and its current order (the order of `sections[].items`) at `version`.
public struct Board: Hashable, Sendable {
    public var id: String
    public var layout: LayoutKind
    public var list: ListMetrics
    public var grid: GridMetrics
    /// Used when `layout` is `.columns`.
    public var columns: ColumnMetrics = ColumnMetrics()
    /// Used when `layout` is `.tree`.
    public var tree: TreeMetrics = TreeMetrics()
    public var sections: [Section]
    /// 0 for a board file; each commit adds 1.
    public var version: Int

    public init(id: String, layout: LayoutKind = .list, list: ListMetrics = ListMetrics(), grid: GridMetrics = GridMetrics(),
                columns: ColumnMetrics = ColumnMetrics(), sections: [Section], version: Int = 0) {
        self.id = id; self.layout = layout; self.list = list; self.grid = grid; self.columns = columns
        self.sections = sections; self.version = version
    }

    /// The palette that colours items with no `color`, by their position in the file.
    public static let palette = ["#f4b400", "#4285f4", "#db4437", "#0f9d58", "#ab47bc",
                                 "#00acc1", "#ff7043", "#9e9d24", "#5c6bc0", "#f06292"]

    /// The current order, as a commit names it.
    public var order: [SectionOrder] {
        sections.map { s in
            var o = SectionOrder(section: s.id, items: s.items.map(\.id))
            if layout == .tree { o.parents = TreeOrder.parents(depths: s.items.map(\.depth)).map { $0.map { s.items[$0].id } } }
            return o
        }
    }
}

/// The edge of a cell that holds its drag handle: leading (left) or trailing (right).
public enum HandleEdge: String, Sendable, Hashable, CaseIterable {
    case leading, trailing
}

/// What dropping on a section does besides placing the item there.
public enum SectionDrop: String, Sendable, Hashable, CaseIterable {
    /// A trash: the dropped item, or group, is removed from the board.
    case remove
}

/// Why a board was refused. Each case names the offending field as a path such as
/// `sections[1].items[0].height`.
public enum BoardError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A required field is absent.
    case missing(field: String)
    /// A field has the wrong JSON type.
    case wrongType(field: String, expected: String)
    /// A field's value is out of its range (non-finite, non-positive, empty...).
    case invalid(field: String, reason: String)
    /// An id is used twice (section ids in the board, item ids in the board).
    case duplicateID(field: String, id: String)
    /// `layout` is none of `list`, `grid`, `columns`, `tree`.
    case unknownLayout(field: String, value: String)

    public var description: String {
        switch self {
        case .missing(let f): "\(f): missing"
        case .wrongType(let f, let e): "\(f): expected \(e)"
        case .invalid(let f, let r): "\(f): \(r)"
        case .duplicateID(let f, let id): "\(f): duplicate id \"\(id)\""
        case .unknownLayout(let f, let v): "\(f): unknown layout \"\(v)\" (expected \"list\", \"grid\", \"columns\" or \"tree\")"
        }
    }
}
