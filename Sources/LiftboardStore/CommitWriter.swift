import Foundation
import LiftboardCore

/// The store thread: commits are queued from the service thread without touching the disk,
/// written in groups (one transaction for everything queued meanwhile), and reported back
/// once durable, so that writing never stalls the sessions.
///
/// A failed write is reported (`onFailure`, nothing of the batch written) and the store is
/// then down: the thread probes it with backoff (100 ms doubling to 5 s) until a probe or a
/// write succeeds, and says so through `onHealth`. Writes queued meanwhile are still tried,
/// so a drop fails fast rather than waiting.
public final class CommitWriter: @unchecked Sendable {
    // @unchecked: every mutable member is guarded by `condition`. The queues are not checked at
    // run time for overlapping accesses (`@exclusivity(unchecked)`, see `SQLiteStore.cache`):
    // each is touched in short accesses under `condition`, none overlapping another.
    private let condition = NSCondition()
    @exclusivity(unchecked) private var queue: [CommitRecord] = []
    /// Other work on the store (a board created or deleted), run after the commits queued
    /// before it.
    @exclusivity(unchecked) private var jobs: [@Sendable (any Store) -> Void] = []
    private var closing = false
    private var thread: Thread?
    private let store: any Store
    private let onDurable: @Sendable ([StoreOutcome]) -> Void
    private let onFailure: @Sendable ([CommitRecord], StoreError) -> Void
    private let onHealth: @Sendable (Bool) -> Void
    private var up = true
    private var backoff = 0.1
    /// Commits written, and transactions used (for the log and the benchmarks).
    public private(set) var written = 0
    public private(set) var transactions = 0

    /// `store` is used only from the writer's thread from now on.
    public init(store: any Store, onDurable: @escaping @Sendable ([StoreOutcome]) -> Void,
                onFailure: @escaping @Sendable ([CommitRecord], StoreError) -> Void,
                onHealth: @escaping @Sendable (Bool) -> Void = { _ in }) {
        self.store = store
        self.onDurable = onDurable
        self.onFailure = onFailure
        self.onHealth = onHealth
        let t = Thread { [unowned self] in self.loop() }
        t.name = "liftboard-store"
        thread = t
        t.start()
    }

    /// Queues a commit; never blocks on the disk. The record is moved into the queue (taken
    /// by reference, it was copied in and the caller's destroyed).
    public func enqueue(_ record: consuming CommitRecord) {
        condition.lock()
        queue.append(record)
        condition.signal()
        condition.unlock()
    }

    /// Runs `job` on the store thread after every commit queued so far is written.
    public func perform(_ job: @escaping @Sendable (any Store) -> Void) {
        condition.lock()
        jobs.append(job)
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

    private func setHealth(_ isUp: Bool) {
        condition.lock()
        let changed = up != isUp
        up = isUp
        if isUp { backoff = 0.1 }
        condition.unlock()
        if changed { onHealth(isUp) }
    }

    private func loop() {
        // The queue's two buffers: the records taken are swapped with this one, emptied after
        // their write with its room kept, so that neither side allocates a buffer a batch (a
        // copy of the queue and a new one for it cost an allocation and a free a commit).
        var batch: [CommitRecord] = []
        while true {
            condition.lock()
            var probeDue = false
            while queue.isEmpty && jobs.isEmpty && !closing && !probeDue {
                if up {
                    condition.wait()
                } else {
                    // Down: wake to probe after the backoff even with nothing to write.
                    if !condition.wait(until: Date(timeIntervalSinceNow: backoff)) && queue.isEmpty {
                        probeDue = true
                        backoff = min(backoff * 2, 5)
                    }
                }
            }
            if queue.isEmpty && jobs.isEmpty && closing {
                // The next process to open the store replays nothing (a failure here loses
                // nothing: the history holds every commit).
                try? store.bringUpToDate()
                thread = nil
                condition.broadcast()
                condition.unlock()
                return
            }
            swap(&batch, &queue)
            let work = jobs
            jobs.removeAll()
            condition.unlock()
            defer { for job in work { job(store) } }
            if batch.isEmpty && !work.isEmpty { continue }
            if batch.isEmpty {
                if (try? store.probe()) != nil { setHealth(true) }
                continue
            }
            do {
                let outcomes = try store.apply(batch)
                condition.lock(); written += batch.count; transactions += 1; condition.unlock()
                setHealth(true)
                onDurable(outcomes)
            } catch {
                setHealth(false)
                onFailure(batch, error)
            }
            batch.removeAll(keepingCapacity: true)
        }
    }
}
