import LiftboardCore

/// Boards and commits in PostgreSQL, shared by any number of server processes. A commit is
/// its change, applied in one transaction to the board's current order under the board's row
/// lock (`SELECT ... FOR UPDATE`), with a `NOTIFY` in the same transaction so that every
/// process learns of it once it is durable (`CommitListener`).
public final class PostgresStore: Store {
    /// The channel every process `LISTEN`s on. One notification per commit; its payload is
    /// the commit row's columns joined by tabs (`NotifyPayload`), so that other processes need
    /// not read it back; `board <TAB> version <TAB> origin` alone when a value holds a tab.
    public static let channel = "liftboard_commits"
    /// The channel on which a board's creation or deletion is announced (`created <TAB> id`,
    /// `deleted <TAB> id`, sent in the transaction that does it), so that every process
    /// serves the boards the database has.
    public static let boardsChannel = "liftboard_boards"
    /// The schema this build writes (`StoreSchema`); older databases migrate forward on start.
    public static let schemaVersion = StoreSchema.version
    /// Serializes schema changes and seeding across processes starting at once.
    static let migrationLock = 7_274_001

    /// Each step takes the schema from version `index` to `index + 1` (`StoreSchema`); nil:
    /// nothing to do in PostgreSQL at that step.
    static let migrations: [String?] = [
        // 1, and 2 and 3 with it.
        """
        CREATE TABLE boards (id TEXT PRIMARY KEY, layout TEXT NOT NULL, version BIGINT NOT NULL,
          row_height DOUBLE PRECISION NOT NULL, list_header DOUBLE PRECISION NOT NULL, list_spacing DOUBLE PRECISION NOT NULL,
          item_width DOUBLE PRECISION NOT NULL, item_height DOUBLE PRECISION NOT NULL, grid_spacing DOUBLE PRECISION NOT NULL,
          grid_header DOUBLE PRECISION NOT NULL);
        CREATE TABLE sections (board TEXT NOT NULL REFERENCES boards(id), id TEXT NOT NULL, position INTEGER NOT NULL,
          title TEXT NOT NULL, PRIMARY KEY (board, id));
        CREATE TABLE items (board TEXT NOT NULL REFERENCES boards(id), id TEXT NOT NULL, section TEXT NOT NULL,
          position INTEGER NOT NULL, label TEXT NOT NULL, color TEXT NOT NULL, height DOUBLE PRECISION, movable BOOLEAN NOT NULL,
          PRIMARY KEY (board, id));
        CREATE TABLE commits (board TEXT NOT NULL REFERENCES boards(id), version BIGINT NOT NULL, by TEXT NOT NULL,
          at DOUBLE PRECISION NOT NULL, origin TEXT NOT NULL, token BIGINT NOT NULL,
          change_kind TEXT, change_item TEXT, change_other TEXT, change_section TEXT, change_index INTEGER,
          PRIMARY KEY (board, version));
        CREATE TABLE moves (board TEXT NOT NULL, version BIGINT NOT NULL, seq INTEGER NOT NULL, item TEXT NOT NULL,
          from_section TEXT NOT NULL, from_index INTEGER NOT NULL, to_section TEXT NOT NULL, to_index INTEGER NOT NULL,
          PRIMARY KEY (board, version, seq), FOREIGN KEY (board, version) REFERENCES commits(board, version));
        """,
        nil,
        nil,
        // 4: edits (issue 12): an edit's change is kept as its JSON (`change_kind` "edit").
        """
        ALTER TABLE commits ADD COLUMN change_json TEXT;
        """,
        // 5: SQLite's moves_json; PostgreSQL kept `moves`. Since issue 22 nothing writes or
        // reads either (the change is the commit).
        nil,
        // 6: placement rules (issue 23): items' kind and drag handle, sections' rules as the
        // board file's keys in one text (`Section.rulesText`).
        """
        ALTER TABLE items ADD COLUMN kind TEXT;
        ALTER TABLE items ADD COLUMN handle TEXT;
        ALTER TABLE sections ADD COLUMN rules TEXT;
        """,
        // 7: rich cells (issue 25): items' card in one text (`Card.text`), sections' subtitle.
        """
        ALTER TABLE items ADD COLUMN card TEXT;
        ALTER TABLE sections ADD COLUMN subtitle TEXT;
        """,
        // 8: kanban columns (issue 24): a board's column metrics (the defaults for older rows).
        """
        ALTER TABLE boards ADD COLUMN col_width DOUBLE PRECISION NOT NULL DEFAULT 280;
        ALTER TABLE boards ADD COLUMN col_gap DOUBLE PRECISION NOT NULL DEFAULT 12;
        ALTER TABLE boards ADD COLUMN col_header DOUBLE PRECISION NOT NULL DEFAULT 40;
        ALTER TABLE boards ADD COLUMN col_row_height DOUBLE PRECISION NOT NULL DEFAULT 56;
        ALTER TABLE boards ADD COLUMN col_spacing DOUBLE PRECISION NOT NULL DEFAULT 8;
        """,
        // 9: SQLite's drops as history rows alone; PostgreSQL writes its rows as before (other
        // processes read them under the board's lock).
        nil,
        // 10: people (issue 42): the user who made each commit and the name shown for them
        // (`user` is a reserved word); NULL for commits made before.
        """
        ALTER TABLE commits ADD COLUMN user_id TEXT;
        ALTER TABLE commits ADD COLUMN user_name TEXT;
        """,
        // 11: trees (issue 43): the indent, a section's maxDepth, an item's depth in its
        // section's pre-order, its collapsed state to begin with and whether it is a leaf.
        """
        ALTER TABLE boards ADD COLUMN tree_indent DOUBLE PRECISION NOT NULL DEFAULT 24;
        ALTER TABLE sections ADD COLUMN max_depth INTEGER;
        ALTER TABLE items ADD COLUMN depth INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE items ADD COLUMN collapsed BOOLEAN NOT NULL DEFAULT FALSE;
        ALTER TABLE items ADD COLUMN leaf BOOLEAN NOT NULL DEFAULT FALSE;
        """,
        // 12: holds across processes (issue 44): one row per held item, won by one session
        // of one process until `expires` (the database's clock), renewed by that process.
        """
        CREATE TABLE claims (board TEXT NOT NULL, item TEXT NOT NULL, session TEXT NOT NULL, process TEXT NOT NULL,
          user_id TEXT, name TEXT NOT NULL, color TEXT NOT NULL, role TEXT NOT NULL,
          claimed_at TIMESTAMPTZ NOT NULL, expires TIMESTAMPTZ NOT NULL, PRIMARY KEY (board, item));
        CREATE INDEX claims_process ON claims (process);
        """,
        // 13: a holder's target across processes (issue 44): where its latest drag would drop
        // now, on every row of its holds (NULL before its lift); the blocks of session numbers
        // the processes take in turn (`ClaimSQL.sessionBlock`: no two guests share a name).
        """
        CREATE SEQUENCE liftboard_session_blocks;
        ALTER TABLE claims ADD COLUMN target_section TEXT;
        ALTER TABLE claims ADD COLUMN target_index INTEGER;
        ALTER TABLE claims ADD COLUMN target_depth INTEGER;
        """,
        // 14: SQLite's history without its rowid; PostgreSQL's `commits` stays as it is (a heap
        // and its key's index).
        nil,
    ]

