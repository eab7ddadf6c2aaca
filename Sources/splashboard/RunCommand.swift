import Glibc
import FoundationEssentials
import SplashCore
import SplashDisplay
import SplashLink
import SplashServices
import SplashStorage

/// The kiosk: opens the device's store and cache, the display and the fonts, then runs
/// the loop. The first frame comes from what is stored; the sync runs in the background.
struct RunCommand {
    let options: KioskOptions
    let environment: [String: String]
    /// Added to the network process's command line (the folders of a virtual run's scratch).
    var networkArguments: [String] = []

    func run() -> Never {
        var script: [ScriptStep] = []
        if let path = options.script {
            do {
                guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
                    throw OptionError(source: "--script", problem: "cannot read \(path)")
                }
                script = try ScriptStep.parse(text, path: path)
            } catch {
                fail(error.explained, status: 2)
            }
        }
        guard let assets = Assets.locate(environment: environment) else {
            fail("cannot find the bundled assets (default-splash.jpg); set SPLASHBOARD_ASSETS to their folder", status: 1)
        }

        let log = EventLog(format: options.effectiveLogFormat)
        let clock = RunClock(mode: options.clock, startDate: options.now ?? Date())
        let notifier = ServiceNotifier(environment: environment)
        // On the console the screen is opened first, so that the first picture can be
        // composed straight into the buffer it is shown from; a window opens after the
        // database is read (SDL's start overlaps the first picture's decode).
        let output = Canvas.Output.automatic(headless: options.headless, drmDevice: options.drmDevice, environment: environment)
        let console: Screens? = if case .console = output { openScreens(log: log, clock: clock, notifier: notifier) } else { nil }

        // The picture the last run expected to show first is composed into a frame on
        // another thread while the database is read, at the console screen's size, or
        // headless the size of last time (or of --size).
        let screenMemo = ScreenMemo(dataDir: options.dataDir)
        let keptScreen = screenMemo.read()
        let expectedScreen = console?.first.layoutSize ?? options.size.map { options.rotate.logicalSize(for: $0) } ?? keptScreen
        let pictureMemo = FirstPictureMemo(dataDir: options.dataDir)
        // Only what a first splash can show: a cached picture, or the bundled default one.
        let expectedPicture = pictureMemo.read { ImageCache.holds($0, in: options.cacheDir) || $0 == assets.defaultSplash }
        // Only where frames are drawn in memory (the console, headless): a window draws on
        // its own framebuffer.
        let composed: ComposedPicture? = if let expectedPicture, let console {
            console.first.composeFirst(expectedPicture, fit: options.fit, background: options.background)
        } else if let expectedPicture, let expectedScreen, options.rotate == .none, options.headless {
            ComposedPicture(path: expectedPicture, screen: expectedScreen, fit: options.fit, background: options.background)
        } else {
            nil
        }
        // One that cannot be composed (another size than a DCT scale gives, a PNG, a window)
        // still starts decoding now, as the first picture would after the catalog.
        let early: PendingPicture? = if composed == nil, let expectedPicture {
            PendingPicture(path: expectedPicture, scale: ScreenMemo.scale(of: expectedPicture, on: expectedScreen, fit: options.fit))
        } else {
            nil
        }

        let fonts: FontBook
        do {
            fonts = try FontBook.located(font: options.font, memo: FontLocator.memo(in: options.dataDir))
        } catch {
            fail(error.explained, status: 1)
        }

        // The pill's label is drawn ahead, at its size on the screen of last time, while
        // the database is read: the face's tables and the digits' glyphs are ready for the
        // first frame.
        if let expectedScreen {
            fonts.warmUp(SkipButton.label(1234567890), size: SkipButton(screen: expectedScreen).fontSize)
        }
        let device: DeviceStorage
        do {
            device = try DeviceStorage(options: options, assets: assets, orInMemory: true)
        } catch {
            fail(error.explained, status: 1)
        }
        // Shows a stop, a kill or a power cut left open end as `interrupted`, before any new one.
        let interrupted = (try? device.store.markInterruptedShows()) ?? 0
        // Everything from the network comes through the network process: the one started
        // here, or the service's when --network-socket names it.
        let (link, linkNote) = networkLink()
        let sync = LinkedSync(link: link, feed: device.feed, dataDir: options.dataDir, cacheDir: options.cacheDir)
        // A local feed never read is read now (`SyncSchedule.readsBeforeFirstFrame`); no more
        // than a few seconds are spent.
        let lastSuccess = (try? device.store.feedState(for: device.feed))?.lastSuccess
        let initialSync = SyncSchedule.readsBeforeFirstFrame(device.feed, lastSuccess: lastSuccess)
            ? sync.syncNow(at: clock.now().date, timeout: SyncSchedule.firstReadTimeout) : nil
        let catalog: [CatalogEntry]
        do {
            catalog = try device.store.catalog(cache: device.cache)
        } catch {
            fail(error.explained, status: 1)
        }
        let feedState = try? device.store.feedState(for: device.feed)
        let message = feedState?.message

