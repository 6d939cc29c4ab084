import Foundation
import Testing
import LiftboardCore
@testable import LiftboardStore

/// The writer's queue is two buffers swapped between the sessions' side and the store thread:
/// every record is written once, in order, in the batch it was queued for, and a batch handed
/// to `onFailure` (and kept there) is not changed by the batches after it.
@Suite struct CommitWriterTests {
    /// A store that lands every record, except those of its `failing`-th batch (from 1), and
    /// remembers the tokens of each batch it was given. Each `apply` says it began (`entered`)
    /// and waits for the test to let it finish (`gate`): records queued meanwhile pile up
    /// behind the batch, whatever the threads' pace.
    final class BatchStore: Store, @unchecked Sendable {
        let batches = Locked<[[Int]]>([])
        let failing: Int
        let entered = DispatchSemaphore(value: 0)
        let gate = DispatchSemaphore(value: 0)
        init(failing: Int) { self.failing = failing }
        func seed(_ board: Board) throws(StoreError) -> Board { board }
        func boards() throws(StoreError) -> [Board] { [] }
        func board(id: String) throws(StoreError) -> Board? { nil }
        func apply(_ records: [CommitRecord]) throws(StoreError) -> [StoreOutcome] {
            var n = 0
            batches.update { $0.append(records.map(\.token)); n = $0.count }
            entered.signal()
            guard gate.wait(timeout: .now() + 10) == .success else { throw .unknownBoard("the test never opened the gate") }
            if n == failing { throw .unknownBoard("failing") }
            return records.map { .unchanged(board: $0.commit.board, token: $0.token) }
        }
        func commits(board: String, after version: Int) throws(StoreError) -> [DurableCommit] { [] }
        func deleteBoard(id: String) throws(StoreError) -> Bool { false }
        func probe() throws(StoreError) {}
    }

    @Test func everyRecordIsWrittenOnceInOrderAndAFailedBatchKeptIsLeftAsItWas() throws {
        let store = BatchStore(failing: 2)
        let reported = Locked<[Int]>([])
        let failed = Locked<[[CommitRecord]]>([])
        let writer = CommitWriter(store: store, onDurable: { outcomes in
            reported.update { $0 += outcomes.map { if case .unchanged(_, let t) = $0 { t } else { -1 } } }
        }, onFailure: { records, _ in failed.update { $0.append(records) } })
        func enqueue(_ tokens: ClosedRange<Int>) {
            for t in tokens { writer.enqueue(drop(t, .insert(id: "a", section: "done", after: nil, index: 0), token: t)) }
        }
        func batchBegan() -> Bool { store.entered.wait(timeout: .now() + 10) == .success }
        // Batch 1 takes what is queued when the thread wakes (1, or more of 1...10); batch 2
        // whatever of 1...200 piled up behind it; batch 3 (after batch 2 failed) 201...400,
        // queued while the failed batch was being written.
        enqueue(1...10)
        try #require(batchBegan(), "the writer did not begin a first batch within 10 s")
        enqueue(11...200)
        store.gate.signal()
        try #require(batchBegan(), "the writer did not begin a second batch within 10 s")
        enqueue(201...400)
        store.gate.signal()
        try #require(batchBegan(), "the writer did not begin a third batch within 10 s")
        store.gate.signal()
        writer.close()
        let batches = store.batches.value
        try #require(batches.count == 3, "batches: \(batches.map { ($0.first ?? 0, $0.count) })")
        #expect(batches.flatMap { $0 } == Array(1...400))
        #expect(batches[1].last == 200 && batches[2] == Array(201...400))
        let kept = try #require(failed.value.first)
        #expect(failed.value.count == 1)
        #expect(kept.map(\.token) == batches[1])
        #expect(kept.map(\.commit.version) == batches[1])
        #expect(reported.value == batches[0] + batches[2])
    }
}
