import Foundation
import Testing
import LiftboardCore
@testable import LiftboardStore

func tempPath() -> String {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("liftboard-store-\(UUID().uuidString)")
    try? FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    return dir.appendingPathComponent("store.sqlite").path
}

let demo = Board(id: "demo", sections: [
    Section(id: "todo", title: "To do", items: [Item(id: "a", label: "A", color: "#111"), Item(id: "b", label: "B", color: "#222", height: 96),
                                               Item(id: "c", label: "C", color: "#333", movable: false)]),
    Section(id: "done", title: "Done", items: []),
])

func commit(_ version: Int, todo: [String], done: [String]) -> CommitRecord {
    CommitRecord(commit: Commit(board: "demo", version: version, by: "s\(version)",
                                moves: [Move(id: "a", from: Place(section: "todo", index: 0), to: Place(section: "done", index: 0))],
                                order: [SectionOrder(section: "todo", items: todo), SectionOrder(section: "done", items: done)]),
                 at: 1_700_000_000_000 + Double(version))
}

@Suite struct BoardStoreTests {
    @Test func theStoreRefusesAChangeThatBreaksARuleOnItsOrderAndRenamesACollidingCopy() throws {
        let path = tempPath()
        let store = try BoardStore(path: path)
        let board = Board(id: "race", sections: [
            Section(id: "todo", items: [Item(id: "a", label: "A", color: "#1"), Item(id: "b", label: "B", color: "#2")]),
            Section(id: "doing", items: [], max: 1),
            Section(id: "palette", items: [Item(id: "p", label: "P", color: "#3")], copy: true),
        ])
        try store.seed(board)
        func record(_ version: Int, _ change: Change, token: Int) -> CommitRecord {
            CommitRecord(commit: Commit(board: "race", version: version, by: "s\(token)", moves: [], order: [], change: change),
                         at: 1_700_000_000_000, origin: "p1", token: token)
        }
        // Two sessions each saw doing empty: the first lands, the second is refused by name.
        let out = try store.apply([record(1, .insert(id: "a", section: "doing", after: nil, index: 0), token: 1),
                                   record(1, .insert(id: "b", section: "doing", after: nil, index: 0), token: 2)])
        #expect(out.count == 2)
        if case .landed(let d) = out[0] { #expect(d.version == 1) } else { Issue.record("first not landed: \(out[0])") }
        #expect(out[1] == .refused(board: "race", token: 2, reason: "max: section \"doing\" holds at most 1 item"))
        #expect(try store.board(id: "race")?.sections[1].items.map(\.id) == ["a"])
        // Two copies both named p~2: the second gets p~3.
        let copies = try store.apply([record(2, .copyItem(id: "p", as: "p~2", section: "todo", after: nil, index: 0), token: 3),
                                      record(2, .copyItem(id: "p", as: "p~2", section: "todo", after: nil, index: 0), token: 4)])
        if case .landed(let d) = copies[1] {
            #expect(d.change == .copyItem(id: "p", as: "p~3", section: "todo", after: nil, index: 0))
        } else { Issue.record("second copy not landed: \(copies[1])") }
        #expect(try BoardStore(path: path).board(id: "race")?.sections[0].items.map(\.id) == ["p~3", "p~2", "b"])
    }

    @Test func anEditBatchRemovesAndRestoresItemsInOneVersion() throws {
        let path = tempPath()
        let store = try BoardStore(path: path)
        // No pinned item: one would keep the index the removal gave it (as after any change).
        var demo = demo
        demo.sections[0].items[2].movable = true
        try store.seed(demo)
        let remove = Change.batch([.removeItem("a"), .removeItem("b")])
        let removed = demo.applying(remove)!.board
        try store.apply([CommitRecord(commit: Commit(board: "demo", version: 1, by: "s1", moves: [], order: removed.order, change: remove),
                                      at: 1_700_000_000_000)])
        #expect(try BoardStore(path: path).board(id: "demo") == removed)
        let restore = demo.revert(of: remove)!
        try store.apply([CommitRecord(commit: Commit(board: "demo", version: 2, by: "s1", moves: [], order: demo.order, change: restore),
                                      at: 1_700_000_000_001)])
        var back = demo
        back.version = 2
        #expect(try BoardStore(path: path).board(id: "demo") == back)
    }

    @Test func rulesKindsAndHandlesReadBackTheSame() throws {
        let path = tempPath()
        let store = try BoardStore(path: path)
        let ruled = Board(id: "ruled", sections: [
            Section(id: "todo", items: [Item(id: "a", label: "A", color: "#111", kind: "bug", handle: .leading),
                                        Item(id: "b", label: "B", color: "#222", handle: .trailing)]),
            Section(id: "bugs", items: [], accepts: ["bug"], max: 2),
            Section(id: "palette", items: [Item(id: "p", label: "P", color: "#333", kind: "chore")], copy: true),
            Section(id: "trash", items: [], drop: .remove),
        ])
        try store.seed(ruled)
        #expect(try store.board(id: "ruled") == ruled)
        // An added item keeps its kind and handle.
        let add = Change.addItem(Item(id: "n", label: "N", color: "#444", kind: "bug", handle: .trailing), section: "bugs", after: nil)
        let next = ruled.applying(add)!.board
        try store.apply([CommitRecord(commit: Commit(board: "ruled", version: 1, by: "api", moves: [], order: next.order, change: add),
                                      at: 1_700_000_000_000)])
        #expect(try BoardStore(path: path).board(id: "ruled")?.sections[1].items == next.sections[1].items)
    }

    @Test func aSeededBoardReadsBackTheSame() throws {
        let store = try BoardStore(path: tempPath())
        try store.seed(demo)
        #expect(try store.board(id: "demo") == demo)
        #expect(try store.boards().map(\.id) == ["demo"])
        #expect(try store.board(id: "nope") == nil)
    }

    @Test func commitsChangeTheOrderAndVersionAndSurviveReopening() throws {
        let path = tempPath()
        do {
            let store = try BoardStore(path: path)
            try store.seed(demo)
            try store.apply([commit(1, todo: ["b", "c"], done: ["a"]), commit(2, todo: ["c", "b"], done: ["a"])])
        }
        let reopened = try BoardStore(path: path)
        let b = try #require(try reopened.board(id: "demo"))
        #expect(b.version == 2)
        #expect(b.order == [SectionOrder(section: "todo", items: ["c", "b"]), SectionOrder(section: "done", items: ["a"])])
        #expect(b.sections[0].items[0].movable == false && b.sections[0].items[1].height == 96)
        let history = try reopened.history(board: "demo")
        #expect(history.map(\.commit.version) == [1, 2] && history[0].commit.by == "s1")
        #expect(history[1].commit.moves.first?.to == Place(section: "done", index: 0))
    }

    @Test func aStaleVersionIsRefusedAndNothingOfTheBatchIsWritten() throws {
        let store = try BoardStore(path: tempPath())
        try store.seed(demo)
        #expect(throws: StoreError.self) {
            try store.apply([commit(1, todo: ["b", "c"], done: ["a"]), commit(3, todo: ["a", "b", "c"], done: [])])
        }
        #expect(try store.board(id: "demo") == demo)
        #expect(try store.history(board: "demo").isEmpty)
    }

