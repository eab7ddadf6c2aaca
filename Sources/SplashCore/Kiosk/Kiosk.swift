import FoundationEssentials

/// The kiosk's rules: splash, countdown, skip, detail, attract loop, sync schedule.
public enum Kiosk {
    /// Applies `action` to `state` and returns the work the shell must do, in order.
    public static func reduce(_ state: inout KioskState, _ action: KioskAction) -> [KioskEffect] {
        let viewBefore: OperatorScene? = if case .operator = state.scene, let now = action.instant {
            operatorScene(state, now)
        } else { nil }
        var effects = reduceAction(&state, action)
        // What follows from the state, looked at after every action: the screens, and the
        // media process kept warm.
        deriveScreens(&state, operatorViewBefore: viewBefore, action.instant)
        MediaWarmRules.follow(&state, effects: &effects)
        return effects
    }

    /// The screens that show the state, made to follow it after every action, in this one
    /// place: the detail screen's panel shows the poetry state; the operator view (left
    /// open) is rebuilt when what it shows changed (the catalog, its page, what was read
    /// for it, the sync, the poem, the screen's power), compared at the same instant.
    static func deriveScreens(_ state: inout KioskState, operatorViewBefore before: OperatorScene?, _ now: Instant?) {
        PoetryRules.showOnDetail(&state)
        guard case .operator = state.scene, let before, let now else { return }
        let after = operatorScene(state, now)
        if after != before { state.scene = .operator(after) }
    }

