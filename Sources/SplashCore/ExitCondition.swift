/// When a run ends by itself (`--exit-after`).
public enum ExitCondition: Equatable, Sendable, CustomStringConvertible {
    /// Once the first frame has been presented.
    case firstFrame
    /// Once the splash has ended (skipped, timed out, clicked through, or skipped by fallback).
    case splash
    /// Once the detail screen, poetry panel included, has been drawn.
    case detail
    /// After this many seconds on the run's clock.
    case seconds(Double)

    /// Parses `first-frame`, `splash`, `detail` or a number of seconds.
    public init?(argument: String) {
        switch argument {
        case "first-frame": self = .firstFrame
        case "splash": self = .splash
        case "detail": self = .detail
        default:
            guard let s = Double(argument), s.isFinite, s >= 0 else { return nil }
            self = .seconds(s)
        }
    }

    public var description: String {
        switch self {
        case .firstFrame: return "first-frame"
        case .splash: return "splash"
        case .detail: return "detail"
        case .seconds(let s): return "\(s)"
        }
    }
}