    @Test func seedingAgainKeepsTheCommittedOrder() throws {
        let store = try BoardStore(path: tempPath())
        try store.seed(demo)
        try store.apply([commit(1, todo: ["b", "c"], done: ["a"])])
        let again = try store.seed(demo)
        #expect(again.version == 1 && again.sections[1].items.map(\.id) == ["a"])
    }

    @Test func anOldSchemaMigratesForwardAndANewerOneIsRefused() throws {
        let path = tempPath()
        do {
            let db = try SQLiteDatabase(path: path)
            try db.execute(BoardStore.migrations[0])
            try db.execute("PRAGMA user_version = 1")
        }
        let store = try BoardStore(path: path)
        #expect(try store.userVersion() == BoardStore.schemaVersion)
        try store.seed(demo)
        try store.apply([commit(1, todo: ["b", "c"], done: ["a"])])
        let newer = tempPath()
        do {
            let db = try SQLiteDatabase(path: newer)
            try db.execute("PRAGMA user_version = 99")
        }
        #expect(throws: StoreError.self) { try BoardStore(path: newer) }
    }

    @Test func historyReadsMovesWrittenBeforeAndAfterSchemaFive() throws {
        // A file at schema 4 whose commit keeps its moves as rows of `moves`.
        let path = tempPath()
        do {
            let db = try SQLiteDatabase(path: path)
            for m in BoardStore.migrations.prefix(4) { try db.execute(m) }
            try db.execute("PRAGMA user_version = 4")
            try db.execute("INSERT INTO boards VALUES ('demo', 'list', 1, 64, 0, 0, 0, 0, 0, 0)")
            try db.execute("INSERT INTO sections VALUES ('demo', 'todo', 0, 'To do'), ('demo', 'done', 1, 'Done')")
            try db.execute("""
                INSERT INTO items VALUES ('demo', 'b', 'todo', 0, 'B', '#222', 96, 1), ('demo', 'c', 'todo', 1, 'C', '#333', NULL, 0),
                  ('demo', 'a', 'done', 0, 'A', '#111', NULL, 1)
                """)
            try db.execute("INSERT INTO commits (board, version, by, at) VALUES ('demo', 1, 's1', 5)")
            try db.execute("INSERT INTO moves VALUES ('demo', 1, 0, 'a', 'todo', 0, 'done', 0), ('demo', 1, 1, 'b', 'todo', 1, 'todo', 0)")
        }
        let store = try BoardStore(path: path)
        #expect(try store.userVersion() == BoardStore.schemaVersion)
        // A commit made now keeps its moves (several, with text that needs escaping) in its row.
        let moves = [Move(id: "b", from: Place(section: "todo", index: 0), to: Place(section: "done", index: 1)),
                     Move(id: "q\"u\\o", from: Place(section: "to do ✓", index: 3), to: Place(section: "todo", index: 0))]
        try store.apply([CommitRecord(commit: Commit(board: "demo", version: 2, by: "s2", moves: moves,
                                                     order: [SectionOrder(section: "todo", items: ["c"]),
                                                             SectionOrder(section: "done", items: ["a", "b"])]), at: 6)])
        let history = try store.history(board: "demo")
        #expect(history.map(\.commit.version) == [1, 2])
        #expect(history[0].commit.moves == [Move(id: "a", from: Place(section: "todo", index: 0), to: Place(section: "done", index: 0)),
                                            Move(id: "b", from: Place(section: "todo", index: 1), to: Place(section: "todo", index: 0))])
        #expect(history[1].commit.moves == moves)
        // Nothing was added to the old table.
        let db = try SQLiteDatabase(path: path)
        let rows = try db.prepare("SELECT count(*) FROM moves")
        #expect(try rows.step() && rows.int(0) == 2)
    }

    @Test func aCommitWithoutMovesReadsBackWithout() throws {
        let store = try BoardStore(path: tempPath())
        try store.seed(demo)
        try store.apply([CommitRecord(commit: Commit(board: "demo", version: 1, by: "s1", moves: [],
                                                     order: [SectionOrder(section: "todo", items: ["a", "b", "c"]),
                                                             SectionOrder(section: "done", items: [])]), at: 1)])
        let history = try store.history(board: "demo")
        #expect(history.count == 1 && history[0].commit.moves.isEmpty)
    }

    @Test func theWriterReportsEveryCommitDurableInOrder() throws {
        let path = tempPath()
        let store = try BoardStore(path: path)
        try store.seed(demo)
        let seen = Locked<[Int]>([])
        // The first batch's report waits until the other 49 are queued: they must then go
        // in one transaction (group commit), not one each.
        let allQueued = DispatchSemaphore(value: 0)
        let writer = CommitWriter(store: store, onDurable: { outcomes in
            let first = seen.value.isEmpty
            seen.update { $0 += outcomes.compactMap { if case .landed(let d) = $0 { d.version } else { nil } } }
            if first { allQueued.wait() }
        },
                                  onFailure: { _, e in Issue.record("\(e)") })
        writer.enqueue(commit(1, todo: ["b", "c"], done: ["a"]))
        while seen.value.isEmpty { usleep(1000) }
        for v in 2...50 { writer.enqueue(commit(v, todo: v % 2 == 0 ? ["c", "b"] : ["b", "c"], done: ["a"])) }
        allQueued.signal()
        writer.close()
        #expect(seen.value == Array(1...50))
        #expect(writer.transactions == 2 && writer.written == 50)
        #expect(try BoardStore(path: path).board(id: "demo")?.version == 50)
    }
}

