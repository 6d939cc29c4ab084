import LiftboardCore
import CSQLite

/// A committed order with when it was made, as the store keeps it in its history.
public struct CommitRecord: Hashable, Sendable {
    public var commit: Commit
    /// Wall-clock time of the commit, in ms since the Unix epoch.
    public var at: Double
    /// The server process that made it, and its sequence number there: what tells a process
    /// its own commits apart when they come back from the store.
    public var origin: String
    public var token: Int
    /// The version the board must be at for this commit to be written (an API write's
    /// `If-Match`, checked under the board's lock); otherwise it is `unchanged`.
    public var ifVersion: Int?
    public init(commit: Commit, at: Double, origin: String = "", token: Int = 0, ifVersion: Int? = nil) {
        self.commit = commit; self.at = at; self.origin = origin; self.token = token; self.ifVersion = ifVersion
    }
}

/// Boards and every committed order, durable in SQLite (WAL, synchronous=FULL): when
/// `apply` returns, the commits survive a killed process and a power cut.
///
/// A drop is kept as its history row alone (schema 9): the `items` and `sections` rows and
/// `boards.version` hold the board as it was at some version (a checkpoint), and reading a
/// board replays the history rows after it onto them. The rows are brought up to date every
/// `checkpointEvery` commits of a board (only the items whose place changed since), and
/// around every edit; so a restart replays at most that many commits a board.
///
/// Board files seed the store once; afterwards the store is the truth. Use from one thread at
/// a time (the server's store thread).
public final class SQLiteStore: Store {
    /// The schema this build writes; older databases migrate forward on open.
    public static let schemaVersion = StoreSchema.version
    /// How many commits of a board its rows may lag behind its history by default.
    public static let defaultCheckpointEvery = 256
    private let db: SQLiteDatabase
    // `@exclusivity(unchecked)`: the members a commit touches are not checked at run time for
    // overlapping accesses (about 65 instructions an access, a dozen a commit on the store
    // thread with those of `SQLiteDatabase`, `Statement` and `CommitWriter`). The store is used
    // from one thread at a time, and no access to one of them overlaps another to it (`write`'s
    // change of the cached board in place touches `rows` and `outcomes`, not `cache`).
    @exclusivity(unchecked) private var cache = BoardCache()
    /// How many boards were read from the file (tests).
    private(set) var loads = 0
    /// For each cached board, what its `items` rows hold (`StoredRows`); forgotten with the cache.
    @exclusivity(unchecked) private var rows: [String: StoredRows] = [:] {
        didSet { leastRowsVersion = rows.values.lazy.map(\.version).min() ?? 0 }
    }
    /// The least version of `rows` (0 with none), kept as they change (a checkpoint, an edit,
    /// a load: seldom): a board's rows lag it by `checkpointEvery` commits only if this does,
    /// so that most drops decide without looking their board's rows up (a String hashed and
    /// probed, about 370 instructions a commit). Every cached board has its rows (`board(id:)`
    /// sets both; a failed batch and a deletion empty both).
    @exclusivity(unchecked) private var leastRowsVersion = 0
    private let edits: EditCodec
    private let checkpointEvery: Int
    /// A drop's statement (`write`), held (`SQLiteDatabase.held`).
    @exclusivity(unchecked) private var historyInsert: Statement?
    /// The outcomes of the last batch written (`write`), kept so that the next reuses their memory.
    @exclusivity(unchecked) private var outcomes: [StoreOutcome] = []

    /// `edits`: how edits are kept as text (`EditCodec`). `checkpointEvery`: how many commits
    /// of a board are written as history rows alone before its item rows are brought up to date.
    public init(path: String, edits: EditCodec, checkpointEvery: Int = SQLiteStore.defaultCheckpointEvery) throws(StoreError) {
        self.edits = edits
        self.checkpointEvery = max(1, checkpointEvery)
        db = try SQLiteDatabase(path: path)
        try db.execute("PRAGMA journal_mode=WAL")
        try db.execute("PRAGMA synchronous=FULL")
        // Foreign keys are checked once the schema is this build's: a migration that rebuilds
        // a table (14's `commits`) drops the old one, which `moves` names, with them off.
        try migrate()
        try db.execute("PRAGMA foreign_keys=ON")
    }

