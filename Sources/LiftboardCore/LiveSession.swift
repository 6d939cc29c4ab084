/// The interval of auto-scroll and deceleration ticks: 60 per second.
let tickMs = 1000.0 / 60.0

/// One pointer that is down.
struct PointerState: Sendable {
    enum Phase: Sendable {
        /// The long press may still begin.
        case pending
        /// The press failed by moving: the pointer pans the content.
        case panning
        /// The press began over nothing movable: nothing happens until `up`.
        case inert
        /// The press began on a movable item: it is lifted.
        case dragging
    }
    let id: Int
    let kind: PointerKind?
    /// The modifier keys held at `down` (a click's selection).
    var mods: Modifiers = []
    var recognizer: LongPressRecognizer
    var phase: Phase = .pending
    var position: Point
    let scrollAtDown: Double
    /// Recent (time, y) samples for the pan's release velocity (columns: along its axis).
    var samples: [(t: Double, y: Double)] = []
    /// Columns: the board's offset at `down`, the column under it and that column's offset,
    /// and the axis the pan locked to once it moved past `allowableMovement`.
    var scrollXAtDown: Double = 0
    var columnAtDown: Int? = nil
    var columnScrollAtDown: Double = 0
    var panAxis: PanAxis? = nil
    /// The long press began over an item the session's role may not lift (issue 42): a tap by
    /// another pointer meanwhile is a tap-to-add, refused (`role_forbids`).
    var roleRefused = false
    /// Issue 44 (`ClaimInput.required`): the item (its id: an edit's rebuild renumbers the
    /// handles while the answer is on its way) whose claim this pointer asked for, and
    /// whether its long press began and waits for the store's answer.
    var claim: String? = nil
    var awaitingClaim = false
}

/// The axis a columns board's pan locked to (UIScrollView's directional lock).
enum PanAxis: Sendable { case x, y }

/// A lifted item following a pointer (or the keyboard, pointer -1).
struct Drag: Sendable {
    let pointer: Int
    var item: Int
    /// Snapshot center minus pointer position at the lift (viewport coordinates).
    let grabOffset: Point
    /// The snapshot's center (viewport coordinates).
    var center: Point
    /// `follow: "quiet"`: the center this client was last sent for this drag.
    var sentCenter: Point? = nil
    let size: Size
    /// Grid: the region under the center after the last retarget (edge-triggered entering).
    var lastRegion: Region? = nil
    /// The center's content y at the drag's previous retarget (at the lift, its cell's), and
    /// which way it last moved vertically (`nil`: not yet): which way the center went into a
    /// grid header (`headerGoesDown`).
    var retargetY: Double = 0
    var goingDown: Bool? = nil
    /// Swap mode: the item's section in the committed order, and the item it is exchanged
    /// with now.
    var liftSection: Int
    var swapTarget: Int? = nil
    /// A multi-item drag: every item it carries in the order they land (its own included),
    /// the others parked out of the order; empty while it carries its own item alone.
    var group: [Int] = []
    /// The sections that refuse what it carries, by section index (empty: none refuses):
    /// computed at the lift and again when what it carries or the committed order changes.
    var refused: [Bool] = []
    /// A drag out of a palette (`copy`): the palette's section index. It drops a copy; the
    /// palette refuses it (its own order never changes), and over it the drop is a cancel.
    var copyFrom: Int? = nil
    /// The refusing section its center is over (the snapshot's `forbidden`), if any.
    var forbiddenIn: Int? = nil
    var forbidden: Bool { forbiddenIn != nil }
    /// Trees: the subtree it carries and its projected depth.
    var tree: TreeDrag? = nil
    /// The items it carries: its group, or its own item.
    var carried: [Int] { group.isEmpty ? [item] : group }
    /// The items carried besides its own.
    var extras: [Int] { group.filter { $0 != item } }
}

