import CSDL2
import Foundation
import SplashCore
import SplashServices

/// The imperative shell: waits for input or the next deadline, feeds actions to
/// `Kiosk.reduce`, carries out its effects, and redraws when the scene changed.
/// It never spins: between deadlines it sleeps in `EventWaiter` (`SDL_WaitEventTimeout` on
/// X11 and Wayland, `poll(2)` on its wake pipe and the input devices elsewhere).
///
/// Actions are queued and reduced one at a time, in the order they happened: an effect
/// whose result the core must know (a show recorded or refused, the operator view's
/// reads) answers with an action that waits its turn, never with a nested reduce.
///
/// Over 300 lines: the loop, the effects it carries out and its drawing of each scene
/// share the loop's state; the script player, the detail drawn ahead, the mailbox, the
/// input mapping and the control socket are types of their own, and the control socket's
/// answers are in `KioskRunner+Control.swift`.
public final class KioskRunner {
    /// What a run needs besides the window.
    public struct Setup {
        public var options: KioskOptions
        public var settings: KioskSettings
        public var catalog: [CatalogEntry]
        public var message: String?
        public var script: [ScriptStep]
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
        public var operatorInfo: (([String]) -> OperatorInfo)?
        /// Reads a campaign's last shows from the ledger, newest first.
        public var campaignShows: ((String) -> [ShowRecord])?
        /// The result of a sync already done before the loop started (a local feed read
        /// for the first frame); it stands for the first sync the loop asks for.
        public var initialSync: SyncResult?
        /// Tells systemd the first frame is up, and keeps its watchdog fed from the loop.
        public var notifier: ServiceNotifier?
        /// A show has ended and is in the ledger (for the journal).
        public var showEnded: ((ShowRecord) -> Void)?
        /// Tells the network process an outbox has something (`wakeOutbox`).
        public var wakeOutbox: (() -> Void)?
        /// Looks at systemd-timesyncd (whether the wall clock can be trusted); at start and at
        /// every wake. Nil: the clock is trusted as it is.
        public var timeSync: (() -> TimeSync)?
        /// Where the control socket goes (`status`, `screenshot`); nil: none.
        public var controlSocket: String?
        /// What `splashboard status` answers, from the state and the seconds since start.
        public var status: ((KioskState, Double) -> KioskStatus)?
        /// Every event announced, with the state after it (for the metrics file); also
        /// each distinct frame as `frame(scene:)`, whatever the log format.
        public var observe: ((KioskEvent, KioskState) -> Void)?

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

    var setup: Setup
    let canvas: Canvas
    private let fonts: FontBook
    private let log: EventLog
    let clock: RunClock
    var state: KioskState
    private var script: ScriptPlayer
    private var drawn: (scene: Scene, size: Size)?
    private var needsRedraw = false
    private var snapshotCount = 0
    var framesPresented = 0
    private var quit = false
    /// Actions waiting their turn, and whether one is being reduced (its effects carried out).
    private var queued: [KioskAction] = []
    private var isSending = false
    /// The detail screen drawn ahead while the splash is up.
    private let detailAhead = DetailAhead()
    /// Results from background work, delivered to the loop with an SDL user event.
    let mailbox = Mailbox()
    let wakeEvent: UInt32
    let waiter: EventWaiter

    public init(setup: Setup, canvas: Canvas, fonts: FontBook, log: EventLog, clock: RunClock) {
        self.setup = setup
        self.canvas = canvas
        self.fonts = fonts
        self.log = log
        self.clock = clock
        state = KioskState(settings: setup.settings, screen: canvas.layoutSize)
        state.poetry.entry = setup.cachedPoetry ?? .placeholder
        state.poetry.fallback = setup.bundledPoetry
        script = ScriptPlayer(setup.script)
        wakeEvent = SDL_RegisterEvents(1)
        if canvas.isConsole {
            // On the console: input straight from evdev, and a look at the screen's
            // connector at each rescan (unplugged, back, another mode).
            let input = EvdevInput { [canvas] in (canvas.outputSize.width, canvas.outputSize.height) }
            waiter = EventWaiter(driver: canvas.driver, console: input) { [canvas, log, clock] in
                let change = canvas.consoleChanged()
                switch change {
                case .same: return
                case .lost: log.emit(.output(nil), at: clock.uptime); return
                case .opened(let name): log.emit(.output(name), at: clock.uptime)
                }
                var event = SDL_Event()
                event.type = SDL_WINDOWEVENT.rawValue
                event.window.event = UInt8(SDL_WINDOWEVENT_SIZE_CHANGED.rawValue)
                SDL_PushEvent(&event)
            }
        } else {
            waiter = EventWaiter(driver: canvas.driver)
        }
    }

