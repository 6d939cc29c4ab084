import Foundation
import LiftboardCore
import LiftboardStore

/// Issue 44, holds across processes: with `--store postgresql://` every hold is claimed in the
/// store (`ClaimBroker`), whose thread reports answers and the other processes' holds here;
/// they are drained on the service thread with the store's other reports.
extension Server {
    /// Starts the claims' thread on the shared store at `url`; `wake` wakes the service loop.
    /// Takes this process's first block of session numbers at once (before anyone is served;
    /// the store unreachable: numbered as one process until a block comes).
    func startClaims(url: String, wake: ContextBox) {
        let reports = store.claimReports
        store.claims = ClaimBroker(url: url, process: store.origin, onAnswers: { answers in
            reports.add(answers)
            wake.wake()
        }, onOthers: { others in
            reports.set(others)
            wake.wake()
        }, onBlock: { first in
            reports.setBlock(first)
            wake.wake()
        })
        do throws(StoreError) {
            sessions.takeBlock(first: try ClaimBroker.takeSessionBlock(url: url))
        } catch {
            log(.warn, "store", session: nil, "no block of session numbers (\(error)): asked again")
            store.claims?.ask([.sessionBlock])
        }
    }

    /// `s1`, `s2`, ...; with a shared store, followed by this process's tag (`s1-9f3a`), so
    /// that a commit's `by` names one session among every process's, and numbered from the
    /// blocks the processes take in turn from the store (`SessionNumbers`).
    func makeSessionID() -> String {
        let id = sessions.makeID(tagged: config.storeURL != nil)
        if store.claims != nil, sessions.wantsBlock() { store.claims?.ask([.sessionBlock]) }
        return id
    }

    /// Hands the store's answers to their sessions and the other processes' holds to the hubs.
    func drainClaims() {
        guard store.claims != nil else { return }
        let (answers, others, block) = store.claimReports.take()
        if let block { sessions.takeBlock(first: block) }
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
    private var block: Int?

    func add(_ a: [ClaimBroker.Answer]) { lock.lock(); answers += a; lock.unlock() }
    func set(_ o: [String: [Presence.Entry]]) { lock.lock(); others = o; lock.unlock() }
    func setBlock(_ first: Int) { lock.lock(); block = first; lock.unlock() }

    func take() -> (answers: [ClaimBroker.Answer], others: [String: [Presence.Entry]]?, block: Int?) {
        lock.lock(); defer { lock.unlock() }
        defer { answers = []; others = nil; block = nil }
        return (answers, others, block)
    }
}
