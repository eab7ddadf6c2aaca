import FoundationEssentials
import SplashCore
import SplashLink
import SplashServices
import SplashStorage

/// Everything a run reaches outside itself, as the one client the loop is given: the
/// clock it reads time from, the stores it writes shows to and reads from, the network
/// process's services, the service manager, and who hears of what happened. The values a
/// run starts from are its `KioskSetup`; a test hands the loop other parts here (a
/// virtual clock, a sync that answers at once, a ledger in a temporary folder).
public struct KioskDependencies {
    /// The run's clock: real (monotonic time, the loop sleeps) or virtual (time stands still
    /// until the loop jumps it to the next deadline).
    public var clock: RunClock

    // The stores.

    /// Where shows are recorded and ended; nil: they are not recorded.
    public var ledger: ShowLedger?
    /// The image cache, to mark pictures as used when they are shown.
    public var cache: ImageCache?
    /// Keeps the last good poem.
    public var poetryStore: CampaignStore?
    /// Reads what the operator view shows beyond the state (feed, cache, system), with the
    /// thumbnails of the campaigns given (the page on the screen).
    public var operatorInfo: (([Campaign.ID]) -> OperatorInfo)?
    /// Reads a campaign's last shows from the ledger, newest first.
    public var campaignShows: ((Campaign.ID) -> [ShowRecord])?
    /// Looks whether something other than this run changed the database since the last
    /// look (SQLite's `data_version`: the network process, a hand-run `splashboard sync`,
    /// `cache clear`), and if so reads the catalog, the feed's message and screen schedule
    /// as they now are; at every wake, before the core hears of it. Nil: not watched.
    public var catalogChanges: (() -> (catalog: [CatalogEntry], message: String?, screen: FeedScreen?)?)?

    // The network process's services.

    /// Starts a background sync.
    public var sync: any FeedSyncing
    /// Where poems come from.
    public var poetry: any TimelineProvider<PoetryEntry>
    /// Fetches poem pictures; nil when poems have none.
    public var poetryPictures: (any PoetryPictureFetching)?
    /// Tells the network process an outbox has something (`wakeOutbox`).
    public var wakeOutbox: (() -> Void)?

    // The system.

    /// Tells systemd the first frame is up, and keeps its watchdog fed from the loop.
    public var notifier: ServiceNotifier?
    /// Looks at systemd-timesyncd (whether the wall clock can be trusted); at start and at
    /// every wake. Nil: the clock is trusted as it is.
    public var timeSync: (() -> TimeSync)?

    // Who hears of the run.

    /// A show has ended and is in the ledger (for the journal).
    public var showEnded: ((ShowRecord) -> Void)?
    /// The screen went on or off: what `status` says of it now, and what was done (for
    /// the journal).
    public var screenChanged: ((String, [String]) -> Void)?
    /// What `splashboard status` answers, from the state and the seconds since start.
    public var status: ((KioskState, Double) -> KioskStatus)?
    /// Every event announced, with the state after it (for the metrics file); also
    /// each distinct frame as `frame(scene:)`, whatever the log format.
    public var observe: ((KioskEvent, KioskState) -> Void)?

    /// What every run reaches: its clock, a sync and poems; the rest is set where there is one.
    public init(clock: RunClock, sync: any FeedSyncing, poetry: any TimelineProvider<PoetryEntry>,
                ledger: ShowLedger? = nil, cache: ImageCache? = nil) {
        self.clock = clock
        self.sync = sync
        self.poetry = poetry
        self.ledger = ledger
        self.cache = cache
    }
}
