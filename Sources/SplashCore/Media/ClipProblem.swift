/// Why a campaign's clip is not played here (its picture is shown instead).
public enum ClipProblem: Equatable, Sendable {
    /// Not cached yet, and why.
    case notCached(String)
    /// Refused for what it is (malformed, beyond this device's limits), and why.
    case refused(String)

    /// The reason, in the words `campaigns`, `status` and the operator view show.
    public var reason: String {
        switch self {
        case .notCached(let why), .refused(let why): return why
        }
    }
}