/// Which pointer has lifted each item (by handle): read for every cell of every frame, so an
/// array rather than a dictionary.
struct LiftTable: Sendable {
    private var pointer: [Int]
    private static let none = Int.min
    private(set) var count = 0
    /// The items other sessions hold (issue 44), by id: they outlive a rebuild.
    var others = HeldByOthers()
    /// `others` read by handle (`LiveSession.holderNumber`): made again with the table.
    var memo = HolderMemo()

    init(count: Int) { pointer = Array(repeating: Self.none, count: count) }

    subscript(h: Int) -> Int? {
        get { pointer[h] == Self.none ? nil : pointer[h] }
        set {
            let was = pointer[h] != Self.none
            pointer[h] = newValue ?? Self.none
            count += (newValue != nil ? 1 : 0) - (was ? 1 : 0)
        }
    }
}

/// A fling's deceleration after a pan (UIScrollView's normal rate).
struct Deceleration: Sendable {
    /// Content velocity in px/ms.
    var velocity: Double
    var nextTick: Double
}

/// The session after `hello`: everything the engine knows about one client.
struct LiveSession: Sendable {
    /// This session's own facts (its id, frame count, last `seq`, last input), apart from
    /// the view it may share with others (`Session.adoptView`).
    var identity: Identity
    let boardID: String
    let config: SessionConfig
    var viewport: Viewport

    // The model.
    var arr: Arrangement
    var base: [[Int]]
    var version: Int
    /// Swap mode only: the layout of the committed order, the fixed reference of swap targets.
    var committedLayout: Arrangement?
    /// A pinned item's index in the committed order: where it stays while others move.
    var pinnedHome: [Int]
    /// Offsets and what moves them on its own (flings, decelerations, edge auto-scroll).
    var scrolling = Scrolling()

    // Gestures.
    var pointers: [PointerState] = []
    var drags: [Drag] = []
    var liftedBy: LiftTable
    var focus: Int? = nil
    var keyboardStarted = false
    var selection: Selection
    /// This session's commits, newest last, for `undo`.
    var undoStack: [OwnCommit] = []
    /// Holds across processes (issue 44, `LiveSession+Claims.swift`).
    var claims = ClaimTable()

    /// What the client has been sent, and the buffers the next frame reuses.
    var sent: SentState
    static let recycledCellsMax = 8

    // The step being assembled (one input or one timer).
    var step = Step()

    struct SentCell: Sendable, Equatable {
        var frame: Rect
        var hidden: Bool
        var section: Int
        var index: Int
        var selected: Bool = false
        /// The holder's number in `sent.holders` (0: nobody else holds it): a number, not the
        /// name, so that a `SentCell` stays plain data, copied and compared without retains.
        var heldBy: Int32 = 0
        /// Trees: what the client has of the row's facts.
        var tree: SentTree? = nil
    }

    struct Step: Sendable {
        var gestures: [ServerEvent] = []
        var commits: [ServerEvent] = []
        var announces: [ServerEvent] = []
        var errors: [ServerEvent] = []
        var snapshots: [SnapshotUpdate] = []
        /// A pointer drag's follow (`followPointer`), made the first of `snapshots` only for a frame that goes out (`placeFollow`).
        var follow: (p: Int, item: Int, center: Point)? = nil
        var cellsDirty = false
        /// The reorder engine moved items (`Arrangement.changes` says which): a frame compares
        /// only those cells when nothing else made every cell dirty.
        var reordered = false
        /// The one cell whose visibility changed (a lift hides it, a drop shows it again).
        var restyled: Int? = nil
        var shiftDur: Double = 0
        /// Edits: items new on the board (faded in), items taken off it (faded out), items whose
        /// label, color or movability changed (sent whole again).
        var appeared: Set<String> = []
        var removed: [String] = []
        var refreshed: Set<Int> = []
        var scrollDur: Double? = nil
        var forceFrame = false
    }

