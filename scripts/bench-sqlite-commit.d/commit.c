// What one drop's durable commit costs SQLite, counted by callgrind over `loop` (1,200 commits,
// prepared statements, WAL, synchronous=FULL): the store's write of a drop four rows away
// (SQLiteStore's schema), with and without foreign keys and a row of `moves` per moved item, and
// the least a durable commit can be (one row appended to a log). Run by scripts/bench-sqlite-commit.
// Usage: commit FK ROWS_PER_MOVE   (FK: 0 or 1; ROWS_PER_MOVE: 0 or 1, or 2: schema 9's write of
//                                   a drop, its history row alone: no item rows, no version;
//                                   3: the same with schema 14's `commits` WITHOUT ROWID;
//                                   4: the same as 3 without BEGIN and COMMIT: the INSERT is its
//                                   own transaction, as SQLite runs a statement outside one)
//        commit log VERSION        (VERSION: 1 also updates the board's version row)
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
static sqlite3 *db;
static sqlite3_stmt *b, *c, *place, *setv, *hist, *mv;
static int fk = 1, rowsPerMove = 1, k = 4, historyAlone = 0, withoutRowid = 0, autocommit = 0;
static void ok(int rc) { if (rc != SQLITE_OK && rc != SQLITE_DONE && rc != SQLITE_ROW) { fprintf(stderr, "%s\n", sqlite3_errmsg(db)); exit(1); } }
static char id[32];
__attribute__((noinline)) void loop(int n, int start) {
  for (int i = 0; i < n; i++) {
    int v = start + i;
    if (!autocommit) { ok(sqlite3_step(b)); sqlite3_reset(b); }
    for (int j = 0; j < k; j++) {
      snprintf(id, sizeof id, "item-%d", (v * 7 + j) % 60);
      sqlite3_bind_text(place, 1, "todo", -1, SQLITE_STATIC); sqlite3_bind_int(place, 2, j);
      sqlite3_bind_text(place, 3, "demo", -1, SQLITE_STATIC); sqlite3_bind_text(place, 4, id, -1, SQLITE_TRANSIENT);
      ok(sqlite3_step(place)); sqlite3_reset(place);
    }
    if (!historyAlone) { sqlite3_bind_int64(setv, 1, v); sqlite3_bind_text(setv, 2, "demo", -1, SQLITE_STATIC); ok(sqlite3_step(setv)); sqlite3_reset(setv); }
    sqlite3_bind_text(hist, 1, "demo", -1, SQLITE_STATIC); sqlite3_bind_int64(hist, 2, v); sqlite3_bind_text(hist, 3, "s-12", -1, SQLITE_STATIC);
    sqlite3_bind_double(hist, 4, 1234.5); sqlite3_bind_text(hist, 5, "p1", -1, SQLITE_STATIC); sqlite3_bind_int(hist, 6, v);
    sqlite3_bind_text(hist, 7, "move", -1, SQLITE_STATIC); sqlite3_bind_text(hist, 8, "item-17", -1, SQLITE_STATIC);
    sqlite3_bind_null(hist, 9); sqlite3_bind_text(hist, 10, "todo", -1, SQLITE_STATIC); sqlite3_bind_int(hist, 11, 4); sqlite3_bind_null(hist, 12);
    if (!rowsPerMove && !historyAlone) sqlite3_bind_text(hist, 13, "item-17 todo 8 todo 4;item-3 todo 4 todo 5;item-9 todo 5 todo 6;item-21 todo 6 todo 7", -1, SQLITE_STATIC);
    ok(sqlite3_step(hist)); sqlite3_reset(hist);
    if (rowsPerMove) for (int j = 0; j < k; j++) {
      snprintf(id, sizeof id, "item-%d", (v * 7 + j) % 60);
      sqlite3_bind_text(mv, 1, "demo", -1, SQLITE_STATIC); sqlite3_bind_int64(mv, 2, v); sqlite3_bind_int(mv, 3, j);
      sqlite3_bind_text(mv, 4, id, -1, SQLITE_TRANSIENT); sqlite3_bind_text(mv, 5, "todo", -1, SQLITE_STATIC); sqlite3_bind_int(mv, 6, j);
      sqlite3_bind_text(mv, 7, "todo", -1, SQLITE_STATIC); sqlite3_bind_int(mv, 8, j + 1);
      ok(sqlite3_step(mv)); sqlite3_reset(mv);
    }
    if (!autocommit) { ok(sqlite3_step(c)); sqlite3_reset(c); }
  }
}
static sqlite3_stmt *ins;
__attribute__((noinline)) void logLoop(int n, int start, int withVersion) {
  for (int i = 0; i < n; i++) {
    ok(sqlite3_step(b)); sqlite3_reset(b);
    sqlite3_bind_text(ins, 1, "demo", -1, SQLITE_STATIC);
    sqlite3_bind_int64(ins, 2, start + i);
    sqlite3_bind_text(ins, 3, "{\"id\":\"item-17\",\"section\":\"todo\",\"after\":\"item-3\",\"index\":4}", -1, SQLITE_STATIC);
    ok(sqlite3_step(ins)); sqlite3_reset(ins);
    if (withVersion) { sqlite3_bind_int64(setv, 1, start + i); sqlite3_bind_text(setv, 2, "demo", -1, SQLITE_STATIC); ok(sqlite3_step(setv)); sqlite3_reset(setv); }
    ok(sqlite3_step(c)); sqlite3_reset(c);
  }
}
static int floorMain(const char *path, int withVersion) {
  ok(sqlite3_open(path, &db));
  ok(sqlite3_exec(db, "PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL;"
    "CREATE TABLE log(board TEXT NOT NULL, version INTEGER NOT NULL, change TEXT NOT NULL, PRIMARY KEY(board, version));"
    "CREATE TABLE boards(id TEXT PRIMARY KEY, version INTEGER NOT NULL); INSERT INTO boards VALUES('demo', 0);", 0, 0, 0));
  sqlite3_prepare_v2(db, "BEGIN", -1, &b, 0); sqlite3_prepare_v2(db, "COMMIT", -1, &c, 0);
  ok(sqlite3_prepare_v2(db, "INSERT INTO log VALUES (?,?,?)", -1, &ins, 0));
  ok(sqlite3_prepare_v2(db, "UPDATE boards SET version = ? WHERE id = ?", -1, &setv, 0));
  logLoop(1200, 1, withVersion);
  return 0;
}
int main(int argc, char **argv) {
  if (argc != 4) { fprintf(stderr, "usage: commit FK ROWS_PER_MOVE DB | commit log VERSION DB\n"); return 2; }
  if (strcmp(argv[1], "log") == 0) return floorMain(argv[3], atoi(argv[2]));
  fk = atoi(argv[1]); rowsPerMove = atoi(argv[2]);
  if (rowsPerMove >= 2) { historyAlone = 1; withoutRowid = rowsPerMove >= 3; autocommit = rowsPerMove == 4; rowsPerMove = 0; k = 0; }
  ok(sqlite3_open(argv[3], &db));
  ok(sqlite3_exec(db, fk ? "PRAGMA foreign_keys=ON" : "PRAGMA foreign_keys=OFF", 0, 0, 0));
  ok(sqlite3_exec(db, "PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL;"
    "CREATE TABLE boards (id TEXT PRIMARY KEY, layout TEXT NOT NULL, version INTEGER NOT NULL);"
    "CREATE TABLE items (board TEXT NOT NULL REFERENCES boards(id), id TEXT NOT NULL, section TEXT NOT NULL, position INTEGER NOT NULL, label TEXT NOT NULL, color TEXT NOT NULL, height REAL, movable INTEGER NOT NULL, PRIMARY KEY (board, id));"
    "CREATE TABLE moves (board TEXT NOT NULL, version INTEGER NOT NULL, seq INTEGER NOT NULL, item TEXT NOT NULL, from_section TEXT NOT NULL, from_index INTEGER NOT NULL, to_section TEXT NOT NULL, to_index INTEGER NOT NULL, PRIMARY KEY (board, version, seq), FOREIGN KEY (board, version) REFERENCES commits(board, version));"
    "INSERT INTO boards VALUES('demo','list',0);", 0, 0, 0));
  char create[600];
  snprintf(create, sizeof create, "CREATE TABLE commits (board TEXT NOT NULL REFERENCES boards(id), version INTEGER NOT NULL, by TEXT NOT NULL, at REAL NOT NULL, origin TEXT NOT NULL DEFAULT '', token INTEGER NOT NULL DEFAULT 0, change_kind TEXT, change_item TEXT, change_other TEXT, change_section TEXT, change_index INTEGER, change_json TEXT, moves TEXT, PRIMARY KEY (board, version))%s;", withoutRowid ? " WITHOUT ROWID" : "");
  ok(sqlite3_exec(db, create, 0, 0, 0));
  ok(sqlite3_exec(db, "BEGIN", 0, 0, 0));
  for (int j = 0; j < 60; j++) { char q[200]; snprintf(q, sizeof q, "INSERT INTO items VALUES('demo','item-%d','todo',%d,'Item %d','#4285f4',NULL,1)", j, j, j); ok(sqlite3_exec(db, q, 0, 0, 0)); }
  ok(sqlite3_exec(db, "COMMIT", 0, 0, 0));
  sqlite3_prepare_v2(db, "BEGIN", -1, &b, 0); sqlite3_prepare_v2(db, "COMMIT", -1, &c, 0);
  ok(sqlite3_prepare_v2(db, "UPDATE items SET section = ?, position = ? WHERE board = ? AND id = ?", -1, &place, 0));
  ok(sqlite3_prepare_v2(db, "UPDATE boards SET version = ? WHERE id = ?", -1, &setv, 0));
  ok(sqlite3_prepare_v2(db, rowsPerMove || historyAlone ? "INSERT INTO commits (board, version, by, at, origin, token, change_kind, change_item, change_other, change_section, change_index, change_json) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)" : "INSERT INTO commits (board, version, by, at, origin, token, change_kind, change_item, change_other, change_section, change_index, change_json, moves) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)", -1, &hist, 0));
  ok(sqlite3_prepare_v2(db, "INSERT INTO moves VALUES (?,?,?,?,?,?,?,?)", -1, &mv, 0));
  loop(1200, 1);
  return 0;
}
