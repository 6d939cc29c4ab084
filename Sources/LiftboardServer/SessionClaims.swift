import LiftboardCore
import LiftboardStore

/// Issue 44, holds across processes: the claims one session has in the shared store, and
/// what to ask next, as a value (`ConnectionMachine.planClaims`); `Connection` hands the plan
/// to the store's `ClaimBroker`, which answers each claim once, in order.
struct SessionClaims: Equatable {
    /// The items claimed for the session (won, or asked and not answered), released when the
    /// session no longer wants them.
    private(set) var held: Set<String> = []
    /// The target last written for the session's holds (`ClaimBroker.Request.target`).
    private(set) var target: Place?

    /// What one step asks of the store.
    struct Plan: Equatable {
        var claim: [String] = []
        var release: [String] = []
        /// The session's holds have a new target (its `moved`): written after the claims.
        var target: Place?
        var isEmpty: Bool { claim.isEmpty && release.isEmpty && target == nil }
    }

    /// The session asked for `asks` (each one claim, answered once) and wants `wanted` now
    /// (its pressed and lifted items), its latest drag dropping at `target` now: the claims to
    /// make, those to give up, and the target when it moved (place-level: a pointer move that
    /// changes no place writes nothing).
    mutating func plan(asks: [String], wanted: Set<String>, target now: Place? = nil) -> Plan {
        var p = Plan(claim: asks)
        if !held.isEmpty {
            p.release = held.filter { !wanted.contains($0) && !asks.contains($0) }.sorted()
            for id in p.release { held.remove(id) }
        }
        // A lifted group's other items, and a tree's descendants, were never pressed: they are
        // claimed when the lift makes them held.
        for id in wanted.sorted() where !held.contains(id) && !asks.contains(id) { p.claim.append(id) }
        held.formUnion(p.claim)
        // Holding nothing, the rows (and their target) are gone: the next lift writes its own.
        if held.isEmpty { target = nil } else if now != target, let now {
            target = now
            p.target = now
        }
        return p
    }

    /// The session ended: every claim goes.
    mutating func releaseAll() -> [String] {
        defer { held.removeAll(); target = nil }
        return held.sorted()
    }
}
