import FoundationEssentials

/// Where shows are recorded. `recordShow` must be durable when it returns: the frame
/// that shows the campaign is presented only after it.
public protocol ShowLedger: AnyObject {
    func recordShow(campaignID: Campaign.ID, at date: Date, media: MediaKind) throws
    /// Notes how the campaign's open show ended; returns it, or nil when none was open.
    @discardableResult
    func endShow(campaignID: Campaign.ID, by reason: SkipReason, at date: Date) throws -> ShowRecord?
}
