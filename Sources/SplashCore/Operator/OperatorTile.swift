import FoundationEssentials

/// One campaign in the operator view's grid.
public struct OperatorTile: Equatable, Sendable {
    /// The campaign's id.
    public var id: Campaign.ID
    /// The campaign's title, if the feed gave one.
    public var title: String?
    /// Shows left on this device.
    public var remaining: Int
    /// How many times the feed lets this device show it in all.
    public var showLimit: Int
    /// Why it cannot be shown; nil when it is eligible.
    public var ineligibility: String?
    /// It is the one the next splash would show.
    public var isNext: Bool
    /// Its JPEG thumbnail; nil when there is none.
    public var thumbnail: [UInt8]?
    /// When time alone makes it eligible again (its hours, its day, its daily cap or
    /// spacing, its start); nil otherwise.
    public var eligibleAgain: Date? = nil
}
