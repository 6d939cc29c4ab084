import CSQLite

/// Why the store failed. Each case carries SQLite's own words.
public enum StoreError: Error, CustomStringConvertible, Sendable {
    /// The database file could not be opened or created.
    case open(path: String, message: String)
    /// A statement failed to prepare or run.
    case sqlite(code: Int32, message: String, sql: String)
    /// The database was written by a newer Liftboard (its schema version is unknown here).
    case newerSchema(found: Int, supported: Int)
    /// A commit's version is not the board's version + 1: someone else wrote first.
    case staleVersion(board: String, expected: Int, got: Int)
    /// A commit names a board the store does not have.
    case unknownBoard(String)
    /// A commit carries no change (every commit is one: contract §4); nothing of its batch
    /// is written.
    case missingChange(board: String, version: Int)
    /// A commit of the history does not apply to the board before it (the file was written
    /// by something other than this store).
    case unreplayable(board: String, version: Int)
    /// PostgreSQL could not be reached (or the connection was lost): libpq's words.
    case connect(message: String)
    /// A PostgreSQL statement failed: the server's words.
    case postgres(message: String, sql: String)

    public var description: String {
        switch self {
        case .open(let path, let m): "cannot open database \(path): \(m)"
        case .sqlite(let code, let m, let sql): "sqlite error \(code): \(m) (in \(sql.prefix(60)))"
        case .newerSchema(let found, let supported): "the database has schema version \(found); this build knows up to \(supported)"
        case .staleVersion(let b, let e, let g): "board \(b): commit version \(g), expected \(e)"
        case .unknownBoard(let b): "no board \(b) in the store"
        case .missingChange(let b, let v): "board \(b): commit version \(v) carries no change"
        case .unreplayable(let b, let v): "board \(b): commit version \(v) of the history does not apply to the board before it"
        case .connect(let m): "cannot reach PostgreSQL: \(m)"
        case .postgres(let m, let sql): "postgres: \(m) (in \(sql.prefix(60)))"
        }
    }
}

/// A thin owner of one SQLite connection, used from one thread at a time.
final class SQLiteDatabase {
    private(set) var handle: OpaquePointer?

    /// SQLite's process-wide settings (`liftboard_sqlite3_configure`), made once before the
    /// first connection opens.
    private static let configured: Void = { _ = liftboard_sqlite3_configure() }()

