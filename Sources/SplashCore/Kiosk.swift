import Foundation

/// The kiosk's rules: splash, countdown, skip, detail, attract loop.
public enum Kiosk {
    /// Applies `action` to `state` and returns the work the shell must do, in order.
    public static func reduce(_ state: inout KioskState, _ action: KioskAction) -> [KioskEffect] {
        switch action {
        case .started(let now):
            guard state.scene == .starting else { return [] }
            return enterSplash(&state, now)

        case .tick(let now):
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
                if let deadline = state.nextDeadline, now.uptime >= deadline {
                    return enterSplash(&state, now)
                }
                return []
            case .starting:
                return []
            }

        case let .tapped(point, now):
            switch state.scene {
            case .splash(let splash):
                let by: SkipReason = state.skipButton.hitArea.contains(point) ? .tap : .clickThrough
                return leaveSplash(&state, splash, by: by, now)
            case .detail:
                state.idleSince = now.uptime
                return []
            case .starting:
                return []
            }

        case let .keyPressed(key, now):
            switch state.scene {
            case .splash(let splash) where key != .other:
                return leaveSplash(&state, splash, by: .key, now)
            case .detail:
                state.idleSince = now.uptime
                return []
            default:
                return []
            }

        case .resized(let size):
            state.screen = size
            return []

        case let .catalogLoaded(catalog, message):
            state.catalog = catalog
            state.message = message
            return []

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

    /// Shows the newest eligible campaign (recording the show first), the fallback image,
    /// or — with `fallback = skip` and nothing eligible — the detail screen.
    static func enterSplash(_ state: inout KioskState, _ now: Instant) -> [KioskEffect] {
        let countdown = state.settings.countdown
        if let index = CatalogEntry.newestEligible(in: state.catalog, at: now.date),
           let imagePath = state.catalog[index].imagePath {
            state.catalog[index].shows += 1
            let entry = state.catalog[index]
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
            let outcome: ShowOutcome = switch reason {
            case .tap, .key: .skipped
            case .timeout: .completed
            case .clickThrough: .clicked
            }
            effects.append(.endShow(campaignID: id, outcome: outcome, at: now.date))
        }
        effects.append(.emit(.skip(by: reason)))
        state.splashesEnded += 1
        return effects + enterDetail(&state, campaignID: splash.campaignID, now)
    }

    static func enterDetail(_ state: inout KioskState, campaignID: String?, _ now: Instant) -> [KioskEffect] {
        let entry = state.catalog.first { $0.campaign.id == campaignID }
        let campaign = entry?.campaign
        state.scene = .detail(DetailScene(
            campaignID: campaignID,
            title: campaign?.title,
            text: campaign?.detail ?? state.message ?? state.settings.defaultMessage,
            imagePath: entry?.imagePath,
            poetry: state.poetry
        ))
        state.idleSince = now.uptime
        return [.emit(.detail(campaign: campaignID)),
                .emit(.poetry(source: state.poetry.source, origin: state.poetry.origin))]
    }
}
