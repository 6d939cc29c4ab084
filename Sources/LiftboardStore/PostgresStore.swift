import LiftboardCore

/// Boards and commits in PostgreSQL, shared by any number of server processes. A commit is
/// its change, applied in one transaction to the board's current order under the board's row
/// lock (`SELECT ... FOR UPDATE`), with a `NOTIFY` in the same transaction so that every
/// process learns of it once it is durable (`CommitListener`).
public final class PostgresStore: Store {
    /// The channel every process `LISTEN`s on; the payload is `board <TAB> version`.
    public static let channel = "liftboard_commits"
    /// The schema this build writes; older databases migrate forward on start.
    public static let schemaVersion = 1
    /// Serializes schema changes and seeding across processes starting at once.
    static let migrationLock = 7_274_001

    /// Each step takes the schema from version `index` to `index + 1`.
    static let migrations: [String] = [
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
    ]

    private let db: PostgresConnection
    private var cache = BoardCache()

    /// Connects and migrates the schema forward (several processes may start at once).
    public init(url: String) throws(StoreError) {
        db = try PostgresConnection(url: url)
        try migrate()
    }

    /// The database's schema version (the `schema_version` table).
    public func schemaVersionInDatabase() throws(StoreError) -> Int {
        let r = try db.exec("SELECT version FROM schema_version")
        return r.count > 0 ? r.int(0, 0) : 0
    }