    private let db: PostgresConnection
    private var cache = BoardCache()
    private let edits: EditCodec

    /// Connects and migrates the schema forward (several processes may start at once).
    /// `edits`: how edits are kept as text (`EditCodec`).
    public init(url: String, edits: EditCodec) throws(StoreError) {
        self.edits = edits
        db = try PostgresConnection(url: url)
        try migrate()
    }

    /// The database's schema version (the `liftboard_schema` table, `StoreSchema`).
    public func schemaVersionInDatabase() throws(StoreError) -> Int {
        let r = try db.exec("SELECT version FROM liftboard_schema")
        return r.count > 0 ? r.int(0, 0) : 0
    }

    private func migrate() throws(StoreError) {
        try db.transaction { () throws(StoreError) in
            try db.exec("SELECT pg_advisory_xact_lock($1)", [String(Self.migrationLock)])
            try db.exec("CREATE TABLE IF NOT EXISTS liftboard_schema (version INTEGER NOT NULL)")
            var r = try db.exec("SELECT version FROM liftboard_schema")
            if r.count == 0 {
                // A database numbered before the one history: its `schema_version` 1 and 2 are
                // versions 3 and 4 of it.
                let legacy = try db.exec("SELECT to_regclass('schema_version') IS NOT NULL")
                var start = 0
                if legacy.text(0, 0) == "t" {
                    let old = try db.exec("SELECT version FROM schema_version")
                    if old.count > 0, old.int(0, 0) > 0 { start = old.int(0, 0) + 2 }
                    try db.exec("DROP TABLE schema_version")
                }
                try db.exec("INSERT INTO liftboard_schema VALUES ($1)", [String(start)])
                r = try db.exec("SELECT version FROM liftboard_schema")
            }
            let current = r.int(0, 0)
            guard current <= Self.schemaVersion else { throw .newerSchema(found: current, supported: Self.schemaVersion) }
            for v in current..<Self.schemaVersion {
                if let step = Self.migrations[v] { try db.exec(step) }
                try db.exec("UPDATE liftboard_schema SET version = $1", [String(v + 1)])
            }
        }
    }

