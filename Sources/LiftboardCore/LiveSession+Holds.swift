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
        liftedBy.others.isEmpty ? nil : liftedBy.holder(of: arr.ids[h])
    }

    /// Takes the holds of `p` not this session's own as the items others hold; the cells
    /// whose holder changed are sent again in this step's frame. Its own are told apart by
    /// what it lifts, not by its id: a presence lists them as they are when it is delivered
    /// (the hub hears of every lift and drop at once), and a replay's session has another id.
    /// A session that lifts nothing and is listed holding nothing (a watcher) takes the
    /// presence's own table (`Presence.heldNames`: built once for every session); a frame is
    /// due only when an item of the window it was last sent changed holder (the others come
    /// whole, `heldBy` with them, when they enter it).
    mutating func othersHold(_ p: Presence) {
        if drags.isEmpty, !p.holding.contains(identity.sessionID) {
            // When this session's table is the one of the presence `p` follows (the hub's
            // presences, one after another), the items that changed holder are known: only
            // they are looked for in the window. Otherwise (a replay's presences, read from
            // the recording; a table changed here since) every cell of the window is compared.
            // Both find the same cells.
            let shown: Bool
            if let link = p.link, link.base != 0, liftedBy.othersFrom == link.base {
                shown = windowShows(link.changed)
            } else {
                shown = windowDiffers(p.heldNames)
            }
            liftedBy.take(p.heldNames, from: p.link?.serial ?? 0)
            if shown { step.cellsDirty = true }
            return
        }
        var others: [String: String] = [:], held: [(h: Int, name: String)] = [], onBoard = true
        for e in p.people where e.session != identity.sessionID {
            for id in e.holds where others[id] == nil {
                // An item not on this session's board now (in a trash, not yet added) is
                // kept: it is held still when it comes back.
                let h = arr.handleOf[id]
                if let h, liftedBy[h] != nil { continue }
                others[id] = e.name
                if let h { held.append((h, e.name)) } else { onBoard = false }
            }
        }
        held.sort { $0.h < $1.h }
        // By handle only when every held item is on the board, now and the last time.
        let shown = onBoard ? liftedBy.othersHeld.map { windowShows(others, changedFrom: $0, to: held) } ?? windowDiffers(others)
            : windowDiffers(others)
        liftedBy.others = others
        if onBoard { liftedBy.othersHeld = held }
        if shown { step.cellsDirty = true }
    }

    /// `windowDiffers(others)` for a dragging session whose `others` by handle were `old` and are
    /// `new` (both sorted, every item of both on the board): one walk finds the handles whose
    /// holder may have changed, and only those in the window are compared by id.
    /// A dragging session's window is compared as often as a watcher's, and hashing each of
    /// its cells' ids twice cost it more than the rest of its `presence`.
    private func windowShows(_ others: [String: String], changedFrom old: [(h: Int, name: String)], to new: [(h: Int, name: String)]) -> Bool {
        var i = 0, j = 0
        while i < old.count || j < new.count {
            let h: Int
            if j == new.count || (i < old.count && old[i].h < new[j].h) {
                h = old[i].h; i += 1
            } else if i == old.count || new[j].h < old[i].h {
                h = new[j].h; j += 1
            } else {
                h = new[j].h
                let same = old[i].name == new[j].name
                i += 1; j += 1
                if same { continue }
            }
            if h < arr.ids.count, sent.order.contains(h), others[arr.ids[h]] != liftedBy.others[arr.ids[h]] { return true }
        }
        return false
    }

    /// Whether a cell of the window last sent has another holder in `others` than now: only
    /// the window's cells are compared (a dozen, not every hold on the board): the frame diffs
    /// no other.
    private func windowDiffers(_ others: [String: String]) -> Bool {
        guard !others.isEmpty || !liftedBy.others.isEmpty else { return false }
        for h in sent.order where h < arr.ids.count {
            let id = arr.ids[h]
            if others[id] != liftedBy.others[id] { return true }
        }
        return false
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
        guard !liftedBy.others.isEmpty else { return nil }
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
        guard let name = liftedBy.others[arr.ids[h]] else { return 0 }
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

extension LiftTable {
    /// `others[id]`, out of line (`LiveSession.heldByOther`).
    @inline(never) func holder(of id: String) -> String? { others[id] }
}
