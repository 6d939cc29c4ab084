import Foundation
import Testing
import LiftboardCore
@testable import LiftboardStore

/// A drop on board demo at `version`, signed by `user` (nil: a session without one).
func signed(_ version: Int, _ change: Change, user: String?, name: String?) -> CommitRecord {
    CommitRecord(commit: Commit(board: "demo", version: version, by: "s\(version)", moves: [], order: [], change: change,
                                user: user, name: name),
                 at: 1_700_000_000_000 + Double(version), origin: "p1", token: version)
}

/// Issue 42 in the stores: a commit keeps the user who made it and their name (schema 10),
/// through a restart, in both stores (part of the conformance suite); commits made before have none.
extension StoreConformanceTests {
    static let signedChanges: [Change] = [.insert(id: "a", section: "done", after: nil, index: 0),
                                          .insert(id: "b", section: "done", after: "a", index: 1), .updateItem(ItemUpdate(id: "a", label: "Aa"))]

    @Test("a commit keeps its user and name, one without a user has none, and both survive a restart", arguments: storeKinds)
    func usersSurviveARestart(_ kind: StoreKind) throws {
        let open = try kind.fresh()
        do {
            let store = try open()
            try store.seed(demo)
            let out = try store.apply([signed(1, Self.signedChanges[0], user: "u-ada", name: "Ada Lovelace"),
                                       signed(2, Self.signedChanges[1], user: nil, name: nil),
                                       signed(3, Self.signedChanges[2], user: "u-\u{e9}mile", name: "")])
            // What the writer hands on (the hub, the SSE feed) is signed as it was written.
            let landed = out.compactMap { if case .landed(let d) = $0 { d } else { nil } }
            #expect(landed.map(\.user) == ["u-ada", nil, "u-\u{e9}mile"] && landed.map(\.name) == ["Ada Lovelace", nil, ""])
        }
        // Another process, after a restart: the history, and the board replayed from it.
        let again = try open()
        let back = try again.commits(board: "demo", after: 0)
        #expect(back.map(\.version) == [1, 2, 3] && back.map(\.change) == Self.signedChanges)
        #expect(back.map(\.user) == ["u-ada", nil, "u-\u{e9}mile"])
        #expect(back.map(\.name) == ["Ada Lovelace", nil, ""])
        #expect(back.map(\.by) == ["s1", "s2", "s3"])
        #expect(try again.board(id: "demo")?.version == 3)
    }
}

@Suite struct PeopleStoreTests {
    let changes = StoreConformanceTests.signedChanges

    /// Board demo after its first commit (a into done), as schema 9's rows hold it, and that
    /// commit's history row (no user: schema 9 had none). Each store's SQL for it.
    static func schema9Rows(postgres: Bool) -> [String] {
        let (yes, no) = postgres ? ("true", "false") : ("1", "0")
        return [
            "INSERT INTO boards (id, layout, version, row_height, list_header, list_spacing, item_width, item_height, grid_spacing, grid_header) "
                + "VALUES ('demo', 'list', 1, 56, 32, 1, 120, 120, 8, 32)",
            "INSERT INTO sections (board, id, position, title) VALUES ('demo', 'todo', 0, ''), ('demo', 'done', 1, '')",
            "INSERT INTO items (board, id, section, position, label, color, height, movable) VALUES "
                + "('demo', 'b', 'todo', 0, 'B', '#222', 96, \(yes)), ('demo', 'c', 'todo', 1, 'C', '#333', NULL, \(no)), "
                + "('demo', 'a', 'done', 0, 'A', '#111', NULL, \(yes))",
            "INSERT INTO commits (board, version, by, at, origin, token, change_kind, change_item, change_other, change_section, change_index) "
                + "VALUES ('demo', 1, 's1', 1700000000001, 'p1', 1, 'insert', 'a', NULL, 'done', 0)",
        ]
    }

    @Test("a database of schema 9 migrates: its commits have no user, new ones keep theirs", arguments: storeKinds)
    func schema9Migrates(_ kind: StoreKind) throws {
        let open: () throws -> any Store
        // A database as a build of schema 9 left it: its steps, its number, a board and a commit.
        switch kind {
        case .sqlite:
            let path = tempPath()
            let db = try SQLiteDatabase(path: path)
            for step in SQLiteStore.migrations[..<9] { try db.execute(step) }
            for row in Self.schema9Rows(postgres: false) { try db.execute(row) }
            try db.execute("PRAGMA user_version = 9")
            open = { try SQLiteStore(path: path, edits: .wire) }
        case .postgres:
            let url = try StoreKind.freshPostgresDatabase()
            let db = try PostgresConnection(url: url)
            for step in PostgresStore.migrations[..<9] { if let step { try db.exec(step) } }
            for row in Self.schema9Rows(postgres: true) { try db.exec(row) }
            try db.exec("CREATE TABLE liftboard_schema (version INTEGER NOT NULL)")
            try db.exec("INSERT INTO liftboard_schema VALUES (9)")
            open = { try PostgresStore(url: url, edits: .wire) }
        }
        let store = try open()
        switch store {
        case let s as SQLiteStore: #expect(try s.userVersion() == StoreSchema.version)
        case let p as PostgresStore: #expect(try p.schemaVersionInDatabase() == StoreSchema.version)
        default: Issue.record("a store of another kind: \(type(of: store))")
        }
        #expect(try store.board(id: "demo")?.order.map(\.items) == [["b", "c"], ["a"]])
        #expect(try store.commits(board: "demo", after: 0).map(\.user) == [nil])
        _ = try store.apply([signed(2, changes[1], user: "u-ada", name: "Ada")])
        let back = try open().commits(board: "demo", after: 0)
        #expect(back.map(\.version) == [1, 2] && back.map(\.by) == ["s1", "s2"])
        #expect(back.map(\.user) == [nil, "u-ada"] && back.map(\.name) == [nil, "Ada"])
    }
}

@Suite struct PeopleNotifyTests {
    @Test("a notification carries a commit's user and name; one from an older process (12 columns) has none")
    func notifyPayload() throws {
        let codec = EditCodec.wire
        let row: [String?] = ["demo", "4", "s1", "17", "p1", "9", "insert", "a", nil, "done", "0", nil, "u-ada", "Ada"]
        let n = try #require(NotifyPayload.decode(NotifyPayload.encode(row), edits: codec)?.commit)
        #expect(n.user == "u-ada" && n.name == "Ada" && n.version == 4 && n.by == "s1")
        let old = try #require(NotifyPayload.decode(NotifyPayload.encode(Array(row.prefix(12))), edits: codec)?.commit)
        #expect(old.user == nil && old.name == nil && old.change == n.change)
    }
}