        // Each kiosk spreads its syncs its own way; a virtual run stays the same every time.
        var settings = KioskSettings(options: options, defaultImage: assets.defaultSplash, timeZone: Zone.current,
                                     screenLeftDark: !options.headless && ScreenSwitch.leftDark(dataDir: options.dataDir),
                                     syncSeed: options.clock == .virtual ? 1 : UInt64.random(in: 1 ... .max))
        settings.device = DeviceGroups(names: options.deviceGroups, deviceID: device.deviceID)
        settings.defaultPictureSize = FileManager.default.contents(atPath: assets.defaultSplash)
            .flatMap { try? ImageHeader.parse(Array($0)) }.map { Size(width: $0.width, height: $0.height) }
        // The first splash's picture, unless composed or decoding ahead, decodes on another thread
        // while the output opens, at the size it will be drawn on the screen of last time.
        let lookAtTimeSync = { DeviceRules.timeSync(environment: environment) }
        let firstPath = Kiosk.firstPicture(settings: settings, catalog: catalog, message: message, screen: feedState?.screen,
                                           timeSync: lookAtTimeSync(), at: clock.now())
        let firstComposed = composed.flatMap { $0.path == firstPath ? $0 : nil }
        let firstPicture = firstPath.flatMap { path in
            firstComposed != nil ? nil : early.flatMap { $0.path == path ? $0 : nil }
                ?? PendingPicture(path: path, scale: ScreenMemo.scale(of: path, on: expectedScreen, fit: options.fit))
        }
        pictureMemo.write(firstPath, kept: expectedPicture)

        let screens = console ?? openScreens(log: log, clock: clock, notifier: notifier)
        let canvas = screens.first
        if let firstPicture { canvas.handOver(firstPicture) }
        // Handed over even when it is not the first picture: the canvas lets a decode into
        // the screen's own buffer finish before it shows anything, and drops it after.
        if let composed { canvas.handOver(composed) }

        log.emit(.started(version: Version.current, driver: canvas.driver, renderer: canvas.rendererName,
                          size: canvas.outputSize, outputs: screens.names), at: clock.uptime)
        if let linkNote { log.emit(.warning(message: linkNote), at: clock.uptime) }
        // The self-check: a folder the kiosk cannot write is said once, at start, in one line.
        for problem in device.writeProblems { log.emit(.error(message: problem), at: clock.uptime) }
        let desktop = DesktopCheck.warning(driver: canvas.driver)
        if let desktop { log.emit(.warning(message: desktop), at: clock.uptime) }
        if interrupted > 0 {
            log.emit(.warning(message: "\(Plural.count(interrupted, "show")) of the last run never ended (it stopped during them): "
                                 + "recorded as interrupted"), at: clock.uptime)
        }
        screenMemo.write(canvas.layoutSize, kept: keptScreen)
        // For the commands given this data folder: the feed, cache and groups this kiosk sees.
        KioskMemo(dataDir: options.dataDir).write(options)

