import CSQLite
import FoundationEssentials

/// A small wrapper over one SQLite connection: statements with bound values, rows read
/// by column, transactions. Opened in WAL mode with `synchronous=FULL` and a busy timeout,
/// so a committed write survives a power cut and two connections can share the file.
public final class SQLiteDatabase {
    /// The database file.
    public let path: String
    let handle: OpaquePointer
    /// Prepared statements by their SQL, reused: a sync of 10,000 campaigns runs the same
    /// upsert 10,000 times.
    private var statements: [String: OpaquePointer] = [:]

    /// A value to bind or read.
    public enum Value: Equatable {
        case null
        case int(Int64)
        case real(Double)
        case text(String)
        case blob([UInt8])
    }

    /// Opens the database at `path`, creating it when missing: WAL mode, `synchronous=FULL`,
    /// foreign keys on and a busy timeout of 5 seconds.
    public init(path: String) throws {
        self.path = path
        var db: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        let rc = sqlite3_open_v2(path, &db, flags, nil)
        guard rc == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open"
            if let db { sqlite3_close_v2(db) }
            throw StoreError(path: path, message: message, code: rc)
        }
        handle = db
        sqlite3_busy_timeout(db, 5000)
        try execute("PRAGMA journal_mode = WAL")
        try execute("PRAGMA synchronous = FULL")
        try execute("PRAGMA foreign_keys = ON")
    }

    deinit {
        for statement in statements.values { sqlite3_finalize(statement) }
        sqlite3_close_v2(handle)
    }

    func error(_ what: String) -> StoreError {
        StoreError(path: path, message: String(cString: sqlite3_errmsg(handle)), code: sqlite3_extended_errcode(handle),
                   detail: what)
    }

    /// Rows changed by the last INSERT, UPDATE or DELETE on this connection.
    public var changes: Int { Int(sqlite3_changes(handle)) }

    /// Runs SQL that returns no rows (several statements allowed when nothing is bound).
    public func execute(_ sql: String, _ values: [Value] = []) throws {
        if values.isEmpty {
            var message: UnsafeMutablePointer<CChar>?
            let rc = sqlite3_exec(handle, sql, nil, nil, &message)
            guard rc == SQLITE_OK else {
                let text = message.map { String(cString: $0) } ?? "unknown error"
                sqlite3_free(message)
                throw StoreError(path: path, message: text, code: rc)
            }
            return
        }
        _ = try query(sql, values)
    }

    /// Runs one statement and returns its rows.
    @discardableResult
    public func query(_ sql: String, _ values: [Value] = []) throws -> [[Value]] {
        try run(statement(sql), values)
    }

    /// One row, read by column name (`try row["title"]`), as the statement named its columns.
    public struct Row {
        /// The row's values, in the statement's column order.
        public let values: [Value]
        let columns: [String: Int]
        /// The statement's text, for the error that names a column it has not.
        let sql: String
        let path: String

        /// The value of the column `name`. A column the statement has not is an error (a
        /// name mistyped is never read as NULL).
        public subscript(_ name: String) -> Value {
            get throws {
                guard let index = columns[name] else {
                    throw StoreError(path: path, message: "no column \(name) in \(sql.prefix(80))")
                }
                return values[index]
            }
        }
    }

    /// Runs one statement and returns its rows, read by column name.
    public func rows(_ sql: String, _ values: [Value] = []) throws -> [Row] {
        let prepared = try statement(sql)
        let found = try run(prepared, values)
        var columns: [String: Int] = [:]
        for i in 0..<sqlite3_column_count(prepared.handle) {
            if let name = sqlite3_column_name(prepared.handle, i) { columns[String(cString: name)] = Int(i) }
        }
        return found.map { Row(values: $0, columns: columns, sql: sql, path: path) }
    }

    /// A prepared statement, kept for the connection's life. A loop that runs the same SQL
    /// many times takes it once and hands it to `run`, sparing a lookup by its text each time.
    public struct Statement {
        fileprivate let handle: OpaquePointer
        fileprivate let sql: String
    }

    /// The prepared statement for `sql`, prepared on first use and kept.
    public func statement(_ sql: String) throws -> Statement {
        if let cached = statements[sql] { return Statement(handle: cached, sql: sql) }
        var made: OpaquePointer?
        guard sqlite3_prepare_v2(handle, sql, -1, &made, nil) == SQLITE_OK, let made else {
            throw error("preparing \(sql.prefix(60))")
        }
        statements[sql] = made
        return Statement(handle: made, sql: sql)
    }

    /// Runs a prepared statement with `values` bound and returns its rows.
    @discardableResult
    public func run(_ prepared: Statement, _ values: [Value] = []) throws -> [[Value]] {
        let statement = prepared.handle
        let sql = prepared.sql
        defer {
            sqlite3_reset(statement)
            sqlite3_clear_bindings(statement)
        }
        for (i, value) in values.enumerated() {
            let index = Int32(i + 1)
            let rc: Int32 = switch value {
            case .null: sqlite3_bind_null(statement, index)
            case .int(let n): sqlite3_bind_int64(statement, index, n)
            case .real(let d): sqlite3_bind_double(statement, index, d)
            // With its length in bytes: "a\u{0}x" and "a\u{0}y" are two ids, not one "a".
            case .text(let s):
                s.utf8CString.withUnsafeBufferPointer {
                    splash_sqlite_bind_text(statement, index, $0.baseAddress, Int32($0.count - 1))
                }
            case .blob(let bytes): bytes.withUnsafeBytes { splash_sqlite_bind_blob(statement, index, $0.baseAddress, Int32(bytes.count)) }
            }
            guard rc == SQLITE_OK else { throw error("binding value \(index)") }
        }
        var rows: [[Value]] = []
        while true {
            let rc = sqlite3_step(statement)
            if rc == SQLITE_DONE { break }
            guard rc == SQLITE_ROW else { throw error("running \(sql.prefix(60))") }
            var row: [Value] = []
            for column in 0..<sqlite3_column_count(statement) {
                switch sqlite3_column_type(statement, column) {
                case SQLITE_INTEGER: row.append(.int(sqlite3_column_int64(statement, column)))
                case SQLITE_FLOAT: row.append(.real(sqlite3_column_double(statement, column)))
                case SQLITE_TEXT:
                    let count = Int(sqlite3_column_bytes(statement, column))
                    let bytes = sqlite3_column_text(statement, column).map { UnsafeRawBufferPointer(start: $0, count: count) }
                    row.append(.text(bytes.map { String(decoding: $0, as: UTF8.self) } ?? ""))
                case SQLITE_BLOB:
                    let count = Int(sqlite3_column_bytes(statement, column))
                    if count > 0, let p = sqlite3_column_blob(statement, column) {
                        row.append(.blob(Array(UnsafeRawBufferPointer(start: p, count: count))))
                    } else {
                        row.append(.blob([]))
                    }
                default: row.append(.null)
                }
            }
            rows.append(row)
        }
        return rows
    }

    /// Runs `body` in one transaction: all of it is committed, or none of it.
    public func transaction<T>(_ body: () throws -> T) throws -> T {
        try execute("BEGIN IMMEDIATE")
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }

    /// The schema version kept in `PRAGMA user_version`.
    public var userVersion: Int {
        get throws { Int(try query("PRAGMA user_version").first?.first?.int ?? 0) }
    }
}

extension SQLiteDatabase.Value {
    /// The whole number held, or nil for any other kind of value.
    public var int: Int64? { if case .int(let n) = self { n } else { nil } }
    /// The number held, a whole one included; nil for any other kind of value.
    public var real: Double? {
        switch self {
        case .real(let d): d
        case .int(let n): Double(n)
        default: nil
        }
    }
    /// The text held, or nil for any other kind of value.
    public var text: String? { if case .text(let s) = self { s } else { nil } }
    /// The bytes held, or nil for any other kind of value.
    public var blob: [UInt8]? { if case .blob(let b) = self { b } else { nil } }

    /// Text, or NULL for nil.
    public static func optional(_ s: String?) -> Self { s.map { .text($0) } ?? .null }
    /// A whole number, or NULL for nil.
    public static func optionalInt(_ n: Int?) -> Self { n.map { .int(Int64($0)) } ?? .null }
    /// A date as Unix seconds, or NULL.
    public static func date(_ d: Date?) -> Self { d.map { .real($0.timeIntervalSince1970) } ?? .null }
    /// The Unix seconds held, as a date; nil when the value is not a number.
    public var date: Date? { real.map { Date(timeIntervalSince1970: $0) } }
}
