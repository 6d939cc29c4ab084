import Foundation
import LiftboardCore

/// The store thread: commits are queued from the service thread without touching the disk,
/// written in groups (one transaction for everything queued meanwhile), and reported back
/// once durable, so that writing never stalls the sessions.
public final class CommitWriter: @unchecked Sendable {
    // @unchecked: every mutable member is guarded by `condition`.
    private let condition = NSCondition()
    private var queue: [CommitRecord] = []
    private var closing = false
    private var thread: Thread?
    private let store: BoardStore
    private let onDurable: @Sendable ([Commit]) -> Void
    private let onFailure: @Sendable ([Commit], StoreError) -> Void
    /// Commits written, and transactions used (for the log and the benchmarks).
    public private(set) var written = 0
    public private(set) var transactions = 0

    /// `store` is used only from the writer's thread from now on.
    public init(store: BoardStore, onDurable: @escaping @Sendable ([Commit]) -> Void,
                onFailure: @escaping @Sendable ([Commit], StoreError) -> Void) {
        self.store = store
        self.onDurable = onDurable
        self.onFailure = onFailure
        let t = Thread { [unowned self] in self.loop() }
        t.name = "liftboard-store"
        thread = t
        t.start()
    }

    /// Queues a commit; never blocks on the disk.
    public func enqueue(_ record: CommitRecord) {
        condition.lock()
        queue.append(record)
        condition.signal()
        condition.unlock()
    }

    /// Finishes every queued write, then stops the thread. Idempotent.
    public func close() {
        condition.lock()
        closing = true
        condition.signal()
        while thread != nil { condition.wait() }
        condition.unlock()
    }

    private func loop() {
        while true {
            condition.lock()
            while queue.isEmpty && !closing { condition.wait() }
            if queue.isEmpty && closing {
                thread = nil
                condition.broadcast()
                condition.unlock()
                return
            }
            let batch = queue
            queue.removeAll(keepingCapacity: true)
            condition.unlock()
            do {
                try store.apply(batch)
                condition.lock(); written += batch.count; transactions += 1; condition.unlock()
                onDurable(batch.map(\.commit))
            } catch {
                onFailure(batch.map(\.commit), error)
            }
        }
    }
}