    private static func reduceAction(_ state: inout KioskState, _ action: KioskAction) -> [KioskEffect] {
        switch action {
        case let .clockObserved(timeSync, now):
            state.timeSync = timeSync
            let trusted = ClockTrust.isTrusted(now.date, timeSync: timeSync, newestUpdatedAt: state.newestUpdatedAt)
            guard trusted != state.clockTrusted else { return [] }
            state.clockTrusted = trusted
            // A clock trusted now may put the screen in or out of its hours.
            return [.emit(trusted ? .clockTrusted : .warning(message: "the clock is not set yet (\(ISO8601.string(from: now.date))): "
                                                   + "campaigns bound to dates and hours wait for it"))]
                + updateScreen(&state, now, reason: .schedule)

        case .started(let now):
            guard !state.lifecycle.hasStarted else { return [] }
            state.lifecycle = .started
            // The sync and the poem are asked for once the first frame is up (`framePresented`):
            // they would only compete with it.
            state.sync.running = true
            state.poetry.loading = true
            let entry = state.poetry.entry
            let screen = updateScreen(&state, now, reason: .start)
            var effects: [KioskEffect] = [.emit(.poetry(source: entry.source, origin: entry.origin))] + screen
            guard state.screenPower.isOn else {
                // Started dark: no frame is coming to wait for.
                state.lifecycle = .running
                return effects + firstSync(&state, now) + [.reloadPoetry]
            }
            effects += enterSplash(&state, now)
            return effects

        case let .framePresented(kind, sinceStart, now):
            state.framesPresented += 1
            state.lastFrame = kind
            var effects: [KioskEffect] = [.emit(.frame(scene: kind))]
            if state.framesPresented == 1 {
                effects.append(.emit(.firstFrame(ms: sinceStart)))
                if !state.serviceToldReady {
                    state.serviceToldReady = true
                    effects.append(.serviceReady)
                }
                // A run that ends at its first frame starts no work it would leave behind.
                if state.lifecycle == .started, !ExitCondition.isMet(state.settings.exitAfter, by: state, at: now.uptime) {
                    state.lifecycle = .running
                    effects += firstSync(&state, now) + [.reloadPoetry]
                    // A kiosk with a schedule, or one a stopped run left dark, lights its
                    // screen by its means once it shows something: a TV left in standby wakes.
                    if state.screenPower.source != .none || state.settings.screenLeftDark {
                        effects.append(.powerScreen(on: true))
                    }
                }
            }
            // The first frame of a show is up: its impression pings may go.
            if kind == .splash, case .splash(let splash) = state.scene, let id = splash.campaignID,
               state.catalog.first(where: { $0.campaign.id == id })?.campaign.impressionURLs.isEmpty == false {
                effects.append(.wakeOutbox)
            }
            return effects

        case .showRecorded(let id, let pictureSize):
            // Record, then show: the show is announced only once the ledger holds it.
            guard case .splash(var splash) = state.scene, splash.campaignID == id, !splash.counted,
                  let index = state.catalog.firstIndex(where: { $0.campaign.id == id }) else { return [] }
            if let at = splash.startedAt { state.catalog[index].noteShow(at: at.date, uptime: at.uptime) }
            splash.counted = true
            splash.pictureSize = pictureSize
            state.scene = .splash(splash)
            let entry = state.catalog[index]
            var effects: [KioskEffect] = [
                .notePictureUsed(path: splash.imagePath),
                .emit(.splash(campaign: id, remaining: entry.remaining, image: splash.imagePath, media: splash.media)),
                .emit(.countdown(value: splash.countdown)),
            ]
            // Counted, this show makes another campaign's turn: the one a start now would show.
            if let at = splash.startedAt, let next = firstPicture(of: state, at: at) {
                effects.append(.expectFirstPicture(next))
            }
            // The show is in the ledger: its clip may start (the poster is up until its first frame).
            if var video = state.video, !video.requested {
                video.requested = true
                state.video = video
                effects.append(.notePictureUsed(path: video.clip.path))
                // An animation (still a picture) is laid over the background, as its poster is.
                effects.append(.startVideo(show: video.show, clip: video.clip, blends: splash.media == .picture))
            }
            return effects

        case .tick(let now):
            var effects: [KioskEffect] = []
            if !state.sync.running, let due = state.sync.nextAt, now.uptime >= due {
                state.sync.running = true
                effects.append(.fetchFeed)
            }
            let onDetail = if case .detail = state.scene { true } else { false }
            effects += PoetryRules.advance(&state.poetry, onScreen: onDetail, now)
            effects += updateScreen(&state, now, reason: .schedule)
            guard state.screenPower.isOn else { return effects }
            if OperatorViewRules.takeHeldCorner(&state.operatorView, now) {
                return effects + toggleOperatorView(&state, now)
            }
            return effects + VideoRules.advance(&state.video, now) + advanceScene(&state, now)

        case let .videoFrameReady(show, slot, pts, now):
            return VideoRules.frameReady(&state.video, show: show, slot: slot, pts: pts, now)

        case let .videoFrameAwaited(show, step, waited, _):
            return VideoRules.awaited(&state.video, show: show, step: step, waited: waited)

        case .mediaWarmFailed(let reason):
            // The one asked for is let go first; none is asked for again.
            let kept: [KioskEffect] = state.mediaWarmth == .kept ? [.keepMediaWarm(false)] : []
            state.mediaWarmth = .failed
            return kept + [.emit(.warning(message: "cannot start the media process ahead of a video show: \(reason); "
                                   + "each video show starts its own"))]

        case let .videoFailed(show, reason, _):
            return VideoRules.failed(&state.video, show: show, reason: reason)

        case let .poetryLoaded(timeline, now):
            return PoetryRules.loaded(&state.poetry, timeline, now)

        case let .poetryFailed(reason, now):
            return PoetryRules.failed(&state.poetry, reason, now)

        case let .poetryImageLoaded(url, path, reason, now):
            return PoetryRules.imageLoaded(&state.poetry, url: url, path: path, reason: reason, now)

        case .syncedBeforeStart(let early):
            state.earlySync = early
            return []

        case let .feedFetched(report, catalog, message, screen, now):
            return feedFetched(&state, report, catalog: catalog, message: message, screen: screen, now)

        case let .pressed(point, now):
            if let dark = screenInput(&state, now) { return dark }
            // A press in the operator corner waits: held 3 s it opens the view, let go
            // sooner it is an ordinary tap.
            let inView = if case .operator = state.scene { true } else { false }
            if OperatorGesture.corner(on: state.screen).contains(point), state.scene != .starting {
                OperatorViewRules.cornerPressed(&state.operatorView, at: point, inView: inView, now)
                return []
            }
            if inView {
                // In the view a press waits for its release: a swipe, or a tap.
                OperatorViewRules.pressed(&state.operatorView, at: point, now)
                return []
            }
            return tap(&state, at: point, now)

        case let .released(point, now):
            let (corner, from) = OperatorViewRules.released(&state.operatorView)
            // Held long in the corner: the view was toggled when the time came; nothing more.
            if let corner, now.uptime - corner >= OperatorGesture.holdSeconds { return [] }
            if case .operator = state.scene, let from { return operatorRelease(&state, from: from, to: point, now) }
            return corner != nil ? tap(&state, at: point, now) : []

        case let .keyPressed(key, now):
            if let dark = screenInput(&state, now) { return dark }
            switch state.scene {
            case _ where key == .operatorView:
                return toggleOperatorView(&state, now)
            case .splash(let splash) where [.escape, .space, .enter].contains(key):
                return leaveSplash(&state, splash, by: .key, now)
            case .detail:
                restartIdle(&state, now)
                return []
            case .operator:
                return operatorKey(&state, key, now)
            default:
                return []
            }

        case let .campaignShowsLoaded(id, shows, _):
            guard case .operator = state.scene, OperatorViewRules.showsLoaded(&state.operatorView, of: id, shows) else { return [] }
            return [.emit(.operatorCampaign(id, shows: shows))]

        case let .operatorInfoLoaded(info, _):
            OperatorViewRules.infoLoaded(&state.operatorView, info)
            return []

        case .resized(let size):
            state.screen = size
            return []

        case let .catalogLoaded(catalog, message, screen):
            CatalogRules.replace(&state.library, with: catalog, message: message)
            return takeFeedScreen(&state, screen, nil)

        case let .catalogChanged(catalog, message, screen, now):
            return catalogChanged(&state, catalog, message: message, screen: screen, now)

        case let .pictureUnusable(id, path, trouble, now):
            return pictureUnusable(&state, campaignID: id, path: path, trouble, now)

        case let .screenCommanded(command, now):
            return commandScreen(&state, command, now)

        case .screenLit(let now):
            return screenLit(&state, now)

        case let .showNotRecorded(id, reason, now):
            // Record, then show: a show that is not in the ledger is not presented. This
            // splash shows the default picture (or none); the next one tries the ledger again.
            guard case .splash(let splash) = state.scene, splash.campaignID == id else { return [] }
            let error: KioskEffect = .emit(.error(message: "cannot record a show of \(id), so it is not shown: \(reason)"))
            return [error] + enterFallbackSplash(&state, now)

        case let .imageFailed(path, reason, now):
            // Said once per picture: a detail screen redrawn each second does not repeat it.
            // A picture that fails on its splash is refused (the core chooses again); one that
            // fails elsewhere (the detail screen) is said, and the campaign keeps its turns.
            let onSplash = if case .splash(let splash) = state.scene, splash.imagePath == path { true } else { false }
            var effects: [KioskEffect] = CatalogRules.failed(&state.library, path: path, reason: reason, onSplash: onSplash)
                .map { [.emit(.error(message: $0))] } ?? []
            if case .splash(let splash) = state.scene, splash.imagePath == path, splash.campaignID != nil {
                effects += enterSplash(&state, now)
            }
            return effects
        }
    }
}
