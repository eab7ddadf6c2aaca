import FoundationEssentials

/// How a show ended, as written to the ledger.
public enum ShowOutcome: String, Equatable, Sendable {
    case skipped
    case completed
    case clicked
}
