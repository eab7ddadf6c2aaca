import FoundationEssentials

/// The screens' rules: the countdown and the attract loop moved along, a tap, the splash
/// entered (recording the show first) and left, the detail screen.
extension Kiosk {
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
                state.splashLookAhead = .notYet
                return enterSplash(&state, now)
            }
            if let at = state.decodeAheadAt, now.uptime >= at {
                // Looked at once, whatever it finds: with nothing to decode the loop must not
                // wake again until the splash's own moment.
                guard let path = firstPicture(of: state, at: now) else {
                    state.splashLookAhead = .nothingToDecode
                    return []
                }
                state.splashLookAhead = .decoding(path)
                return [.decodeAhead(path: path)]
            }
            return []
        case .operator:
            // The view's own timeout closes it all, a campaign's page included.
            return operatorOutcome(&state, OperatorViewRules.timedOut(&state.operatorView, now), now)
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
            OperatorViewRules.touched(&state.operatorView, now)
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

    /// The picture the first splash of a kiosk started at `now` would show: `settings`, the
    /// stored catalog with the feed's message and screen schedule, and the clock as
    /// `timeSync` finds it, taken as the run will take them at its start (nil: it would start
    /// on the detail screen). The shell decodes it while the window opens.
    public static func firstPicture(settings: KioskSettings, catalog: [CatalogEntry], message: String?, screen: FeedScreen?,
                                    timeSync: TimeSync, at now: Instant) -> String? {
        var state = KioskState(settings: settings, screen: Size(width: 0, height: 0))
        _ = reduce(&state, .catalogLoaded(catalog, message: message, screen: screen))
        _ = reduce(&state, .clockObserved(timeSync, now))
        return firstPicture(of: state, at: now)
    }

    /// Shows the campaign whose turn it is (`CatalogEntry.nextToShow`), recording the show
    /// first — it counts and is announced when the ledger answers `showRecorded`, once its
    /// picture has opened and decoded — or, with none eligible, the fallback.
    static func enterSplash(_ state: inout KioskState, _ now: Instant) -> [KioskEffect] {
        guard let index = CatalogEntry.nextToShow(in: state.catalog, at: now.date, context: state.ruleContext(now)),
              let imagePath = state.catalog[index].picturePath(for: state.screen) else { return enterFallbackSplash(&state, now) }
        let stopped = VideoRules.stop(&state.video)
        let campaign = state.catalog[index].campaign
        var scene = SplashScene(campaignID: campaign.id, imagePath: imagePath,
                                countdown: campaign.countdown ?? state.settings.countdown, nextTickAt: now.uptime + 1)
        scene.startedAt = now
        scene.focus = campaign.focus ?? .centre
        if let clip = state.catalog[index].video {
            // Its clip plays once the show is recorded; the poster is up until its first frame.
            // An animated GIF plays the same way, and is still a picture.
            scene.media = AnimationLimits.isAnimation(clip.facts) ? .picture : .video
            scene.countdown = VideoLimits.countdown(for: clip.facts, campaign: campaign.countdown,
                                                    otherwise: state.settings.countdown)
            state.videoShows += 1
            state.video = VideoPlayback(show: state.videoShows, clip: clip, at: now.uptime)
        }
        state.scene = .splash(scene)
        return stopped + [.recordShow(campaignID: campaign.id, at: now.date, media: scene.media, picture: imagePath)]
    }

    /// The bundled default picture with the countdown (`fallback = image`), or — with
    /// `fallback = skip` — the detail screen. Nothing is recorded.
    static func enterFallbackSplash(_ state: inout KioskState, _ now: Instant) -> [KioskEffect] {
        let countdown = state.settings.countdown
        let stopped = VideoRules.stop(&state.video)
        switch state.settings.fallback {
        case .image:
            let image = state.settings.defaultImage
            var scene = SplashScene(campaignID: nil, imagePath: image, countdown: countdown, nextTickAt: now.uptime + 1)
            scene.pictureSize = state.settings.defaultPictureSize
            state.scene = .splash(scene)
            return stopped + [.emit(.splash(campaign: nil, remaining: nil, image: image)), .emit(.countdown(value: countdown))]
        case .skip:
            state.splashesEnded += 1
            return stopped + enterDetail(&state, campaignID: nil, now)
        }
    }

    static func leaveSplash(_ state: inout KioskState, _ splash: SplashScene, by reason: SkipReason,
                            _ now: Instant) -> [KioskEffect] {
        var effects: [KioskEffect] = []
        effects += endShow(&state, splash, by: reason, now)
        return effects + enterDetail(&state, campaignID: splash.campaignID, now)
    }

    /// Ends the splash on the screen: how its show ended goes to the ledger, and the network
    /// process is woken when the end is news for it (proof of play is sent, or a click-through
    /// has pings).
    static func endShow(_ state: inout KioskState, _ splash: SplashScene, by reason: SkipReason,
                        _ now: Instant) -> [KioskEffect] {
        var effects: [KioskEffect] = VideoRules.stop(&state.video)
        if let id = splash.campaignID {
            effects.append(.endShow(campaignID: id, by: reason, at: now.date))
            if state.settings.reportsShows || reason == .clickThrough { effects.append(.wakeOutbox) }
        }
        effects.append(.emit(.skip(by: reason)))
        state.splashesEnded += 1
        return effects
    }

    /// The detail screen of `campaignID` (nil: the fallback) as `state` would show it now.
    static func detailScene(for campaignID: Campaign.ID?, in state: KioskState) -> DetailScene {
        let entry = state.catalog.first { $0.campaign.id == campaignID }
        let campaign = entry?.campaign
        return DetailScene(
            campaignID: campaignID,
            title: campaign?.title,
            text: campaign?.detail ?? state.feedMessage ?? state.settings.defaultMessage,
            imagePath: entry?.picturePath(for: state.screen) ?? (campaignID == nil ? state.settings.defaultImage : nil),
            poetry: state.poetry.entry,
            spinnerPhase: state.poetry.spinning ? state.poetry.spinnerPhase : nil,
            linkURL: campaign?.linkURL?.absoluteString,
            linkLabel: campaign?.linkLabel,
            focus: campaign?.focus ?? .centre
        )
    }

    /// How long before the attract loop's splash its picture starts decoding ahead.
    public static let decodeAheadSeconds: Seconds = 2

    /// Input on the detail screen: the attract loop starts counting again, and a picture
    /// decoding ahead for it is let go (it is decoded again when the splash nears).
    static func restartIdle(_ state: inout KioskState, _ now: Instant) {
        state.idleSince = now.uptime
        state.splashLookAhead = .notYet
    }

    static func enterDetail(_ state: inout KioskState, campaignID: Campaign.ID?, _ now: Instant) -> [KioskEffect] {
        state.scene = .detail(detailScene(for: campaignID, in: state))
        restartIdle(&state, now)
        state.poetry.spinnerStepAt = now.uptime + 1 / PoetryState.spinnerRate
        return [.emit(.detail(campaign: campaignID))]
    }
}