@Suite struct StoreChangeTests {
    func record(_ change: Change, version: Int, token: Int) -> CommitRecord {
        CommitRecord(commit: Commit(board: "demo", version: version, by: "s\(token)", moves: [], order: [], change: change),
                     at: 1_700_000_000_000, origin: "p1", token: token)
    }

    @Test func twoChangesMadeOnTheSameVersionBothLandInOrder() throws {
        let store = try BoardStore(path: tempPath())
        try store.seed(demo)
        // Both sessions saw version 0; the store applies each to the order it has.
        let out = try store.apply([record(.insert(id: "a", section: "done", after: nil, index: 0), version: 1, token: 1),
                                   record(.insert(id: "b", section: "done", after: "a", index: 1), version: 1, token: 2)])
        #expect(out.map { if case .landed(let d) = $0 { d.version } else { -1 } } == [1, 2])
        let b = try #require(try store.board(id: "demo"))
        #expect(b.version == 2 && b.order == [SectionOrder(section: "todo", items: ["c"]), SectionOrder(section: "done", items: ["a", "b"])])
        let back = try store.commits(board: "demo", after: 0)
        #expect(back.map(\.change) == [.insert(id: "a", section: "done", after: nil, index: 0), .insert(id: "b", section: "done", after: "a", index: 1)])
        #expect(back.map(\.token) == [1, 2] && back.allSatisfy { $0.origin == "p1" })
    }

