/// What this session holds (issue 44), for the hub's `presence`: the items its drags carry
/// and where the latest would drop. Read through the box in place (`liveBox`).
extension Session {
    /// Issue 44: the items this session's drags carry, in the order they were lifted (on a
    /// tree, a lifted item's descendants after it, in pre-order: they travel with it).
    /// Read in place, through the box and by index: `live?.session` copied the whole live
    /// session, and `for d in drags` each drag, on every `moved`.
    public var holds: [String] {
        guard let box = liveBox, !box.session.drags.isEmpty else { return [] }
        var ids: [String] = []
        for k in box.session.drags.indices {
            if box.session.drags[k].group.isEmpty {
                ids.append(box.session.arr.ids[box.session.drags[k].item])
            } else {
                for h in box.session.drags[k].group { ids.append(box.session.arr.ids[h]) }
            }
            if let t = box.session.drags[k].tree {
                for h in t.descendants { ids.append(box.session.arr.ids[h]) }
            }
        }
        return ids
    }

    /// Issue 44: where the latest drag would drop now (its item's live place), if any.
    public var holdTarget: Place? {
        guard let box = liveBox, let d = box.session.drags.last else { return nil }
        return box.session.arr.place(of: d.item)
    }
}

/// Issue 44's claims: what the server asks the shared store for on this session's behalf.
extension Session {
    /// Issue 44, holds across processes: the items this session needs claimed in the store now
    /// (its pressed pointers' and its drags'), and the claims it asked for since the last call
    /// (each is answered once, by a `claim` input: `ClaimInput`).
    public var claimsWanted: Set<String> { liveBox?.session.claimsWanted ?? [] }

    public mutating func takeClaimAsks() -> [String] {
        guard liveBox?.session.claims.asks.isEmpty == false else { return [] }
        return withLive { s in
            defer { s.claims.asks.removeAll() }
            return s.claims.asks
        } ?? []
    }
}
