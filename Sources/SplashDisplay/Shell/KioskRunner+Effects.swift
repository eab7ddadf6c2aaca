import FoundationEssentials
import SplashCore
import SplashServices

/// The effects the core asks for, carried out: the ledger, the cache, the network
/// process's work (answered through the mailbox), the operator view's reads, the log.
extension KioskRunner {
    /// Carries out one effect; returns the actions that report its result when the core
    /// waits for them (a show recorded or refused, what the operator view reads, the screen
    /// lit and its new size), in order.
    func perform(_ effect: KioskEffect) -> [KioskAction] {
        switch effect {
        case let .recordShow(id, date, media, picture):
            // Only a splash that reaches the screen is a show: its picture first.
            if let trouble = canvas.prepare(picture, fit: setup.options.fit) {
                return [.pictureUnusable(campaignID: id, path: picture, trouble, clock.now())]
            }
            do {
                try dependencies.ledger?.recordShow(campaignID: id, at: date, media: media)
            } catch {
                return [.showNotRecorded(campaignID: id, reason: error.explained, clock.now())]
            }
            return [.showRecorded(campaignID: id, pictureSize: canvas.imageSize(of: picture))]
        case .notePictureUsed(let path):
            if let cache = dependencies.cache, path.hasPrefix(cache.folder + "/") {
                cache.touch(key: URL(fileURLWithPath: path).lastPathComponent)
            }
        case .wakeOutbox:
            dependencies.wakeOutbox?()
        case let .endShow(id, reason, date):
            do {
                if let show = try dependencies.ledger?.endShow(campaignID: id, by: reason, at: date) { dependencies.showEnded?(show) }
            } catch {
                // The show itself is recorded; only how it ended is missing.
                log.emit(.warning(message: "cannot note how the show of \(id) ended: \(error.explained)"),
                         at: clock.uptime)
            }
        case .emit(let event):
            // Frames are a machine's business: the text log leaves them out.
            if case .frame = event, log.format != .json {} else { log.emit(event, at: clock.uptime) }
            dependencies.observe?(event, state)
        case .serviceReady:
            dependencies.notifier?.ready()
        case let .serviceScreen(dark, status):
            dependencies.notifier?.screen(dark: dark, status: status)
        case .journalScreen(let summary):
            dependencies.screenChanged?(summary, powerMeans)
        case .powerScreen(let on):
            return powerScreen(on)
        case .fetchFeed:
            let post = poster()
            dependencies.sync.start(at: clock.now().date) { result in
                post { .feedFetched(result.report, catalog: result.catalog, message: result.message, screen: result.screen, $0) }
            }
        case .reloadPoetry:
            let post = poster()
            dependencies.poetry.timeline(at: clock.now().date) { result in
                switch result {
                case .success(let timeline): post { .poetryLoaded(timeline, $0) }
                case .failure(let error): post { .poetryFailed(reason: error.explained, $0) }
                }
            }
        case .loadPoetryImage(let url):
            let post = poster()
            guard let pictures = dependencies.poetryPictures else {
                post { .poetryImageLoaded(url: url.absoluteString, path: nil, reason: nil, $0) }
                return []
            }
            pictures.load(url) { got in
                post { .poetryImageLoaded(url: url.absoluteString, path: got.path, reason: got.reason, $0) }
            }
        case let .startVideo(show, clip, blends):
            clips.start(show: show, clip: clip, blends: blends)
        case let .presentVideoFrame(show, slot):
            clips.present(show: show, slot: slot, state)
        case let .dropVideoFrame(show, slot):
            clips.drop(show: show, slot: slot)
        case .stopVideo(let poster):
            clips.stop(poster: poster)
        case .keepMediaWarm(let on):
            return clips.keepWarm(on)
        case .replaceWarmMedia:
            clips.replaceWarm()
        case .decodeAhead(let path):
            canvas.decodeAhead(path, fit: setup.options.fit)
        case .expectFirstPicture(let path):
            FirstPictureMemo(dataDir: setup.options.dataDir).write(path, kept: expectedFirstPicture)
            expectedFirstPicture = path
        case .loadOperatorInfo(let ids):
            if let info = dependencies.operatorInfo?(ids) { return [.operatorInfoLoaded(info, clock.now())] }
        case .loadCampaignShows(let id):
            if let shows = dependencies.campaignShows?(id) { return [.campaignShowsLoaded(campaignID: id, shows: shows, clock.now())] }
        case .savePoetry(let entry):
            do {
                try dependencies.poetryStore?.savePoetry(entry, at: clock.now().date)
            } catch {
                log.emit(.warning(message: "cannot keep the poem: \(error.explained)"), at: clock.uptime)
            }
        }
        return []
    }

    /// A function that hands an action to the loop from any thread and wakes it.
    func poster() -> (@escaping (Instant) -> KioskAction) -> Void {
        Self.poster(mailbox: mailbox, waiter: waiter)
    }

    /// A function that hands an action to `mailbox` from any thread and wakes the loop.
    static func poster(mailbox: Mailbox, waiter: EventWaiter) -> (@escaping (Instant) -> KioskAction) -> Void {
        return { make in
            mailbox.post(make)
            waiter.wake()
        }
    }
}
