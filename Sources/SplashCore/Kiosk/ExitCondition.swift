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

    /// Whether `condition` (nil: none) is met by `state` at `uptime`.
    public static func isMet(_ condition: ExitCondition?, by state: KioskState, at uptime: Seconds) -> Bool {
        switch condition {
        case nil: return false
        case .firstFrame: return state.framesPresented > 0
        case .splash: return state.splashesEnded > 0
        case .detail:
            // The detail screen presented, its poetry panel settled (no poem or picture on its way).
            guard case .detail = state.scene, state.lastFrame == .detail else { return false }
            return state.poetry.settled
        case .seconds(let s): return uptime >= s
        }
    }

    /// The argument's form, as `init(argument:)` reads it.
    public var description: String {
        switch self {
        case .firstFrame: return "first-frame"
        case .splash: return "splash"
        case .detail: return "detail"
        case .seconds(let s): return "\(s)"
        }
    }
}
