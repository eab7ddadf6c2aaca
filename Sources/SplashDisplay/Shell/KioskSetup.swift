import FoundationEssentials
import SplashCore
import SplashLink
import SplashServices

/// The values a run starts from: the options, what the database held at start, the
/// script and the poems to show first. What it reaches outside itself while it runs (the
/// clock, the stores, the network process) is its `KioskDependencies`.
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
    /// The last good poem from an earlier run, shown at start.
    public var cachedPoetry: PoetryEntry?
    /// The bundled poems, the fallback when the live provider has given nothing yet.
    public var bundledPoetry: BundledPoetryProvider?
    /// The result of a sync already done before the loop started (a local feed read
    /// for the first frame): handed to the core before the start, which takes it where it
    /// would ask for the first sync.
    public var initialSync: SyncResult?
    /// Where the control socket goes (`status`, `screenshot`); nil: none.
    public var controlSocket: String?

    /// What a run starts from; the rest (a schedule, a sync done before, the control
    /// socket) is set afterwards where there is one.
    public init(options: KioskOptions, settings: KioskSettings, catalog: [CatalogEntry], message: String?,
                script: [ScriptStep], cachedPoetry: PoetryEntry? = nil, bundledPoetry: BundledPoetryProvider? = nil) {
        self.options = options
        self.settings = settings
        self.catalog = catalog
        self.message = message
        self.script = script
        self.cachedPoetry = cachedPoetry
        self.bundledPoetry = bundledPoetry
    }
}