    init(path: String) throws(StoreError) {
        Self.configured
        var db: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        let rc = sqlite3_open_v2(path, &db, flags, nil)
        guard rc == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            sqlite3_close(db)
            throw .open(path: path, message: message)
        }
        handle = db
        sqlite3_busy_timeout(db, 5000)
    }

    deinit { sqlite3_close(handle) }

    func error(_ rc: Int32, _ sql: String) -> StoreError {
        .sqlite(code: rc, message: String(cString: sqlite3_errmsg(handle)), sql: sql)
    }

    func execute(_ sql: String) throws(StoreError) {
        var err: UnsafeMutablePointer<CChar>?
        let rc = sqlite3_exec(handle, sql, nil, nil, &err)
        if rc != SQLITE_OK {
            let m = err.map { String(cString: $0) } ?? ""
            sqlite3_free(err)
            throw .sqlite(code: rc, message: m, sql: sql)
        }
    }

    func prepare(_ sql: String) throws(StoreError) -> Statement {
        var stmt: OpaquePointer?
        let rc = sqlite3_prepare_v2(handle, sql, -1, &stmt, nil)
        guard rc == SQLITE_OK, let stmt else { throw error(rc, sql) }
        return Statement(db: self, stmt: stmt, sql: sql)
    }

    /// Statements of the hot path (a drop's write), prepared once per connection: preparing
    /// one costs SQLite as much as running it several times.
    /// Keyed by the literal's address, not its text: hashing a 200-byte INSERT cost about
    /// 1,400 instructions, three lookups a commit. (One text at two call sites is prepared
    /// twice, which is harmless.)
    /// `@exclusivity(unchecked)` here and in `Statement`: see `SQLiteStore.cache`.
    @exclusivity(unchecked) private var statements: [UnsafeRawPointer: Statement] = [:]

    /// The connection's prepared `sql`, reset and ready to bind. Reset (`Statement.run`, or
    /// `reset()` after reading rows) before the transaction ends, or a read stays open.
    func cached(_ sql: StaticString) throws(StoreError) -> Statement {
        let key = UnsafeRawPointer(sql.utf8Start)
        if let s = statements[key] { return s }
        let s = try prepare(sql.description)
        statements[key] = s
        return s
    }

    /// The statement in `slot`, prepared (`cached`) into it the first time: the statements
    /// of every commit are held where their caller finds them without a lookup (each lookup
    /// hashed a pointer and probed: about 300 instructions, three a commit).
    func held(_ slot: inout Statement?, _ sql: StaticString) throws(StoreError) -> Statement {
        if let s = slot { return s }
        let s = try cached(sql)
        slot = s
        return s
    }

    @exclusivity(unchecked) private var begin: Statement?
    @exclusivity(unchecked) private var commit: Statement?

    /// Whether a transaction is open (`transaction`, or one `needsTransaction` began).
    private var inTransaction = false

    /// Runs `body` in one transaction: all of it is written, or none.
    func transaction<T>(_ body: () throws(StoreError) -> T) throws(StoreError) -> T {
        try needsTransaction()
        return try alone(body)
    }

    /// Runs `body` outside a transaction, for a write that is usually one statement: SQLite runs
    /// a statement outside a transaction as one of its own (written, and synced with
    /// `synchronous=FULL`, before its step returns), so that one statement needs no `BEGIN` and
    /// no `COMMIT` (1,359 Ir of a drop's 24,994, scripts/bench-sqlite-commit). `body` calls
    /// `needsTransaction()` before it reads, and before a statement that is not its only one:
    /// from there on it is one transaction, committed when `body` returns, rolled back when it
    /// throws, as in `transaction`.
    func alone<T>(_ body: () throws(StoreError) -> T) throws(StoreError) -> T {
        do {
            let v = try body()
            if inTransaction {
                try held(&commit, "COMMIT").run()
                inTransaction = false
            }
            return v
        } catch {
            if inTransaction {
                inTransaction = false
                // A statement left mid-read would hold its snapshot past the rollback.
                for s in statements.values { s.reset() }
                try? execute("ROLLBACK")
            }
            throw error
        }
    }

    /// Begins the transaction the rest of `alone`'s body runs in, unless one is open.
    func needsTransaction() throws(StoreError) {
        guard !inTransaction else { return }
        try held(&begin, "BEGIN IMMEDIATE").run()
        inTransaction = true
    }
}

/// A prepared statement: bind by position (from 1), step, read columns (from 0).
final class Statement {
    let db: SQLiteDatabase
    let stmt: OpaquePointer
    let sql: String
    /// The UTF-8 of the text values of the last bind, one after another, where SQLite reads
    /// them (SQLITE_STATIC) until the statement is bound again: a text bound as transient was
    /// copied into memory of its own first (about 600 instructions each, seven a commit).
    /// Grown as needed, never shrunk; freed after the statement is finalized.
    @exclusivity(unchecked) private var texts = UnsafeMutableRawPointer.allocate(byteCount: 256, alignment: 1)
    @exclusivity(unchecked) private var textCapacity = 256
    /// Where the next text of the bind under way goes in `texts`.
    @exclusivity(unchecked) private var textOffset = 0
    /// Buffers outgrown during the bind under way: texts bound before the growth are still
    /// read there, so they are freed at the next bind (`start`), not before.
    @exclusivity(unchecked) private var outgrown: [UnsafeMutableRawPointer] = []
    /// Whether the statement is reset (as prepared, or reset since its last step), so that a
    /// bind need not reset it again: a statement run (`runBound`) is reset as it ends, and a
    /// second reset cost SQLite about 80 instructions, three statements a commit.
    @exclusivity(unchecked) private var isReset = true

    init(db: SQLiteDatabase, stmt: OpaquePointer, sql: String) { self.db = db; self.stmt = stmt; self.sql = sql }
    deinit {
        sqlite3_finalize(stmt)
        texts.deallocate()
        for b in outgrown { b.deallocate() }
    }

