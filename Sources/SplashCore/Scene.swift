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

/// The splash: an image and the 跳过 N countdown.
public struct SplashScene: Equatable, Sendable {
    /// nil when the bundled default image is shown.
    public var campaignID: String?
    public var imagePath: String
    /// The number on the pill.
    public var countdown: Int
    /// When the number next goes down.
    public var nextTickAt: Seconds
}

/// The detail screen: the campaign that was just on the splash, and the poetry panel.
public struct DetailScene: Equatable, Sendable {
    public var campaignID: String?
    public var title: String?
    public var text: String
    public var imagePath: String?
    public var poetry: PoetryEntry
    /// The spinner's step while the poem's picture loads; nil when it does not turn.
    public var spinnerPhase: Int?
    /// The campaign's `linkUrl`, shown as a QR code; nil for none.
    public var linkURL: String? = nil
}
