/// Items other sessions hold (issue 44, contract "Presence and holds"). They reach a session as
/// `presence` inputs (live from the hub, in a replay from the recording), so a session's output
/// follows from its inputs alone. A held item does not lift here: a press on it announces who
/// moves it, a keyboard lift, `moveTo` or tap-to-add gets `error` `held`; its cells carry
/// `heldBy` (the holder's name) while it is held.
extension LiveSession {
    /// The name of the other session holding item `h`, or nil. The common case (nobody else
    /// holds anything) costs one test of an empty dictionary; the lookup is out of line, so
    /// that the diffs that inline this stay small enough to be inlined themselves.
    @inline(__always) func heldByOther(_ h: Int) -> String? {
        liftedBy.others.none ? nil : liftedBy.others.holder(of: arr.ids[h])
    }

    /// Takes the holds of `p` not this session's own as the items others hold; the cells
    /// whose holder changed are sent again in this step's frame. Its own are told apart by
    /// what it lifts, not by its id: a presence lists them as they are when it is delivered
    /// (the hub hears of every lift and drop at once), and a replay's session has another id.
    /// A session whose own entry lists exactly what it lifts (a watcher: nothing) takes the
    /// presence's own table (`Presence.heldNames`: built once for every session) less those
    /// items; a frame is due only when an item of the window it was last sent changed holder
    /// (the others come whole, `heldBy` with them, when they enter it).
    mutating func othersHold(_ p: Presence) {
        if let mine = ownHolds(in: p) {
            // When this session's table is the one of the presence `p` follows (the hub's
            // presences, one after another) less the same items, the items that changed holder
            // are known: only they are looked for in the window. Otherwise (a replay's
            // presences, read from the recording; a table changed here since) every cell of the
            // window is compared. Both find the same cells.
            let shown: Bool, was = liftedBy.others.stamp
            if let link = p.link, link.base != 0, liftedBy.others.from == link.base, liftedBy.others.mine == mine {
                shown = windowShows(link.changed.subtracting(mine))
                liftedBy.others.take(p.heldNames, less: mine, from: link.serial)
                // Only the changed items have another holder: the memo keeps the others.
                if liftedBy.memo.stamp == was {
                    for id in link.changed { if let h = arr.handleOf[id] { liftedBy.memo.forget(h) } }
                    liftedBy.memo.stamp = liftedBy.others.stamp
                }
            } else {
                shown = windowDiffers(none: p.heldNames.count == mine.count) { mine.contains($0) ? nil : p.heldNames[$0] }
                liftedBy.others.take(p.heldNames, less: mine, from: p.link?.serial ?? 0)
            }
            if shown { step.cellsDirty = true }
            return
        }
        var others: [String: String] = [:]
        for e in p.people where e.session != identity.sessionID {
            for id in e.holds where others[id] == nil {
                // An item not on this session's board now (in a trash, not yet added) is
                // kept: it is held still when it comes back.
                if let h = arr.handleOf[id], liftedBy[h] != nil { continue }
                others[id] = e.name
            }
        }
        let shown = windowDiffers(none: others.isEmpty) { others[$0] }
        liftedBy.others.names = others
        if shown { step.cellsDirty = true }
    }

    /// The holds of this session's own entry in `p`, when they are exactly the items it lifts
    /// (none for a session not listed that lifts nothing): then the items others hold are
    /// `p.heldNames` less them, the table the walk in `othersHold` would make. Nil when they
    /// differ (a presence made before a lift or a drop it is delivered after, two entries).
    private func ownHolds(in p: Presence) -> [String]? {
        guard let k = p.holding[identity.sessionID] else { return liftedBy.count == 0 ? [] : nil }
        guard k >= 0, p.people[k].holds.count == liftedBy.count else { return nil }
        let holds = p.people[k].holds
        for (i, id) in holds.enumerated() {
            guard let h = arr.handleOf[id], liftedBy[h] != nil, !holds[..<i].contains(id) else { return nil }
        }
        return holds
    }

    /// Whether a cell of the window last sent has another holder by `holder` than now (`none`:
    /// `holder` names nobody): only the window's cells are compared (a dozen, not every hold on
    /// the board): the frame diffs no other.
    private func windowDiffers(none: Bool, _ holder: (String) -> String?) -> Bool {
        if none && liftedBy.others.none { return false }
        return sent.order.contains { $0 < arr.ids.count && holder(arr.ids[$0]) != liftedBy.others.holder(of: arr.ids[$0]) }
    }

    /// Whether an item of `changed` (ids whose holder changed) is in the window last sent:
    /// each changed item looked up, or, when they outnumber a quarter of the window, each cell.
    private func windowShows(_ changed: Set<String>) -> Bool {
        if changed.isEmpty { return false }
        if changed.count * 4 > sent.order.count {
            return sent.order.contains { $0 < arr.ids.count && changed.contains(arr.ids[$0]) }
        }
        return changed.contains { id in arr.handleOf[id].map { sent.order.contains($0) } ?? false }
    }

    /// Refuses a lift of `h` by `what` (a keyboard lift, `moveTo`, tap-to-add) when another
    /// session holds it: `error` `held` naming the holder, and the same words announced.
    mutating func refuseHeld(_ h: Int, by what: String) -> Bool {
        guard let (holder, x) = heldInSubtree(h) else { return false }
        step.errors.append(.error(code: .held, message: "\(what): \(arr.ids[x]) is held by \(holder)"))
        announce("\(holder) is moving \(arr.labels[x]).")
        return true
    }

