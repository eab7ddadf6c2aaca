/// How a show ended, as the ledger's `ended_by` column, proof of play, the journal and the
/// metrics name it.
public enum ShowEnd: Equatable, Hashable, Sendable {
    /// It ended on screen: a tap, a key, its time out, a click-through, the operator view,
    /// the screen going dark.
    case by(SkipReason)
    /// The kiosk stopped first (a crash, a power cut, a kill): it ends when it began.
    case interrupted
    /// Not ended yet: still on the screen (the operator view's word for an open show).
    case onScreen

    /// The name stored and reported: the reason's own (`tap`, `click_through`…),
    /// `interrupted`, or `on screen`.
    public var rawValue: String {
        switch self {
        case .by(let reason): return reason.rawValue
        case .interrupted: return "interrupted"
        case .onScreen: return "on screen"
        }
    }

    /// The end a stored name stands for; nil for a name no version of the ledger writes.
    public init?(rawValue: String) {
        switch rawValue {
        case "interrupted": self = .interrupted
        case "on screen": self = .onScreen
        default:
            guard let reason = SkipReason(rawValue: rawValue) else { return nil }
            self = .by(reason)
        }
    }
}
