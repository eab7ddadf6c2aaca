import Foundation

/// The kiosk's rules: splash, countdown, skip, detail, attract loop, sync schedule.
public enum Kiosk {
    /// Applies `action` to `state` and returns the work the shell must do, in order.
    public static func reduce(_ state: inout KioskState, _ action: KioskAction) -> [KioskEffect] {
        switch action {
        case let .clockObserved(timeSync, now):
            state.timeSync = timeSync
            let trusted = ClockTrust.isTrusted(now.date, timeSync: timeSync, newestUpdatedAt: state.newestUpdatedAt)
            guard trusted != state.clockTrusted else { return [] }
            state.clockTrusted = trusted
            return [.emit(trusted ? .clockTrusted : .warning(message: "the clock is not set yet (\(ISO8601.string(from: now.date))): "
                                                   + "campaigns bound to dates and hours wait for it"))]

        case .started(let now):
            guard state.scene == .starting else { return [] }
            state.sync.running = true
            state.poetry.loading = true
            let entry = state.poetry.entry
            return [.fetchFeed, .reloadPoetry, .emit(.poetry(source: entry.source, origin: entry.origin))]
                + enterSplash(&state, now)

        case .tick(let now):
            var effects: [KioskEffect] = []
            if !state.sync.running, let due = state.sync.nextAt, now.uptime >= due {
                state.sync.running = true
                effects.append(.fetchFeed)
            }
            effects += PoetryRules.advance(&state, now)
            if let start = state.cornerPressAt, now.uptime >= start + OperatorGesture.holdSeconds {
                state.cornerPressAt = nil
                return effects + toggleOperatorView(&state, by: .tap, now)
            }
            return effects + advanceScene(&state, now)

        case let .poetryLoaded(timeline, now):
            return PoetryRules.loaded(&state, timeline, now)

        case let .poetryFailed(reason, now):
            return PoetryRules.failed(&state, reason, now)

        case let .poetryImageLoaded(url, path, reason, now):
            return PoetryRules.imageLoaded(&state, url: url, path: path, reason: reason, now)

        case let .feedFetched(report, catalog, message, now):
            state.sync.finished(report.status, at: now.uptime)
            if let catalog {
                replaceCatalog(&state, with: catalog, message: message)
            }
            if case .operator = state.scene { state.scene = .operator(operatorScene(state, now)) }
            var effects: [KioskEffect] = report.warnings.map { .emit(.warning(message: $0)) }
            effects += report.pictureErrors.map { .emit(.error(message: $0)) }
            if let error = report.error { effects.append(.emit(.error(message: error))) }
            effects.append(.emit(.sync(status: report.status, campaigns: report.campaigns, error: report.error,
                                       ms: report.milliseconds, reason: report.failure)))
            return effects

        case let .pressed(point, now):
            // A press in the operator corner waits: held 3 s it opens the view, let go
            // sooner it is an ordinary tap.
            if OperatorGesture.corner(on: state.screen).contains(point), state.scene != .starting {
                state.cornerPressAt = now.uptime
                state.operatorIdleSince = now.uptime
                if case .operator = state.scene { state.operatorPress = point }
                return []
            }
            if case .operator = state.scene {
                // In the view a press waits for its release: a swipe, or a tap.
                state.operatorPress = point
                state.operatorIdleSince = now.uptime
                return []
            }
            return tap(&state, at: point, now)

        case let .released(point, now):
            let corner = state.cornerPressAt
            let from = state.operatorPress
            state.cornerPressAt = nil
            state.operatorPress = nil
            // Held long in the corner: the view was toggled when the time came; nothing more.
            if let corner, now.uptime - corner >= OperatorGesture.holdSeconds { return [] }
            if case .operator = state.scene, let from { return operatorRelease(&state, from: from, to: point, now) }
            return corner != nil ? tap(&state, at: point, now) : []

        case let .keyPressed(key, now):
            switch state.scene {
            case _ where key == .operatorView:
                return toggleOperatorView(&state, by: .key, now)
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

        case let .campaignShowsLoaded(id, shows, now):
            guard state.operatorCampaign == id, case .operator = state.scene else { return [] }
            state.operatorShows = shows
            state.scene = .operator(operatorScene(state, now))
            return [.emit(.operatorCampaign(id, shows: shows))]

        case let .operatorInfoLoaded(info, now):
            state.operatorInfo = info
            if case .operator = state.scene { state.scene = .operator(operatorScene(state, now)) }
            return []

        case .resized(let size):
            state.screen = size
            return []

        case let .catalogLoaded(catalog, message):
            replaceCatalog(&state, with: catalog, message: message)
            return []

        case let .showNotRecorded(id, reason, now):
            // Record, then show: a show that is not in the ledger is not presented. This
            // splash shows the default picture (or none); the next one tries the ledger again.
            guard case .splash(let splash) = state.scene, splash.campaignID == id else { return [] }
            if let i = state.catalog.firstIndex(where: { $0.campaign.id == id }) {
                state.catalog[i].shows -= 1
            }
            let error: KioskEffect = .emit(.error(message: "cannot record a show of \(id), so it is not shown: \(reason)"))
            return [error] + enterSplash(&state, now, campaigns: false)

        case let .imageFailed(path, reason, now):
            var effects: [KioskEffect] = [.emit(.error(message: "cannot show image \(path): \(reason)"))]
            for i in state.catalog.indices where state.catalog[i].imagePath == path {
                state.catalog[i].imageProblem = reason
            }
            if case .splash(let splash) = state.scene, splash.imagePath == path, splash.campaignID != nil {
                effects += enterSplash(&state, now)
            }
            return effects
        }
    }

    /// Takes a catalog read elsewhere (a sync on another thread). Its show counts may
    /// predate shows this loop has recorded since, so a count never goes down: the ledger
    /// only grows, and the larger number is the newer one.
    static func replaceCatalog(_ state: inout KioskState, with catalog: [CatalogEntry], message: String?) {
        let known = Dictionary(state.catalog.map { ($0.campaign.id, $0) }, uniquingKeysWith: { a, b in a.shows >= b.shows ? a : b })
        state.catalog = catalog.map { entry in
            var entry = entry
            // A catalog read on another thread may be older than the shows recorded since:
            // counts and recent shows are never lowered, and the run's monotonic time is kept.
            guard let old = known[entry.campaign.id] else { return entry }
            if old.shows > entry.shows {
                entry.shows = old.shows
                entry.recentShows = old.recentShows
                entry.lastShownAt = old.lastShownAt
            }
            entry.lastShownUptime = old.lastShownUptime
            return entry
        }
        state.message = message
        if let newest = catalog.compactMap(\.campaign.updatedAt).max() {
            state.newestUpdatedAt = max(state.newestUpdatedAt ?? newest, newest)
        }
    }

    /// Moves the countdown or the attract loop along to `now`.
    static func advanceScene(_ state: inout KioskState, _ now: Instant) -> [KioskEffect] {
        switch state.scene {
        case .splash(var splash):
            guard now.uptime >= splash.nextTickAt else { return [] }
            // After a late wake-up only the number that will be drawn is announced.
            while now.uptime >= splash.nextTickAt {
                splash.countdown -= 1
                splash.nextTickAt += 1
                if splash.countdown <= 0 {
                    return leaveSplash(&state, splash, by: .timeout, now)
                }
            }
            state.scene = .splash(splash)
            return [.emit(.countdown(value: splash.countdown))]
        case .detail:
            if let deadline = state.sceneDeadline, now.uptime >= deadline {
                state.splashPictureAhead = nil
                return enterSplash(&state, now)
            }
            if let at = state.decodeAheadAt, now.uptime >= at, let path = firstPicture(of: state, at: now) {
                state.splashPictureAhead = path
                return [.decodeAhead(path: path)]
            }
            return []
        case .operator:
            if now.uptime >= state.operatorIdleSince + OperatorGesture.idleSeconds {
                // The view's own timeout closes it all, a campaign's page included.
                state.operatorCampaign = nil
                return toggleOperatorView(&state, by: .timeout, now)
            }
            return []
        case .starting:
            return []
        }
    }

    /// An ordinary tap: on the splash a skip (on the pill) or a click-through (elsewhere);
    /// elsewhere it restarts the idle timer.
    static func tap(_ state: inout KioskState, at point: Point, _ now: Instant) -> [KioskEffect] {
        switch state.scene {
        case .splash(let splash):
            let by: SkipReason = state.skipButton.hitArea.contains(point) ? .tap : .clickThrough
            return leaveSplash(&state, splash, by: by, now)
        case .detail:
            restartIdle(&state, now)
            return []
        case .operator:
            state.operatorIdleSince = now.uptime
            return []
        case .starting:
            return []
        }
    }

    /// The picture the first splash would show if the kiosk started at `now` from `state`
    /// (nil when it would start on the detail screen). Nothing is recorded: the shell asks
    /// so that it can decode the picture while the window opens.
    public static func firstPicture(of state: KioskState, at now: Instant) -> String? {
        var trial = state
        _ = enterSplash(&trial, now)
        if case .splash(let splash) = trial.scene { return splash.imagePath }
        return nil
    }

    /// Shows the newest eligible campaign (recording the show first), the fallback image,
    /// or — with `fallback = skip` and nothing eligible — the detail screen.
    /// `campaigns` false: the fallback only (the ledger just refused a show).
    static func enterSplash(_ state: inout KioskState, _ now: Instant, campaigns: Bool = true) -> [KioskEffect] {
        let countdown = state.settings.countdown
        if campaigns, let index = CatalogEntry.newestEligible(in: state.catalog, at: now.date, context: state.ruleContext(now)),
           let imagePath = state.catalog[index].imagePath {
            state.catalog[index].noteShow(at: now.date, uptime: now.uptime)
            let entry = state.catalog[index]
            let countdown = entry.campaign.countdown ?? countdown
            state.scene = .splash(SplashScene(campaignID: entry.campaign.id, imagePath: imagePath,
                                              countdown: countdown, nextTickAt: now.uptime + 1))
            return [
                .recordShow(campaignID: entry.campaign.id, at: now.date),
                .emit(.splash(campaign: entry.campaign.id, remaining: entry.remaining, image: imagePath)),
                .emit(.countdown(value: countdown)),
            ]
        }
        switch state.settings.fallback {
        case .image:
            let image = state.settings.defaultImage
            state.scene = .splash(SplashScene(campaignID: nil, imagePath: image,
                                              countdown: countdown, nextTickAt: now.uptime + 1))
            return [.emit(.splash(campaign: nil, remaining: nil, image: image)), .emit(.countdown(value: countdown))]
        case .skip:
            state.splashesEnded += 1
            return enterDetail(&state, campaignID: nil, now)
        }
    }

    static func leaveSplash(_ state: inout KioskState, _ splash: SplashScene, by reason: SkipReason,
                            _ now: Instant) -> [KioskEffect] {
        var effects: [KioskEffect] = []
        if let id = splash.campaignID {
            effects.append(.endShow(campaignID: id, by: reason, at: now.date))
        }
        effects.append(.emit(.skip(by: reason)))
        state.splashesEnded += 1
        return effects + enterDetail(&state, campaignID: splash.campaignID, now)
    }

    /// The detail screen of `campaignID` (nil: the fallback) as `state` would show it now.
    static func detailScene(for campaignID: String?, in state: KioskState) -> DetailScene {
        let entry = state.catalog.first { $0.campaign.id == campaignID }
        let campaign = entry?.campaign
        return DetailScene(
            campaignID: campaignID,
            title: campaign?.title,
            text: campaign?.detail ?? state.message ?? state.settings.defaultMessage,
            imagePath: entry?.imagePath ?? (campaignID == nil ? state.settings.defaultImage : nil),
            poetry: state.poetry.entry,
            spinnerPhase: state.poetry.spinning ? state.poetry.spinnerPhase : nil,
            linkURL: campaign?.linkURL?.absoluteString
        )
    }

    /// How long before the attract loop's splash its picture starts decoding ahead.
    public static let decodeAheadSeconds: Seconds = 2

    /// Input on the detail screen: the attract loop starts counting again, and a picture
    /// decoding ahead for it is let go (it is decoded again when the splash nears).
    static func restartIdle(_ state: inout KioskState, _ now: Instant) {
        state.idleSince = now.uptime
        state.splashPictureAhead = nil
    }

    static func enterDetail(_ state: inout KioskState, campaignID: String?, _ now: Instant) -> [KioskEffect] {
        state.scene = .detail(detailScene(for: campaignID, in: state))
        restartIdle(&state, now)
        state.poetry.spinnerStepAt = now.uptime + 1 / PoetryState.spinnerRate
        return [.emit(.detail(campaign: campaignID))]
    }
}
