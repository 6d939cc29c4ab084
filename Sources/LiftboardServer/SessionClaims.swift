import LiftboardStore

/// Issue 44, holds across processes: the claims one session has in the shared store, and
/// what to ask next, as a value (`ConnectionMachine.planClaims`); `Connection` hands the plan
/// to the store's `ClaimBroker`, which answers each claim once, in order.
struct SessionClaims: Equatable {
    /// The items claimed for the session (won, or asked and not answered), released when the
    /// session no longer wants them.
    private(set) var held: Set<String> = []

    /// What one step asks of the store.
    struct Plan: Equatable {
        var claim: [String] = []
        var release: [String] = []
        var isEmpty: Bool { claim.isEmpty && release.isEmpty }
    }

    /// The session asked for `asks` (each one claim, answered once) and wants `wanted` now
    /// (its pressed and lifted items): the claims to make and those to give up.
    mutating func plan(asks: [String], wanted: Set<String>) -> Plan {
        var p = Plan(claim: asks)
        if !held.isEmpty {
            p.release = held.filter { !wanted.contains($0) && !asks.contains($0) }.sorted()
            for id in p.release { held.remove(id) }
        }
        // A lifted group's other items, and a tree's descendants, were never pressed: they are
        // claimed when the lift makes them held.
        for id in wanted.sorted() where !held.contains(id) && !asks.contains(id) { p.claim.append(id) }
        held.formUnion(p.claim)
        return p
    }

    /// The session ended: every claim goes.
    mutating func releaseAll() -> [String] {
        defer { held.removeAll() }
        return held.sorted()
    }
}
