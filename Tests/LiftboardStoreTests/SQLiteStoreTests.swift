import Foundation
import Testing
import LiftboardCore
@testable import LiftboardStore
import LiftboardWire

extension EditCodec {
    /// As the server opens its stores: edits as the wire's JSON.
    static let wire = EditCodec(encode: Wire.encodeChange, decode: Wire.decodeChange)
}

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

/// A session's drop: `change` on board demo, as version `version`.
func drop(_ version: Int, _ change: Change, token: Int = 0) -> CommitRecord {
    CommitRecord(commit: Commit(board: "demo", version: version, by: "s\(version)", moves: [], order: [], change: change),
                 at: 1_700_000_000_000 + Double(version), origin: "p1", token: token)
}

/// What only the SQLite store has: its file's schema history, the store thread around it, and
/// the rows it rewrites. What every store does is StoreConformanceTests.
@Suite struct SQLiteStoreTests {
    @Test func anOldSchemaMigratesForwardAndANewerOneIsRefused() throws {
        let path = tempPath()
        do {
            let db = try SQLiteDatabase(path: path)
            try db.execute(SQLiteStore.migrations[0])
            try db.execute("PRAGMA user_version = 1")
        }
        let store = try SQLiteStore(path: path, edits: .wire)
        #expect(try store.userVersion() == SQLiteStore.schemaVersion)
        try store.seed(demo)
        try store.apply([drop(1, .insert(id: "a", section: "done", after: nil, index: 0))])
        #expect(try store.board(id: "demo")?.version == 1)
        let newer = tempPath()
        do {
            let db = try SQLiteDatabase(path: newer)
            try db.execute("PRAGMA user_version = 99")
        }
        #expect(throws: StoreError.self) { try SQLiteStore(path: newer, edits: .wire) }
    }

    @Test func aHistoryOfSchema13IsRebuiltWithoutItsRowidWithEveryRowAndColumn() throws {
        // A file as a build of schema 13 left it: board demo at its checkpoint v1, v1's history
        // row, then v2's with its user, and a `moves` row of v1 (as builds before issue 22
        // wrote them; it names `commits`, which the step drops and makes anew).
        let path = tempPath()
        do {
            let db = try SQLiteDatabase(path: path)
            for step in SQLiteStore.migrations[..<13] { try db.execute(step) }
            for row in PeopleStoreTests.schema9Rows(postgres: false) { try db.execute(row) }
            try db.execute("INSERT INTO commits (board, version, by, at, origin, token, change_kind, change_item, change_other, "
                           + "change_section, change_index, user_id, user_name) VALUES ('demo', 2, 's2', 1700000000002, 'p1', 2, "
                           + "'insert', 'b', 'a', 'done', 1, 'u-ada', 'Ada')")
            try db.execute("INSERT INTO moves VALUES ('demo', 1, 0, 'a', 'todo', 0, 'done', 0)")
            try db.execute("PRAGMA user_version = 13")
        }
        let before: [DurableCommit] = [
            DurableCommit(board: "demo", version: 1, by: "s1", at: 1_700_000_000_001, change: .insert(id: "a", section: "done", after: nil, index: 0),
                          origin: "p1", token: 1, user: nil, name: nil),
            DurableCommit(board: "demo", version: 2, by: "s2", at: 1_700_000_000_002, change: .insert(id: "b", section: "done", after: "a", index: 1),
                          origin: "p1", token: 2, user: "u-ada", name: "Ada"),
        ]
        let store = try SQLiteStore(path: path, edits: .wire)
        #expect(try store.userVersion() == 14)
        #expect(try store.commits(board: "demo", after: 0) == before)
        let board = try store.board(id: "demo")
        #expect(board?.version == 2 && board?.order.map(\.items) == [["c"], ["a", "b"]])
        try store.apply([drop(3, .insert(id: "a", section: "todo", after: nil, index: 0), token: 3)])
        let db = try SQLiteDatabase(path: path)
        let table = try db.prepare("SELECT sql FROM sqlite_master WHERE name = 'commits'")
        #expect(try table.step() && table.text(0).hasSuffix("WITHOUT ROWID"))
        table.reset()
        let names = try db.prepare("SELECT count(*) FROM sqlite_master WHERE name LIKE 'commits%' OR name LIKE 'sqlite_autoindex_commits%'")
        #expect(try names.step() && names.int(0) == 1)
        names.reset()
        let moves = try db.prepare("SELECT count(*) FROM moves")
        #expect(try moves.step() && moves.int(0) == 1)
        moves.reset()
        let check = try db.prepare("PRAGMA foreign_key_check")
        #expect(try !check.step())
        check.reset()
        let integrity = try db.prepare("PRAGMA integrity_check")
        #expect(try integrity.step() && integrity.text(0) == "ok")
        integrity.reset()
        #expect(try SQLiteStore(path: path, edits: .wire).commits(board: "demo", after: 0).map(\.version) == [1, 2, 3])
    }