    @discardableResult
    public func seed(_ board: Board) throws(StoreError) -> Board {
        try db.ensureConnected()
        return try db.transaction { () throws(StoreError) -> Board in
            try db.exec("SELECT pg_advisory_xact_lock($1)", [String(Self.migrationLock)])
            if let existing = try self.board(id: board.id) { return existing }
            try db.exec("SELECT pg_notify($1, $2)", [Self.boardsChannel, "created\t" + board.id])
            try db.exec("INSERT INTO boards (\(StoreSchema.boardColumns)) VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14,$15,$16)", [
                board.id, board.layout.rawValue, String(board.version),
                String(board.list.rowHeight), String(board.list.headerHeight), String(board.list.spacing),
                String(board.grid.itemWidth), String(board.grid.itemHeight), String(board.grid.spacing), String(board.grid.headerHeight),
                String(board.columns.width), String(board.columns.gap), String(board.columns.headerHeight),
                String(board.columns.rowHeight), String(board.columns.spacing), String(board.tree.indent),
            ])
            for (s, sec) in board.sections.enumerated() {
                try db.exec("INSERT INTO sections (\(StoreSchema.sectionColumns)) VALUES ($1,$2,$3,$4,$5,$6,$7)",
                            [board.id, sec.id, String(s), sec.title, sec.rulesText, sec.subtitle, sec.maxDepth.map { String($0) }])
                guard !sec.items.isEmpty else { continue }
                try db.exec("""
                    INSERT INTO items (\(StoreSchema.itemColumns))
                    SELECT $1, t.id, $2, t.ord - 1, t.label, t.color, t.height, t.movable, t.kind, t.handle, t.card, t.depth, t.collapsed, t.leaf
                    FROM unnest($3::text[], $4::text[], $5::text[], $6::float8[], $7::boolean[], $8::text[], $9::text[], $10::text[],
                                $11::int[], $12::boolean[], $13::boolean[])
                      WITH ORDINALITY AS t(id, label, color, height, movable, kind, handle, card, depth, collapsed, leaf, ord)
                    """, [board.id, sec.id, postgresArray(sec.items.map(\.id)), postgresArray(sec.items.map(\.label)),
                          postgresArray(sec.items.map(\.color)),
                          "{" + sec.items.map { $0.height.map { String($0) } ?? "NULL" }.joined(separator: ",") + "}",
                          "{" + sec.items.map { $0.movable ? "t" : "f" }.joined(separator: ",") + "}",
                          postgresArray(optional: sec.items.map(\.kind)),
                          postgresArray(optional: sec.items.map { $0.handle?.rawValue }),
                          postgresArray(optional: sec.items.map(\.card.text)),
                          "{" + sec.items.map { String($0.depth) }.joined(separator: ",") + "}",
                          "{" + sec.items.map { $0.collapsed ? "t" : "f" }.joined(separator: ",") + "}",
                          "{" + sec.items.map { $0.leaf ? "t" : "f" }.joined(separator: ",") + "}"])
            }
            return board
        }
    }

    public func boards() throws(StoreError) -> [Board] {
        try db.ensureConnected()
        let r = try db.exec("SELECT id FROM boards ORDER BY id")
        var out: [Board] = []
        for k in 0..<r.count { if let b = try board(id: r.text(k, 0)) { out.append(b) } }
        return out
    }

    /// - Complexity: O(n log n) in the board's items.
    public func board(id: String) throws(StoreError) -> Board? {
        try Self.board(on: db, id: id)
    }

