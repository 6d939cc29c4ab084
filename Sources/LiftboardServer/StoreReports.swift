import Foundation
import LiftboardStore

/// What the store thread and the listener report, handed to the service thread in order.
final class StoreReports: @unchecked Sendable {
    // @unchecked: every member is guarded by `lock`.
    enum Report {
        case landed(DurableCommit)
        case unchanged(board: String, token: Int)
        case refused(board: String, token: Int, reason: String)
        case failed(board: String, token: Int, reason: String)
        /// Boards another process created or deleted, or a lookup's answer (the listener).
        case boards(BoardNews)

        init(_ outcome: StoreOutcome) {
            switch outcome {
            case .landed(let d): self = .landed(d)
            case .unchanged(let board, let token): self = .unchanged(board: board, token: token)
            case .refused(let board, let token, let reason): self = .refused(board: board, token: token, reason: reason)
            }
        }

        var board: String {
            switch self {
            case .landed(let d): d.board
            case .unchanged(let b, _), .refused(let b, _, _), .failed(let b, _, _): b
            case .boards: ""
            }
        }
    }
    private let lock = NSLock()
    private var pending: [Report] = []
    private var writerUp = true
    private var listenerUp = true

    func add(_ reports: [Report]) { lock.lock(); pending += reports; lock.unlock() }
    /// A store transaction's outcomes, each appended as its report: no array of reports made
    /// first and appended whole (together about 1,000 instructions a commit).
    func add(_ outcomes: [StoreOutcome]) {
        lock.lock()
        for o in outcomes { pending.append(Report(o)) }
        lock.unlock()
    }
    /// How many reports the service thread's drain took and has not handed to their hubs yet
    /// (`Server.drainDurableReports`).
    private var inHand = 0
    func setInHand(_ n: Int) { lock.lock(); inHand = n; lock.unlock() }

    /// The reports at the head of the queue that are commits of `board` made durable (none when
    /// the first is anything else, or while a drain holds older reports not handed yet: each
    /// report is handed after every one before it): taken during a release pass, which they
    /// extend.
    func takeLanded(board: String) -> [DurableCommit] {
        lock.lock(); defer { lock.unlock() }
        guard inHand == 0 else { return [] }
        var out: [DurableCommit] = []
        for r in pending {
            guard case .landed(let d) = r, d.board == board else { break }
            out.append(d)
        }
        pending.removeFirst(out.count)
        return out
    }
    /// The room of the last array taken and given back (`giveBack`), empty: the next `take`
    /// leaves it as the queue, so that neither thread allocates an array a drop (the queue's
    /// first append of a batch allocated, 515 Ir, and the drain freed the array it took).
    private var spare: [Report] = []

    func take() -> [Report] {
        lock.lock(); defer { lock.unlock() }
        var out: [Report] = []
        swap(&out, &spare)
        swap(&out, &pending)
        return out
    }

    /// Gives back an array `take` returned, its reports handled: its room is kept for the queue.
    func giveBack(_ taken: consuming [Report]) {
        var taken = taken
        taken.removeAll(keepingCapacity: true)
        lock.lock()
        if taken.capacity > spare.capacity { swap(&taken, &spare) }
        lock.unlock()
    }
    func setWriterUp(_ up: Bool) { lock.lock(); writerUp = up; lock.unlock() }
    func setListenerUp(_ up: Bool) { lock.lock(); listenerUp = up; lock.unlock() }
    /// Whether the last write (or probe) worked and, with PostgreSQL, the listener is connected.
    var storeUp: Bool { lock.lock(); defer { lock.unlock() }; return writerUp && listenerUp }
}

extension Server {
    /// During `hub`'s release pass: the commits of its board made durable since, at the head of
    /// the store's reports (`StoreReports.takeLanded`), handed to it as `drainDurableReports`
    /// would (their release extends the pass). False when there were none.
    func landedMeanwhile(on hub: Hub) -> Bool {
        let batch = store.reports.takeLanded(board: hub.truth.id)
        guard !batch.isEmpty else { return false }
        handLanded(batch, to: hub)
        return true
    }

    /// Commits of one board made durable together, handed to its hub (if it is here) and to
    /// the API writes waiting for them.
    func handLanded(_ batch: [DurableCommit], to hub: Hub?) {
        hub?.durable(batch)
        if api.pending.awaitsCommits { for landed in batch { answerWrite(.landed(landed)) } }
    }
}
