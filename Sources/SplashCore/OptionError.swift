import Foundation

/// A bad command line or config file. Each message names the option or the config line
/// and says what would be accepted.
public struct OptionError: LocalizedError, Equatable, Sendable {
    /// Where the bad input came from: `--countdown` or `/etc/splashboard/splashboard.conf:7`.
    public var source: String
    public var problem: String

    public init(source: String, problem: String) {
        self.source = source
        self.problem = problem
    }

    public var errorDescription: String? { "\(source): \(problem)" }
}
