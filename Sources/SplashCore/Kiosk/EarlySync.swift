/// A sync done before the start (a local feed never read, read for the first frame): kept
/// by the core and taken, as the sync it is, where the first sync would be asked for.
public struct EarlySync: Equatable, Sendable {
    /// What the sync found.
    public var report: SyncReport
    /// The catalog it left, the feed's message and its screen schedule.
    public var catalog: [CatalogEntry]?
    public var message: String?
    public var screen: FeedScreen?

    /// The sync that found `report` and left `catalog`, `message` and `screen`.
    public init(report: SyncReport, catalog: [CatalogEntry]?, message: String?, screen: FeedScreen?) {
        self.report = report
        self.catalog = catalog
        self.message = message
        self.screen = screen
    }
}
