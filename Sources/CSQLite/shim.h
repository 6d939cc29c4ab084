#include <sqlite3.h>

/// SQLite's process-wide settings, made before its first connection (`sqlite3_config` is
/// variadic, so Swift cannot call it). Memory statistics off: with them on, every allocation
/// SQLite makes takes and releases a global mutex to count it (about 700 instructions of a
/// drop's durable commit of 32,000, scripts/bench-sqlite-commit); nothing reads them. Returns
/// SQLITE_MISUSE, changing nothing, once SQLite is initialized.
static inline int liftboard_sqlite3_configure(void) {
    return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}
