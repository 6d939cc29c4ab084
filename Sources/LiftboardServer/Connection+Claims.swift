import LiftboardCore
import LiftboardStore

/// Issue 44, holds across processes: performs the machine's claims through the store's
/// `ClaimBroker` and brings its answers back as the session's inputs.
extension Connection {
    /// The session joined a board of a shared store.
    func requireClaims() {
        var out = takeActions()
        machine.requireClaims(now: server.now, into: &out)
        perform(&out)
    }

    /// The store answered one of this session's claims.
    func claimAnswered(_ input: ClaimInput) {
        var out = takeActions()
        machine.claimInput(input, now: server.now, into: &out)
        perform(&out)
    }

    /// Asks the store for `plan`'s claims, for this session as `presence` lists it.
    func claim(_ plan: SessionClaims.Plan) {
        guard let broker = server.store.claims, let hub else { return }
        var requests = plan.release.map { ClaimBroker.Request.release(board: hub.board.id, item: $0, session: id) }
        if !plan.claim.isEmpty, let holder = hub.presence.entry(of: id) {
            requests += plan.claim.map { .claim(board: hub.board.id, item: $0, holder: holder) }
        }
        if let target = plan.target { requests.append(.target(board: hub.board.id, session: id, target: target)) }
        broker.ask(requests)
    }

    /// The session leaves its board: its claims go.
    func releaseClaims(board: String) {
        let ids = machine.releaseClaims()
        guard !ids.isEmpty, let broker = server.store.claims else { return }
        broker.ask(ids.map { .release(board: board, item: $0, session: id) })
    }
}