    init(sessionID: String, person: Person = .open, board: Board, hello: Hello, at now: Double) {
        identity = Identity(sessionID: sessionID, frameSeq: 0, lastSeq: nil, lastInput: now, person: person)
        boardID = board.id
        config = hello.config
        viewport = hello.viewport
        arr = Arrangement(board: board, width: hello.viewport.w)
        base = arr.members
        version = board.version
        committedLayout = hello.config.mode == .swap ? arr : nil
        pinnedHome = Array(repeating: 0, count: arr.itemCount)
        sent = SentState(slot: Array(repeating: -1, count: arr.itemCount))
        liftedBy = LiftTable(count: arr.itemCount)
        selection = Selection(marked: Array(repeating: false, count: arr.itemCount))
        scrolling.columns = Array(repeating: 0, count: arr.scrollsSections ? arr.sectionCount : 0)
        resetPinnedHomes()
        if arr.tree != nil {
            var rows = base
            visibleRows(&rows)
            arr.setOrder(rows)
        }
    }

    @inline(__always) var maxScroll: Double { max(0, arr.contentHeight - viewport.h) }
    func clampScroll(_ y: Double) -> Double { min(max(0, y), maxScroll) }
    func dur(_ ms: Double) -> Double { config.reducedMotion ? 0 : ms }

    var baseOrder: [SectionOrder] {
        base.enumerated().map {
            var o = SectionOrder(section: arr.sectionIDs[$0.offset], items: $0.element.map { arr.ids[$0] })
            if arr.tree != nil { o.parents = committedParents($0.offset) }
            return o
        }
    }

    mutating func resetPinnedHomes() {
        for s in base.indices { for (i, h) in base[s].enumerated() where !arr.movable[h] { pinnedHome[h] = i } }
    }

    /// `welcome` and the first `layout`.
    mutating func start(seq: Int?, at now: Double) -> [ServerEvent] {
        identity.lastSeq = seq
        var welcome = Welcome(session: identity.sessionID, board: boardID, config: config)
        welcome.tree = arr.tree != nil
        return [.welcome(welcome), makeLayout()]
    }

    // MARK: Dispatch

    /// Handles `event`, appending what it answers to `out` (a driver's buffer, reused from
    /// input to input).
    mutating func handle(_ event: ClientEvent, seq: Int?, at now: Double, into out: inout [ServerEvent]) {
        if case .move(let p, let at) = event { return move(p, to: at, seq: seq, at: now, into: &out) }
        fire(at: now, into: &out)
        if let seq { identity.lastSeq = max(identity.lastSeq ?? seq, seq) }
        switch event {
        case .hello, .move, .advance, .resync, .rebase:
            // `move` is above; `Session` answers hello, resync and rebase before they get here;
            // `advance` only moves the clock (the timers due fired above).
            break
        case .down(let p, let at, let kind, let mods, let button):
            pointerDown(p, at: at, kind: kind, mods: mods, button: button, now: now)
        case .up(let p, let at):
            pointerUp(p, at: at, now: now)
        case .cancel(let p):
            pointerCancel(p, now: now)
        case .wheel(let dx, let dy, let at):
            identity.lastInput = now
            scrolling.deceleration = nil
            if scrollsSections { wheelColumns(dx: dx, dy: dy, at: at, now: now) } else { scroll(to: scrolling.y + dy, now: now) }
        case .resize(let vp):
            identity.lastInput = now
            viewport = vp
            arr.relayout(width: vp.w)
            scrolling.y = clampScroll(scrolling.y)
            clampColumnScrolls()
            committedLayout?.relayout(width: vp.w)
            for k in drags.indices { drags[k].lastRegion = nil }
            flushStep(at: now, into: &out)
            out.append(makeLayout())
            return
        case .key(let key, let mods):
            identity.lastInput = now
            handleKey(key, mods: mods, now: now)
        case .ping(let id):
            step.gestures.append(.pong(id: id, ms: now))
        case .undo:
            undo(now: now)
        case .moveTo(let id, let section, let place):
            identity.lastInput = now
            moveTo(id, section: section, place: place, now: now)
        case .toggle(let id):
            identity.lastInput = now
            toggle(id, now: now)
        case .external(let commit):
            applyExternal(commit, now: now)
        case .claim(let c):
            claimInput(c, now: now)
        case .presence(let p):
            othersHold(p)
            flushStep(at: now, into: &out)
            out.append(presenceMessage(p))
            return
        }
        flushStep(at: now, into: &out)
    }

