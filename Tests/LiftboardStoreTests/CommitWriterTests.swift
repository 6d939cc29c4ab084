import Foundation
import Testing
import LiftboardCore
@testable import LiftboardStore

/// The writer's queue is two buffers swapped between the sessions' side and the store thread:
/// every record is written once, in order, in the batch it was queued for, and a batch handed
/// to `onFailure` (and kept there) is not changed by the batches after it.
@Suite struct CommitWriterTests {
    /// A store that lands every record, except those of its `failing`-th batch (from 1), and
    /// remembers the tokens of each batch it was given.
    final class BatchStore: Store, @unchecked Sendable {
        let batches = Locked<[[Int]]>([])
        let failing: Int
        init(failing: Int) { self.failing = failing }
        func seed(_ board: Board) throws(StoreError) -> Board { board }
        func boards() throws(StoreError) -> [Board] { [] }
        func board(id: String) throws(StoreError) -> Board? { nil }
        func apply(_ records: [CommitRecord]) throws(StoreError) -> [StoreOutcome] {
            var n = 0
            batches.update { $0.append(records.map(\.token)); n = $0.count }
            if n == failing { throw .unknownBoard("failing") }
            // Slow enough that records pile up behind a batch.
            usleep(200)
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
        for t in 1...400 {
            writer.enqueue(drop(t, .insert(id: "a", section: "done", after: nil, index: 0), token: t))
            if t % 7 == 0 { usleep(50) }
        }
        writer.close()
        let batches = store.batches.value
        try #require(batches.count >= 2)
        #expect(batches.flatMap { $0 } == Array(1...400))
        let kept = try #require(failed.value.first)
        #expect(failed.value.count == 1)
        #expect(kept.map(\.token) == batches[1])
        #expect(kept.map(\.commit.version) == batches[1])
        #expect(reported.value == batches.enumerated().filter { $0.offset != 1 }.flatMap(\.element))
    }
}
