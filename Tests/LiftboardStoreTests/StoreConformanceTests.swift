import Foundation
import Testing
import LiftboardCore
@testable import LiftboardStore

/// One contract, two stores: every test here runs against `SQLiteStore` and `PostgresStore`.
///
/// PostgreSQL comes from `LIFTBOARD_TEST_POSTGRES`, the URL of a server the tests may create
/// databases on (`postgresql://liftboard@127.0.0.1:PORT/postgres`): scripts/test starts a
/// private one (Tests/tools/with_postgres.py) and sets it, so CI always runs both. Without it
/// the PostgreSQL cases are skipped, and say so; with `CI=true` they run all the same, and fail
/// saying what is missing (a skip in CI is a failure: docs/testing.md, "Skips").
enum StoreKind: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case sqlite, postgres

    var testDescription: String { rawValue }

    static let postgresServer = ProcessInfo.processInfo.environment["LIFTBOARD_TEST_POSTGRES"]

    /// A fresh, empty store of this kind, and a way to open it again (another connection).
    func fresh() throws -> () throws -> any Store {
        switch self {
        case .sqlite:
            let path = tempPath()
            return { try SQLiteStore(path: path, edits: .wire) }
        case .postgres:
            let url = try Self.freshPostgresDatabase()
            return { try PostgresStore(url: url, edits: .wire) }
        }
    }

    /// A new, empty database on the test server; its URL.
    static func freshPostgresDatabase() throws -> String {
        guard let server = postgresServer else { throw ConformanceSkip.noPostgres }
        let name = "conformance_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        let admin = try PostgresConnection(url: server)
        _ = try admin.exec("CREATE DATABASE \(name)")
        let base = server[..<(server.lastIndex(of: "/") ?? server.endIndex)]
        return "\(base)/\(name)"
    }
}

enum ConformanceSkip: Error, CustomStringConvertible {
    case noPostgres
    var description: String {
        "LIFTBOARD_TEST_POSTGRES is not set: the PostgreSQL half of the store contract was not run (scripts/test sets it)"
    }
}

/// With `CI=true` (what CI systems set) no test skips: what it needs is missing is a failure.
/// No Swift test is allowed to skip in CI; Tests/e2e/test_ci_skips.py holds every skip to this.
enum CI {
    static let on = ["true", "1", "yes"].contains(ProcessInfo.processInfo.environment["CI", default: ""].lowercased())
}

/// The kinds this run can test: PostgreSQL only with a server to test against (always in CI).
let storeKinds: [StoreKind] = StoreKind.postgresServer == nil && !CI.on ? [.sqlite] : StoreKind.allCases

@Suite struct StoreConformanceTests {
    func change(_ c: Change, version: Int = 1, token: Int, ifVersion: Int? = nil, board: String = "demo") -> CommitRecord {
        CommitRecord(commit: Commit(board: board, version: version, by: "s\(token)", moves: [], order: [], change: c),
                     at: 1_700_000_000_000 + Double(token), origin: "p1", token: token, ifVersion: ifVersion)
    }

    func versions(_ out: [StoreOutcome]) -> [Int?] {
        out.map { if case .landed(let d) = $0 { d.version } else { nil } }
    }

    @Test("PostgreSQL is among the stores under test", .enabled(if: StoreKind.postgresServer != nil || CI.on, "\(ConformanceSkip.noPostgres)"))
    func postgresIsUnderTest() {
        #expect(StoreKind.postgresServer != nil, "\(ConformanceSkip.noPostgres)")
        #expect(storeKinds == [.sqlite, .postgres])
    }

    @Test("a seeded board reads back the same; an unknown one is nil; seeding again keeps the store's", arguments: storeKinds)
    func seed(_ kind: StoreKind) throws {
        let open = try kind.fresh()
        let store = try open()
        #expect(try store.seed(demo) == demo)
        #expect(try store.board(id: "demo") == demo)
        #expect(try store.boards().map(\.id) == ["demo"])
        #expect(try store.board(id: "nope") == nil)
        _ = try store.apply([change(.insert(id: "a", section: "done", after: nil, index: 0), token: 1)])
        let again = try store.seed(demo)
        #expect(again.version == 1 && again.sections[1].items.map(\.id) == ["a"])
        #expect(try open().board(id: "demo") == again)
    }

