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