    /// The database's schema version (`PRAGMA user_version`).
    public func userVersion() throws(StoreError) -> Int {
        let s = try db.prepare("PRAGMA user_version")
        return try s.step() ? s.int(0) : 0
    }

    private func migrate() throws(StoreError) {
        let current = try userVersion()
        guard current <= Self.schemaVersion else { throw .newerSchema(found: current, supported: Self.schemaVersion) }
        for v in current..<Self.schemaVersion {
            try db.transaction { () throws(StoreError) in
                try db.execute(Self.migrations[v])
                try db.execute("PRAGMA user_version = \(v + 1)")
            }
        }
    }

    /// Inserts `board` unless the store has it already, and returns the store's board: after
    /// the first seed, a board file edited later never overwrites committed orders.
    /// - Complexity: O(n) in the board's items.
    @discardableResult
    public func seed(_ board: Board) throws(StoreError) -> Board {
        if let existing = try self.board(id: board.id) { return existing }
        try db.transaction { () throws(StoreError) in
            try db.prepare("INSERT INTO boards (\(StoreSchema.boardColumns)) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)").run([
                .text(board.id), .text(board.layout.rawValue), .int(board.version),
                .double(board.list.rowHeight), .double(board.list.headerHeight), .double(board.list.spacing),
                .double(board.grid.itemWidth), .double(board.grid.itemHeight), .double(board.grid.spacing), .double(board.grid.headerHeight),
                .double(board.columns.width), .double(board.columns.gap), .double(board.columns.headerHeight),
                .double(board.columns.rowHeight), .double(board.columns.spacing), .double(board.tree.indent),
            ])
            let section = try db.prepare("INSERT INTO sections (\(StoreSchema.sectionColumns)) VALUES (?,?,?,?,?,?,?)")
            let item = try db.prepare("INSERT INTO items (\(StoreSchema.itemColumns)) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)")
            for (s, sec) in board.sections.enumerated() {
                try section.run([.text(board.id), .text(sec.id), .int(s), .text(sec.title),
                                 sec.rulesText.map { .text($0) } ?? .null, sec.subtitle.map { .text($0) } ?? .null,
                                 sec.maxDepth.map { .int($0) } ?? .null])
                for (i, it) in sec.items.enumerated() {
                    try item.run([.text(board.id), .text(it.id), .text(sec.id), .int(i), .text(it.label), .text(it.color),
                                  it.height.map { .double($0) } ?? .null, .int(it.movable ? 1 : 0),
                                  it.kind.map { .text($0) } ?? .null, it.handle.map { .text($0.rawValue) } ?? .null,
                                  it.card.text.map { .text($0) } ?? .null,
                                  .int(it.depth), .int(it.collapsed ? 1 : 0), .int(it.leaf ? 1 : 0)])
                }
            }
        }
        return board
    }

    /// Every board with its current order and version, by id.
    public func boards() throws(StoreError) -> [Board] {
        let s = try db.prepare("SELECT id FROM boards ORDER BY id")
        var ids: [String] = []
        while try s.step() { ids.append(s.text(0)) }
        var out: [Board] = []
        for id in ids { if let b = try board(id: id) { out.append(b) } }
        return out
    }

