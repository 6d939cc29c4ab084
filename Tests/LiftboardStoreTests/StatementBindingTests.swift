import Testing
import LiftboardCore
@testable import LiftboardStore

/// A statement's texts are bound where SQLite reads them (SQLITE_STATIC, one buffer of the
/// statement's), and the store changes its cached board in place: what either could break
/// without an error.
@Suite struct StatementBindingTests {
    /// Texts of every length, the buffer grown between two binds and within one, and a read
    /// whose rows are stepped after its texts were bound.
    @Test func textsReadBackAsBoundThroughEveryBindAndRegrowth() throws {
        let db = try SQLiteDatabase(path: tempPath())
        try db.execute("CREATE TABLE t (k INTEGER, a TEXT, b TEXT, c TEXT)")
        let insert = try db.prepare("INSERT INTO t VALUES (?,?,?,?)")
        let rows: [(String, String, String)] = [
            ("", "x", ""),
            ("ünïcødé ✓", String(repeating: "a", count: 255), "b"),
            (String(repeating: "é", count: 300), "", String(repeating: "z", count: 5_000)),
            ("short", "after a long one", "c"),
        ]
        for (k, r) in rows.enumerated() { try insert.run([.int(k), .text(r.0), .text(r.1), .text(r.2)]) }
        let read = try db.prepare("SELECT a, b, c FROM t WHERE k >= ? AND a <> ? ORDER BY k")
        read.bind([.int(0), .text(String(repeating: "q", count: 700))])
        var back: [(String, String, String)] = []
        while try read.step() { back.append((read.text(0), read.text(1), read.text(2))) }
        #expect(back.count == rows.count)
        for (got, want) in zip(back, rows) { #expect(got == want) }
        // Bound again with a shorter text: the rows it matches are what it says now.
        read.bind([.int(1), .text("short")])
        var rest: [String] = []
        while try read.step() { rest.append(read.text(0)) }
        #expect(rest == [rows[1].0, rows[2].0])
    }

    /// Every text of a commit comes back from the history as it was written, whatever its
    /// length, in a batch that grows the history statement's buffer as it goes.
    @Test func aBatchsTextsComeBackFromTheHistoryAsWritten() throws {
        let store = try SQLiteStore(path: tempPath(), edits: .wire)
        try store.seed(demo)
        let records = [
            CommitRecord(commit: Commit(board: "demo", version: 1, by: "", moves: [], order: [],
                                        change: .insert(id: "a", section: "done", after: nil, index: 0)),
                         at: 1, origin: "", token: 1),
            CommitRecord(commit: Commit(board: "demo", version: 2, by: String(repeating: "s", count: 400), moves: [], order: [],
                                        change: .insert(id: "b", section: "done", after: "a", index: 0)),
                         at: 2, origin: "hôst/" + String(repeating: "9", count: 600), token: 2),
            CommitRecord(commit: Commit(board: "demo", version: 3, by: "s3", moves: [], order: [], change: .swap("a", "b")),
                         at: 3, origin: "p", token: 3),
        ]
        let outcomes = try store.apply(records)
        let history = try store.commits(board: "demo", after: 0)
        #expect(history.count == 3)
        for (k, (d, r)) in zip(history, records).enumerated() {
            #expect(d.version == k + 1 && d.by == r.commit.by && d.origin == r.origin && d.token == r.token && d.change == r.commit.change)
            #expect(outcomes[k] == .landed(d))
        }
    }

    /// The store changes its own board in place; a board it handed out earlier is a value and
    /// stays as it was, and the store's is the one its history replays to.
    @Test func aBoardHandedOutStaysAsItWasWhenTheStoreChangesItsOwnInPlace() throws {
        let path = tempPath()
        let store = try SQLiteStore(path: path, edits: .wire)
        let handedOut = try store.seed(demo)
        let changes: [Change] = [.insert(id: "a", section: "todo", after: "b", index: 0), .insert(id: "b", section: "done", after: nil, index: 0)]
        try store.apply([drop(1, changes[0]), drop(2, changes[1])])
        #expect(handedOut == demo)
        var expected = demo
        for c in changes { #expect(expected.apply(c) != nil) }
        #expect(expected.version == 2)
        #expect(try store.board(id: "demo") == expected)
        #expect(try SQLiteStore(path: path, edits: .wire).board(id: "demo") == expected)
    }

    /// Texts bound value by value (`start`, `bind(_:_:)`, `runBound`) that outgrow the
    /// statement's memory within one bind come back as bound: those bound before the growth
    /// are read where they were copied until the next bind, which reuses the memory.
    @Test func textsBoundValueByValueReadBackThroughGrowthWithinOneBind() throws {
        let db = try SQLiteDatabase(path: tempPath())
        try db.execute("CREATE TABLE t (k INTEGER, a TEXT, b TEXT, c TEXT, d TEXT, e REAL, f INTEGER)")
        let insert = try db.prepare("INSERT INTO t VALUES (?,?,?,?,?,?,?)")
        let rows: [[String]] = [
            [String(repeating: "a", count: 200), String(repeating: "ü", count: 150), String(repeating: "z", count: 5_000), "d"],
            ["x", "", "y", String(repeating: "w", count: 20_000)],
            ["1", "2", "3", "4"],
        ]
        for (k, r) in rows.enumerated() {
            insert.start()
            insert.bind(1, k)
            for (j, text) in r.enumerated() { insert.bind(Int32(j + 2), text) }
            insert.bind(6, Double(k) / 2)
            insert.bind(7, k == 1 ? nil : Int?(k))
            try insert.runBound()
        }
        let read = try db.prepare("SELECT a, b, c, d, e, f FROM t ORDER BY k")
        var k = 0
        while try read.step() {
            #expect([read.text(0), read.text(1), read.text(2), read.text(3)] == rows[k])
            #expect(read.double(4) == Double(k) / 2)
            #expect(read.isNull(5) == (k == 1))
            k += 1
        }
        #expect(k == rows.count)
    }

    /// A commit's change is bound into its history row straight from the change (a drop's
    /// insert and swap) or through `ChangeColumns` (a group, a batch, an edit): either way its
    /// columns are what `ChangeColumns` makes of it.
    @Test func aHistoryRowsChangeColumnsAreChangeColumnsOfItsChange() throws {
        let path = tempPath()
        let store = try SQLiteStore(path: path, edits: .wire)
        try store.seed(demo)
        let changes: [Change] = [
            .insert(id: "a", section: "done", after: nil, index: 0),
            .insert(id: "b", section: "done", after: "a", index: 1),
            .swap("a", "b"),
            .group(ids: ["a", "b"], section: "todo", after: "c", index: 1),
            .renameSection(id: "done", title: "Finished"),
            .batch([.insert(id: "a", section: "done", after: nil, index: 0), .insert(id: "b", section: "done", after: "a", index: 1)]),
        ]
        let outcomes = try store.apply(changes.enumerated().map { drop($0 + 1, $1, token: $0 + 1) })
        for o in outcomes { guard case .landed = o else { Issue.record("not landed: \(o)"); return } }
        let db = try SQLiteDatabase(path: path)
        let read = try db.prepare("SELECT change_kind, change_item, change_other, change_section, change_index, change_json FROM commits WHERE board = 'demo' ORDER BY version")
        var k = 0
        while try read.step() {
            func text(_ c: Int32) -> String? { read.isNull(c) ? nil : read.text(c) }
            let want = ChangeColumns(changes[k], edits: .wire)
            #expect(text(0) == want.kind && text(1) == want.item && text(2) == want.other && text(3) == want.section)
            #expect((read.isNull(4) ? nil : read.int(4)) == want.index && text(5) == want.json)
            k += 1
        }
        #expect(k == changes.count)
        #expect(try store.commits(board: "demo", after: 0).map(\.change) == changes)
    }

    /// The store reuses the memory of its last batch's outcomes for the next: outcomes a
    /// caller still holds stay as they were, and each batch's are its own.
    @Test func outcomesHeldByTheCallerStayAsTheyWereAfterTheNextBatch() throws {
        let store = try SQLiteStore(path: tempPath(), edits: .wire)
        try store.seed(demo)
        let first = try store.apply([drop(1, .insert(id: "a", section: "done", after: nil, index: 0), token: 1),
                                     drop(2, .insert(id: "a", section: "done", after: nil, index: 0), token: 2)])
        let kept = first
        let second = try store.apply([drop(2, .insert(id: "b", section: "done", after: "a", index: 1), token: 3)])
        let third = try store.apply([drop(3, .swap("a", "b"), token: 4)])
        #expect(kept == first && first.count == 2)
        guard case .landed(let d) = first[0], d.version == 1, d.token == 1 else { Issue.record("\(first)"); return }
        #expect(first[1] == .unchanged(board: "demo", token: 2))
        #expect(second.count == 1 && third.count == 1)
        guard case .landed(let s) = second[0], s.version == 2, s.token == 3,
              case .landed(let t) = third[0], t.version == 3, t.token == 4 else { Issue.record("\(second) \(third)"); return }
    }

    /// A statement is reset before a bind only when it is not already (a run resets it as it
    /// ends): one stepped part way, or stepped with no bind before, is still reset, or SQLite
    /// would refuse the new values and it would read with the old ones.
    @Test func aStatementSteppedPartWayIsResetBeforeItsNextBind() throws {
        let db = try SQLiteDatabase(path: tempPath())
        try db.execute("CREATE TABLE t (k INTEGER)")
        let insert = try db.prepare("INSERT INTO t VALUES (?)")
        for k in 0..<5 {
            insert.start(); insert.bind(1, k); try insert.runBound()
        }
        let read = try db.prepare("SELECT k FROM t WHERE k > ? ORDER BY k")
        read.bind([.int(0)])
        #expect(try read.step() && read.int(0) == 1)
        read.start(); read.bind(1, 2)
        var rest: [Int] = []
        while try read.step() { rest.append(read.int(0)) }
        #expect(rest == [3, 4])
        let count = try db.prepare("SELECT count(*) FROM t")
        #expect(try count.step() && count.int(0) == 5)
        try insert.run([.int(5)])
        count.start()
        #expect(try count.step() && count.int(0) == 6)
    }
}
