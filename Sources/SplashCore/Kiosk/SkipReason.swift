/// Why a splash ended.
public enum SkipReason: String, Equatable, Sendable, CaseIterable {
    case tap
    case key
    case timeout
    case clickThrough = "click_through"
    /// The operator view opened over the show (a corner held, F2).
    case operatorView = "operator_view"
    /// The screen went dark over the show (its schedule, `splashboard screen off`).
    case screenOff = "screen_off"

    /// How the ledger's `outcome` column names it.
    public var outcome: ShowOutcome {
        switch self {
        case .tap, .key, .operatorView, .screenOff: return .skipped
        case .timeout: return .completed
        case .clickThrough: return .clicked
        }
    }
}