    /// The board with every commit of its history applied: the store's own copy when it has
    /// one (it is the file's only writer), else read and kept, so that the server's start
    /// (`seed`, then `boards`) and its first drop read a board once, not three times.
    /// - Complexity: O(1) when kept; else O(n log n) in the board's items, plus O(n) a commit
    ///   after the checkpoint.
    public func board(id: String) throws(StoreError) -> Board? {
        if let v = cache.version(of: id), let kept = cache.board(id, at: v) { return kept }
        guard let loaded = try load(id: id) else { return nil }
        cache.set(loaded.board)
        rows[id] = loaded.rows
        return loaded.board
    }

    /// The board as its rows hold it (at the checkpoint `boards.version`), and with the
    /// commits after it replayed (their changes, as written: each landed on the board before it).
    private func load(id: String) throws(StoreError) -> (board: Board, rows: StoredRows)? {
        guard var board = try checkpoint(id: id) else { return nil }
        loads += 1
        let rows = StoredRows(board)
        for d in try commits(board: id, after: board.version) {
            // A change that no longer applies would mean a file written by something else.
            guard let change = d.change, board.apply(change) != nil, board.version == d.version else {
                throw .unreplayable(board: id, version: d.version)
            }
        }
        return (board, rows)
    }

    /// The board as its item and section rows hold it, at `boards.version`.
    private func checkpoint(id: String) throws(StoreError) -> Board? {
        let b = try db.prepare("SELECT \(StoreSchema.boardColumns) FROM boards WHERE id = ?")
        b.bind([.text(id)])
        guard try b.step() else { return nil }
        var board = Board(id: id, layout: LayoutKind(rawValue: b.text(1)) ?? .list,
                          list: ListMetrics(rowHeight: b.double(3), headerHeight: b.double(4), spacing: b.double(5)),
                          grid: GridMetrics(itemWidth: b.double(6), itemHeight: b.double(7), spacing: b.double(8), headerHeight: b.double(9)),
                          columns: ColumnMetrics(width: b.double(10), gap: b.double(11), headerHeight: b.double(12),
                                                 rowHeight: b.double(13), spacing: b.double(14)),
                          sections: [], version: b.int(2))
        board.tree.indent = b.double(15)
        let s = try db.prepare("SELECT id, title, rules, subtitle, max_depth FROM sections WHERE board = ? ORDER BY position")
        s.bind([.text(id)])
        var index: [String: Int] = [:]
        while try s.step() {
            index[s.text(0)] = board.sections.count
            var section = Section(id: s.text(0), title: s.text(1), items: [])
            if !s.isNull(2) { section.readRules(s.text(2)) }
            if !s.isNull(3) { section.subtitle = s.text(3) }
            if !s.isNull(4) { section.maxDepth = s.int(4) }
            board.sections.append(section)
        }
        let i = try db.prepare("SELECT id, section, label, color, height, movable, kind, handle, card, depth, collapsed, leaf FROM items WHERE board = ? ORDER BY section, position")
        i.bind([.text(id)])
        while try i.step() {
            guard let k = index[i.text(1)] else { continue }
            var item = Item(id: i.text(0), label: i.text(2), color: i.text(3),
                            height: i.isNull(4) ? nil : i.double(4), movable: i.int(5) != 0,
                            kind: i.isNull(6) ? nil : i.text(6),
                            handle: i.isNull(7) ? nil : HandleEdge(rawValue: i.text(7)),
                            card: i.isNull(8) ? Card() : Card(text: i.text(8)))
            item.depth = i.int(9)
            item.collapsed = i.int(10) != 0
            item.leaf = i.int(11) != 0
            board.sections[k].items.append(item)
        }
        return board
    }

