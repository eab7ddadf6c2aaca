import CSQLite
import FoundationEssentials
import SplashServices

/// A database problem, with the file, what SQLite said and its result code, so that a busy,
/// full or damaged database can be told apart (and said plainly to an operator).
public struct StoreError: LocalizedError, Equatable {
    /// The database file.
    public var path: String
    /// What SQLite said.
    public var message: String
    /// What was being done (the statement), for debugging: never in an operator's message.
    public var detail: String?
    /// SQLite's primary result code (`SQLITE_BUSY`, `SQLITE_FULL`, `SQLITE_CORRUPT`, …).
    public var code: Int32

    /// What kind of problem it is, from the result code.
    public enum Kind: Equatable {
        /// Another connection holds the lock longer than the busy timeout.
        case busy
        /// The disk (or the database's size limit) is full.
        case full
        /// The file is damaged or is not a database.
        case corrupt
        /// The file or its folder cannot be written.
        case readOnly
        case other
    }

    /// A problem with the database at `path`; of an extended result `code`, only the
    /// primary part is kept.
    public init(path: String, message: String, code: Int32 = SQLITE_ERROR, detail: String? = nil) {
        self.path = path
        self.message = message
        self.detail = detail
        self.code = code & 0xFF
    }

    /// What kind of problem the result code says it is.
    public var kind: Kind {
        switch code {
        case SQLITE_BUSY, SQLITE_LOCKED: return .busy
        case SQLITE_FULL: return .full
        case SQLITE_CORRUPT, SQLITE_NOTADB: return .corrupt
        case SQLITE_READONLY, SQLITE_CANTOPEN, SQLITE_PERM: return .readOnly
        default: return .other
        }
    }

    /// The problem said plainly for an operator, with what to do when that is known.
    public var errorDescription: String? {
        switch kind {
        case .full: return "database \(path): the disk is full (\(message)); free some space"
        case .corrupt: return "database \(path): the file is damaged (\(message))"
        case .readOnly:
            let folder = path.deletingLastPathComponent
            if let why = FolderAccess.problem(folder, role: "data", files: FolderAccess.databaseFiles) {
                return "database \(path) cannot be written (\(message)): \(why)"
            }
            return "database \(path) cannot be written (\(message))"
        default: return "database \(path): \(message)"
        }
    }
}