    /// A move as one step: the timers due first, then the pointer's move, then the frame.
    mutating func move(_ p: Int, to at: Point, seq: Int?, at now: Double, into out: inout [ServerEvent]) {
        fire(at: now, into: &out)
        if let seq { identity.lastSeq = max(identity.lastSeq ?? seq, seq) }
        pointerMove(p, to: at, now: now)
        flushStep(at: now, into: &out)
    }

    /// Fires every timer due at or before `now`, earliest first, each as its own step.
    mutating func fire(at now: Double, into out: inout [ServerEvent]) {
        var guardCount = 0
        while let (due, timer) = nextTimer(), due <= now, guardCount < 100_000 {
            guardCount += 1
            fireTimer(timer, at: due)
            flushStep(at: due, into: &out)
        }
    }

    enum Timer { case press(Int), autoScroll, deceleration, fling(Int), idleReset, spring(Int) }

    /// The earliest pending timer; ties go to presses, then auto-scroll, deceleration, idle.
    /// Always inlined, as `idleResetDeadline`: every input asks (`fire`, `Session.nextDeadline`),
    /// from mutating code, and a call of a non-mutating method from there that is not inlined
    /// is passed a copy of the whole session (1.2 KB, memcpy'd) as its `self`.
    @inline(__always) func nextTimer() -> (Double, Timer)? {
        // Each candidate in turn, the earliest kept (the first of equals). Spelled out rather
        // than a nested function: a `var` captured by one is checked for exclusivity at run time
        // on every access (swift_beginAccess), twice an input here.
        var best: (Double, Timer)? = nil
        for p in pointers {
            if let t = p.recognizer.deadline, best == nil || t < best!.0 { best = (t, .press(p.id)) }
        }
        if let t = scrolling.autoScrollAt, best == nil || t < best!.0 { best = (t, .autoScroll) }
        if let t = scrolling.deceleration?.nextTick, best == nil || t < best!.0 { best = (t, .deceleration) }
        for (i, f) in scrolling.flings.enumerated() where best == nil || f.nextTick < best!.0 { best = (f.nextTick, .fling(i)) }
        if let t = idleResetDeadline, best == nil || t < best!.0 { best = (t, .idleReset) }
        if arr.tree != nil {
            for (k, d) in drags.enumerated() {
                if let s = d.tree, s.spring >= 0, best == nil || s.springSince + config.springMs < best!.0 { best = (s.springSince + config.springMs, .spring(k)) }
            }
        }
        return best
    }

    var nextDeadline: Double? { nextTimer()?.0 }

    /// `nextDeadline` for `Session`, which reads it through its box on every input (to arm the
    /// connection's timer). Mutating only so that the read is made where the session is: a
    /// plain read of a computed property through the box copies the whole session first. It
    /// changes nothing (a box shared by sessions of the same view stays as it was).
    mutating func nextDeadlineInPlace() -> Double? { nextTimer()?.0 }

    @inline(__always) var idleResetDeadline: Double? {
        guard config.idleResetMs > 0, pointers.isEmpty, drags.isEmpty, scrolling.deceleration == nil, scrolling.flings.isEmpty,
              scrolling.y != 0 || scrolling.x != 0 || scrolling.columns.contains(where: { $0 != 0 }) else { return nil }
        return identity.lastInput + config.idleResetMs
    }

