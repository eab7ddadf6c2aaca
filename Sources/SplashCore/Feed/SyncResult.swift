/// What one finished sync leaves for the display: its report, the fresh catalog (nil when
/// the sync failed or changed nothing the display must read) and the feed's default text.
/// One done before the start (a local feed read for the first frame) is kept by the core
/// (`syncedBeforeStart`) and taken where the first sync would be asked for.
public struct SyncResult: Equatable, Sendable {
    /// How the sync went, as the network process reported it.
    public var report: SyncReport
    /// The campaigns as the database holds them after the sync; nil when it failed.
    public var catalog: [CatalogEntry]?
    /// The feed's `message`, capped as the feed's rules cap it.
    public var message: String?
    /// The feed's screen schedule (its `screen` object); nil when it has none.
    public var screen: FeedScreen?

    /// A result of these parts.
    public init(report: SyncReport, catalog: [CatalogEntry]?, message: String?, screen: FeedScreen? = nil) {
        self.report = report
        self.catalog = catalog
        self.message = message
        self.screen = screen
    }

    /// A failed sync: only its report.
    public init(failed report: SyncReport) {
        self.init(report: report, catalog: nil, message: nil)
    }
}
