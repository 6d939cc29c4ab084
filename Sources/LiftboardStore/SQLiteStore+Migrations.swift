extension SQLiteStore {
    /// Each step takes the schema from version `index` to `index + 1`.
    static let migrations: [String] = [
        """
        CREATE TABLE boards (id TEXT PRIMARY KEY, layout TEXT NOT NULL, version INTEGER NOT NULL,
          row_height REAL NOT NULL, list_header REAL NOT NULL, list_spacing REAL NOT NULL,
          item_width REAL NOT NULL, item_height REAL NOT NULL, grid_spacing REAL NOT NULL, grid_header REAL NOT NULL);
        CREATE TABLE sections (board TEXT NOT NULL REFERENCES boards(id), id TEXT NOT NULL, position INTEGER NOT NULL,
          title TEXT NOT NULL, PRIMARY KEY (board, id));
        CREATE TABLE items (board TEXT NOT NULL REFERENCES boards(id), id TEXT NOT NULL, section TEXT NOT NULL,
          position INTEGER NOT NULL, label TEXT NOT NULL, color TEXT NOT NULL, height REAL, movable INTEGER NOT NULL,
          PRIMARY KEY (board, id));
        CREATE TABLE commits (board TEXT NOT NULL REFERENCES boards(id), version INTEGER NOT NULL, by TEXT NOT NULL,
          at REAL NOT NULL, PRIMARY KEY (board, version));
        """,
        // v2: the moves of each commit, for undo later.
        """
        CREATE TABLE moves (board TEXT NOT NULL, version INTEGER NOT NULL, seq INTEGER NOT NULL, item TEXT NOT NULL,
          from_section TEXT NOT NULL, from_index INTEGER NOT NULL, to_section TEXT NOT NULL, to_index INTEGER NOT NULL,
          PRIMARY KEY (board, version, seq), FOREIGN KEY (board, version) REFERENCES commits(board, version));
        """,
        // v3: each commit's change (contract §4) and the process that made it; a row the
        // store thread writes to check that the disk takes writes again after a failure.
        """
        ALTER TABLE commits ADD COLUMN origin TEXT NOT NULL DEFAULT '';
        ALTER TABLE commits ADD COLUMN token INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE commits ADD COLUMN change_kind TEXT;
        ALTER TABLE commits ADD COLUMN change_item TEXT;
        ALTER TABLE commits ADD COLUMN change_other TEXT;
        ALTER TABLE commits ADD COLUMN change_section TEXT;
        ALTER TABLE commits ADD COLUMN change_index INTEGER;
        CREATE TABLE probe (id INTEGER PRIMARY KEY, at REAL NOT NULL);
        """,
        // v4: edits (issue 12): an edit's change is kept as its JSON (`change_kind` "edit").
        """
        ALTER TABLE commits ADD COLUMN change_json TEXT;
        """,
        // v5: a commit's moves in its own row, as text (`Wire.encodeMoves`): one statement per
        // drop instead of one per moved item (issue 13: the rows and their foreign-key checks
        // were 40 % of a drop's commit). Since issue 22 nothing writes or reads moves (the
        // change is the commit): the column and the `moves` table stay for older files.
        """
        ALTER TABLE commits ADD COLUMN moves_json TEXT;
        """,
        // v6: placement rules (issue 23): items' kind and drag handle, sections' rules as the
        // board file's keys in one text (`Section.rulesText`).
        """
        ALTER TABLE items ADD COLUMN kind TEXT;
        ALTER TABLE items ADD COLUMN handle TEXT;
        ALTER TABLE sections ADD COLUMN rules TEXT;
        """,
        // v7: rich cells (issue 25): items' card (detail, image, badge, tags, accent) in one
        // text (`Card.text`), sections' subtitle.
        """
        ALTER TABLE items ADD COLUMN card TEXT;
        ALTER TABLE sections ADD COLUMN subtitle TEXT;
        """,
        // 8: kanban columns (issue 24): a board's column metrics (the defaults for older rows).
        """
        ALTER TABLE boards ADD COLUMN col_width REAL NOT NULL DEFAULT 280;
        ALTER TABLE boards ADD COLUMN col_gap REAL NOT NULL DEFAULT 12;
        ALTER TABLE boards ADD COLUMN col_header REAL NOT NULL DEFAULT 40;
        ALTER TABLE boards ADD COLUMN col_row_height REAL NOT NULL DEFAULT 56;
        ALTER TABLE boards ADD COLUMN col_spacing REAL NOT NULL DEFAULT 8;
        """,
        // 9: a drop is its history row alone (issue 28): `boards.version` and the item and
        // section rows are a checkpoint, and the commits after it replay onto them. No table
        // changes; the number changes so that an older build, which would read the checkpoint
        // as the board, refuses the file.
        """
        SELECT 1;
        """,
        // 10: people (issue 42): the user who made each commit and the name shown for them;
        // NULL for commits made before (and for sessions without a user).
        """
        ALTER TABLE commits ADD COLUMN user_id TEXT;
        ALTER TABLE commits ADD COLUMN user_name TEXT;
        """,
        // 11: trees (issue 43): the indent, a section's maxDepth, an item's depth in its
        // section's pre-order, its collapsed state to begin with and whether it is a leaf.
        """
        ALTER TABLE boards ADD COLUMN tree_indent REAL NOT NULL DEFAULT 24;
        ALTER TABLE sections ADD COLUMN max_depth INTEGER;
        ALTER TABLE items ADD COLUMN depth INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE items ADD COLUMN collapsed INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE items ADD COLUMN leaf INTEGER NOT NULL DEFAULT 0;
        """,
        // 12: holds across processes (issue 44) are PostgreSQL's alone: one process keeps
        // its holds in memory. The number keeps the one history.
        """
        SELECT 1;
        """,
        // 13: a holder's target across processes (issue 44): PostgreSQL's `claims` alone.
        """
        SELECT 1;
        """,
        // 14: the history keyed by its primary key alone (issue 40): `commits` WITHOUT ROWID,
        // one b-tree instead of a rowid table and the index of (board, version) beside it, so
        // that a drop's commit writes one page to the WAL instead of two (about 7,000
        // instructions a commit of SQLite's 32,000, `scripts/bench-sqlite-commit`). The same
        // columns, rows and key; rebuilt as SQLite's ALTER TABLE steps say (foreign keys are
        // off during migrations: `SQLiteStore.init`).
        """
        CREATE TABLE commits_v14 (board TEXT NOT NULL REFERENCES boards(id), version INTEGER NOT NULL, by TEXT NOT NULL,
          at REAL NOT NULL, origin TEXT NOT NULL DEFAULT '', token INTEGER NOT NULL DEFAULT 0, change_kind TEXT,
          change_item TEXT, change_other TEXT, change_section TEXT, change_index INTEGER, change_json TEXT,
          moves_json TEXT, user_id TEXT, user_name TEXT, PRIMARY KEY (board, version)) WITHOUT ROWID;
        INSERT INTO commits_v14 (board, version, by, at, origin, token, change_kind, change_item, change_other,
          change_section, change_index, change_json, moves_json, user_id, user_name)
          SELECT board, version, by, at, origin, token, change_kind, change_item, change_other,
          change_section, change_index, change_json, moves_json, user_id, user_name FROM commits;
        DROP TABLE commits;
        ALTER TABLE commits_v14 RENAME TO commits;
        """,
    ]
}