    @Test("changes made on one version all land, in order, each on the order the one before left", arguments: storeKinds)
    func changesLandInOrder(_ kind: StoreKind) throws {
        let open = try kind.fresh()
        let store = try open()
        try store.seed(demo)
        let out = try store.apply([change(.insert(id: "a", section: "done", after: nil, index: 0), token: 1),
                                   change(.insert(id: "b", section: "done", after: "a", index: 1), token: 2)])
        #expect(versions(out) == [1, 2])
        let b = try #require(try open().board(id: "demo"))
        #expect(b.version == 2 && b.order == [SectionOrder(section: "todo", items: ["c"]), SectionOrder(section: "done", items: ["a", "b"])])
        #expect(b.sections[0].items[0].movable == false && b.sections[1].items[1].height == 96)
    }

    @Test("the history is every commit with its change, author, time, origin and token, from any connection", arguments: storeKinds)
    func history(_ kind: StoreKind) throws {
        let open = try kind.fresh()
        let store = try open()
        try store.seed(demo)
        let changes: [Change] = [.insert(id: "a", section: "done", after: nil, index: 0), .insert(id: "a", section: "todo", after: nil, index: 0),
                                 .updateItem(ItemUpdate(id: "a", label: "Aa"))]
        _ = try store.apply(changes.enumerated().map { change($1, token: $0 + 1) })
        let back = try open().commits(board: "demo", after: 0)
        #expect(back.map(\.version) == [1, 2, 3] && back.map(\.change) == changes)
        #expect(back.map(\.by) == ["s1", "s2", "s3"] && back.map(\.token) == [1, 2, 3] && back.allSatisfy { $0.origin == "p1" })
        #expect(back.map(\.at) == [1_700_000_000_001, 1_700_000_000_002, 1_700_000_000_003])
        #expect(try store.commits(board: "demo", after: 2).map(\.version) == [3])
        #expect(try store.commits(board: "nope", after: 0).isEmpty)
    }

    @Test("a group drop and its batch undo land, are stored and read back like any change", arguments: storeKinds)
    func groupsAndBatches(_ kind: StoreKind) throws {
        let open = try kind.fresh()
        let store = try open()
        try store.seed(demo)
        let group = Change.group(ids: ["b", "a"], section: "done", after: nil, index: 0)
        let undo = Change.batch([.insert(id: "a", section: "todo", after: nil, index: 0), .insert(id: "b", section: "todo", after: "a", index: 1)])
        let out = try store.apply([change(group, token: 1), change(undo, token: 2)])
        #expect(versions(out) == [1, 2])
        let back = try open().commits(board: "demo", after: 0)
        #expect(back.map(\.change) == [group, undo])
        // After the group the pinned c was alone, at index 0; it keeps that index through the undo.
        let b = try #require(try open().board(id: "demo"))
        #expect(b.version == 2 && b.order == [SectionOrder(section: "todo", items: ["c", "a", "b"]), SectionOrder(section: "done", items: [])])
    }

