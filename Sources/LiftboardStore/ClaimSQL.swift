import LiftboardCore

/// Issue 44, holds across processes: the `claims` table's statements. One row per held item
/// (`PRIMARY KEY (board, item)`): an `INSERT` raced by two processes is won by exactly one; a
/// row whose lease `expires` (the database's clock) has passed is taken over as if free. Every
/// time is the database's (`clock_timestamp()`), so the processes' clocks never meet.
enum ClaimSQL {
    /// What a claim came to.
    enum Outcome: Hashable, Sendable {
        case won
        /// Held by another session (of any process): its entry, `holds` empty.
        case lost(Presence.Entry)
    }

    static let claim = """
        INSERT INTO claims (board, item, session, process, user_id, name, color, role, claimed_at, expires)
        VALUES ($1, $2, $3, $4, $5, $6, $7, $8, clock_timestamp(), clock_timestamp() + $9 * interval '1 millisecond')
        ON CONFLICT (board, item) DO UPDATE SET session = EXCLUDED.session, process = EXCLUDED.process,
          user_id = EXCLUDED.user_id, name = EXCLUDED.name, color = EXCLUDED.color, role = EXCLUDED.role,
          claimed_at = EXCLUDED.claimed_at, expires = EXCLUDED.expires
        WHERE claims.expires < clock_timestamp() OR (claims.session = EXCLUDED.session AND claims.process = EXCLUDED.process)
        RETURNING session
        """

    /// Claims `item` of `board` for `holder` (a session of `process`) for `leaseMs`: won when
    /// the row is free, expired, or this session's already. A lost claim names the holder (read
    /// after the refused insert; a holder gone meanwhile makes it try again).
    static func claim(on db: PostgresConnection, board: String, item: String, holder: Presence.Entry, process: String,
                      leaseMs: Int) throws(StoreError) -> Outcome {
        for _ in 0..<4 {
            let r = try db.exec(claim, [board, item, holder.session, process, holder.user, holder.name, holder.color,
                                        holder.role.rawValue, String(leaseMs)])
            if r.count > 0 { return .won }
            let h = try db.exec("""
                SELECT session, user_id, name, color, role FROM claims
                WHERE board = $1 AND item = $2 AND expires >= clock_timestamp()
                """, [board, item])
            if h.count > 0 { return .lost(entry(h, 0)) }
        }
        throw .postgres(message: "the claim of \(item) neither won nor lost after 4 tries", sql: claim)
    }

    /// Gives up `item` if `session` of `process` holds it.
    static func release(on db: PostgresConnection, board: String, item: String, session: String, process: String) throws(StoreError) {
        try db.exec("DELETE FROM claims WHERE board = $1 AND item = $2 AND session = $3 AND process = $4",
                    [board, item, session, process])
    }

    /// Where `session`'s latest drag would drop now (nil: it holds nothing yet), written on
    /// every row it holds on `board`: the other processes list it as the holder's `target`.
    static func target(on db: PostgresConnection, board: String, session: String, process: String, target: Place?) throws(StoreError) {
        try db.exec("""
            UPDATE claims SET target_section = $4, target_index = $5, target_depth = $6
            WHERE board = $1 AND session = $2 AND process = $3
            """, [board, session, process, target?.section, target.map { String($0.index) }, target?.depth.map { String($0) }])
    }

    /// The first number of a block of `size` session numbers no other process has: blocks
    /// are taken in turn from the store's sequence (issue 44: "Guest N" names one session of
    /// the deployment).
    static func sessionBlock(on db: PostgresConnection, size: Int) throws(StoreError) -> Int {
        let r = try db.exec("SELECT nextval('liftboard_session_blocks')")
        return (r.int(0, 0) - 1) * size + 1
    }

    /// Every claim of `process` runs `leaseMs` from now.
    static func renew(on db: PostgresConnection, process: String, leaseMs: Int) throws(StoreError) {
        try db.exec("UPDATE claims SET expires = clock_timestamp() + $2 * interval '1 millisecond' WHERE process = $1",
                    [process, String(leaseMs)])
    }

    /// Gives up every claim of `process` (a clean shutdown).
    static func releaseAll(on db: PostgresConnection, process: String) throws(StoreError) {
        try db.exec("DELETE FROM claims WHERE process = $1", [process])
    }

    /// The live claims of every other process: board to its holders, each with its items in
    /// the order claimed; holders in the order of their first claim.
    static func others(on db: PostgresConnection, process: String) throws(StoreError) -> [String: [Presence.Entry]] {
        let r = try db.exec("""
            SELECT session, user_id, name, color, role, board, item, target_section, target_index, target_depth FROM claims
            WHERE process <> $1 AND expires >= clock_timestamp() ORDER BY board, claimed_at, item
            """, [process])
        var out: [String: [Presence.Entry]] = [:]
        for k in 0..<r.count {
            let board = r.text(k, 5), item = r.text(k, 6), session = r.text(k, 0)
            var entries = out[board] ?? []
            let j: Int
            if let found = entries.firstIndex(where: { $0.session == session }) {
                j = found
                entries[j].holds.append(item)
            } else {
                var e = entry(r, k)
                e.holds = [item]
                j = entries.count
                entries.append(e)
            }
            // The holder's target is on each of its rows (a row claimed since has none yet).
            if entries[j].target == nil, let section = r.optionalText(k, 7) {
                var t = Place(section: section, index: r.int(k, 8))
                t.depth = r.optionalText(k, 9).flatMap { Int($0) }
                entries[j].target = t
            }
            out[board] = entries
        }
        return out
    }

    private static func entry(_ r: PostgresRows, _ k: Int) -> Presence.Entry {
        Presence.Entry(session: r.text(k, 0), user: r.optionalText(k, 1), name: r.text(k, 2), color: r.text(k, 3),
                       role: Role(rawValue: r.text(k, 4)) ?? .edit)
    }
}