    /// Writes a batch of commits in one transaction (group commit), as `Store.apply` says.
    /// - Complexity: O(the change) a drop (its history row), plus an O(n) comparison of a
    ///   board's rows every `checkpointEvery` commits of it and at each edit, plus a load (the
    ///   checkpoint and up to `checkpointEvery` commits replayed) of a board not cached.
    @discardableResult
    public func apply(_ records: [CommitRecord]) throws(StoreError) -> [StoreOutcome] {
        do {
            // A commit alone in its batch is usually a drop's history row alone: that one
            // statement is its own transaction (`SQLiteDatabase.alone`); what needs more (a read
            // of its board, a checkpoint, an edit's rows) begins one first (`needsTransaction`).
            if records.count == 1 {
                return try db.alone { () throws(StoreError) -> [StoreOutcome] in try write(records) }
            }
            return try db.transaction { () throws(StoreError) -> [StoreOutcome] in try write(records) }
        } catch {
            // The cached boards were changed in place; a batch that did not land leaves them
            // ahead of the file, so they are read again.
            cache.forget()
            rows.removeAll()
            throw error
        }
    }

    /// `apply`'s body, inside its transaction.
    private func write(_ records: [CommitRecord]) throws(StoreError) -> [StoreOutcome] {
        let history = try db.held(&historyInsert, "INSERT INTO commits (board, version, by, at, origin, token, change_kind, change_item, change_other, change_section, change_index, change_json, user_id, user_name) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)")
        // The last batch's outcomes are let go of here: the caller has handed them on, so the
        // array's memory is this store's alone again and is reused, not made anew each batch.
        outcomes.removeAll(keepingCapacity: true)
        outcomes.reserveCapacity(records.count)
        // Each record read where the batch holds it, through a pointer: passed as a value
        // (even borrowing) it was copied out of the batch and destroyed again, every commit.
        try records.withUnsafeBufferPointer { (batch) throws(StoreError) in
            guard let first = batch.baseAddress else { return }
            for k in batch.indices { try write(first + k, history) }
        }
        return outcomes
    }

    /// One record of `write`'s batch (`record`, read where the batch holds it): its change
    /// landed on the store's board, its history row and its outcome.
    private func write(_ record: UnsafePointer<CommitRecord>, _ history: Statement) throws(StoreError) {
        guard let proposed = record.pointee.commit.change else {
            throw .missingChange(board: record.pointee.commit.board, version: record.pointee.commit.version)
        }
        // The cached board is the file's (this store is the file's only writer, and a
        // failed batch or a deletion empties the cache): no read when it is cached. Changed
        // where the cache keeps it (one lookup, and no copy of its items: the cache holds its
        // only reference). A batch that fails empties the cache (`apply`).
        func landOnCached() throws(StoreError) -> Landing? {
            try cache.modify(record.pointee.commit.board) { (current) throws(StoreError) -> Landing in
                try land(record, proposed, on: &current, history)
            }
        }
        var landing = try landOnCached()
        if landing == nil {
            try db.needsTransaction()
            guard try readForWrite(record.pointee) else { return }
            landing = try landOnCached()
        }
        switch landing {
        case nil:
            throw .unknownBoard(record.pointee.commit.board)
        case .landed?:
            // Its history row and outcome written (`land`).
            break
        case .unchanged?:
            outcomes.append(.unchanged(board: record.pointee.commit.board, token: record.pointee.token))
        case .refused(let reason)?:
            outcomes.append(.refused(board: record.pointee.commit.board, token: record.pointee.token, reason: reason))
        }
    }

    /// Writes `record`'s history row, its change `change` landed at `version`, and its outcome.
    private func writeHistory(_ record: UnsafePointer<CommitRecord>, _ change: Change, version: Int, _ history: Statement) throws(StoreError) {
        // Bound value by value: no array of values, no `ChangeColumns` made.
        history.start()
        history.bind(1, record.pointee.commit.board); history.bind(2, version); history.bind(3, record.pointee.commit.by)
        history.bind(4, record.pointee.at); history.bind(5, record.pointee.origin); history.bind(6, record.pointee.token)
        bindColumns(of: change, to: history)
        history.bind(13, record.pointee.commit.user); history.bind(14, record.pointee.commit.name)
        try history.runBound()
        outcomes.append(.landed(DurableCommit(board: record.pointee.commit.board, version: version, by: record.pointee.commit.by,
                                              at: record.pointee.at, change: change, origin: record.pointee.origin,
                                              token: record.pointee.token, user: record.pointee.commit.user,
                                              name: record.pointee.commit.name)))
    }

