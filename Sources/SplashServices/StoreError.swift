import Foundation

/// A database problem, with the file and what SQLite said.
public struct StoreError: LocalizedError, Equatable {
    public var path: String
    public var message: String

    public init(path: String, message: String) {
        self.path = path
        self.message = message
    }

    public var errorDescription: String? { "database \(path): \(message)" }
}