    mutating func fireTimer(_ timer: Timer, at now: Double) {
        switch timer {
        case .press(let p): pressBegan(p, now: now)
        case .autoScroll: autoScrollTick(now: now)
        case .deceleration: decelerationTick(now: now)
        case .fling(let i): flingTick(i, now: now)
        case .spring(let k): springOpen(k, now: now)
        case .idleReset:
            identity.lastInput = now
            if scrolling.y != 0 || scrolling.x != 0 || scrolling.columns.contains(where: { $0 != 0 }) {
                scrolling.y = 0
                scrolling.x = 0
                for k in scrolling.columns.indices { scrolling.columns[k] = 0 }
                step.scrollDur = dur(500)
                step.cellsDirty = true
            }
        }
    }

    // MARK: Invariants

    func invariantViolations() -> [String] {
        var v = arr.invariantViolations()
        if scrolling.y < 0 || scrolling.y > maxScroll + 1e-9 { v.append("scroll \(scrolling.y) outside [0, \(maxScroll)]") }
        if scrollsSections {
            if scrolling.columns.count != arr.sectionCount { v.append("\(scrolling.columns.count) column offsets for \(arr.sectionCount) columns") }
            if scrolling.x < 0 || scrolling.x > maxScrollX + 1e-9 { v.append("scroll.x \(scrolling.x) outside [0, \(maxScrollX)]") }
            for k in scrolling.columns.indices where k < arr.sectionCount && (scrolling.columns[k] < 0 || scrolling.columns[k] > maxColumnScroll(k) + 1e-9) {
                v.append("column \(arr.sectionIDs[k]) scroll \(scrolling.columns[k]) outside [0, \(maxColumnScroll(k))]")
            }
        }
        for d in drags where liftedBy[d.item] != d.pointer { v.append("drag of \(arr.ids[d.item]) not in liftedBy") }
        let carried = drags.reduce(0) { $0 + $1.extras.count }
        if liftedBy.count != drags.count + carried { v.append("liftedBy has \(liftedBy.count) entries for \(drags.count) drags carrying \(carried) more") }
        // Exactly the items drags carry besides their own are out of the order.
        for d in drags {
            if arr.isParked(d.item) { v.append("drag of \(arr.ids[d.item]) is parked") }
            if !d.group.isEmpty && (d.group.first(where: { $0 == d.item }) == nil || config.mode == .swap) {
                v.append("group of \(arr.ids[d.item]) is malformed")
            }
            for x in d.extras where !arr.isParked(x) || liftedBy[x] != d.pointer { v.append("carried \(arr.ids[x]) is not parked by its drag") }
        }
        let parked = (0..<arr.itemCount).filter(arr.isParked).count
        if parked != carried && arr.tree == nil { v.append("\(parked) items parked, \(carried) carried") }
        if selection.marked.filter({ $0 }).count != selection.count { v.append("selectionCount is stale") }
        for d in drags where d.pointer >= 0 && !pointers.contains(where: { $0.id == d.pointer && $0.phase == .dragging }) {
            v.append("drag of pointer \(d.pointer) has no dragging pointer")
        }
        // The committed order names every item once.
        var seen = Set<Int>()
        for s in base { for h in s { if !seen.insert(h).inserted { v.append("base names \(arr.ids[h]) twice") } } }
        if seen.count != arr.itemCount { v.append("base names \(seen.count) of \(arr.itemCount) items") }
        // Pinned items sit at their homes, clamped, in the live order.
        for s in 0..<arr.sectionCount where arr.pinnedNow[s] > 0 {
            let m = arr.members[s]
            let pinned = m.filter { !arr.movable[$0] }.sorted { pinnedHome[$0] < pinnedHome[$1] }
            for (j, p) in pinned.enumerated() {
                let want = min(pinnedHome[p], m.count - pinned.count + j)
                if arr.indexOf[p] != want { v.append("pinned \(arr.ids[p]) at \(arr.indexOf[p]), home \(want)") }
            }
        }
        v += treeInvariantViolations()
        return v
    }
}