    /// Reads `r`'s board, not cached, and keeps it (`board(id:)`): true when it is cached now;
    /// false when `r`'s outcome is made here (its board deleted, or its history not replaying).
    /// Apart from `write(_:_:)`, which runs for every record, so that what this needs is made
    /// only when it runs.
    @inline(never)
    private func readForWrite(_ r: borrowing CommitRecord) throws(StoreError) -> Bool {
        let id = r.commit.board
        do {
            guard try board(id: id) != nil else {
                // Deleted (through the API): the commit is moot, the rest of the batch is written.
                outcomes.append(.unchanged(board: id, token: r.token))
                return false
            }
            return true
        } catch .unreplayable(let board, let version) {
            // A file written by something else: this board's drops are refused, the
            // rest of the batch (other boards) is written.
            outcomes.append(.refused(board: id, token: r.token,
                                     reason: "the stored history of board \"\(board)\" does not replay at v\(version)"))
            return false
        }
    }

    /// Binds `change` as `ChangeColumns(change, edits:)` has it into parameters 7 to 12 of the
    /// history row (`change_kind` to `change_json`): a drop's columns straight from its
    /// change, without the columns made and copied (an edit's, a group's and a batch's through
    /// `ChangeColumns`, as their JSON).
    private func bindColumns(of change: Change, to s: Statement) {
        switch change {
        case .insert(let id, let section, let after, let index):
            s.bind(7, literal: "insert"); s.bind(8, id); s.bind(9, after); s.bind(10, section); s.bind(11, index); s.bindNull(12)
        case .swap(let a, let b):
            s.bind(7, literal: "swap"); s.bind(8, a); s.bind(9, b); s.bindNull(10); s.bindNull(11); s.bindNull(12)
        default:
            let c = ChangeColumns(change, edits: edits)
            s.bind(7, c.kind); s.bind(8, c.item); s.bind(9, c.other); s.bind(10, c.section); s.bind(11, c.index); s.bind(12, c.json)
        }
    }

    /// What became of a record on the store's board (`land`).
    private enum Landing {
        /// Its history row and outcome written.
        case landed
        case unchanged
        case refused(reason: String)
    }

    /// Applies `record`'s change `proposed` (unless the board is not at the record's
    /// `ifVersion`) to `current`, the store's board, and writes the item and section rows it
    /// needs (an edit's; a checkpoint's), then, landed, its history row and outcome
    /// (`writeHistory`); `current` is left as the store's board after it, landed or not.
    private func land(_ record: UnsafePointer<CommitRecord>, _ proposed: Change, on current: inout Board,
                      _ history: Statement) throws(StoreError) -> Landing {
        if let ifVersion = record.pointee.ifVersion, ifVersion != current.version { return .unchanged }
        // A copy's new id the board has already gets another (issue 23); the commit carries it.
        // (The change as stored is passed on as it is, not as an optional made of the two:
        // copying an optional change went through its type's metadata, twice a commit.)
        if case .copyItem = proposed { return try land(record, storing: current.storing(proposed), on: &current, history) }
        return try land(record, storing: proposed, on: &current, history)
    }

