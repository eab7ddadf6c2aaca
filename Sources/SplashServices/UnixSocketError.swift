import FoundationEssentials
import Glibc

/// Why a Unix socket could not be made, reached or bound.
public enum UnixSocketError: LocalizedError, Equatable {
    /// The path does not fit in a socket address (about 107 bytes).
    case pathTooLong(String)
    /// A call failed: which, on which path, and `errno`.
    case failed(call: String, path: String, errno: Int32)

    /// The path and what went wrong with it, for the operator.
    public var errorDescription: String? {
        switch self {
        case .pathTooLong(let path): return "\(path): the path is too long for a socket"
        case let .failed(call, path, code): return "\(path): \(call): \(String(cString: strerror(code)))"
        }
    }

    /// The `errno` of a failed call (nil for a path too long).
    public var code: Int32? {
        if case .failed(_, _, let code) = self { return code }
        return nil
    }
}
