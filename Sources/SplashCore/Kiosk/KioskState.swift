import FoundationEssentials

/// Everything the kiosk knows, as a value. The display draws it; `Kiosk.reduce` changes it.
public struct KioskState: Equatable, Sendable {
    /// The parts of the options the reducer decides with.
    public var settings: KioskSettings
    /// The layout size (after rotation).
    public var screen: Size
    /// The campaigns this device knows and what came with them (`CatalogRules`).
    public var library = CatalogState()
    /// The campaigns this device knows, with their shows and pictures.
    public var catalog: [CatalogEntry] {
        get { library.entries }
        set { library.entries = newValue }
    }
    /// Whether the wall clock can be trusted (`clockObserved`, `ClockTrust`).
    public var clockTrusted = true
    /// What was last seen of timesyncd.
    public var timeSync: TimeSync = .absent
    /// The latest `updatedAt` seen in a catalog: a wall clock before it is not trusted.
    public var newestUpdatedAt: Date? { library.newestUpdatedAt }
    /// The feed's default detail text.
    public var feedMessage: String? { library.feedMessage }
    /// The poetry panel's timeline: its entry, those to come and its picture loading.
    public var poetry: PoetryState
    /// The operator view: its page, the campaign open, the gesture that opens it.
    public var operatorView = OperatorViewState()
    /// The screen on display.
    public var scene: Scene = .starting
    /// Last input on the detail screen, for the attract loop.
    public var idleSince: Seconds = 0
    /// The attract loop's look ahead at its next splash.
    public var splashLookAhead: SplashLookAhead = .notYet
    /// The picture of the splash the attract loop shows next, once it is decoding ahead
    /// (the display keeps it with the detail screen's pictures); nil otherwise.
    public var splashPictureAhead: String? { splashLookAhead.picture }
    /// How many splashes have ended (`--exit-after splash`).
    public var splashesEnded = 0
    /// How many frames of a new screen have been presented (`framePresented`).
    public var framesPresented = 0
    /// The kind of screen last presented; nil before the first frame.
    public var lastFrame: Scene.Kind?
    /// Pictures that failed to decode and were said so (each is said once).
    public var failedImages: Set<String> { library.failedImages }
    /// When the feed is synced next, and whether a sync is in flight.
    public var sync: SyncSchedule
    /// Whether the screen is lit, why and until when (`screen-hours`, the feed's `screen`,
    /// `splashboard screen`, `wake-on-touch`).
    public var screenPower = ScreenPower()
    /// Where the run is: not started, started (the first sync and poem wait for the first
    /// frame), or running with them asked for.
    public var lifecycle: Lifecycle = .notStarted
    /// The kiosk has started (`started`).
    public var hasStarted: Bool { lifecycle.hasStarted }
    /// A sync done before the start, waiting to stand for the first sync.
    public var earlySync: SyncResult?
    /// Whether the service manager was told the kiosk is up (`serviceReady`).
    public var serviceToldReady = false
    /// Whether the shell keeps a media process ready for the next video show, or none could
    /// be started (`MediaWarmRules`).
    public var mediaWarmth: MediaWarmth = .cold
    /// A media process is kept ready for the next video show.
    public var mediaWarm: Bool { mediaWarmth == .kept }
    /// The clip playing under the pill, while a video splash is up and its clip plays.
    public var video: VideoPlayback?
    /// Video shows so far (each playback's number).
    public var videoShows = 0

    /// The detail screen the splash on screen hands over to, however it ends (a tap, a key,
    /// the countdown, a click-through), as things stand now; nil on other screens. The
    /// display can draw it ahead so that the hand-over takes one copy.
    public var upcomingDetail: DetailScene? {
        guard case .splash(let splash) = scene else { return nil }
        return Kiosk.detailScene(for: splash.campaignID, in: self)
    }

    /// A kiosk with nothing on screen yet, run by `settings` on a layout of size `screen`.
    public init(settings: KioskSettings, screen: Size) {
        self.settings = settings
        self.screen = screen
        sync = SyncSchedule(interval: Double(settings.syncInterval), seed: settings.syncSeed)
        poetry = PoetryState(refresh: Double(settings.poetryRefresh))
        screenPower.configSchedule = settings.screenSchedule
    }

    /// What eligibility depends on at `now` besides the catalog.
    public func ruleContext(_ now: Instant) -> RuleContext {
        RuleContext(clockTrusted: clockTrusted, uptime: now.uptime, deviceTimeZone: settings.timeZone, pick: settings.pick,
                    device: settings.device)
    }

    /// Work is on its way from another thread (a sync, a poem, a picture).
    public var backgroundBusy: Bool { sync.running || !poetry.settled }

    /// The pill's geometry on the current screen.
    public var skipButton: SkipButton { skipButton(on: screen) }

    /// The pill's geometry on a screen of `size` (each screen of a kiosk with several lays
    /// the splash out for its own size): one place on every splash, which pictures make
    /// room for.
    public func skipButton(on size: Size) -> SkipButton {
        SkipButton(screen: size)
    }

    /// The next moment the screen changes by itself (countdown tick, attract loop).
    public var sceneDeadline: Seconds? {
        switch scene {
        case .starting: return nil
        case .splash(let splash): return splash.nextTickAt
        case .detail:
            return settings.attractAfter > 0 ? idleSince + Double(settings.attractAfter) : nil
        case .operator:
            return OperatorViewRules.idleEnds(operatorView)
        }
    }

    /// When the attract loop's next splash picture starts decoding ahead: a little before
    /// the splash, on the detail screen, once.
    public var decodeAheadAt: Seconds? {
        guard case .detail = scene, splashLookAhead == .notYet, let deadline = sceneDeadline else { return nil }
        return deadline - Kiosk.decodeAheadSeconds
    }

    /// The next moment the state changes by itself, or a timed run ends; the loop sleeps
    /// until then.
    public var nextDeadline: Seconds? {
        let syncAt = sync.running ? nil : sync.nextAt
        var runEnds: Seconds?
        if case .seconds(let s) = settings.exitAfter { runEnds = s }
        // Dark: nothing on the screen moves, and the poem waits until there is a screen to
        // show it on; only the sync and the schedule's next change wake the loop.
        guard screenPower.isOn else {
            return [syncAt, screenPower.checkAt, runEnds].compactMap { $0 }.min()
        }
        let onScreen = if case .detail = scene { true } else { false }
        let holdEnds = operatorView.cornerPressAt.map { $0 + OperatorGesture.holdSeconds }
        return [sceneDeadline, decodeAheadAt, syncAt, poetry.nextDeadline(onScreen: onScreen), holdEnds, runEnds,
                screenPower.checkAt, video?.nextFrameAt, video?.hangsAt]
            .compactMap { $0 }.min()
    }

    /// The run is over by its `--exit-after` at `uptime`.
    public func runIsOver(at uptime: Seconds) -> Bool {
        ExitCondition.isMet(settings.exitAfter, by: self, at: uptime)
    }
}
