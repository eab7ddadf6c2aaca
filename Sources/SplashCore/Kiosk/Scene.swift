/// What is on the screen. The display draws exactly this and redraws when it changes.
public enum Scene: Equatable, Sendable {
    /// Nothing drawn yet.
    case starting
    case splash(SplashScene)
    case detail(DetailScene)
    /// The operator view, opened by the hidden gesture.
    case `operator`(OperatorScene)

    /// Which screen a scene is, by name (`frame` events, snapshots, the metrics): decided on
    /// by kind, never by its name.
    public enum Kind: String, Sendable {
        case splash, detail, `operator`
    }

    /// This scene's kind (nothing drawn yet counts as the detail screen's place).
    public var kind: Kind {
        switch self {
        case .splash: return .splash
        case .operator: return .operator
        case .detail, .starting: return .detail
        }
    }
}