    @Test func aChangeMadeMootByAnEarlierOneIsReportedUnchangedAndNotWritten() throws {
        let store = try BoardStore(path: tempPath())
        try store.seed(demo)
        let out = try store.apply([record(.insert(id: "a", section: "done", after: nil, index: 0), version: 1, token: 1),
                                   record(.insert(id: "a", section: "done", after: nil, index: 0), version: 1, token: 2)])
        #expect(out.count == 2 && out[1] == .unchanged(board: "demo", token: 2))
        #expect(try store.board(id: "demo")?.version == 1)
        #expect(try store.commits(board: "demo", after: 0).count == 1)
    }

    @Test func theWriterReportsAFailureAndTheStoreDownThenUpWhenItWritesAgain() throws {
        let path = tempPath()
        let store = try BoardStore(path: path)
        try store.seed(demo)
        let failures = Locked<[Int]>([])
        let health = Locked<[Bool]>([])
        let landed = Locked<[Int]>([])
        let writer = CommitWriter(store: store, onDurable: { o in
            landed.update { $0 += o.compactMap { if case .landed(let d) = $0 { d.version } else { nil } } }
        }, onFailure: { records, _ in failures.update { $0 += records.map(\.token) } },
           onHealth: { up in health.update { $0.append(up) } })
        // A commit naming a board the store lacks fails its whole batch.
        writer.enqueue(CommitRecord(commit: Commit(board: "nope", version: 1, by: "s1", moves: [], order: [],
                                                   change: .swap("a", "b")), at: 0, origin: "p1", token: 7))
        writer.enqueue(record(.insert(id: "a", section: "done", after: nil, index: 0), version: 1, token: 8))
        // Let the first batch fail before the next arrives (the thread may also take both at once).
        let deadline = Date().addingTimeInterval(5)
        while failures.value.isEmpty && Date() < deadline { usleep(1000) }
        writer.enqueue(record(.insert(id: "b", section: "done", after: nil, index: 0), version: 1, token: 9))
        writer.close()
        #expect(failures.value.contains(7))
        #expect(health.value.first == false && health.value.last == true)
        #expect(!landed.value.isEmpty)
        let b = try #require(try BoardStore(path: path).board(id: "demo"))
        #expect(b.version == landed.value.count)
    }
}

