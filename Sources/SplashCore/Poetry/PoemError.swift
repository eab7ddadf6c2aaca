import FoundationEssentials

/// A poem answer that cannot be used.
public enum PoemError: LocalizedError, Equatable, Sendable {
    case notAPoem(String)

    /// Why the answer cannot be used, in words for the operator.
    public var errorDescription: String? {
        switch self {
        case .notAPoem(let why): return "not a poem in the jinrishici shape: \(why)"
        }
    }
}
