import LiftboardCore

/// Issue 44, holds across processes: with a shared store a session's holds go through it. The
/// machine tells the session so (`ClaimInput.required`), plans the claims and releases each
/// step needs (`SessionClaims`, performed as `Action.claims`), and hands the store's answers
/// to the session as inputs, recorded like a `presence`, so that a replay gives the same bytes.
extension ConnectionMachine {
    /// The session joined a board of a shared store: its holds are claimed there.
    mutating func requireClaims(now: Double, into out: inout [Action]) {
        guard claims == nil, session.committedOrder != nil else { return }
        claims = SessionClaims()
        claimInput(.required, now: now, into: &out)
    }

    /// The store's answer to one of this session's claims.
    mutating func claimInput(_ input: ClaimInput, now: Double, into out: inout [Action]) {
        let ms = clock.serverEvent(serverNow: now)
        if recording { out.append(.record(.claim(input, ms: ms))) }
        deliver(session.handle(.claim(input), at: ms), now: now, into: &out)
        finish(direct: false, into: &out)
    }

    /// After each step: the claims the session asked for and those it no longer wants.
    mutating func planClaims(into out: inout [Action]) {
        let asks = session.takeClaimAsks()
        let plan = claims!.plan(asks: asks, wanted: session.claimsWanted, target: session.holdTarget)
        if !plan.isEmpty { out.append(.claims(plan)) }
    }

    /// The session ends: its claims go.
    mutating func releaseClaims() -> [String] { claims?.releaseAll() ?? [] }
}