    static func board(on db: PostgresConnection, id: String) throws(StoreError) -> Board? {
        let b = try db.exec("SELECT \(StoreSchema.boardColumns) FROM boards WHERE id = $1", [id])
        guard b.count == 1 else { return nil }
        var board = Board(id: id, layout: LayoutKind(rawValue: b.text(0, 1)) ?? .list,
                          list: ListMetrics(rowHeight: b.double(0, 3), headerHeight: b.double(0, 4), spacing: b.double(0, 5)),
                          grid: GridMetrics(itemWidth: b.double(0, 6), itemHeight: b.double(0, 7), spacing: b.double(0, 8), headerHeight: b.double(0, 9)),
                          columns: ColumnMetrics(width: b.double(0, 10), gap: b.double(0, 11), headerHeight: b.double(0, 12),
                                                 rowHeight: b.double(0, 13), spacing: b.double(0, 14)),
                          sections: [], version: b.int(0, 2))
        board.tree.indent = b.double(0, 15)
        let s = try db.exec("SELECT id, title, rules, subtitle, max_depth FROM sections WHERE board = $1 ORDER BY position", [id])
        var index: [String: Int] = [:]
        for k in 0..<s.count {
            index[s.text(k, 0)] = board.sections.count
            var section = Section(id: s.text(k, 0), title: s.text(k, 1), items: [])
            if !s.isNull(k, 2) { section.readRules(s.text(k, 2)) }
            if !s.isNull(k, 3) { section.subtitle = s.text(k, 3) }
            if !s.isNull(k, 4) { section.maxDepth = s.int(k, 4) }
            board.sections.append(section)
        }
        let i = try db.exec("SELECT id, section, label, color, height, movable, kind, handle, card, depth, collapsed, leaf FROM items WHERE board = $1 ORDER BY section, position", [id])
        for k in 0..<i.count {
            guard let sec = index[i.text(k, 1)] else { continue }
            var item = Item(id: i.text(k, 0), label: i.text(k, 2), color: i.text(k, 3),
                            height: i.isNull(k, 4) ? nil : i.double(k, 4), movable: i.text(k, 5) == "t",
                            kind: i.isNull(k, 6) ? nil : i.text(k, 6),
                            handle: i.isNull(k, 7) ? nil : HandleEdge(rawValue: i.text(k, 7)),
                            card: i.isNull(k, 8) ? Card() : Card(text: i.text(k, 8)))
            item.depth = i.int(k, 9)
            item.collapsed = i.text(k, 10) == "t"
            item.leaf = i.text(k, 11) == "t"
            board.sections[sec].items.append(item)
        }
        return board
    }

