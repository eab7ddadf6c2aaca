import FoundationEssentials

/// A cache file that cannot be written.
public enum CacheError: LocalizedError, Equatable {
    case io(String, String)

    /// The file and why it cannot be written.
    public var errorDescription: String? {
        switch self {
        case let .io(path, reason): return "image cache \(path): \(reason)"
        }
    }
}
