import CLibPQ
import Foundation

/// A thin owner of one libpq connection, used from one thread at a time. Statements go as
/// text with `$n` parameters (PQexecParams): no statement is ever built from values.
final class PostgresConnection {
    let url: String
    private var conn: OpaquePointer?

    /// Connects to `url` (`postgresql://USER@HOST:PORT/DB`, or any libpq connection string).
    init(url: String) throws(StoreError) {
        self.url = url
        try connect()
    }

    deinit { PQfinish(conn) }

    /// (Re)connects; gives up after 3 s so that a dead server fails a write quickly.
    func connect() throws(StoreError) {
        PQfinish(conn)
        conn = nil
        let keys = ["dbname", "connect_timeout", "application_name", "keepalives_idle", "keepalives_interval", "keepalives_count"]
        let values = [url, "3", "liftboard", "5", "2", "2"]
        let c = withCStrings(keys) { k in withCStrings(values) { v in PQconnectdbParams(k, v, 1) } }
        guard let c, PQstatus(c) == CONNECTION_OK else {
            let m = c.map { String(cString: PQerrorMessage($0)) } ?? "out of memory"
            PQfinish(c)
            throw .connect(message: m.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        conn = c
        _ = try? exec("SET client_min_messages = warning")
    }

    /// Whether the connection is up as far as libpq knows (a lost one shows after a call).
    var isConnected: Bool { conn != nil && PQstatus(conn) == CONNECTION_OK }

    /// Reconnects when the connection was lost.
    func ensureConnected() throws(StoreError) {
        if !isConnected { try connect() }
    }

    var socket: Int32 { conn.map { PQsocket($0) } ?? -1 }

    /// Runs one statement with text parameters (nil is NULL); the rows as text.
    @discardableResult
    func exec(_ sql: String, _ params: [String?] = []) throws(StoreError) -> PostgresRows {
        guard let conn else { throw .connect(message: "not connected") }
        // Without parameters, PQexec: it runs several statements (the migrations).
        let result: OpaquePointer? = params.isEmpty ? PQexec(conn, sql) : withOptionalCStrings(params) { p in
            PQexecParams(conn, sql, Int32(params.count), nil, p, nil, nil, 0)
        }
        let status = result.map { PQresultStatus($0) } ?? PGRES_FATAL_ERROR
        guard status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK else {
            let m = String(cString: PQerrorMessage(conn)).trimmingCharacters(in: .whitespacesAndNewlines)
            PQclear(result)
            if PQstatus(conn) != CONNECTION_OK { throw .connect(message: m) }
            throw .postgres(message: m, sql: sql)
        }
        return PostgresRows(result!)
    }

    /// Runs statements in one round trip (libpq's pipeline mode); each one's rows, in order.
    /// Throws the first failure (the statements after it did not run; an open transaction
    /// is then aborted and needs a ROLLBACK).
    @discardableResult
    func pipeline(_ statements: [(sql: String, params: [String?])]) throws(StoreError) -> [PostgresRows] {
        guard let conn else { throw .connect(message: "not connected") }
        guard !statements.isEmpty else { return [] }
        guard PQenterPipelineMode(conn) == 1 else { throw .connect(message: String(cString: PQerrorMessage(conn))) }
        defer { PQexitPipelineMode(conn) }
        for st in statements {
            let sent = withOptionalCStrings(st.params) { p in
                PQsendQueryParams(conn, st.sql, Int32(st.params.count), nil, p, nil, nil, 0)
            }
            guard sent == 1 else { throw .connect(message: String(cString: PQerrorMessage(conn)).trimmingCharacters(in: .whitespacesAndNewlines)) }
        }
        guard PQpipelineSync(conn) == 1 else { throw .connect(message: String(cString: PQerrorMessage(conn))) }
        var failure: StoreError?
        var rows: [PostgresRows] = []
        while true {
            guard let r = PQgetResult(conn) else {
                // Between two statements' results; a lost connection ends here.
                if PQstatus(conn) != CONNECTION_OK {
                    throw .connect(message: String(cString: PQerrorMessage(conn)).trimmingCharacters(in: .whitespacesAndNewlines))
                }
                continue
            }
            let status = PQresultStatus(r)
            if status == PGRES_PIPELINE_SYNC { PQclear(r); break }
            if status == PGRES_TUPLES_OK || status == PGRES_COMMAND_OK {
                rows.append(PostgresRows(r))
                continue
            }
            if failure == nil {
                let m = String(cString: PQresultErrorMessage(r)).trimmingCharacters(in: .whitespacesAndNewlines)
                failure = .postgres(message: m.isEmpty ? "aborted" : m, sql: rows.count < statements.count ? statements[rows.count].sql : "")
            }
            PQclear(r)
        }
        if let failure { throw failure }
        return rows
    }

    /// Runs `body` in one transaction: all of it is committed, or none (a failed COMMIT, a
    /// lost connection: PostgreSQL rolls back what it did not commit).
    func transaction<T>(_ body: () throws(StoreError) -> T) throws(StoreError) -> T {
        try exec("BEGIN")
        do {
            let v = try body()
            try exec("COMMIT")
            return v
        } catch {
            if isConnected { _ = try? exec("ROLLBACK") }
            throw error
        }
    }

    /// Notifications received so far, as (channel, payload); reads what the socket has.
    func notifications() throws(StoreError) -> [(String, String)] {
        guard let conn else { throw .connect(message: "not connected") }
        if PQconsumeInput(conn) == 0 || PQstatus(conn) != CONNECTION_OK {
            throw .connect(message: String(cString: PQerrorMessage(conn)).trimmingCharacters(in: .whitespacesAndNewlines))
        }
        var out: [(String, String)] = []
        while let n = PQnotifies(conn) {
            out.append((String(cString: n.pointee.relname), String(cString: n.pointee.extra)))
            PQfreemem(n)
        }
        return out
    }
}

/// A statement's rows, as text.
final class PostgresRows {
    private let result: OpaquePointer
    init(_ result: OpaquePointer) { self.result = result }
    deinit { PQclear(result) }
    var count: Int { Int(PQntuples(result)) }
    func isNull(_ row: Int, _ col: Int) -> Bool { PQgetisnull(result, Int32(row), Int32(col)) != 0 }
    func text(_ row: Int, _ col: Int) -> String { String(cString: PQgetvalue(result, Int32(row), Int32(col))) }
    func optionalText(_ row: Int, _ col: Int) -> String? { isNull(row, col) ? nil : text(row, col) }
    func int(_ row: Int, _ col: Int) -> Int { Int(text(row, col)) ?? 0 }
    func double(_ row: Int, _ col: Int) -> Double { Double(text(row, col)) ?? 0 }
}

/// A PostgreSQL array literal of texts (`{"a","b"}`), for `$n::text[]` parameters.
func postgresArray(_ values: [String]) -> String {
    var out: [UInt8] = [UInt8(ascii: "{")]
    out.reserveCapacity(2 + values.reduce(0) { $0 + $1.utf8.count + 3 })
    for (k, v) in values.enumerated() {
        if k > 0 { out.append(UInt8(ascii: ",")) }
        appendQuoted(v, to: &out)
    }
    out.append(UInt8(ascii: "}"))
    return String(decoding: out, as: UTF8.self)
}

/// An array literal whose nil elements are NULL (numbers and texts alike, quoted).
func postgresArray(optional values: [String?]) -> String {
    var out: [UInt8] = [UInt8(ascii: "{")]
    out.reserveCapacity(2 + values.reduce(0) { $0 + ($1?.utf8.count ?? 4) + 3 })
    for (k, v) in values.enumerated() {
        if k > 0 { out.append(UInt8(ascii: ",")) }
        if let v { appendQuoted(v, to: &out) } else { out += "NULL".utf8 }
    }
    out.append(UInt8(ascii: "}"))
    return String(decoding: out, as: UTF8.self)
}

/// `"v"` with its backslashes and double quotes escaped, byte by byte (Foundation's
/// `replacingOccurrences` was a tenth of a process's CPU in a burst of commits).
private func appendQuoted(_ v: String, to out: inout [UInt8]) {
    out.append(UInt8(ascii: "\""))
    for b in v.utf8 {
        if b == UInt8(ascii: "\\") || b == UInt8(ascii: "\"") { out.append(UInt8(ascii: "\\")) }
        out.append(b)
    }
    out.append(UInt8(ascii: "\""))
}

private func withCStrings<R>(_ strings: [String], _ body: (UnsafePointer<UnsafePointer<CChar>?>) -> R) -> R {
    let p = strings.map { UnsafePointer(strdup($0)) } + [nil]
    defer { for s in p { free(UnsafeMutablePointer(mutating: s)) } }
    return p.withUnsafeBufferPointer { body($0.baseAddress!) }
}

private func withOptionalCStrings<R>(_ strings: [String?], _ body: (UnsafePointer<UnsafePointer<CChar>?>?) -> R) -> R {
    let p: [UnsafePointer<CChar>?] = strings.map { $0.map { UnsafePointer(strdup($0)) } }
    defer { for s in p { free(UnsafeMutablePointer(mutating: s)) } }
    return p.withUnsafeBufferPointer { body($0.baseAddress) }
}