        // Poems: the live provider when a URL is set, the bundled ones otherwise (and as its fallback).
        var bundled: BundledPoetryProvider?
        do {
            let poems = try Poem.decodeList(Data(contentsOf: URL(fileURLWithPath: assets.poems)))
            bundled = BundledPoetryProvider(poems: poems, refresh: Double(options.poetryRefresh))
        } catch {
            log.emit(.warning(message: "bundled poems \(assets.poems): \(error.explained)"), at: clock.uptime)
        }
        let poetry: any TimelineProvider<PoetryEntry>
        var cachedPoetry: PoetryEntry?
        if options.poetryURL != nil {
            poetry = LinkedPoetry(link: link, imageURL: options.poetryImageURL, refresh: Double(options.poetryRefresh))
            cachedPoetry = try? device.store.loadPoetry(imageURL: options.poetryImageURL)
            // The kept poem's picture is taken only from the image cache, as a fresh one is.
            if let path = cachedPoetry?.imagePath, !device.cache.holds(path) { cachedPoetry?.imagePath = nil }
            cachedPoetry = cachedPoetry.map(PoetryEntry.capped)
        } else {
            poetry = bundled ?? BundledPoetryProvider(poems: [], refresh: Double(options.poetryRefresh))
        }
        let pictures = options.poetryImageURL.map { _ in LinkedPoetryPictures(link: link, cache: device.cache) }
        var setup = KioskSetup(options: options, settings: settings, catalog: catalog, message: message, script: script,
                               cachedPoetry: cachedPoetry, bundledPoetry: bundled)
        setup.screen = feedState?.screen
        var dependencies = KioskDependencies(clock: clock, sync: sync, poetry: poetry, ledger: device.store, cache: device.cache)
        dependencies.poetryPictures = pictures
        dependencies.poetryStore = device.store
        dependencies.timeSync = lookAtTimeSync
        // The kiosk follows its database: a sync run by hand, `cache clear` or its own network
        // process's sync is taken before the next splash.
        let watch = CatalogWatch(store: device.store)
        dependencies.catalogChanges = {
            guard watch.changed(), let catalog = try? device.store.catalog(cache: device.cache) else { return nil }
            let feed = try? device.store.feedState(for: device.feed)
            return (catalog, feed?.message, feed?.screen)
        }
        dependencies.notifier = notifier
        // A first read that brought a catalog stands for the first sync (the core takes it where it would ask for one).
        setup.initialSync = initialSync.flatMap { $0.catalog == nil ? nil : SyncResult(report: $0.report, catalog: $0.catalog,
                                                                                       message: message, screen: $0.screen) }
        dependencies.operatorInfo = { [options] ids in
            let feed = try? device.store.feedState(for: device.feed)
            var info = OperatorInfo(
                thumbnails: (try? device.store.thumbnails(ofCampaigns: ids)) ?? [:],
                feedURL: device.feed.publicAddress, lastSuccess: feed?.lastConfirmed, lastError: feed?.lastError,
                cacheBytes: device.cache.usage(), cacheCapBytes: options.cacheMaxMB << 20, version: Version.current,
                driver: canvas.driver, renderer: canvas.rendererName, screen: canvas.outputSize.description,
                deviceID: device.deviceID, lastChange: feed?.lastChange, warnings: feed?.warnings ?? [],
                problems: device.writeProblems + (desktop.map { [$0] } ?? []))
            info.groups = options.deviceGroups
            return info
        }
        dependencies.campaignShows = { id in
            (try? device.store.lastShows(of: id, limit: OperatorCampaignPage.showsListed)) ?? []
        }
        let metrics = wireFleet(&setup, &dependencies, device: device, link: link, screens: screens, log: log)
        let runner = KioskRunner(setup: setup, dependencies: dependencies, screens: screens, fonts: fonts, log: log)
        runner.expectedFirstPicture = firstPath
        do {
            try runner.run()
        } catch {
            metrics?.flush()
            fail(error.explained, status: 1)
        }
        metrics?.flush()
        exit(0)
    }

    /// The line to the network process, and a note for the log when its program is missing
    /// (every sync then fails with that reason, and the screen shows what is stored).
    private func networkLink() -> (NetworkLink, String?) {
        if let socket = options.networkSocket { return (NetworkLink(endpoint: .socket(socket)), nil) }
        var arguments = Array(CommandLine.arguments.dropFirst())
        if arguments.first == "run" { arguments.removeFirst() }
        arguments += networkArguments
        do {
            let program = try NetworkLink.locateProgram(environment: environment)
            return (NetworkLink(endpoint: .spawn(executable: program, arguments: ["serve"] + arguments)), nil)
        } catch {
            let first = NetworkLink.programCandidates(environment: environment)[0]
            return (NetworkLink(endpoint: .spawn(executable: first, arguments: ["serve"] + arguments)),
                    "\(error.explained); the screen shows what is stored")
        }
    }

    /// Opens the window. With no display: exit 2 suggesting --headless, or — with
    /// --wait-for-display, as the boot service runs — say so once and retry until one
    /// appears, as often as `DisplayWait` says.
    private func openScreens(log: EventLog, clock: RunClock, notifier: ServiceNotifier) -> Screens {
        var tries = 0
        var announced = false
        while true {
            do {
                switch Canvas.Output.automatic(headless: options.headless, drmDevice: options.drmDevice,
                                               environment: environment) {
                case .console(let device):
                    return try Screens(console: ConsoleRequest(drm: device, framebuffer: options.fbDevice, mode: options.drmMode),
                                       rotation: options.rotate)
                case .window:
                    return Screens(window: try Canvas(headless: options.headless, size: options.size, rotation: options.rotate))
                }
            } catch DisplayError.noDisplay(let reason) {
                guard options.waitForDisplay else {
                    fail(DisplayError.noDisplay(reason).explained, status: 2)
                }
                if !announced {
                    fputs("splashboard: no display yet (\(reason)); waiting for one\n", stderr)
                    notifier.status("waiting for a display")
                    announced = true
                }
                notifier.keepAlive()
                tries += 1
                usleep(UInt32(DisplayWait.delay(afterLooks: tries) * 1_000_000))
            } catch {
                fail(error.explained, status: 1)
            }
        }
    }
}