    @Test("a change that breaks a placement rule on the stored order is refused by name and not written; a colliding copy gets another id", arguments: storeKinds)
    func rules(_ kind: StoreKind) throws {
        let open = try kind.fresh()
        let store = try open()
        let race = Board(id: "race", sections: [
            Section(id: "todo", items: [Item(id: "a", label: "A", color: "#1", kind: "bug", handle: .leading), Item(id: "b", label: "B", color: "#2")]),
            Section(id: "doing", items: [], accepts: ["bug", "a;b"], max: 1),
            Section(id: "palette", items: [Item(id: "p", label: "P", color: "#3", kind: "bug")], copy: true),
            Section(id: "trash", items: [], drop: .remove),
        ])
        try store.seed(race)
        #expect(try open().board(id: "race") == race)
        // Two sessions each saw doing empty: the first lands, the second is refused by name.
        let out = try store.apply([change(.insert(id: "a", section: "doing", after: nil, index: 0), token: 1, board: "race"),
                                   change(.insert(id: "p", section: "doing", after: nil, index: 0), token: 2, board: "race")])
        #expect(versions(out) == [1, nil])
        #expect(out[1] == .refused(board: "race", token: 2, reason: "max: section \"doing\" holds at most 1 item"))
        // Two copies both named p~2: the second gets p~3, and its commit says so.
        let copy = Change.copyItem(id: "p", as: "p~2", section: "todo", after: nil, index: 0)
        let copies = try store.apply([change(copy, version: 2, token: 3, board: "race"), change(copy, version: 2, token: 4, board: "race")])
        #expect(versions(copies) == [2, 3])
        if case .landed(let d) = copies[1] { #expect(d.change == .copyItem(id: "p", as: "p~3", section: "todo", after: nil, index: 0)) }
        // A trash drop of both copies as one edit batch.
        let trash = Change.batch([.removeItem("p~2"), .removeItem("p~3")])
        #expect(versions(try store.apply([change(trash, version: 4, token: 5, board: "race")])) == [4])
        let b = try #require(try open().board(id: "race"))
        #expect(b.version == 4 && b.order.map(\.items) == [["b"], ["a"], ["p"], []])
        #expect(b.sections[0].items[0].kind == nil && b.sections[1].items[0].handle == .leading && b.sections[1].rules == race.sections[1].rules)
        #expect(try open().commits(board: "race", after: 0).map(\.change) == [.insert(id: "a", section: "doing", after: nil, index: 0), copy,
                                                                               .copyItem(id: "p", as: "p~3", section: "todo", after: nil, index: 0), trash])
    }

    @Test("a change that changes nothing on the stored order is unchanged and not written", arguments: storeKinds)
    func mootChange(_ kind: StoreKind) throws {
        let store = try kind.fresh()()
        try store.seed(demo)
        let out = try store.apply([change(.insert(id: "a", section: "done", after: nil, index: 0), token: 1),
                                   change(.insert(id: "a", section: "done", after: nil, index: 0), token: 2)])
        #expect(versions(out) == [1, nil] && out[1] == .unchanged(board: "demo", token: 2))
        #expect(try store.board(id: "demo")?.version == 1 && store.commits(board: "demo", after: 0).count == 1)
    }

    @Test("a commit to a board the store does not have is unchanged; the rest of the batch is written", arguments: storeKinds)
    func unknownBoard(_ kind: StoreKind) throws {
        let store = try kind.fresh()()
        try store.seed(demo)
        let out = try store.apply([change(.swap("a", "b"), token: 1, board: "nope"),
                                   change(.insert(id: "a", section: "done", after: nil, index: 0), token: 2)])
        #expect(out[0] == .unchanged(board: "nope", token: 1) && versions(out) == [nil, 1])
        #expect(try store.board(id: "demo")?.version == 1 && store.board(id: "nope") == nil)
    }

    @Test("a commit without a change is refused, and nothing of its batch is written", arguments: storeKinds)
    func changelessCommit(_ kind: StoreKind) throws {
        let open = try kind.fresh()
        let store = try open()
        try store.seed(demo)
        let changeless = CommitRecord(commit: Commit(board: "demo", version: 2, by: "s2", moves: [],
                                                     order: [SectionOrder(section: "todo", items: ["b", "c"]), SectionOrder(section: "done", items: ["a"])]),
                                      at: 0, origin: "p1", token: 2)
        #expect(throws: StoreError.self) {
            try store.apply([change(.insert(id: "a", section: "done", after: nil, index: 0), token: 1), changeless])
        }
        do {
            _ = try store.apply([changeless])
        } catch {
            guard case .missingChange(let board, let version) = error else { Issue.record("\(error)"); return }
            #expect(board == "demo" && version == 2)
        }
        #expect(try open().board(id: "demo") == demo && store.commits(board: "demo", after: 0).isEmpty)
        // The store goes on from what it has.
        #expect(versions(try store.apply([change(.swap("a", "b"), token: 3)])) == [1])
    }

    @Test("an If-Match that is not the stored version is unchanged and not written; the right one lands", arguments: storeKinds)
    func staleIfMatch(_ kind: StoreKind) throws {
        let store = try kind.fresh()()
        try store.seed(demo)
        let out = try store.apply([change(.removeItem("a"), token: 1, ifVersion: 0),
                                   change(.removeItem("b"), version: 2, token: 2, ifVersion: 0),
                                   change(.removeItem("b"), version: 2, token: 3, ifVersion: 1)])
        #expect(versions(out) == [1, nil, 2] && out[1] == .unchanged(board: "demo", token: 2))
        let b = try #require(try store.board(id: "demo"))
        #expect(b.version == 2 && b.sections[0].items.map(\.id) == ["c"])
    }

    @Test("edits change items and sections as they do in memory, and read back from another connection", arguments: storeKinds)
    func edits(_ kind: StoreKind) throws {
        let open = try kind.fresh()
        let store = try open()
        try store.seed(demo)
        let edits: [Change] = [
            .addSection(id: "later", title: "Later", after: "todo"),
            .addItem(Item(id: "n", label: "New", color: "#444", height: 70), section: "todo", after: nil),
            .updateItem(ItemUpdate(id: "b", label: "Bee", movable: false)),
            .insert(id: "n", section: "later", after: nil, index: 0),
            .removeItem("a"),
            .renameSection(id: "later", title: "Some day"),
            .removeSection("done"),
        ]
        var expected = demo
        for (k, e) in edits.enumerated() {
            #expect(expected.apply(e) != nil)
            #expect(versions(try store.apply([change(e, version: k + 1, token: k + 1, ifVersion: k)])) == [k + 1])
        }
        #expect(try open().board(id: "demo") == expected)
        #expect(try open().commits(board: "demo", after: 0).map(\.change) == edits)
    }

    @Test("cards (detail, image, badge, tags, accent) and subtitles are seeded, edited and read back from another connection", arguments: storeKinds)
    func cards(_ kind: StoreKind) throws {
        let open = try kind.fresh()
        let store = try open()
        var board = demo
        // Text a store could mistake for its own separators survives: colons, digits, quotes, emoji.
        board.sections[0].items[0].card = Card(detail: "3:4 \"d5:x\" 🥛", image: "/media/a b.svg", badge: "12",
                                               tags: [Tag(text: "t1:c", color: "#f00"), Tag(text: "plain")], accent: "#ff00ff")
        board.sections[0].subtitle = "this week"
        try store.seed(board)
        #expect(try open().board(id: "demo") == board)
        var update = ItemUpdate(id: "a")
        update.detail = ""
        update.badge = "13"
        update.tags = [Tag(text: "urgent", color: "#db4437")]
        let edits: [Change] = [
            .updateItem(update),
            .addItem(Item(id: "n", label: "New", card: Card(image: "/media/n.svg", accent: "#0f0")), section: "todo", after: nil),
            .setSubtitle(id: "todo", subtitle: "next week"),
            .setSubtitle(id: "done", subtitle: "🎉 all of it"),
            .setSubtitle(id: "todo", subtitle: nil),
        ]
        var expected = board
        for (k, e) in edits.enumerated() {
            #expect(expected.apply(e) != nil)
            #expect(versions(try store.apply([change(e, version: k + 1, token: k + 1, ifVersion: k)])) == [k + 1])
        }
        let read = try open().board(id: "demo")
        #expect(read == expected)
        #expect(read?.sections[0].items.first { $0.id == "a" }?.card == Card(image: "/media/a b.svg", badge: "13",
                                                                             tags: [Tag(text: "urgent", color: "#db4437")], accent: "#ff00ff"))
        #expect(try open().commits(board: "demo", after: 0).map(\.change) == edits)
    }

    @Test("a columns board keeps its layout and its own column metrics, read back from another connection", arguments: storeKinds)
    func columnsMetrics(_ kind: StoreKind) throws {
        let open = try kind.fresh()
        var board = demo
        board.id = "kanban"
        board.layout = .columns
        board.columns = ColumnMetrics(width: 300.5, gap: 0, headerHeight: 48, rowHeight: 64, spacing: 10)
        try open().seed(board)
        let read = try open().board(id: "kanban")
        #expect(read?.layout == .columns)
        #expect(read?.columns == board.columns)
        #expect(read == board)
    }

    /// An outline (issue 43): groceries (milk eggs) garden (seeds), eggs a leaf, garden
    /// collapsed to begin with, home at most two levels deep, a 30 px indent.
    static var outline: Board {
        func item(_ id: String, _ depth: Int, collapsed: Bool = false, leaf: Bool = false) -> Item {
            var i = Item(id: id)
            i.depth = depth; i.collapsed = collapsed; i.leaf = leaf
            return i
        }
        var home = Section(id: "home", title: "Home", items: [item("groceries", 0), item("milk", 1), item("eggs", 1, leaf: true),
                                                              item("garden", 0, collapsed: true), item("seeds", 1)])
        home.maxDepth = 2
        var board = Board(id: "outline", layout: .tree, sections: [home, Section(id: "work", title: "Work", items: [])])
        board.tree.indent = 30
        return board
    }

    @Test("a tree board keeps its nesting, leaves, collapsed states, maxDepth and indent; moves land with their subtrees", arguments: storeKinds)
    func trees(_ kind: StoreKind) throws {
        let open = try kind.fresh()
        let store = try open()
        try store.seed(Self.outline)
        #expect(try open().board(id: "outline") == Self.outline)
        // Garden (with seeds) under groceries after eggs; then milk indented under... nothing
        // moves but its depth: milk outdented to the top level after groceries' subtree.
        var expected = Self.outline
        let moves: [Change] = [.move("garden", section: "home", parent: "groceries", after: "eggs", index: 2),
                               .move("milk", section: "work", parent: nil, after: nil, index: 0)]
        for (k, m) in moves.enumerated() {
            #expect(expected.apply(m) != nil)
            #expect(versions(try store.apply([change(m, version: k + 1, token: k + 1, board: "outline")])) == [k + 1])
        }
        let read = try #require(try open().board(id: "outline"))
        #expect(read == expected)
        #expect(read.sections[0].items.map(\.id) == ["groceries", "eggs", "garden", "seeds"])
        #expect(read.sections[0].items.map(\.depth) == [0, 1, 1, 2])
    }

    /// The outline seeded in a fresh store of `kind`, then `edits` applied one version each: after
    /// each, the store reads back what `Board.apply` gives (`check` sees that board); the last read.
    func outlineAfter(_ edits: [Change], _ kind: StoreKind, check: (Board) -> Void) throws -> Board {
        let open = try kind.fresh()
        let store = try open()
        try store.seed(Self.outline)
        var expected = Self.outline
        var read = Self.outline
        for (k, e) in edits.enumerated() {
            #expect(expected.apply(e) != nil)
            #expect(versions(try store.apply([change(e, version: k + 1, token: k + 1, board: "outline")])) == [k + 1])
            read = try #require(try open().board(id: "outline"))
            #expect(read == expected, "after \(e)")
            check(read)
        }
        return read
    }

    @Test("a tree's edits: an item added under a parent after a sibling at its depth, one removed with its subtree, and that removal undone", arguments: storeKinds)
    func treeEdits(_ kind: StoreKind) throws {
        let removal: Change = .removeItem("garden")
        let read = try outlineAfter([.addItem(Item(id: "bread", label: "Bread"), section: "home", after: "milk", parent: "groceries"),
                                     .addItem(Item(id: "jam", label: "Jam"), section: "home", after: nil, parent: "bread"),
                                     removal, try #require(Self.outline.revert(of: removal))], kind) { _ in }
        #expect(read.sections[0].items.map(\.id) == ["groceries", "milk", "bread", "jam", "eggs", "garden", "seeds"])
        #expect(read.sections[0].items.map(\.depth) == [0, 1, 1, 2, 1, 0, 1])
    }

    @Test("a tree's copy stores its item's whole subtree under the parent it names, and its undo removes it", arguments: storeKinds)
    func treeCopy(_ kind: StoreKind) throws {
        let copy: Change = .copyItem(id: "groceries", as: "groceries~1", section: "home", after: nil, index: 0, parent: "garden")
        let read = try outlineAfter([copy, try #require(Self.outline.revert(of: copy))], kind) { read in
            guard read.version == 1 else { return }
            #expect(read.sections[0].items.map(\.id) == ["groceries", "milk", "eggs", "garden", "groceries~1", "milk~1", "eggs~1", "seeds"])
            #expect(read.sections[0].items.map(\.depth) == [0, 1, 1, 0, 1, 2, 2, 1])
        }
        #expect(read.sections == Self.outline.sections)
    }

    @Test("a deleted board is gone with its history; deleting it again says there was none", arguments: storeKinds)
    func delete(_ kind: StoreKind) throws {
        let open = try kind.fresh()
        let store = try open()
        try store.seed(demo)
        _ = try store.apply([change(.swap("a", "b"), token: 1)])
        #expect(try store.deleteBoard(id: "demo"))
        #expect(try !store.deleteBoard(id: "demo"))
        #expect(try open().board(id: "demo") == nil && store.boards().isEmpty && store.commits(board: "demo", after: 0).isEmpty)
        // A commit that was in flight is moot; the id may be seeded anew.
        #expect(try store.apply([change(.swap("a", "b"), version: 2, token: 2)]) == [.unchanged(board: "demo", token: 2)])
        #expect(try store.seed(demo) == demo)
        try store.probe()
    }

    @Test("random batches of drops read back from another connection as they apply in memory", arguments: storeKinds)
    func randomBatches(_ kind: StoreKind) throws {
        let open = try kind.fresh()
        let store = try open()
        try store.seed(StoreRowsTests.board)
        var expected = StoreRowsTests.board
        var rng = SplitMix64(seed: 22)
        for batch in 0..<25 {
            var records: [CommitRecord] = []
            for k in 0..<Int(1 + rng.next() % 4) {
                let c = StoreRowsTests.randomChange(expected, &rng)
                _ = expected.apply(c)
                records.append(CommitRecord(commit: Commit(board: "demo", version: 0, by: "s", moves: [], order: [], change: c),
                                            at: 0, origin: "p", token: batch * 10 + k))
            }
            _ = try store.apply(records)
            let back = try #require(try open().board(id: "demo"))
            #expect(back == expected, "batch \(batch)")
            if back != expected { return }
        }
    }

    @Test("a fresh store is at the one schema version", arguments: storeKinds)
    func schema(_ kind: StoreKind) throws {
        let store = try kind.fresh()()
        switch store {
        case let s as SQLiteStore: #expect(try s.userVersion() == StoreSchema.version)
        case let p as PostgresStore: #expect(try p.schemaVersionInDatabase() == StoreSchema.version)
        default: Issue.record("a store of another kind: \(type(of: store))")
        }
    }
}

/// PostgreSQL's side of the one schema history (StoreSchema).
@Suite(.enabled(if: StoreKind.postgresServer != nil || CI.on, "\(ConformanceSkip.noPostgres)"))
struct PostgresSchemaTests {
    @Test("a database numbered before the one history (schema_version 2) is its version 4, and migrates to the current one")
    func legacyNumbering() throws {
        let url = try StoreKind.freshPostgresDatabase()
        do {
            // As a build before issue 22 left it: steps 1 and 2 of the old numbering.
            let db = try PostgresConnection(url: url)
            _ = try db.exec("CREATE TABLE schema_version (version INTEGER NOT NULL)")
            _ = try db.exec(try #require(PostgresStore.migrations[0]))
            _ = try db.exec(try #require(PostgresStore.migrations[3]))
            _ = try db.exec("INSERT INTO schema_version VALUES (2)")
        }
        let store = try PostgresStore(url: url, edits: .wire)
        #expect(try store.schemaVersionInDatabase() == StoreSchema.version)
        let check = try PostgresConnection(url: url)
        #expect(try check.exec("SELECT to_regclass('schema_version') IS NULL").text(0, 0) == "t")
        try store.seed(demo)
        let out = try store.apply([drop(1, .updateItem(ItemUpdate(id: "a", label: "Aa")))])
        #expect(out.count == 1)
        #expect(try store.commits(board: "demo", after: 0).map(\.change) == [.updateItem(ItemUpdate(id: "a", label: "Aa"))])
        // Opening again changes nothing.
        #expect(try PostgresStore(url: url, edits: .wire).schemaVersionInDatabase() == StoreSchema.version)
    }

    @Test("a database of a newer schema is refused")
    func newer() throws {
        let url = try StoreKind.freshPostgresDatabase()
        _ = try PostgresStore(url: url, edits: .wire)
        _ = try PostgresConnection(url: url).exec("UPDATE liftboard_schema SET version = 99")
        #expect(throws: StoreError.self) { try PostgresStore(url: url, edits: .wire) }
    }
}
