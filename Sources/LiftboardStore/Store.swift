import LiftboardCore

/// Where boards and their commits live. Two implementations: `SQLiteStore` (SQLite, embedded,
/// one process) and `PostgresStore` (PostgreSQL through libpq, shared by any number of
/// processes). Each is used from one thread at a time (the server's store thread). Both keep
/// this one contract, proved by one suite run against each (`StoreConformanceTests`).
///
/// A commit is stored as its change (contract §4, "A commit is one change"), applied to the
/// board's order as the store has it when the commit is written, under the board's lock:
/// so a drop made on one process lands on top of whatever other processes committed first.
public protocol Store: AnyObject {
    /// Inserts `board` unless the store has it already, and returns the store's board.
    @discardableResult func seed(_ board: Board) throws(StoreError) -> Board
    /// Every board with its current order and version, by id.
    func boards() throws(StoreError) -> [Board]
    func board(id: String) throws(StoreError) -> Board?
    /// Writes a batch of commits in one transaction (group commit): each commit's change is
    /// applied to the board's current committed order. One outcome per record, in order:
    /// `.landed` at the version the store gave it; `.unchanged` (nothing written for it) when
    /// its board is not in the store (deleted meanwhile), when its `ifVersion` is not the
    /// stored version, or when its change changes nothing on the stored order. A record
    /// without a change throws `missingChange`. All of the batch is written, or nothing (then
    /// it throws). The change is what is kept of a commit (its moves follow from it).
    func apply(_ records: [CommitRecord]) throws(StoreError) -> [StoreOutcome]
    /// The commits of `board` after `version`, oldest first: the board's history (`after: 0`,
    /// `GET /api/boards/{id}/history`) and what another process wrote. Empty for a board the
    /// store does not have.
    func commits(board: String, after version: Int) throws(StoreError) -> [DurableCommit]
    /// Deletes a board with its items, sections and history; false when there was none.
    func deleteBoard(id: String) throws(StoreError) -> Bool
    /// Checks that a write can succeed now (reconnecting when needed), without changing
    /// any board: the store thread calls it, with backoff, while the store is down.
    func probe() throws(StoreError)
    /// Brings what the store derives from its history up to date, so that the next process to
    /// open it replays nothing; a clean shutdown calls it (`CommitWriter.close`) after the last
    /// write. Stores that derive nothing do nothing.
    func bringUpToDate() throws(StoreError)
}

extension Store {
    public func bringUpToDate() throws(StoreError) {}
}

/// A commit as the store made it durable: the version it got there (which another process
/// may have made differ from the one its session expected), and who sent it.
public struct DurableCommit: Hashable, Sendable {
    public var board: String
    public var version: Int
    public var by: String
    /// Wall-clock time of the commit, in ms since the Unix epoch.
    public var at: Double
    /// `nil` only for commits written before changes were kept.
    public var change: Change?
    /// The server process that wrote it (`CommitRecord.origin`).
    public var origin: String
    /// The writing process's sequence number for it (`CommitRecord.token`).
    public var token: Int
    /// Issue 42: the user who made it and their name (`Commit.user`, `Commit.name`); nil for a
    /// commit without a user, and for every commit written before schema 10.
    public var user: String?
    public var name: String?
    public init(board: String, version: Int, by: String, at: Double, change: Change?, origin: String, token: Int,
                user: String? = nil, name: String? = nil) {
        self.board = board; self.version = version; self.by = by; self.at = at
        self.change = change; self.origin = origin; self.token = token; self.user = user; self.name = name
    }
}

/// What became of one record of a batch.
public enum StoreOutcome: Hashable, Sendable {
    /// Written, at the version the store gave it.
    case landed(DurableCommit)
    /// The change changes nothing on the store's order (another process's commit made it
    /// moot): nothing was written for it.
    case unchanged(board: String, token: Int)
    /// The change would break a section's placement rule on the store's order (issue 23:
    /// another process filled the column first): nothing was written for it.
    case refused(board: String, token: Int, reason: String)
}