    /// One transaction for the batch, in two round trips: (1) BEGIN, the boards it names
    /// locked (in id order, so that two processes never deadlock), and the commits other
    /// processes made since this one last wrote them; (2) the writes, one `NOTIFY` per board
    /// saying up to which version it moved, and COMMIT. Each change applies to the order as
    /// it is under the lock.
    @discardableResult
    public func apply(_ records: [CommitRecord]) throws(StoreError) -> [StoreOutcome] {
        do throws(StoreError) {
            try db.ensureConnected()
            let ids = Set(records.map(\.commit.board)).sorted()
            let known = ids.map { cache.version(of: $0) ?? Int.max }
            let first = try db.pipeline([
                ("BEGIN", []),
                ("SELECT id, version FROM boards WHERE id = ANY($1::text[]) ORDER BY id FOR UPDATE", [postgresArray(ids)]),
                ("""
                 SELECT c.board, c.version, c.by, c.at, c.origin, c.token, c.change_kind, c.change_item, c.change_other,
                   c.change_section, c.change_index, c.change_json
                 FROM commits c JOIN unnest($1::text[], $2::bigint[]) AS t(board, after) ON c.board = t.board AND c.version > t.after
                 ORDER BY c.board, c.version
                 """, [postgresArray(ids), "{" + known.map { String($0 == Int.max ? Int64.max : Int64($0)) }.joined(separator: ",") + "}"]),
            ])
            var stored: [String: Int] = [:]
            for k in 0..<first[1].count { stored[first[1].text(k, 0)] = first[1].int(k, 1) }
            var working = cache
            // Bring the cached orders up to the stored ones with the changes made elsewhere.
            let since = first[2]
            for k in 0..<since.count {
                let id = since.text(k, 0), version = since.int(k, 1)
                guard var b = working.board(id, at: version - 1) else { continue }
                let change = ChangeColumns(kind: since.optionalText(k, 6), item: since.optionalText(k, 7), other: since.optionalText(k, 8),
                                           section: since.optionalText(k, 9), index: since.optionalText(k, 10).flatMap { Int($0) },
                                           json: since.optionalText(k, 11)).change(edits)
                if let change, b.apply(change) != nil, b.version == version { working.set(b) } else { working.forget(id) }
            }
            var out: [StoreOutcome] = []
            var batch = BatchRows()
            for r in records {
                let c = r.commit
                guard let version = stored[c.board] else {
                    // Deleted (through the API, by another process): the commit is moot, and
                    // the rest of the batch is written.
                    out.append(.unchanged(board: c.board, token: r.token))
                    continue
                }
                guard var change = c.change else { throw .missingChange(board: c.board, version: c.version) }
                if let expected = r.ifVersion, expected != version {
                    out.append(.unchanged(board: c.board, token: r.token))
                    continue
                }
                var cached = working.board(c.board, at: version)
                if cached == nil { cached = try board(id: c.board) }
                guard let current = cached else { throw .unknownBoard(c.board) }
                change = current.storing(change)
                guard let (next, moves) = current.applying(change) else {
                    working.set(current)
                    out.append(.unchanged(board: c.board, token: r.token))
                    continue
                }
                // Placement rules hold on the store's order, under the board's row lock (issue 23).
                if current.hasRules, let why = next.ruleViolation(since: current) {
                    working.set(current)
                    out.append(.refused(board: c.board, token: r.token, reason: why.description))
                    continue
                }
                if change.isEdit { batch.addEdit(Self.editStatements(EditRow.rows(for: change, before: current, after: next), board: c.board)) }
                var record = r
                record.commit.change = change  // a copy's id as the store gave it
                batch.add(record, before: current, next: next, moves: moves, edits: edits)
                working.set(next)
                stored[c.board] = next.version
                out.append(.landed(DurableCommit(board: c.board, version: next.version, by: c.by, at: r.at, change: change,
                                                 origin: r.origin, token: r.token, user: c.user, name: c.name)))
            }
            let origin = records.first?.origin ?? ""
            let versions = ids.compactMap { id in stored[id].map { (id, $0) } }
            try db.pipeline(batch.statements(versions: versions, notify: Self.channel, origin: origin) + [("COMMIT", [])])
            cache = working
            return out
        } catch {
            cache.forget()
            if db.isConnected { _ = try? db.exec("ROLLBACK") }
            throw error
        }
    }

    /// An edit's rows as statements (run inside `apply`'s transaction, in the batch's order).
    static func editStatements(_ rows: [EditRow], board: String) -> [(sql: String, params: [String?])] {
        rows.map { row -> (sql: String, params: [String?]) in
            switch row {
            case .insertItem(let it, let section):
                // A tree's item keeps its depth, collapsed state and leaf (an item added under a parent).
                ("INSERT INTO items VALUES ($1,$2,$3,0,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13)",
                 [board, it.id, section, it.label, it.color, it.height.map { String($0) }, it.movable ? "t" : "f",
                  it.kind, it.handle?.rawValue, it.card.text, String(it.depth), it.collapsed ? "t" : "f", it.leaf ? "t" : "f"])
            case .deleteItem(let id):
                ("DELETE FROM items WHERE board = $1 AND id = $2", [board, id])
            case .updateItem(let it):
                ("UPDATE items SET label = $3, color = $4, height = $5, movable = $6, card = $7 WHERE board = $1 AND id = $2",
                 [board, it.id, it.label, it.color, it.height.map { String($0) }, it.movable ? "t" : "f", it.card.text])
            case .insertSection(let id, let title):
                ("INSERT INTO sections VALUES ($1,$2,0,$3,NULL,NULL)", [board, id, title])
            case .renameSection(let id, let title):
                ("UPDATE sections SET title = $3 WHERE board = $1 AND id = $2", [board, id, title])
            case .setSubtitle(let id, let subtitle):
                ("UPDATE sections SET subtitle = $3 WHERE board = $1 AND id = $2", [board, id, subtitle])
            case .deleteSection(let id):
                ("DELETE FROM sections WHERE board = $1 AND id = $2", [board, id])
            case .itemPositions(let s):
                ("""
                 UPDATE items SET section = $2, position = t.ord - 1 FROM unnest($3::text[]) WITH ORDINALITY AS t(id, ord)
                 WHERE items.board = $1 AND items.id = t.id
                 """, [board, s.id, postgresArray(s.items.map(\.id))])
            case .sectionPositions(let ids):
                ("""
                 UPDATE sections SET position = t.ord - 1 FROM unnest($2::text[]) WITH ORDINALITY AS t(id, ord)
                 WHERE sections.board = $1 AND sections.id = t.id
                 """, [board, postgresArray(ids)])
            }
        }
    }