    @Test func aTreeMoveThatChangesOnlyADepthReachesTheCheckpointRows() throws {
        // Every commit a checkpoint: the rows themselves must hold eggs one level deeper,
        // though no item changed its position (then garden's subtree one level deeper too).
        let path = tempPath()
        let store = try SQLiteStore(path: path, edits: .wire, checkpointEvery: 1)
        try store.seed(StoreConformanceTests.outline)
        var expected = StoreConformanceTests.outline
        // Eggs indented under milk, then the new top level's garden under groceries' last child.
        let indent = Change.move("eggs", section: "home", parent: "milk", after: nil, index: 0)
        let deeper = Change.move("garden", section: "home", parent: "groceries", after: "milk", index: 1)
        for (v, c) in [indent, deeper].enumerated() {
            #expect(expected.apply(c) != nil)
            var r = drop(v + 1, c, token: v + 1)
            r.commit.board = "outline"
            try store.apply([r])
        }
        let s = try SQLiteDatabase(path: path).prepare("SELECT version FROM boards WHERE id = 'outline'")
        #expect(try s.step() && s.int(0) == 2)
        #expect(try SQLiteStore(path: path, edits: .wire).board(id: "outline") == expected)
        #expect(expected.sections[0].items.map(\.depth) == [0, 1, 2, 1, 2])
    }

    @Test func aCommitKeepsItsChangeAndNoMoves() throws {
        let path = tempPath()
        let store = try SQLiteStore(path: path, edits: .wire)
        try store.seed(demo)
        try store.apply([drop(1, .insert(id: "a", section: "done", after: nil, index: 0))])
        let db = try SQLiteDatabase(path: path)
        let row = try db.prepare("SELECT change_kind, moves_json FROM commits")
        #expect(try row.step() && row.text(0) == "insert" && row.isNull(1))
        let moves = try db.prepare("SELECT count(*) FROM moves")
        #expect(try moves.step() && moves.int(0) == 0)
    }

    @Test func theWriterReportsEveryCommitDurableInOrder() throws {
        let path = tempPath()
        let store = try SQLiteStore(path: path, edits: .wire)
        try store.seed(demo)
        let seen = Locked<[Int]>([])
        // The first batch's report waits until the other 49 are queued: they must then go
        // in one transaction (group commit), not one each.
        let allQueued = DispatchSemaphore(value: 0)
        let firstReported = DispatchSemaphore(value: 0)
        let writer = CommitWriter(store: store, onDurable: { outcomes in
            let first = seen.value.isEmpty
            seen.update { $0 += outcomes.compactMap { if case .landed(let d) = $0 { d.version } else { nil } } }
            if first {
                firstReported.signal()
                if allQueued.wait(timeout: .now() + 10) != .success { Issue.record("the test did not queue the 49 others within 10 s") }
            }
        },
                                  onFailure: { _, e in Issue.record("\(e)") })
        writer.enqueue(drop(1, .insert(id: "a", section: "done", after: nil, index: 0)))
        guard firstReported.wait(timeout: .now() + 10) == .success else {
            allQueued.signal()
            writer.close()
            Issue.record("the first commit was not reported durable within 10 s")
            return
        }
        for v in 2...50 { writer.enqueue(drop(v, .insert(id: "a", section: v % 2 == 0 ? "todo" : "done", after: nil, index: 0))) }
        allQueued.signal()
        writer.close()
        #expect(seen.value == Array(1...50))
        #expect(writer.transactions == 2 && writer.written == 50)
        #expect(try SQLiteStore(path: path, edits: .wire).board(id: "demo")?.version == 50)
    }
}

