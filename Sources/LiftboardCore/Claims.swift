/// Issue 44, holds across processes: with a shared store (`--store postgresql://`) an item is
/// held by one session in the whole deployment. The store decides who holds it (a claim, made
/// by the server at the press); its answer reaches the session as an input, recorded like a
/// `presence`, so that a replay gives the same bytes.
public enum ClaimInput: Hashable, Sendable {
    /// This session's holds go through the store: a press on an item asks for its claim
    /// (`Session.takeClaimAsks`), and the long press lifts it only once the claim is won.
    case required
    /// The store's answer to the claim of `item`: won (`holder` nil), or held by another
    /// session, `holder` its name.
    case answer(item: String, holder: String?)
    /// The claim of `item` could not be made (the store is down): the press lifts as on one
    /// process (its drop is refused while the store is down, as every drop is).
    case failed(item: String)
}

/// What a session knows of its claims (with `ClaimInput.required`): the items it asked the
/// store for and not yet handed to the server, and the store's answers it has not used.
struct ClaimTable: Sendable {
    var required = false
    /// Item ids asked for since the server last took them (`Session.takeClaimAsks`).
    var asks: [String] = []
    /// Claims won, by item id.
    var won: Set<String> = []
    /// Claims lost, item id to the holder's name.
    var lost: [String: String] = [:]
    /// Claims the store could not make.
    var failed: Set<String> = []
    /// The asks of each item not answered yet. The server answers every ask once, in order:
    /// only the answer to the last ask of an item counts (an earlier press's late answer does
    /// not lift a later press).
    var outstanding: [String: Int] = [:]
    /// The items a lift of an item would carry besides it (a selection's other items, a tree
    /// item's descendants), asked for with it: item id to theirs, as at the ask.
    var companions: [String: [String]] = [:]
    /// A keyboard lift, `moveTo` or tap-to-add waiting for its item's claim, in the order asked.
    var waiting: [ClaimWait] = []

    /// A fresh ask for `id`: an earlier answer about it no longer holds.
    mutating func ask(_ id: String) {
        forget(id)
        outstanding[id, default: 0] += 1
        asks.append(id)
    }

    private mutating func forget(_ id: String) {
        won.remove(id)
        lost[id] = nil
        failed.remove(id)
    }

    /// Takes an answer about `id`; false when a later ask of it is still outstanding (the
    /// answer is then not the one that counts).
    mutating func answer(_ id: String, holder: String?, failed didFail: Bool) -> Bool {
        if let n = outstanding[id] { outstanding[id] = n > 1 ? n - 1 : nil }
        guard outstanding[id] == nil else { return false }
        forget(id)
        if didFail { failed.insert(id) } else if let holder { lost[id] = holder } else { won.insert(id) }
        return true
    }

    /// Whether the store answered about `id` since it was last asked.
    func answered(_ id: String) -> Bool { outstanding[id] == nil && (won.contains(id) || lost[id] != nil || failed.contains(id)) }
}

/// Something a session does to an item once the store's answer to its claim is in (issue 44):
/// a keyboard lift, a `moveTo`, a tap-to-add. Won (or the store down), it is done then as it
/// would have been at once; lost, it gets `error` `held`.
enum ClaimWait: Hashable, Sendable {
    case keyLift(item: String)
    case moveTo(item: String, section: String, place: MovePlace)
    /// The item tapped to join the drag of `pointer`.
    case tapAdd(item: String, pointer: Int)

    var item: String {
        switch self {
        case .keyLift(let id), .moveTo(let id, _, _), .tapAdd(let id, _): id
        }
    }

    /// The words its `error` `held` begins with.
    var what: String {
        switch self {
        case .keyLift: "keyboard lift"
        case .moveTo: "moveTo"
        case .tapAdd: "tap-to-add"
        }
    }
}