    /// Runs until `--exit-after` is met or the window is closed (SIGTERM, SIGINT).
    public func run() throws {
        let options = setup.options
        if let dir = options.snapshotDir {
            try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        }
        send(.catalogLoaded(setup.catalog, message: setup.message))
        if let look = setup.timeSync { send(.clockObserved(look(), clock.now())) }
        send(.started(clock.now()))
        var control: ControlSocket?
        if let path = setup.controlSocket {
            let (opened, note) = ControlSocket.open(at: path) { [weak self] request in
                self?.onLoop { self?.answer(request) ?? .failure(.failed("the kiosk is stopping")) }
                    ?? .failure(.failed("the kiosk did not answer within 5 s"))
            }
            control = opened
            if let note { log.emit(.warning(message: note), at: clock.uptime) }
        }
        defer { withExtendedLifetime(control) {} }

        while !quit {
            try drawIfChanged()
            if state.runIsOver(at: clock.uptime) { return }
            prepareUpcomingDetail()
            waitForSomething()
            if let look = setup.timeSync { send(.clockObserved(look(), clock.now())) }
            send(.tick(clock.now()))
        }
    }

    // MARK: the loop's parts

    /// Reduces `action` and carries out its effects, then the actions they answered with,
    /// one at a time. Called while an action is being handled, it queues `action` behind it.
    private func send(_ action: KioskAction) {
        queued.append(action)
        guard !isSending else { return }
        isSending = true
        defer { isSending = false }
        while !queued.isEmpty {
            let next = queued.removeFirst()
            for effect in Kiosk.reduce(&state, next) {
                if let answer = perform(effect) { queued.append(answer) }
            }
        }
    }

    /// Carries out one effect; returns the action that reports its result when the core
    /// waits for one (a show recorded or refused, what the operator view reads).
    private func perform(_ effect: KioskEffect) -> KioskAction? {
        switch effect {
        case let .recordShow(id, date):
            do {
                try setup.ledger?.recordShow(campaignID: id, at: date)
            } catch {
                return .showNotRecorded(campaignID: id, reason: error.localizedDescription, clock.now())
            }
            return .showRecorded(campaignID: id)
        case .notePictureUsed(let path):
            if let cache = setup.cache, path.hasPrefix(cache.folder + "/") {
                cache.touch(key: URL(fileURLWithPath: path).lastPathComponent)
            }
        case .wakeOutbox:
            setup.wakeOutbox?()
        case let .endShow(id, reason, date):
            do {
                if let show = try setup.ledger?.endShow(campaignID: id, by: reason, at: date) { setup.showEnded?(show) }
            } catch {
                // The show itself is recorded; only how it ended is missing.
                log.emit(.warning(message: "cannot note how the show of \(id) ended: \(error.localizedDescription)"),
                         at: clock.uptime)
            }
        case .emit(let event):
            // Frames are a machine's business: the text log leaves them out.
            if case .frame = event, log.format != .json {} else { log.emit(event, at: clock.uptime) }
            setup.observe?(event, state)
            if case .firstFrame = event { setup.notifier?.ready() }
        case .fetchFeed:
            let post = poster()
            if let done = setup.initialSync {
                setup.initialSync = nil
                post { .feedFetched(done.report, catalog: done.catalog, message: done.message, $0) }
                return nil
            }
            setup.sync.start(at: clock.now().date) { result in
                post { .feedFetched(result.report, catalog: result.catalog, message: result.message, $0) }
            }
        case .reloadPoetry:
            let post = poster()
            setup.poetry.timeline(at: clock.now().date) { result in
                switch result {
                case .success(let timeline): post { .poetryLoaded(timeline, $0) }
                case .failure(let error): post { .poetryFailed(reason: error.localizedDescription, $0) }
                }
            }
        case .loadPoetryImage(let url):
            let post = poster()
            guard let pictures = setup.poetryPictures else {
                post { .poetryImageLoaded(url: url.absoluteString, path: nil, $0) }
                return nil
            }
            pictures.load(url) { path, reason in
                post { .poetryImageLoaded(url: url.absoluteString, path: path, reason: reason, $0) }
            }
        case .decodeAhead(let path):
            canvas.decodeAhead(path, fit: setup.options.fit)
        case .loadOperatorInfo(let ids):
            if let info = setup.operatorInfo?(ids) { return .operatorInfoLoaded(info, clock.now()) }
        case .loadCampaignShows(let id):
            if let shows = setup.campaignShows?(id) { return .campaignShowsLoaded(campaignID: id, shows: shows, clock.now()) }
        case .savePoetry(let entry):
            do {
                try setup.poetryStore?.savePoetry(entry, at: clock.now().date)
            } catch {
                log.emit(.warning(message: "cannot keep the poem: \(error.localizedDescription)"), at: clock.uptime)
            }
        }
        return nil
    }

    /// A function that hands an action to the loop from any thread and wakes it.
    private func poster() -> (@escaping (Instant) -> KioskAction) -> Void {
        let mailbox = mailbox
        let wake = wakeEvent
        let waiter = waiter
        return { make in
            mailbox.post(make)
            var event = SDL_Event()
            event.type = wake
            SDL_PushEvent(&event)
            waiter.wake()
        }
    }

