import SplashCore

/// A value kept in one column as a word or a number of its own (`ended_by`, `media`,
/// `reported`, a ping's `state`): written as `stored`, and read back only as one of the
/// values it names — anything else (a newer Splashboard's word, a damaged row) is an error
/// that names the column and what it held, never silently some other value.
protocol StoredValue {
    /// The column's value for it.
    var stored: SQLiteDatabase.Value { get }
    /// The value a column holds; nil for what it does not name.
    init?(stored: SQLiteDatabase.Value)
}

extension SQLiteDatabase.Row {
    /// The column `name` read as a `T`; nil when it is NULL; an error naming the column and
    /// the value when it holds anything `T` does not name.
    func stored<T: StoredValue>(_ type: T.Type, _ name: String) throws -> T? {
        let value = try self[name]
        if value == .null { return nil }
        guard let known = T(stored: value) else {
            throw StoreError(path: path, message: "the column \(name) holds \(value.described), which this Splashboard does not know "
                             + "(the database was written by a newer one, or is damaged)")
        }
        return known
    }
}

extension SQLiteDatabase.Value {
    /// The value as a message quotes it.
    var described: String {
        switch self {
        case .null: return "NULL"
        case .int(let n): return String(n)
        case .real(let d): return String(d)
        case .text(let s): return "\"\(s.prefix(40))\""
        case .blob(let b): return "\(b.count) bytes"
        }
    }
}

extension ShowEnd: StoredValue {
    var stored: SQLiteDatabase.Value { .text(rawValue) }
    init?(stored: SQLiteDatabase.Value) {
        guard let word = stored.text else { return nil }
        self.init(rawValue: word)
    }
}

extension MediaKind: StoredValue {
    var stored: SQLiteDatabase.Value { .text(rawValue) }
    init?(stored: SQLiteDatabase.Value) {
        guard let word = stored.text else { return nil }
        self.init(rawValue: word)
    }
}

/// Whether an ended show has gone to the proof-of-play receiver (the ledger's `reported`).
public enum ReportState: Int64, StoredValue, Sendable {
    /// Not yet: it is in the outbox.
    case pending = 0
    /// A receiver answered 2xx for it.
    case sent = 1
    /// Given up: more than the outbox keeps were waiting (it stays in the ledger).
    case givenUp = 2

    var stored: SQLiteDatabase.Value { .int(rawValue) }
    init?(stored: SQLiteDatabase.Value) {
        guard let n = stored.int else { return nil }
        self.init(rawValue: n)
    }

    /// The state written into a statement as a literal (what the partial index
    /// `shows_unreported` is matched against: a bound value is not).
    var sql: String { String(rawValue) }
}

extension CampaignStore.PingState: StoredValue {
    var stored: SQLiteDatabase.Value { .int(rawValue) }
    init?(stored: SQLiteDatabase.Value) {
        guard let n = stored.int else { return nil }
        self.init(rawValue: n)
    }
}