/// A board's order as a store holds it between transactions, so that a change applies
/// without reading the whole board back: reloaded only when another writer moved it on.
struct BoardCache {
    private var boards: [String: Board] = [:]

    func board(_ id: String, at version: Int) -> Board? {
        guard let b = boards[id], b.version == version else { return nil }
        return b
    }

    func version(of id: String) -> Int? { boards[id]?.version }
    /// Every cached board.
    var all: Dictionary<String, Board>.Values { boards.values }
    mutating func set(_ b: Board) { boards[b.id] = b }
    /// Runs `body` on the cached board `id` where the cache keeps it: one lookup, and the
    /// board changed in place (the cache holds its only reference, so no array of it is
    /// copied). Nil, without running `body`, when the board is not cached.
    mutating func modify<Result, Failure: Error>(_ id: String, _ body: (inout Board) throws(Failure) -> Result) throws(Failure) -> Result? {
        guard let k = boards.index(forKey: id) else { return nil }
        return try body(&boards.values[k])
    }
    mutating func forget() { boards.removeAll() }
    mutating func forget(_ id: String) { boards[id] = nil }
}

/// The sections whose item positions a change rewrote, as the board after it holds them.
func touchedSections(_ moves: [Move], in board: Board) -> [Section] {
    var ids: [String] = []
    for m in moves {
        for s in [m.from.section, m.to.section] where !ids.contains(s) { ids.append(s) }
    }
    return board.sections.filter { ids.contains($0.id) }
}

/// A change as table columns: `kind` is "insert" (item after `other` in `section`, `index`
/// its index at the drop), "swap" (item and `other` exchange), "changes" (a group or a batch,
/// as JSON in `json`, the wire's form) or "edit" (the edit as JSON in `json`; `item` its item
/// or section id); all nil for no change.
struct ChangeColumns {
    var kind: String?
    var item: String?
    var other: String?
    var section: String?
    var index: Int?
    var json: String?

    init(kind: String?, item: String?, other: String?, section: String?, index: Int?, json: String? = nil) {
        self.kind = kind; self.item = item; self.other = other; self.section = section; self.index = index; self.json = json
    }

    init(_ change: Change?, edits: EditCodec) {
        switch change {
        case .insert(let id, let section, let after, let index)?:
            self.init(kind: "insert", item: id, other: after, section: section, index: index)
        case .swap(let a, let b)?:
            self.init(kind: "swap", item: a, other: b, section: nil, index: nil)
        case .some(let c) where !c.isEdit:
            // A group or a batch: the wire's JSON, as an edit keeps it.
            self.init(kind: "changes", item: nil, other: nil, section: nil, index: nil, json: edits.encode(c))
        case nil:
            self.init(kind: nil, item: nil, other: nil, section: nil, index: nil)
        case .some(let edit):
            self.init(kind: "edit", item: nil, other: nil, section: nil, index: nil, json: edits.encode(edit))
        }
    }

    func change(_ edits: EditCodec) -> Change? {
        switch kind {
        case "insert": item.flatMap { id in section.map { .insert(id: id, section: $0, after: other, index: index ?? 0) } }
        case "swap": item.flatMap { a in other.map { .swap(a, $0) } }
        case "edit", "changes": json.flatMap(edits.decode)
        default: nil
        }
    }
}

/// How a store keeps an edit (a change other than a single item's drop: an edit, a group, a
/// batch) as text, and reads it back. The store
/// does not know the wire: whoever opens it hands the codec in (the server hands the wire's
/// JSON, `Wire.encodeChange`), so that the store stands on Core alone.
public struct EditCodec: Sendable {
    public var encode: @Sendable (Change) -> String
    /// nil when the text is not an edit.
    public var decode: @Sendable (String) -> Change?

    public init(encode: @escaping @Sendable (Change) -> String, decode: @escaping @Sendable (String) -> Change?) {
        self.encode = encode
        self.decode = decode
    }
}