    /// `land`'s body, for the change as stored (`change`: the commit, contract §4; its moves
    /// follow from it and are not kept).
    private func land(_ record: UnsafePointer<CommitRecord>, storing change: Change, on current: inout Board,
                      _ history: Statement) throws(StoreError) -> Landing {
        let before = change.isEdit ? current : nil
        // Placement rules hold on the store's order, under its lock (issue 23).
        let ruled = current.hasRules ? current : nil
        guard current.apply(change) != nil else { return .unchanged }
        if let ruled, let why = current.ruleViolation(since: ruled) {
            current = ruled
            return .refused(reason: why.description)
        }
        if let before {
            // An edit adds, removes or rewrites rows: it starts from rows that hold the
            // board before it, and leaves them holding the board after it.
            try db.needsTransaction()
            try bringRows(of: before)
            try writeEdit(EditRow.rows(for: change, before: before, after: current), board: current.id)
            try setCheckpoint(current)
        } else if current.version - leastRowsVersion >= checkpointEvery,
                  current.version - (rows[current.id]?.version ?? 0) >= checkpointEvery {
            try db.needsTransaction()
            try bringRows(of: current)
        }
        try writeHistory(record, change, version: current.version, history)
        return .landed
    }

    /// Rewrites the `items` rows of `board` whose place differs from the rows' (only those),
    /// and makes `board`'s version the checkpoint: its rows then hold `board`. `board` has the
    /// rows' items and sections (only edits change those, and they bring the rows first).
    /// - Complexity: O(n) comparisons, a statement per item whose place changed.
    private func bringRows(of board: Board) throws(StoreError) {
        let place = try db.cached("UPDATE items SET section = ?, position = ?, depth = ? WHERE board = ? AND id = ?")
        let held = rows[board.id]?.sections ?? [:]
        for s in board.sections {
            let was = held[s.id] ?? []
            // A tree's move changes depths as well as places (an indent changes only a depth).
            for (k, it) in s.items.enumerated() where k >= was.count || was[k] != StoredRows.Row(it) {
                try place.run([.text(s.id), .int(k), .int(it.depth), .text(board.id), .text(it.id)])
            }
        }
        try setCheckpoint(board)
    }

    /// The rows of every cached board whose rows lag its history are brought up to date
    /// (every board this process read or wrote, unless a failed batch emptied the cache since).
    public func bringUpToDate() throws(StoreError) {
        let lagging = cache.all.filter { (rows[$0.id]?.version ?? $0.version) < $0.version }
        guard !lagging.isEmpty else { return }
        try db.transaction { () throws(StoreError) in
            for board in lagging { try bringRows(of: board) }
        }
    }

    /// Records that the rows of `board` hold it (`boards.version`).
    private func setCheckpoint(_ board: Board) throws(StoreError) {
        try db.cached("UPDATE boards SET version = ? WHERE id = ?").run([.int(board.version), .text(board.id)])
        rows[board.id] = StoredRows(board)
    }

    /// Writes an edit's rows (inside `apply`'s transaction).
    private func writeEdit(_ rows: [EditRow], board: String) throws(StoreError) {
        for row in rows {
            switch row {
            case .insertItem(let it, let section):
                try db.prepare("INSERT INTO items (\(StoreSchema.itemColumns)) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)").run([
                    .text(board), .text(it.id), .text(section), .int(0), .text(it.label), .text(it.color),
                    it.height.map { .double($0) } ?? .null, .int(it.movable ? 1 : 0),
                    it.kind.map { .text($0) } ?? .null, it.handle.map { .text($0.rawValue) } ?? .null,
                    it.card.text.map { .text($0) } ?? .null, .int(it.depth), .int(it.collapsed ? 1 : 0), .int(it.leaf ? 1 : 0)])
            case .deleteItem(let id):
                try db.prepare("DELETE FROM items WHERE board = ? AND id = ?").run([.text(board), .text(id)])
            case .updateItem(let it):
                try db.prepare("UPDATE items SET label = ?, color = ?, height = ?, movable = ?, card = ? WHERE board = ? AND id = ?").run([
                    .text(it.label), .text(it.color), it.height.map { .double($0) } ?? .null, .int(it.movable ? 1 : 0),
                    it.card.text.map { .text($0) } ?? .null, .text(board), .text(it.id)])
            case .insertSection(let id, let title):
                try db.prepare("INSERT INTO sections (board, id, position, title) VALUES (?,?,?,?)").run([.text(board), .text(id), .int(0), .text(title)])
            case .renameSection(let id, let title):
                try db.prepare("UPDATE sections SET title = ? WHERE board = ? AND id = ?").run([.text(title), .text(board), .text(id)])
            case .setSubtitle(let id, let subtitle):
                try db.prepare("UPDATE sections SET subtitle = ? WHERE board = ? AND id = ?").run([
                    subtitle.map { .text($0) } ?? .null, .text(board), .text(id)])
            case .deleteSection(let id):
                try db.prepare("DELETE FROM sections WHERE board = ? AND id = ?").run([.text(board), .text(id)])
            case .itemPositions(let section):
                let place = try db.prepare("UPDATE items SET section = ?, position = ? WHERE board = ? AND id = ?")
                for (k, it) in section.items.enumerated() { try place.run([.text(section.id), .int(k), .text(board), .text(it.id)]) }
            case .sectionPositions(let ids):
                let place = try db.prepare("UPDATE sections SET position = ? WHERE board = ? AND id = ?")
                for (k, id) in ids.enumerated() { try place.run([.int(k), .text(board), .text(id)]) }
            }
        }
    }