    private func drawIfChanged() throws {
        let size = canvas.layoutSize
        let distinct = drawn.map { $0.scene != state.scene || $0.size != size } ?? true
        guard distinct || needsRedraw else { return }
        if case .starting = state.scene { return }
        needsRedraw = false

        let surface = canvas.beginFrame()
        var failure: DrawFailure?
        switch state.scene {
        case .splash(let splash):
            do {
                try SplashRenderer(surface: surface, fonts: fonts)
                    .draw(splash, button: state.skipButton, fit: setup.options.fit, background: setup.options.background)
            } catch {
                failure = DrawFailure(path: splash.imagePath, reason: error.localizedDescription)
                if splash.campaignID != nil {
                    // Never present a campaign's splash without its image: the core chooses again.
                    send(.imageFailed(path: splash.imagePath, reason: error.localizedDescription, clock.now()))
                    return try drawIfChanged()
                }
            }
            canvas.releasePictures(except: [splash.imagePath])
        case .detail(let detail):
            let ahead = detailAhead.show(detail, size: size, on: canvas)
            failure = ahead.shown ? ahead.failure : drawDetail(detail, on: surface)
            canvas.releasePictures(except: Set([detail.imagePath, detail.poetry.imagePath, state.splashPictureAhead]
                .compactMap { $0 }))
        case .operator(let view):
            OperatorRenderer(surface: surface, fonts: fonts).draw(view)
            // A campaign's page keeps its picture while it is open: decoded once, not at each redraw.
            canvas.releasePictures(except: Set([view.campaignPage?.imagePath].compactMap { $0 }))
        case .starting:
            return
        }

        var snapshotPath: String?
        if distinct, let dir = setup.options.snapshotDir {
            snapshotCount += 1
            snapshotPath = dir + "/" + String(format: "%04d-%@.png", snapshotCount, sceneKind.rawValue)
        }
        try canvas.endFrame(snapshotPath: snapshotPath)
        framesPresented += 1
        drawn = (state.scene, size)
        if distinct {
            send(.framePresented(sceneKind, sinceStart: RunClock.millisecondsSinceProcessStart(), clock.now()))
        }
        // A picture that would not draw is the core's to judge (and to say once).
        if let failure { send(.imageFailed(path: failure.path, reason: failure.reason, clock.now())) }
    }

    private func drawDetail(_ detail: DetailScene, on surface: Surface) -> DrawFailure? {
        do {
            try DetailRenderer(surface: surface, fonts: fonts).draw(detail)
            return nil
        } catch {
            return DrawFailure(path: detail.imagePath ?? "", reason: error.localizedDescription)
        }
    }

    /// While a splash is up, draws the detail screen it hands over to off the screen.
    private func prepareUpcomingDetail() {
        let detail = state.upcomingDetail
        detailAhead.prepare(detail, size: canvas.layoutSize, on: canvas) { surface in
            detail.flatMap { drawDetail($0, on: surface) }
        }
    }

    /// The current screen's kind, for snapshots and `frame` events.
    private var sceneKind: Scene.Kind { state.scene.kind }

    /// The earliest moment something is due: the core's deadline (a timed run's end
    /// included) or the next scripted input.
    private var nextDeadline: Seconds? {
        [state.nextDeadline, script.nextTime].compactMap { $0 }.min()
    }

    private func waitForSomething() {
        var event = SDL_Event()
        let deadline = nextDeadline
        switch clock.mode {
        case .virtual:
            if SDL_PollEvent(&event) != 0 {
                handle(event)
            } else if state.backgroundBusy {
                // Work on another thread takes no virtual time: wait for it before jumping ahead.
                if let got = waiter.next(timeoutMs: nil) { handle(got) }
            } else if let deadline {
                clock.advance(to: deadline)
            } else if let got = waiter.next(timeoutMs: nil) {
                handle(got)
            }
        case .real:
            var ms = deadline.map { max(0, Int32(min((($0 - clock.uptime) * 1000).rounded(.up), 86_400_000))) }
            if let watchdog = setup.notifier?.watchdogInterval {
                // Wake in time to feed systemd's watchdog.
                ms = min(ms ?? Int32.max, Int32(watchdog * 1000))
            }
            if let got = waiter.next(timeoutMs: ms) { handle(got) }
            setup.notifier?.keepAlive()
        }
        while SDL_PollEvent(&event) != 0 { handle(event) }
        runDueScriptSteps()
    }

    private func handle(_ event: SDL_Event) {
        if event.type == wakeEvent {
            for make in mailbox.take() { send(make(clock.now())) }
            for task in mailbox.takeTasks() { task() }
            return
        }
        switch InputMapper.meaning(of: event, canvas: canvas) {
        case .action(let make):
            send(make(clock.now()))
        case .resized:
            if canvas.refreshOutputSize() { send(.resized(canvas.layoutSize)) }
            needsRedraw = true
        case .redraw:
            needsRedraw = true
        case .quit:
            quit = true
        case .ignored:
            break
        }
    }

    private func runDueScriptSteps() {
        for step in script.due(at: clock.uptime) {
            for action in ScriptPlayer.actions(for: step, in: state, at: clock.now()) { send(action) }
        }
    }
}
