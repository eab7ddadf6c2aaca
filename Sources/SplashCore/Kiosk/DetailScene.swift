/// The detail screen: the campaign that was just on the splash, and the poetry panel.
public struct DetailScene: Equatable, Sendable {
    /// The campaign shown; nil after the bundled default splash.
    public var campaignID: Campaign.ID?
    /// The campaign's title; nil for none.
    public var title: String?
    /// The text shown: the campaign's detail, else the feed's message, else the default one.
    public var text: String
    /// The picture shown: the campaign's cached image, or the default image when there is
    /// no campaign; nil for none.
    public var imagePath: String?
    /// What the poetry panel shows.
    public var poetry: PoetryEntry
    /// The spinner's step while the poem's picture loads; nil when it does not turn.
    public var spinnerPhase: Int?
    /// The campaign's `linkUrl`, shown as a QR code; nil for none.
    public var linkURL: String? = nil
    /// The campaign's `linkLabel`: the code's caption in the feed's words; nil for the link's host.
    public var linkLabel: String? = nil
    /// The point of the picture a crop keeps in view (the campaign's `focus`).
    public var focus: FocusPoint = .centre

    public init(campaignID: Campaign.ID?, title: String?, text: String, imagePath: String?, poetry: PoetryEntry, spinnerPhase: Int?,
                linkURL: String? = nil, linkLabel: String? = nil, focus: FocusPoint = .centre) {
        (self.campaignID, self.title, self.text, self.imagePath) = (campaignID, title, text, imagePath)
        (self.poetry, self.spinnerPhase, self.linkURL, self.linkLabel, self.focus) = (poetry, spinnerPhase, linkURL, linkLabel, focus)
    }
}