    /// Who holds `h` or, on a tree, the first of its descendants another session holds (they
    /// would travel with it): the holder's name and that item. Nobody else holding anything
    /// costs one test.
    func heldInSubtree(_ h: Int) -> (holder: String, item: Int)? {
        guard !liftedBy.others.none else { return nil }
        if let holder = heldByOther(h) { return (holder, h) }
        guard arr.tree != nil else { return nil }
        for x in companions(of: h, selection: false) { if let holder = heldByOther(x) { return (holder, x) } }
        return nil
    }
}

/// Holders' names in what the client was sent (`SentCell.heldBy`).
extension LiveSession {
    /// `SentCell.heldBy` of `h` when others hold something: its holder's number, or 0. Out of
    /// line: `sentCell` is inlined into every diff.
    @inline(never) mutating func holderNumber(_ h: Int) -> Int32 {
        if liftedBy.memo.stamp != liftedBy.others.stamp { liftedBy.memo.reset(count: arr.itemCount, stamp: liftedBy.others.stamp) }
        let name: String?
        if let known = liftedBy.memo[h] {
            name = known.name
        } else {
            name = liftedBy.others.holder(of: arr.ids[h])
            liftedBy.memo[h] = .init(name: name)
        }
        guard let name else { return 0 }
        return sent.holders.number(name)
    }

    /// Renumbers `sent.holders` to the holders the client's cells name, when holders come and
    /// go long enough for the table to grow past `HolderNames.compactAt`.
    mutating func compactHolders() {
        var kept = HolderNames()
        for k in sent.cells.indices where sent.cells[k].heldBy != 0 {
            sent.cells[k].heldBy = kept.number(sent.holders.name(sent.cells[k].heldBy)!)
        }
        sent.holders = kept
    }
}

/// Holders' names by number (1 on; 0 is nobody), for `SentCell.heldBy`: a name keeps its number
/// while the table lives, so equal numbers mean equal names. Emptied by a whole layout and
/// renumbered when it grows past `compactAt` (`LiveSession.compactHolders`).
struct HolderNames: Sendable {
    private(set) var names: [String] = []
    private var numbers: [String: Int32] = [:]
    static let compactAt = 64

    mutating func number(_ name: String) -> Int32 {
        if let n = numbers[name] { return n }
        names.append(name)
        let n = Int32(names.count)
        numbers[name] = n
        return n
    }

    func name(_ n: Int32) -> String? { n == 0 ? nil : names[Int(n) - 1] }

    mutating func removeAll() {
        names.removeAll()
        numbers.removeAll()
    }
}

/// The items another session holds, id to the holder's name (the last `presence` input, this
/// session's own holds left out; usually empty: a frame's cells look only then): a presence's
/// table, shared as is (`Presence.heldNames`), less the items this session lifts (`mine`, a few
/// ids of `table`).
struct HeldByOthers: Sendable {
    private(set) var table: [String: String] = [:], mine: [String] = []
    /// The number (`Presence.Link.serial`) of the presence whose `heldNames` `table` is, taken
    /// whole; 0 once it is anything else.
    private(set) var from = 0
    /// Counts the changes (`HolderMemo.stamp`): a memo read from another stamp is stale.
    private(set) var stamp = 0
    var names: [String: String] {
        get { mine.isEmpty ? table : table.filter { !mine.contains($0.key) } }
        set { (table, mine, from, stamp) = (newValue, [], 0, stamp + 1) }
    }
    var none: Bool { table.count == mine.count }

    /// Takes a presence's table less what this session lifts (`othersHold`): the next presence
    /// that follows it compares only what changed.
    mutating func take(_ names: [String: String], less lifted: [String], from serial: Int) {
        (table, mine, from, stamp) = (names, lifted.filter { names[$0] != nil }, serial, stamp + 1)
    }

    /// `names[id]`, out of line (`LiveSession.heldByOther`).
    @inline(never) func holder(of id: String) -> String? { mine.contains(id) ? nil : table[id] }
}

/// The holder of each handle as last read from `HeldByOthers` (`LiveSession.holderNumber`): a
/// frame of the whole window compares every cell's holder, and a lookup by id hashes a string
/// (about 500 Ir a cell with fifty holders, by callgrind at 500 watchers and 50 dragging). Good
/// while the table it was read from stands (`stamp`), and across a presence that names what
/// changed (`LiveSession.othersHold` forgets only those items). Made again with its `LiftTable`
/// when the arrangement is rebuilt, so a handle always means the item it meant.
struct HolderMemo: Sendable {
    struct Known: Sendable { let name: String? }
    /// `HeldByOthers.stamp` of the table read; -1: none.
    var stamp = -1
    private var names: [String?] = []
    /// The generation each slot was read in (0: never); a slot of another generation is unknown,
    /// so that forgetting everything is one increment, not a fill of the board's length.
    private var readIn: [UInt32] = []
    private var generation: UInt32 = 1

    subscript(h: Int) -> Known? {
        get { readIn[h] == generation ? Known(name: names[h]) : nil }
        set {
            names[h] = newValue?.name
            readIn[h] = newValue == nil ? 0 : generation
        }
    }

    /// Forgets everything: the table read is now the one of `stamp`.
    mutating func reset(count: Int, stamp: Int) {
        if readIn.count != count || generation == .max {
            names = Array(repeating: nil, count: count)
            readIn = Array(repeating: 0, count: count)
            generation = 1
        } else {
            generation += 1
        }
        self.stamp = stamp
    }

    /// Item `h` may have another holder: it is read again.
    mutating func forget(_ h: Int) { if h < readIn.count { readIn[h] = 0 } }
}