    /// Deletes a board with its items, sections and history; false when there was none.
    public func deleteBoard(id: String) throws(StoreError) -> Bool {
        try db.ensureConnected()
        return try db.transaction { () throws(StoreError) -> Bool in
            let r = try db.exec("SELECT id FROM boards WHERE id = $1 FOR UPDATE", [id])
            guard r.count == 1 else { return false }
            for table in ["moves", "commits", "items", "sections", "boards"] {
                try db.exec("DELETE FROM \(table) WHERE \(table == "boards" ? "id" : "board") = $1", [id])
            }
            try db.exec("SELECT pg_notify($1, $2)", [Self.boardsChannel, "deleted\t" + id])
            cache.forget()
            return true
        }
    }

    public func commits(board: String, after version: Int) throws(StoreError) -> [DurableCommit] {
        try db.ensureConnected()
        return try Self.commits(on: db, board: board, after: version, edits: edits)
    }

    static func commits(on db: PostgresConnection, board: String, after version: Int, edits: EditCodec) throws(StoreError) -> [DurableCommit] {
        let r = try db.exec("""
            SELECT version, by, at, origin, token, change_kind, change_item, change_other, change_section, change_index, change_json,
              user_id, user_name
            FROM commits WHERE board = $1 AND version > $2 ORDER BY version
            """, [board, String(version)])
        return (0..<r.count).map { k in
            let change = ChangeColumns(kind: r.optionalText(k, 5), item: r.optionalText(k, 6), other: r.optionalText(k, 7),
                                       section: r.optionalText(k, 8), index: r.optionalText(k, 9).flatMap { Int($0) },
                                       json: r.optionalText(k, 10)).change(edits)
            return DurableCommit(board: board, version: r.int(k, 0), by: r.text(k, 1), at: r.double(k, 2), change: change,
                                 origin: r.text(k, 3), token: r.int(k, 4), user: r.optionalText(k, 11), name: r.optionalText(k, 12))
        }
    }

    public func probe() throws(StoreError) {
        try db.ensureConnected()
        try db.exec("SELECT 1")
    }

}

/// A batch's rows, written with one statement per table whatever the batch's size (arrays
/// unnested server-side): fewer statements is what keeps a loaded database quick.
struct BatchRows {
    /// Each item's final place, by board and id (a later commit of the batch wins).
    private var places: [String: (board: String, id: String, section: String, position: Int, depth: Int)] = [:]
    private var placeOrder: [String] = []
    private var commits: [[String?]] = []
    /// Statements that must run in the batch's order: an edit's rows, after the places of
    /// the drops before it.
    private var ordered: [(sql: String, params: [String?])] = []

    /// An edit's statements: the item places gathered so far are written first, so that the
    /// rows run in the batch's order.
    mutating func addEdit(_ statements: [(sql: String, params: [String?])]) {
        if let update = placesStatement() { ordered.append(update) }
        places = [:]
        placeOrder = []
        ordered += statements
    }

    private func placesStatement() -> (sql: String, params: [String?])? {
        let p = placeOrder.map { places[$0]! }
        guard !p.isEmpty else { return nil }
        return ("""
            UPDATE items SET section = t.section, position = t.position, depth = t.depth
            FROM unnest($1::text[], $2::text[], $3::text[], $4::int[], $5::int[]) AS t(board, id, section, position, depth)
            WHERE items.board = t.board AND items.id = t.id
            """, [postgresArray(p.map(\.board)), postgresArray(p.map(\.id)), postgresArray(p.map(\.section)),
                  "{" + p.map { String($0.position) }.joined(separator: ",") + "}",
                  "{" + p.map { String($0.depth) }.joined(separator: ",") + "}"])
    }