    /// Deletes a board with its items, sections and history; false when there was none.
    public func deleteBoard(id: String) throws(StoreError) -> Bool {
        try db.transaction { () throws(StoreError) -> Bool in
            // Whether it exists, not its replay: a board whose history does not replay can go.
            let exists = try db.prepare("SELECT 1 FROM boards WHERE id = ?")
            exists.bind([.text(id)])
            guard try exists.step() else { return false }
            for table in ["moves", "commits", "items", "sections", "boards"] {
                try db.prepare("DELETE FROM \(table) WHERE \(table == "boards" ? "id" : "board") = ?").run([.text(id)])
            }
            cache.forget()
            rows.removeAll()
            return true
        }
    }

    public func commits(board: String, after version: Int) throws(StoreError) -> [DurableCommit] {
        let s = try db.prepare("SELECT version, by, at, origin, token, change_kind, change_item, change_other, change_section, change_index, change_json, user_id, user_name FROM commits WHERE board = ? AND version > ? ORDER BY version")
        s.bind([.text(board), .int(version)])
        var out: [DurableCommit] = []
        while try s.step() {
            let change = ChangeColumns(kind: s.isNull(5) ? nil : s.text(5), item: s.isNull(6) ? nil : s.text(6),
                                       other: s.isNull(7) ? nil : s.text(7), section: s.isNull(8) ? nil : s.text(8),
                                       index: s.isNull(9) ? nil : s.int(9), json: s.isNull(10) ? nil : s.text(10)).change(edits)
            out.append(DurableCommit(board: board, version: s.int(0), by: s.text(1), at: s.double(2), change: change,
                                     origin: s.text(3), token: s.int(4), user: s.isNull(11) ? nil : s.text(11),
                                     name: s.isNull(12) ? nil : s.text(12)))
        }
        return out
    }

    /// A write that reaches the disk (the WAL), so that a full disk or a lost file fails it.
    public func probe() throws(StoreError) {
        try db.transaction { () throws(StoreError) in
            try db.prepare("INSERT OR REPLACE INTO probe VALUES (1, ?)").run([.double(0)])
        }
    }
}

/// What a board's `items` rows hold: the board's version then (`boards.version`, the
/// checkpoint) and each section's item ids in position order.
struct StoredRows {
    /// An item row's place as the rows hold it: its id at that position, and its depth.
    struct Row: Equatable {
        var id: String
        var depth: Int
        init(_ item: Item) { id = item.id; depth = item.depth }
    }

    var version: Int
    var sections: [String: [Row]]

    init(_ board: Board) {
        version = board.version
        sections = Dictionary(uniqueKeysWithValues: board.sections.map { ($0.id, $0.items.map(Row.init)) })
    }
}
