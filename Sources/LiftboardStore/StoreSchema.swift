/// The one schema history of both stores: version N is the same step in SQLite
/// (`PRAGMA user_version`) and in PostgreSQL (the `liftboard_schema` table), each store writing
/// it in its own SQL (`SQLiteStore.migrations`, `PostgresStore.migrations`).
///
/// | version | what it brought | SQLite | PostgreSQL |
/// |---|---|---|---|
/// | 1 | boards, sections, items, commits | tables | tables, with all of 2 and 3's (one step) |
/// | 2 | each commit's moves (`moves`) | table | (in 1) |
/// | 3 | a commit's change, origin and token; a probe row | columns, `probe` table | (in 1); the probe is `SELECT 1` |
/// | 4 | an edit's change as its JSON (`change_json`) | column | column |
/// | 5 | a commit's moves in its row (`moves_json`) | column | nothing (it kept `moves`) |
/// | 6 | placement rules (issue 23): items' `kind` and `handle`, sections' `rules` (`Section.rulesText`) | columns | columns |
/// | 7 | rich cells (issue 25): items' `card` (`Card.text`), sections' `subtitle` | columns | columns |
/// | 8 | kanban columns (issue 24): boards' column metrics (`col_width`, `col_gap`, `col_header`, `col_row_height`, `col_spacing`; older rows get the defaults) | columns | columns |
/// | 9 | a drop is its history row alone (issue 28): `boards.version` and the item and section rows are a checkpoint, the commits after it replay onto them (`SQLiteStore`) | nothing (the number) | nothing |
/// | 10 | people (issue 42): a commit's `user` and `name` as `user_id` and `user_name` (NULL for commits made before, and for sessions without a user) | columns | columns |
/// | 11 | trees (issue 43): boards' `tree_indent`, sections' `max_depth`, items' `depth`, `collapsed`, `leaf` (older rows: top level, the defaults) | columns | columns |
/// | 12 | holds across processes (issue 44): `claims`, who holds which item until when (`ClaimBroker`) | nothing (the number: one process holds in memory) | table |
/// | 13 | a holder's target across processes (issue 44): `claims`' `target_section`, `target_index`, `target_depth` (`ClaimSQL.target`); the blocks of session numbers, `liftboard_session_blocks` | nothing (the number) | columns, a sequence |
/// | 14 | the history keyed by its primary key alone (issue 40): a drop's commit writes one page, not two | `commits` rebuilt `WITHOUT ROWID` (the same columns and rows) | nothing (the number) |
///
/// Since issue 22 neither store writes or reads moves (the change is the commit); `moves` and
/// `moves_json` stay for older databases. PostgreSQL databases numbered before this history
/// (`schema_version` 1 and 2) are versions 3 and 4 of it, renumbered on open.
public enum StoreSchema {
    /// The version this build writes; older databases migrate forward on open, newer ones are
    /// refused (`StoreError.newerSchema`).
    public static let version = 14

    /// The `boards` table's columns as both stores write (`seed`) and read (`board(id:)`) them,
    /// in this order.
    static let boardColumns = "id, layout, version, row_height, list_header, list_spacing, item_width, item_height, "
        + "grid_spacing, grid_header, col_width, col_gap, col_header, col_row_height, col_spacing, tree_indent"

    /// The `sections` and `items` columns as both stores write and read them, in this order.
    static let sectionColumns = "board, id, position, title, rules, subtitle, max_depth"
    static let itemColumns = "board, id, section, position, label, color, height, movable, kind, handle, card, depth, collapsed, leaf"
}