    /// Only the items whose place the change altered are written (a move from 0 to 10 moves
    /// 11 items, whatever the section's length).
    mutating func add(_ r: CommitRecord, before: Board, next: Board, moves m: [Move], edits: EditCodec) {
        let board = next.id, version = String(next.version)
        for s in touchedSections(m, in: next) {
            let was = before.sections.first { $0.id == s.id }?.items ?? []
            // A tree's move changes depths as well as places (an indent changes only a depth).
            for (k, item) in s.items.enumerated() where k >= was.count || was[k].id != item.id || was[k].depth != item.depth {
                let key = board + "\u{0}" + item.id
                if places[key] == nil { placeOrder.append(key) }
                places[key] = (board, item.id, s.id, k, item.depth)
            }
        }
        let c = ChangeColumns(r.commit.change, edits: edits)
        commits.append([board, version, r.commit.by, String(r.at), r.origin, String(r.token), c.kind, c.item, c.other, c.section,
                        c.index.map { String($0) }, c.json, r.commit.user, r.commit.name])
    }

    func statements(versions: [(String, Int)], notify channel: String, origin: String) -> [(sql: String, params: [String?])] {
        func column(_ rows: [[String?]], _ k: Int) -> String? { postgresArray(optional: rows.map { $0[k] }) }
        var out = ordered
        if let update = placesStatement() { out.append(update) }
        if !commits.isEmpty {
            out.append(("""
                INSERT INTO commits SELECT * FROM unnest($1::text[], $2::bigint[], $3::text[], $4::float8[], $5::text[], $6::bigint[],
                  $7::text[], $8::text[], $9::text[], $10::text[], $11::int[], $12::text[], $13::text[], $14::text[])
                """, (0..<14).map { column(commits, $0) }))
        }
        out.append(("UPDATE boards SET version = t.version FROM unnest($1::text[], $2::bigint[]) AS t(id, version) WHERE boards.id = t.id",
                    [postgresArray(versions.map(\.0)), "{" + versions.map { String($0.1) }.joined(separator: ",") + "}"]))
        out.append(("SELECT pg_notify($1, t.payload) FROM unnest($2::text[]) WITH ORDINALITY AS t(payload, k) ORDER BY k",
                    [channel, postgresArray(commits.map(NotifyPayload.encode))]))
        return out
    }
}

/// A commit row in a notification's payload: the `commits` columns in table order, joined by
/// tabs, NULL as U+001F. Falls back to the first three (board, version, origin) when a value
/// holds a tab or the payload would pass PostgreSQL's 8,000-byte limit.
enum NotifyPayload {
    static let null = "\u{1F}"

    static func encode(_ row: [String?]) -> String {
        let full = row.map { $0 ?? null }
        if full.contains(where: { $0.contains("\t") }) || full.joined().utf8.count > 7_000 {
            return [full[0], full[1], full[4]].joined(separator: "\t")
        }
        return full.joined(separator: "\t")
    }

    /// (board, version, origin, the commit when the payload carries it).
    static func decode(_ payload: String, edits: EditCodec) -> (board: String, version: Int, origin: String, commit: DurableCommit?)? {
        let f = payload.split(separator: "\t", omittingEmptySubsequences: false).map { $0 == null ? nil : String($0) }
        if f.count == 3, let b = f[0], let v = f[1].flatMap({ Int($0) }) { return (b, v, f[2] ?? "", nil) }
        // 14 columns since schema 10 (the user and name); 12 from a process of an older build.
        guard f.count == 12 || f.count == 14, let b = f[0], let v = f[1].flatMap({ Int($0) }), let by = f[2], let origin = f[4] else { return nil }
        let change = ChangeColumns(kind: f[6], item: f[7], other: f[8], section: f[9], index: f[10].flatMap { Int($0) }, json: f[11]).change(edits)
        let c = DurableCommit(board: b, version: v, by: by, at: f[3].flatMap { Double($0) } ?? 0, change: change, origin: origin,
                              token: f[5].flatMap { Int($0) } ?? 0, user: f.count == 14 ? f[12] : nil, name: f.count == 14 ? f[13] : nil)
        return (b, v, origin, c)
    }
}