    private func migrate() throws(StoreError) {
        try db.transaction { () throws(StoreError) in
            try db.exec("SELECT pg_advisory_xact_lock($1)", [String(Self.migrationLock)])
            try db.exec("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
            let r = try db.exec("SELECT version FROM schema_version")
            if r.count == 0 { try db.exec("INSERT INTO schema_version VALUES (0)") }
            let current = r.count > 0 ? r.int(0, 0) : 0
            guard current <= Self.schemaVersion else { throw .newerSchema(found: current, supported: Self.schemaVersion) }
            for v in current..<Self.schemaVersion {
                try db.exec(Self.migrations[v])
                try db.exec("UPDATE schema_version SET version = $1", [String(v + 1)])
            }
        }
    }

    @discardableResult
    public func seed(_ board: Board) throws(StoreError) -> Board {
        try db.ensureConnected()
        return try db.transaction { () throws(StoreError) -> Board in
            try db.exec("SELECT pg_advisory_xact_lock($1)", [String(Self.migrationLock)])
            if let existing = try self.board(id: board.id) { return existing }
            try db.exec("INSERT INTO boards VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10)", [
                board.id, board.layout.rawValue, String(board.version),
                String(board.list.rowHeight), String(board.list.headerHeight), String(board.list.spacing),
                String(board.grid.itemWidth), String(board.grid.itemHeight), String(board.grid.spacing), String(board.grid.headerHeight),
            ])
            for (s, sec) in board.sections.enumerated() {
                try db.exec("INSERT INTO sections VALUES ($1,$2,$3,$4)", [board.id, sec.id, String(s), sec.title])
                guard !sec.items.isEmpty else { continue }
                try db.exec("""
                    INSERT INTO items SELECT $1, t.id, $2, t.ord - 1, t.label, t.color, t.height, t.movable
                    FROM unnest($3::text[], $4::text[], $5::text[], $6::float8[], $7::boolean[]) WITH ORDINALITY
                      AS t(id, label, color, height, movable, ord)
                    """, [board.id, sec.id, postgresArray(sec.items.map(\.id)), postgresArray(sec.items.map(\.label)),
                          postgresArray(sec.items.map(\.color)),
                          "{" + sec.items.map { $0.height.map { String($0) } ?? "NULL" }.joined(separator: ",") + "}",
                          "{" + sec.items.map { $0.movable ? "t" : "f" }.joined(separator: ",") + "}"])
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
        let b = try db.exec("SELECT layout, version, row_height, list_header, list_spacing, item_width, item_height, grid_spacing, grid_header FROM boards WHERE id = $1", [id])
        guard b.count == 1 else { return nil }
        var board = Board(id: id, layout: LayoutKind(rawValue: b.text(0, 0)) ?? .list,
                          list: ListMetrics(rowHeight: b.double(0, 2), headerHeight: b.double(0, 3), spacing: b.double(0, 4)),
                          grid: GridMetrics(itemWidth: b.double(0, 5), itemHeight: b.double(0, 6), spacing: b.double(0, 7), headerHeight: b.double(0, 8)),
                          sections: [], version: b.int(0, 1))
        let s = try db.exec("SELECT id, title FROM sections WHERE board = $1 ORDER BY position", [id])
        var index: [String: Int] = [:]
        for k in 0..<s.count {
            index[s.text(k, 0)] = board.sections.count
            board.sections.append(Section(id: s.text(k, 0), title: s.text(k, 1), items: []))
        }
        let i = try db.exec("SELECT id, section, label, color, height, movable FROM items WHERE board = $1 ORDER BY section, position", [id])
        for k in 0..<i.count {
            guard let sec = index[i.text(k, 1)] else { continue }
            board.sections[sec].items.append(Item(id: i.text(k, 0), label: i.text(k, 2), color: i.text(k, 3),
                                                  height: i.isNull(k, 4) ? nil : i.double(k, 4), movable: i.text(k, 5) == "t"))
        }
        return board
    }

    /// One transaction for the batch: the boards it names are locked (in id order, so that
    /// two processes never deadlock), each change is applied to the order as it is now, and
    /// one `NOTIFY` per board says up to which version it moved.
    @discardableResult
    public func apply(_ records: [CommitRecord]) throws(StoreError) -> [StoreOutcome] {
        do {
            try db.ensureConnected()
            var working = cache
            let out = try db.transaction { () throws(StoreError) -> [StoreOutcome] in
                let ids = Set(records.map(\.commit.board)).sorted()
                let locked = try db.exec("SELECT id, version FROM boards WHERE id = ANY($1::text[]) ORDER BY id FOR UPDATE", [postgresArray(ids)])
                var stored: [String: Int] = [:]
                for k in 0..<locked.count { stored[locked.text(k, 0)] = locked.int(k, 1) }
                var out: [StoreOutcome] = []
                for r in records {
                    let c = r.commit
                    guard let version = stored[c.board] else { throw .unknownBoard(c.board) }
                    guard let change = c.change else { throw .staleVersion(board: c.board, expected: version + 1, got: c.version) }
                    var cached = working.board(c.board, at: version)
                    if cached == nil { cached = try board(id: c.board) }
                    guard let current = cached else { throw .unknownBoard(c.board) }
                    guard let (next, moves) = current.applying(change) else {
                        working.set(current)
                        out.append(.unchanged(board: c.board, token: r.token))
                        continue
                    }
                    try write(r, next: next, moves: moves)
                    working.set(next)
                    stored[c.board] = next.version
                    out.append(.landed(DurableCommit(board: c.board, version: next.version, by: c.by, at: r.at, change: change,
                                                     origin: r.origin, token: r.token)))
                }
                for id in ids {
                    try db.exec("UPDATE boards SET version = $2 WHERE id = $1", [id, String(stored[id]!)])
                    try db.exec("SELECT pg_notify($1, $2)", [Self.channel, "\(id)\t\(stored[id]!)"])
                }
                return out
            }
            cache = working
            return out
        } catch {
            cache.forget()
            throw error
        }
    }

    private func write(_ r: CommitRecord, next: Board, moves: [Move]) throws(StoreError) {
        let board = next.id, version = String(next.version)
        for s in touchedSections(moves, in: next) {
            try db.exec("""
                UPDATE items SET section = $2, position = t.ord - 1 FROM unnest($3::text[]) WITH ORDINALITY AS t(id, ord)
                WHERE items.board = $1 AND items.id = t.id
                """, [board, s.id, postgresArray(s.items.map(\.id))])
        }
        let c = ChangeColumns(r.commit.change)
        try db.exec("INSERT INTO commits VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11)",
                    [board, version, r.commit.by, String(r.at), r.origin, String(r.token), c.kind, c.item, c.other, c.section,
                     c.index.map { String($0) }])
        try db.exec("""
            INSERT INTO moves SELECT $1, $2, t.seq - 1, t.item, t.fs, t.fi, t.ts, t.ti
            FROM unnest($3::text[], $4::text[], $5::int[], $6::text[], $7::int[]) WITH ORDINALITY AS t(item, fs, fi, ts, ti, seq)
            """, [board, version, postgresArray(moves.map(\.id)), postgresArray(moves.map(\.from.section)),
                  "{" + moves.map { String($0.from.index) }.joined(separator: ",") + "}",
                  postgresArray(moves.map(\.to.section)), "{" + moves.map { String($0.to.index) }.joined(separator: ",") + "}"])
    }

    public func commits(board: String, after version: Int) throws(StoreError) -> [DurableCommit] {
        try db.ensureConnected()
        return try Self.commits(on: db, board: board, after: version)
    }

    static func commits(on db: PostgresConnection, board: String, after version: Int) throws(StoreError) -> [DurableCommit] {
        let r = try db.exec("""
            SELECT version, by, at, origin, token, change_kind, change_item, change_other, change_section, change_index
            FROM commits WHERE board = $1 AND version > $2 ORDER BY version
            """, [board, String(version)])
        return (0..<r.count).map { k in
            let change = ChangeColumns(kind: r.optionalText(k, 5), item: r.optionalText(k, 6), other: r.optionalText(k, 7),
                                       section: r.optionalText(k, 8), index: r.optionalText(k, 9).flatMap { Int($0) }).change
            return DurableCommit(board: board, version: r.int(k, 0), by: r.text(k, 1), at: r.double(k, 2), change: change,
                                 origin: r.text(k, 3), token: r.int(k, 4))
        }
    }

    public func probe() throws(StoreError) {
        try db.ensureConnected()
        try db.exec("SELECT 1")
    }

    /// The history of a board's commits, oldest first (as `BoardStore.history`).
    public func history(board: String) throws(StoreError) -> [DurableCommit] {
        try commits(board: board, after: 0)
    }
}
