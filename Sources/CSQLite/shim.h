#ifndef SPLASHBOARD_CSQLITE_SHIM_H
#define SPLASHBOARD_CSQLITE_SHIM_H

#include <sqlite3.h>

/// Binds `length` bytes of UTF-8 text that SQLite copies at once (SQLITE_TRANSIENT is a
/// macro cast Swift cannot import). The length is explicit: text may hold NUL characters.
static inline int splash_sqlite_bind_text(sqlite3_stmt *stmt, int index, const char *text, int length) {
    return sqlite3_bind_text(stmt, index, text, length, SQLITE_TRANSIENT);
}

/// Binds a blob that SQLite copies at once (SQLITE_TRANSIENT, as above).
static inline int splash_sqlite_bind_blob(sqlite3_stmt *stmt, int index, const void *bytes, int length) {
    return sqlite3_bind_blob(stmt, index, bytes, length, SQLITE_TRANSIENT);
}

#endif