/// A value shared with the writer's thread in tests.
final class Locked<T>: @unchecked Sendable {
    private let lock = NSLock()
    private var v: T
    init(_ v: T) { self.v = v }
    var value: T { lock.lock(); defer { lock.unlock() }; return v }
    func update(_ f: (inout T) -> Void) { lock.lock(); f(&v); lock.unlock() }
}

/// The store writes only the rows a change moved and keeps the board it applies to in memory;
/// the file must still hold exactly the order the changes make, batch after batch.
@Suite struct StoreRowsTests {
    /// Three sections of 12, 9 and 0 items, with pinned items in the first two.
    static let board = Board(id: "demo", sections: [
        Section(id: "s0", items: (0..<12).map { Item(id: "a\($0)", movable: $0 != 4) }),
        Section(id: "s1", items: (0..<9).map { Item(id: "b\($0)", movable: $0 != 0 && $0 != 7) }),
        Section(id: "s2", items: []),
    ])

    static func randomChange(_ b: Board, _ rng: inout SplitMix64) -> Change {
        let items = b.sections.flatMap(\.items).map(\.id)
        let x = items[Int(rng.next() % UInt64(items.count))]
        if rng.next() % 4 == 0 {
            let y = items[Int(rng.next() % UInt64(items.count))]
            return .swap(x, y)
        }
        let s = b.sections[Int(rng.next() % UInt64(b.sections.count))]
        let after = s.items.isEmpty || rng.next() % 5 == 0 ? nil : s.items[Int(rng.next() % UInt64(s.items.count))].id
        return .insert(id: x, section: s.id, after: after, index: Int(rng.next() % UInt64(s.items.count + 1)))
    }

    @Test func randomBatchesOfChangesReadBackFromTheFileAsTheyApplyInMemory() throws {
        let path = tempPath()
        let store = try BoardStore(path: path)
        try store.seed(Self.board)
        var expected = Self.board
        var rng = SplitMix64(seed: 13)
        var landedCount = 0
        for batch in 0..<60 {
            var records: [CommitRecord] = []
            for k in 0..<Int(1 + rng.next() % 4) {
                let change = Self.randomChange(expected, &rng)
                if expected.apply(change) != nil { landedCount += 1 }
                records.append(CommitRecord(commit: Commit(board: "demo", version: 0, by: "s", moves: [], order: [], change: change),
                                            at: 0, origin: "p", token: batch * 10 + k))
            }
            try store.apply(records)
            // A fresh connection reads the file, not the writer's memory.
            let onDisk = try #require(try BoardStore(path: path).board(id: "demo"))
            #expect(onDisk == expected, "batch \(batch)")
            if onDisk != expected { return }
        }
        #expect(landedCount > 100)
    }

    @Test func aBatchThatFailsLeavesNothingAndTheNextWritesFromTheFile() throws {
        let path = tempPath()
        let store = try BoardStore(path: path)
        try store.seed(Self.board)
        // Warm the store's memory of the board, then fail a batch after a change that applied
        // in memory: an old-style commit at a stale version refuses the whole batch.
        try store.apply([CommitRecord(commit: Commit(board: "demo", version: 0, by: "s", moves: [], order: [],
                                                     change: .insert(id: "a0", section: "s2", after: nil, index: 0)), at: 0)])
        let failing = [
            CommitRecord(commit: Commit(board: "demo", version: 0, by: "s", moves: [], order: [],
                                        change: .insert(id: "a1", section: "s2", after: nil, index: 0)), at: 0),
            CommitRecord(commit: Commit(board: "demo", version: 7, by: "s", moves: [], order: []), at: 0),
        ]
        #expect(throws: StoreError.self) { try store.apply(failing) }
        try store.apply([CommitRecord(commit: Commit(board: "demo", version: 0, by: "s", moves: [], order: [],
                                                     change: .insert(id: "b1", section: "s0", after: "a2", index: 2)), at: 0)])
        var expected = Self.board
        _ = expected.apply(.insert(id: "a0", section: "s2", after: nil, index: 0))
        _ = expected.apply(.insert(id: "b1", section: "s0", after: "a2", index: 2))
        #expect(try BoardStore(path: path).board(id: "demo") == expected)
        #expect(try store.board(id: "demo") == expected)
    }
}
