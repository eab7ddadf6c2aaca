import FoundationEssentials

/// A bad command line or config file. Each message names the option or the config line
/// and says what would be accepted.
public struct OptionError: LocalizedError, Equatable, Sendable {
    /// Where the bad input came from: `--countdown` or `/etc/splashboard/splashboard.conf:7`.
    public var source: String
    /// What is wrong, and what would be accepted.
    public var problem: String

    /// An error about the input at `source`.
    public init(source: String, problem: String) {
        self.source = source
        self.problem = problem
    }

    /// `source: problem`, the message shown for it.
    public var errorDescription: String? { "\(source): \(problem)" }
}