    @discardableResult
    func bind(_ values: [SQLValue]) -> Statement {
        start()
        assert(values.count == Int(sqlite3_bind_parameter_count(stmt)), "\(sql): \(values.count) values")
        // Every parameter is bound again (callers pass them all), so none is cleared first.
        for (k, v) in values.enumerated() {
            let i = Int32(k + 1)
            switch v {
            case .int(let x): bind(i, x)
            case .double(let x): bind(i, x)
            case .text(let s): bind(i, s)
            case .null: bindNull(i)
            }
        }
        return self
    }

    /// Starts a bind value by value (`bind(_:_:)`, the hot path's: no array of values made):
    /// resets the statement and reuses its texts' memory. Bind every parameter then (none is
    /// cleared), and `runBound()`.
    func start() {
        if !isReset { sqlite3_reset(stmt) }
        isReset = false
        textOffset = 0
        if !outgrown.isEmpty {
            for b in outgrown { b.deallocate() }
            outgrown.removeAll()
        }
    }

    func bind(_ i: Int32, _ x: Int) { sqlite3_bind_int64(stmt, i, Int64(x)) }
    func bind(_ i: Int32, _ x: Double) { sqlite3_bind_double(stmt, i, x) }
    func bindNull(_ i: Int32) { sqlite3_bind_null(stmt, i) }
    func bind(_ i: Int32, _ s: String?) { if let s { bind(i, s) } else { bindNull(i) } }
    func bind(_ i: Int32, _ x: Int?) { if let x { bind(i, x) } else { bindNull(i) } }

    /// Binds `s` by its own UTF-8 and length (no C string made, no strlen), copied after the
    /// texts bound since `start` into the statement's memory, where SQLite reads it.
    func bind(_ i: Int32, _ s: String) {
        // A native string's UTF-8 read where it is (a small one's from a copy on the stack),
        // without the string copied to be made contiguous first.
        if s.utf8.withContiguousStorageIfAvailable({ bind(i, utf8: $0) }) != nil { return }
        var s = s
        s.withUTF8 { bind(i, utf8: $0) }
    }

    /// Binds a literal where the program holds it (SQLITE_STATIC): nothing copied.
    func bind(_ i: Int32, literal s: StaticString) {
        sqlite3_bind_text(stmt, i, UnsafeRawPointer(s.utf8Start).assumingMemoryBound(to: CChar.self), Int32(s.utf8CodeUnitCount), nil)
    }

    private func bind(_ i: Int32, utf8: UnsafeBufferPointer<UInt8>) {
        let count = utf8.count
        if textOffset + count > textCapacity {
            // The texts bound so far are read where they are until the next bind.
            outgrown.append(texts)
            textCapacity = max(count, 2 * textCapacity)
            texts = .allocate(byteCount: textCapacity, alignment: 1)
            textOffset = 0
        }
        let at = texts + textOffset
        if let base = utf8.baseAddress { at.copyMemory(from: base, byteCount: count) }
        textOffset += count
        // nil: SQLITE_STATIC, read where it is.
        sqlite3_bind_text(stmt, i, at.assumingMemoryBound(to: CChar.self), Int32(count), nil)
    }

    /// Steps once: `true` while a row is available.
    func step() throws(StoreError) -> Bool {
        isReset = false
        let rc = sqlite3_step(stmt)
        if rc == SQLITE_ROW { return true }
        if rc == SQLITE_DONE { return false }
        throw db.error(rc, sql)
    }

    /// Binds, steps to the end and resets, so the statement holds no lock afterwards.
    func run(_ values: [SQLValue] = []) throws(StoreError) {
        bind(values)
        try runBound()
    }

    /// Steps to the end what is bound (`start` and `bind(_:_:)`) and resets.
    func runBound() throws(StoreError) {
        defer { reset() }
        while try step() {}
    }

    /// Ends a read early (after the rows wanted), releasing what the statement holds.
    func reset() {
        sqlite3_reset(stmt)
        isReset = true
    }

    func int(_ col: Int32) -> Int { Int(sqlite3_column_int64(stmt, col)) }
    func double(_ col: Int32) -> Double { sqlite3_column_double(stmt, col) }
    func isNull(_ col: Int32) -> Bool { sqlite3_column_type(stmt, col) == SQLITE_NULL }
    func text(_ col: Int32) -> String {
        guard let p = sqlite3_column_text(stmt, col) else { return "" }
        return String(cString: p)
    }
}

enum SQLValue {
    case int(Int)
    case double(Double)
    case text(String)
    case null
}
