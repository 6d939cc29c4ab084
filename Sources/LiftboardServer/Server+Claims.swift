import Foundation
import LiftboardCore
import LiftboardStore

/// Issue 44, holds across processes: with `--store postgresql://` every hold is claimed in the
/// store (`ClaimBroker`), whose thread reports answers and the other processes' holds here;
/// they are drained on the service thread with the store's other reports.
extension Server {
    /// Starts the claims' thread on the shared store at `url`; `wake` wakes the service loop.
    func startClaims(url: String, wake: ContextBox) {
        let reports = store.claimReports
        store.claims = ClaimBroker(url: url, process: store.origin, onAnswers: { answers in
            reports.add(answers)
            wake.wake()
        }, onOthers: { others in
            reports.set(others)
            wake.wake()
        })
    }

    /// Hands the store's answers to their sessions and the other processes' holds to the hubs.
    func drainClaims() {
        guard store.claims != nil else { return }
        let (answers, others) = store.claimReports.take()
        for a in answers {
            let input: ClaimInput = a.failed ? .failed(item: a.item) : .answer(item: a.item, holder: a.holder)
            hubs[a.board]?.connection(a.session)?.claimAnswered(input)
        }
        if let others {
            for (id, hub) in hubs { hub.otherProcessesHold(others[id] ?? []) }
        }
    }
}

/// What the claims' thread reported, waiting for the service thread.
final class ClaimReports: @unchecked Sendable {
    // @unchecked: every member is guarded by `lock`.
    private let lock = NSLock()
    private var answers: [ClaimBroker.Answer] = []
    private var others: [String: [Presence.Entry]]?

    func add(_ a: [ClaimBroker.Answer]) { lock.lock(); answers += a; lock.unlock() }
    func set(_ o: [String: [Presence.Entry]]) { lock.lock(); others = o; lock.unlock() }

    func take() -> (answers: [ClaimBroker.Answer], others: [String: [Presence.Entry]]?) {
        lock.lock(); defer { lock.unlock() }
        defer { answers = []; others = nil }
        return (answers, others)
    }
}
