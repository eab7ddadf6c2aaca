import FoundationEssentials

/// One show as the ledger keeps it and as it is reported (proof of play).
public struct ShowRecord: Equatable, Sendable {
    /// The row, for marking it reported.
    public var row: Int64
    /// A UUID of its own, so that a receiver can drop a show it already has.
    public var showID: String
    /// The campaign shown.
    public var campaignID: Campaign.ID
    /// When its first frame was presented (the ledger's write comes right before it).
    public var shownAt: Date
    /// How it ended (or that it has not yet).
    public var endedBy: ShowEnd
    /// From the first frame to its end.
    public var seconds: Double
    /// A picture, or a clip under the pill.
    public var media: MediaKind

    /// A record with these fields, as the ledger holds them.
    public init(row: Int64, showID: String, campaignID: Campaign.ID, shownAt: Date, endedBy: ShowEnd, seconds: Double,
                media: MediaKind = .picture) {
        self.media = media
        self.row = row
        self.showID = showID
        self.campaignID = campaignID
        self.shownAt = shownAt
        self.endedBy = endedBy
        self.seconds = seconds
    }
}
