import FoundationEssentials
import SplashCore
import SplashLink
import SplashServices
import SplashStorage

/// What a run is given besides the window: the options and the live parts wired by the
/// command.
public struct KioskSetup {
    /// The run's options, as the command read them.
    public var options: KioskOptions
    /// The parts of the options the reducer decides with.
    public var settings: KioskSettings
    /// The campaigns in the database at start, the catalog the run begins with.
    public var catalog: [CatalogEntry]
    /// The feed's default detail text as last stored; nil for none.
    public var message: String?
    /// The feed's screen schedule as last stored; nil for none.
    public var screen: FeedScreen?
    /// The `--script` steps played during the run (none: nothing scripted).
    public var script: [ScriptStep]
    /// Where shows are recorded and ended; nil: they are not recorded.
    public var ledger: ShowLedger?
    /// Starts a background sync.
    public var sync: any FeedSyncing
    /// The image cache, to mark pictures as used when they are shown.
    public var cache: ImageCache?
    /// Where poems come from.
    public var poetry: any TimelineProvider<PoetryEntry>
    /// Fetches poem pictures; nil when poems have none.
    public var poetryPictures: (any PoetryPictureFetching)?
    /// The last good poem from an earlier run, shown at start.
    public var cachedPoetry: PoetryEntry?
    /// The bundled poems, the fallback when the live provider has given nothing yet.
    public var bundledPoetry: BundledPoetryProvider?
    /// Keeps the last good poem.
    public var poetryStore: CampaignStore?
    /// Reads what the operator view shows beyond the state (feed, cache, system), with the
    /// thumbnails of the campaigns given (the page on the screen).
    public var operatorInfo: (([Campaign.ID]) -> OperatorInfo)?
    /// Reads a campaign's last shows from the ledger, newest first.
    public var campaignShows: ((Campaign.ID) -> [ShowRecord])?
    /// The result of a sync already done before the loop started (a local feed read
    /// for the first frame): handed to the core before the start, which takes it where it
    /// would ask for the first sync.
    public var initialSync: SyncResult?
    /// Tells systemd the first frame is up, and keeps its watchdog fed from the loop.
    public var notifier: ServiceNotifier?
    /// A show has ended and is in the ledger (for the journal).
    public var showEnded: ((ShowRecord) -> Void)?
    /// The screen went on or off: what `status` says of it now, and what was done (for
    /// the journal).
    public var screenChanged: ((String, [String]) -> Void)?
    /// Tells the network process an outbox has something (`wakeOutbox`).
    public var wakeOutbox: (() -> Void)?
    /// Looks at systemd-timesyncd (whether the wall clock can be trusted); at start and at
    /// every wake. Nil: the clock is trusted as it is.
    public var timeSync: (() -> TimeSync)?
    /// Looks whether something other than this run changed the database since the last
    /// look (SQLite's `data_version`: the network process, a hand-run `splashboard sync`,
    /// `cache clear`), and if so reads the catalog, the feed's message and screen schedule
    /// as they now are; at every wake, before the core hears of it. Nil: not watched.
    public var catalogChanges: (() -> (catalog: [CatalogEntry], message: String?, screen: FeedScreen?)?)?
    /// Where the control socket goes (`status`, `screenshot`); nil: none.
    public var controlSocket: String?
    /// What `splashboard status` answers, from the state and the seconds since start.
    public var status: ((KioskState, Double) -> KioskStatus)?
    /// Every event announced, with the state after it (for the metrics file); also
    /// each distinct frame as `frame(scene:)`, whatever the log format.
    public var observe: ((KioskEvent, KioskState) -> Void)?

    /// What a run needs; the rest (the operator view's reads, systemd, the control socket…)
    /// is set afterwards where there is one.
    public init(options: KioskOptions, settings: KioskSettings, catalog: [CatalogEntry], message: String?,
                script: [ScriptStep], ledger: ShowLedger?, sync: any FeedSyncing, cache: ImageCache?,
                poetry: any TimelineProvider<PoetryEntry>, poetryPictures: (any PoetryPictureFetching)? = nil,
                cachedPoetry: PoetryEntry? = nil, bundledPoetry: BundledPoetryProvider? = nil) {
        self.poetry = poetry
        self.poetryPictures = poetryPictures
        self.cachedPoetry = cachedPoetry
        self.bundledPoetry = bundledPoetry
        self.options = options
        self.settings = settings
        self.catalog = catalog
        self.message = message
        self.script = script
        self.ledger = ledger
        self.sync = sync
        self.cache = cache
    }
}