@Suite struct StoreChangeTests {
    func record(_ change: Change, version: Int, token: Int) -> CommitRecord {
        CommitRecord(commit: Commit(board: "demo", version: version, by: "s\(token)", moves: [], order: [], change: change),
                     at: 1_700_000_000_000, origin: "p1", token: token)
    }

    @Test func theWriterReportsAFailureAndTheStoreDownThenUpWhenItWritesAgain() throws {
        let path = tempPath()
        let store = try SQLiteStore(path: path, edits: .wire)
        try store.seed(demo)
        let failures = Locked<[Int]>([])
        let failed = DispatchSemaphore(value: 0)
        let health = Locked<[Bool]>([])
        let landed = Locked<[Int]>([])
        let writer = CommitWriter(store: store, onDurable: { o in
            landed.update { $0 += o.compactMap { if case .landed(let d) = $0 { d.version } else { nil } } }
        }, onFailure: { records, _ in failures.update { $0 += records.map(\.token) }; failed.signal() },
           onHealth: { up in health.update { $0.append(up) } })
        // A commit without a change fails its whole batch.
        writer.enqueue(CommitRecord(commit: Commit(board: "demo", version: 1, by: "s1", moves: [], order: []), at: 0, origin: "p1", token: 7))
        writer.enqueue(record(.insert(id: "a", section: "done", after: nil, index: 0), version: 1, token: 8))
        // Let the first batch fail before the next arrives (the thread may also take both at once).
        let reported = failed.wait(timeout: .now() + 10) == .success
        #expect(reported, "the failed batch was not reported within 10 s")
        writer.enqueue(record(.insert(id: "b", section: "done", after: nil, index: 0), version: 1, token: 9))
        writer.close()
        #expect(failures.value.contains(7))
        #expect(health.value.first == false && health.value.last == true)
        #expect(!landed.value.isEmpty)
        let b = try #require(try SQLiteStore(path: path, edits: .wire).board(id: "demo"))
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

    /// Now and then an edit (issue 12's: an item added, copied, changed or removed, a section
    /// added, renamed or removed), so that edits land between drops written as history alone.
    static func randomEdit(_ b: Board, _ rng: inout SplitMix64, serial: Int) -> Change {
        let items = b.sections.flatMap(\.items).map(\.id)
        let s = b.sections[Int(rng.next() % UInt64(b.sections.count))]
        switch rng.next() % 6 {
        case 0: return .addItem(Item(id: "n\(serial)", label: "N\(serial)"), section: s.id, after: s.items.last?.id)
        case 1 where !items.isEmpty:
            return .copyItem(id: items[Int(rng.next() % UInt64(items.count))], as: "c\(serial)", section: s.id, after: nil, index: 0)
        case 2 where items.count > 8: return .removeItem(items[Int(rng.next() % UInt64(items.count))])
        case 3: return .addSection(id: "x\(serial)", title: "X", after: s.id)
        case 4: return .renameSection(id: s.id, title: "T\(serial)")
        default:
            return b.sections.first(where: { $0.items.isEmpty }).map { .removeSection($0.id) } ?? .renameSection(id: s.id, title: "R")
        }
    }

    /// The file read by a fresh connection must be the order in memory after every batch,
    /// whether the item rows were brought up to date at that commit or lag behind it (the
    /// history rows after the checkpoint replayed on read).
    @Test(arguments: [1, 3, 7, SQLiteStore.defaultCheckpointEvery])
    func randomBatchesOfChangesReadBackFromTheFileAsTheyApplyInMemory(checkpointEvery: Int) throws {
        let path = tempPath()
        let store = try SQLiteStore(path: path, edits: .wire, checkpointEvery: checkpointEvery)
        try store.seed(Self.board)
        var expected = Self.board
        var rng = SplitMix64(seed: 13)
        var landedCount = 0
        for batch in 0..<60 {
            var records: [CommitRecord] = []
            for k in 0..<Int(1 + rng.next() % 4) {
                let change = rng.next() % 8 == 0 ? Self.randomEdit(expected, &rng, serial: batch * 10 + k)
                    : Self.randomChange(expected, &rng)
                if expected.apply(change) != nil { landedCount += 1 }
                records.append(CommitRecord(commit: Commit(board: "demo", version: 0, by: "s", moves: [], order: [], change: change),
                                            at: 0, origin: "p", token: batch * 10 + k))
            }
            try store.apply(records)
            // A fresh connection reads the file, not the writer's memory.
            let onDisk = try #require(try SQLiteStore(path: path, edits: .wire).board(id: "demo"))
            #expect(onDisk == expected, "batch \(batch)")
            if onDisk != expected { return }
        }
        #expect(landedCount > 100)
    }

    /// The rows of `items` as the file holds them: each section's item ids by position.
    static func itemRows(_ path: String) throws -> [String: [String]] {
        let db = try SQLiteDatabase(path: path)
        let s = try db.prepare("SELECT section, id FROM items WHERE board = 'demo' ORDER BY section, position")
        var out: [String: [String]] = [:]
        while try s.step() { out[s.text(0), default: []].append(s.text(1)) }
        return out
    }

    static func checkpoint(_ path: String) throws -> Int {
        let s = try SQLiteDatabase(path: path).prepare("SELECT version FROM boards WHERE id = 'demo'")
        return try s.step() ? s.int(0) : -1
    }

    /// Each board reaches its checkpoint every `checkpointEvery` of its own commits, whatever
    /// the checkpoints of the other boards cached (the store looks a board's rows up only when
    /// the least checkpoint of all lags that far), and a board read later starts from its own.
    @Test func eachBoardsCheckpointFollowsItsOwnCommitsBesideOthers() throws {
        let path = tempPath()
        var other = demo
        other.id = "other"
        do {
            let first = try SQLiteStore(path: path, edits: .wire)
            try first.seed(demo)
            try first.seed(other)
            // `other` at version 2 (no checkpoint yet at 3 a board), read later by the next store.
            for v in 1...2 {
                var r = drop(v, .insert(id: "a", section: v % 2 == 0 ? "todo" : "done", after: nil, index: 0), token: v)
                r.commit.board = "other"
                try first.apply([r])
            }
        }
        let store = try SQLiteStore(path: path, edits: .wire, checkpointEvery: 3)
        func version(_ id: String) throws -> Int {
            let s = try SQLiteDatabase(path: path).prepare("SELECT version FROM boards WHERE id = ?")
            s.bind([.text(id)])
            return try s.step() ? s.int(0) : -1
        }
        var versions = ["demo": 0, "other": 2]
        var checkpoints = ["demo": 0, "other": 0]
        let order = ["demo", "demo", "demo", "demo", "other", "demo", "demo", "other", "other", "demo", "other", "other", "demo"]
        for (k, id) in order.enumerated() {
            let v = versions[id]! + 1
            var r = drop(v, .insert(id: "a", section: v % 2 == 0 ? "todo" : "done", after: nil, index: 0), token: 100 + k)
            r.commit.board = id
            guard case .landed(let d)? = try store.apply([r]).first, d.version == v else { Issue.record("\(id) v\(v)"); return }
            versions[id] = v
            if v - checkpoints[id]! >= 3 { checkpoints[id] = v }
            #expect(try version("demo") == checkpoints["demo"] && version("other") == checkpoints["other"], "after \(id) v\(v)")
        }
        #expect(checkpoints == ["demo": 6, "other": 6])
        for id in ["demo", "other"] {
            #expect(try SQLiteStore(path: path, edits: .wire).board(id: id) == store.board(id: id))
        }
    }

    @Test func dropsAreHistoryRowsAloneUntilTheCheckpointAndAnEditBringsTheRowsFirst() throws {
        let path = tempPath()
        let store = try SQLiteStore(path: path, edits: .wire, checkpointEvery: 4)
        try store.seed(Self.board)
        let seeded = try Self.itemRows(path)
        var expected = Self.board
        let drops: [Change] = [.insert(id: "a0", section: "s2", after: nil, index: 0), .swap("a1", "a3"),
                               .insert(id: "b2", section: "s0", after: nil, index: 0), .insert(id: "a7", section: "s1", after: "b3", index: 4)]
        for (k, d) in drops.prefix(3).enumerated() {
            #expect(expected.apply(d) != nil)
            try store.apply([CommitRecord(commit: Commit(board: "demo", version: 0, by: "s", moves: [], order: [], change: d), at: 0, token: k)])
        }
        // Three drops: three history rows, the item rows and the checkpoint untouched.
        #expect(try Self.checkpoint(path) == 0)
        #expect(try Self.itemRows(path) == seeded)
        #expect(try store.commits(board: "demo", after: 0).count == 3)
        // What any reader gets is the history replayed onto them.
        #expect(try SQLiteStore(path: path, edits: .wire).board(id: "demo") == expected)
        // The fourth brings the rows up to date.
        #expect(expected.apply(drops[3]) != nil)
        try store.apply([CommitRecord(commit: Commit(board: "demo", version: 0, by: "s", moves: [], order: [], change: drops[3]), at: 0, token: 3)])
        #expect(try Self.checkpoint(path) == 4)
        let held = try Self.itemRows(path)
        for s in expected.sections { #expect(held[s.id, default: []] == s.items.map(\.id), "\(s.id)") }
        // A drop after it lags again; an edit then writes the rows of both.
        let more: [Change] = [.swap("a2", "a5"), .removeItem("a6")]
        for (k, d) in more.enumerated() {
            #expect(expected.apply(d) != nil)
            try store.apply([CommitRecord(commit: Commit(board: "demo", version: 0, by: "s", moves: [], order: [], change: d), at: 0, token: 4 + k)])
            if k == 0 { #expect(try Self.checkpoint(path) == 4) }
        }
        #expect(try Self.checkpoint(path) == 6)
        let edited = try Self.itemRows(path)
        for s in expected.sections { #expect(edited[s.id, default: []] == s.items.map(\.id), "\(s.id)") }
        #expect(try SQLiteStore(path: path, edits: .wire).board(id: "demo") == expected)
    }

    @Test func aHistoryThatDoesNotApplyToItsCheckpointIsAnError() throws {
        let path = tempPath()
        let store = try SQLiteStore(path: path, edits: .wire)
        try store.seed(Self.board)
        try store.apply([CommitRecord(commit: Commit(board: "demo", version: 0, by: "s", moves: [], order: [],
                                                     change: .insert(id: "a0", section: "s2", after: nil, index: 0)), at: 0)])
        // Something else removes the item the history moves: reading must say so, not guess.
        try SQLiteDatabase(path: path).execute("DELETE FROM items WHERE board = 'demo' AND id = 'a0'")
        #expect(throws: StoreError.self) { try SQLiteStore(path: path, edits: .wire).board(id: "demo") }
    }

    @Test func aBoardWhoseHistoryDoesNotReplayRefusesItsDropsAloneAndCanBeDeleted() throws {
        let path = tempPath()
        let setup = try SQLiteStore(path: path, edits: .wire)
        try setup.seed(Self.board)
        var other = Self.board
        other.id = "other"
        try setup.seed(other)
        try setup.apply([CommitRecord(commit: Commit(board: "demo", version: 0, by: "s", moves: [], order: [],
                                                     change: .insert(id: "a0", section: "s2", after: nil, index: 0)), at: 0)])
        try SQLiteDatabase(path: path).execute("DELETE FROM items WHERE board = 'demo' AND id = 'a0'")
        // A fresh store (nothing cached): one batch with a drop on each board.
        let store = try SQLiteStore(path: path, edits: .wire)
        let out = try store.apply([
            CommitRecord(commit: Commit(board: "demo", version: 0, by: "s", moves: [], order: [],
                                        change: .insert(id: "a1", section: "s2", after: nil, index: 0)), at: 0, token: 1),
            CommitRecord(commit: Commit(board: "other", version: 0, by: "s", moves: [], order: [],
                                        change: .insert(id: "a1", section: "s2", after: nil, index: 0)), at: 0, token: 2),
        ])
        guard case .refused(let board, let token, let reason) = out[0] else { Issue.record("\(out[0])"); return }
        #expect(board == "demo" && token == 1 && reason.contains("does not replay at v1"))
        guard case .landed(let landed) = out[1] else { Issue.record("\(out[1])"); return }
        #expect(landed.board == "other" && landed.version == 1)
        // The broken board can still be deleted; the other keeps its drop.
        #expect(try store.deleteBoard(id: "demo"))
        #expect(try SQLiteStore(path: path, edits: .wire).boards().map(\.id) == ["other"])
    }

    @Test func aCleanCloseBringsTheRowsUpToDateSoTheNextOpenReplaysNothing() throws {
        let path = tempPath()
        let store = try SQLiteStore(path: path, edits: .wire)
        try store.seed(Self.board)
        var expected = Self.board
        let drops: [Change] = [.insert(id: "a0", section: "s2", after: nil, index: 0), .swap("a1", "a3")]
        for (k, d) in drops.enumerated() {
            #expect(expected.apply(d) != nil)
            try store.apply([CommitRecord(commit: Commit(board: "demo", version: 0, by: "s", moves: [], order: [], change: d), at: 0, token: k)])
        }
        #expect(try Self.checkpoint(path) == 0)
        // Through the writer, as the server closes it.
        let writer = CommitWriter(store: store, onDurable: { _ in }, onFailure: { _, _ in }, onHealth: { _ in })
        writer.close()
        #expect(try Self.checkpoint(path) == 2)
        let held = try Self.itemRows(path)
        for s in expected.sections { #expect(held[s.id, default: []] == s.items.map(\.id), "\(s.id)") }
        #expect(try SQLiteStore(path: path, edits: .wire).board(id: "demo") == expected)
    }

    @Test func aStartReadsEachBoardOnceForTheSeedTheBoardsAndTheFirstDrop() throws {
        let path = tempPath()
        let first = try SQLiteStore(path: path, edits: .wire)
        try first.seed(Self.board)
        try first.apply([CommitRecord(commit: Commit(board: "demo", version: 0, by: "s", moves: [], order: [],
                                                     change: .insert(id: "a0", section: "s2", after: nil, index: 0)), at: 0)])
        // As the server starts: the configured board seeded (it exists), every board read, a drop.
        let store = try SQLiteStore(path: path, edits: .wire)
        #expect(try store.seed(Self.board).version == 1)
        #expect(try store.boards().map(\.version) == [1])
        let out = try store.apply([CommitRecord(commit: Commit(board: "demo", version: 0, by: "s", moves: [], order: [],
                                                               change: .insert(id: "a1", section: "s2", after: nil, index: 0)), at: 0)])
        guard case .landed(let d)? = out.first else { Issue.record("\(out)"); return }
        #expect(d.version == 2)
        #expect(store.loads == 1, "read from the file once")
        // What it kept is what the file holds.
        #expect(try SQLiteStore(path: path, edits: .wire).board(id: "demo") == store.board(id: "demo"))
    }

    @Test func aBatchThatFailsLeavesNothingAndTheNextWritesFromTheFile() throws {
        let path = tempPath()
        let store = try SQLiteStore(path: path, edits: .wire)
        try store.seed(Self.board)
        // Warm the store's memory of the board, then fail a batch after a change that applied
        // in memory: a commit without a change refuses the whole batch.
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
        #expect(try SQLiteStore(path: path, edits: .wire).board(id: "demo") == expected)
        #expect(try store.board(id: "demo") == expected)
    }
}
