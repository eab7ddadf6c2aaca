import FoundationEssentials

/// Every setting of a run, after the config file and the command line are merged.
/// Defaults are those of the product specification.
public struct KioskOptions: Equatable, Sendable {
    /// The config file that was read; nil when there was none.
    public var configPath: String?
    /// The campaign feed; nil means the bundled demo feed.
    public var feed: URL?
    /// The database folder.
    public var dataDir: String
    /// The image cache folder.
    public var cacheDir: String
    /// Whether `--data-dir` was given on the command line: the commands then take the
    /// settings of the kiosk of that folder (`KioskMemo`) and check that `status` reached it.
    public var dataDirNamed = false
    /// The data folder the config file or the default gives, whatever the command line says:
    /// the device's own, which a trial on the virtual clock never writes.
    public var deviceDataDir = ""
    /// Whether `--cache-dir` was given on the command line (not only in the config file).
    public var cacheDirNamed = false
    /// The settings given on the command line or in the config file, by name: what a
    /// command does not take from the running kiosk's memo (`KioskMemo`).
    public var givenSettings: Set<String> = []
    /// Whether a virtual clock's scratch folder is kept when the run ends (`--keep-scratch`).
    public var keepScratch = false
    /// The folder of the control socket (`DefaultPaths.runtimeDir`, else the data folder); nil: none.
    public var runtimeDir: String?
    /// Seconds on the splash, 1 to 30.
    public var countdown: Int = 3
    /// How the eligible campaigns of the top priority take turns.
    public var pick: PickRule = .newest
    /// Letterbox the picture on the background colour, or crop it to cover.
    public var fit: ImageFit = .fit
    /// The letterbox colour.
    public var background: RGBColor = .black
    /// What the splash does when no campaign is eligible.
    public var fallback: FallbackMode = .image
    /// Seconds of no input on the detail screen before the splash returns; 0 = never.
    public var attractAfter: Int = 60
    /// Seconds between feed syncs, each wait spread by up to 10 % either way.
    public var syncInterval: Int = 900
    /// Seconds after which a cached picture or clip is asked for again (a conditional
    /// request) when the feed has not changed and its server set no `max-age`.
    public var revalidateAfter: Int = 3600
    /// Image cache cap in MiB.
    public var cacheMaxMB: Int = KioskOptions.defaultCacheMaxMB
    /// `cache-max-mb` when it is not given.
    public static let defaultCacheMaxMB = 256
    /// The largest campaign clip fetched, in MiB (`VideoLimits.defaultMaxMB`).
    public var videoMaxMB: Int = VideoLimits.defaultMaxMB
    /// Who this kiosk is to its fleet; nil means derived from /etc/machine-id (`DeviceIdentity`).
    public var deviceID: String?
    /// The groups this device is in (`device-groups`), which a feed's campaigns and screen
    /// schedules may target; none by default.
    public var deviceGroups: [String] = []
    /// `feed check --groups-known`: every group a fleet has; a group a feed names beyond them
    /// is a problem (a typo shows a campaign nowhere). Nil: not checked.
    public var knownGroups: [String]?
    /// Whether pictures, poems and redirects may lead inside the network (`allow-private-addresses`).
    public var privateAddresses: PrivateAddresses = .automatic
    /// The Prometheus text file to keep (node exporter's textfile collector); nil means
    /// the default: /var/lib/prometheus/node-exporter/splashboard.prom when that folder
    /// exists; `off`: none.
    public var metricsFile: String?
    /// Where every show is reported as an OTLP/HTTP JSON log record; nil: not reported.
    public var reportURL: URL?
    /// The poem source, in the jinrishici v1 shape; nil means the bundled poems.
    public var poetryURL: URL?
    /// The picture fetched for the poetry panel; nil: none (a drawn emblem).
    public var poetryImageURL: URL?
    /// Seconds between poetry panel refreshes.
    public var poetryRefresh: Int = 300
    /// A font file; nil means "ask fontconfig for a Chinese font".
    public var font: String?
    /// How far the drawing is turned clockwise, for screens mounted on their side.
    public var rotate: Rotation = .none
    /// The DRM device to draw on at the console (e.g. /dev/dri/card1); nil means the first
    /// one with a screen connected.
    public var drmDevice: String?
    /// The mode set on each console screen that lists it (`drm-mode`); nil: the one the
    /// kernel's command line asked for (`video=`), else the screen's preferred mode.
    public var drmMode: DisplayMode?
    /// The screen, by connector name, that touch devices without a `WL_OUTPUT` udev
    /// property belong to (`touch-output`); nil: the first screen.
    public var touchOutput: String?
    /// The framebuffer device drawn on when no DRM device has a screen (the firmware's
    /// framebuffer before the GPU's driver loads, an SPI panel's); nil means `/dev/fb0`.
    public var fbDevice: String?
    /// When the screen is on (`screen-hours`, `screen-days`, `screen-off-dates`); one that
    /// says nothing leaves it to the feed's `screen` object, else always on.
    public var screenSchedule = ScreenSchedule()
    /// How the screen is darkened, in order, each where the device has it (`screen-off`).
    public var screenOff: [ScreenOffMethod] = ScreenOffMethod.allCases
    /// Seconds a touch on a dark screen lights it for; 0: a touch does not (`wake-on-touch`).
    public var wakeOnTouch = 0
    /// Window or headless canvas size; nil means the display's (headless: 1280x720).
    public var size: Size?
    /// Readable lines on stderr, or JSON lines on stdout, as asked; see `effectiveLogFormat`.
    public var logFormat: LogFormat = .text
    /// No display: frames drawn in memory and shown nowhere (`--headless`).
    public var headless = false
    /// With no display at start, wait and retry (as the boot service does) instead of exiting.
    public var waitForDisplay = false
    /// The network process's socket, when one runs already (the system service's); nil
    /// means the kiosk starts its own network process.
    public var networkSocket: String?
    /// Where a PNG of every distinct screen is written (`--snapshot`); nil: nowhere.
    public var snapshotDir: String?
    /// When the run ends by itself (`--exit-after`); nil: never.
    public var exitAfter: ExitCondition?
    /// Real time, or virtual time that jumps to the next deadline (`--clock`).
    public var clock: ClockMode = .real
    /// The time taken as now (`--now`): `campaigns` judges the campaigns at it, and a run on
    /// the virtual clock starts at it; nil: the system's time.
    public var now: Date?
    /// A file of scripted input to play (`--script`); nil: none.
    public var script: String?

    /// Every setting at its default, with these folders.
    public init(dataDir: String, cacheDir: String) {
        self.dataDir = dataDir
        self.cacheDir = cacheDir
    }

    /// The size to lay out in when no display tells us one.
    public static let headlessDefaultSize = Size(width: 1280, height: 720)

    /// JSON lines are always used headless, so CI can read the events.
    public var effectiveLogFormat: LogFormat { headless ? .json : logFormat }
}
