import FoundationEssentials

/// How the poetry panel follows its timeline: entries become current at their dates,
/// the provider is asked again by its reload policy, a failure keeps the last good
/// entry and retries with backoff, and once real poems have been shown the panel never
/// goes back to the placeholder. A feature of its own: it changes only the `PoetryState`
/// it is handed (the root scopes it, and the detail screen's panel follows it through
/// `showOnDetail`).
enum PoetryRules {
    /// A timeline arrived: its current entry goes on the panel, the rest are scheduled.
    static func loaded(_ poetry: inout PoetryState, _ timeline: Timeline<PoetryEntry>, _ now: Instant) -> [KioskEffect] {
        poetry.loading = false
        poetry.failures = 0
        let scheduled = timeline.items.map {
            PoetryState.Scheduled(at: now.uptime + $0.date.timeIntervalSince(now.date), entry: $0.entry)
        }
        let due = scheduled.filter { $0.at <= now.uptime }
        poetry.upcoming = scheduled.filter { $0.at > now.uptime }
        poetry.reloadAt = timeline.reloadDate.map { max(now.uptime, now.uptime + $0.timeIntervalSince(now.date)) }
        let current: PoetryEntry
        if let last = due.last {
            current = last.entry
        } else if let first = poetry.upcoming.first {
            // Everything dated later: the first entry is shown now rather than nothing new.
            current = first.entry
            poetry.upcoming.removeFirst()
        } else {
            return []
        }
        return show(&poetry, current, now)
    }

    /// The provider failed: keep what is shown, retry after 30 s, 60 s, … up to the
    /// refresh period. With nothing real shown yet, a bundled poem replaces the placeholder.
    static func failed(_ poetry: inout PoetryState, _ reason: String, _ now: Instant) -> [KioskEffect] {
        poetry.loading = false
        poetry.failures += 1
        poetry.reloadAt = now.uptime + SyncSchedule.backoff(failures: poetry.failures,
                                                                   interval: poetry.refresh)
        var effects: [KioskEffect] = [.emit(.warning(message: "poetry: \(reason)"))]
        if poetry.entry.source == .placeholder, let fallback = poetry.fallback, !fallback.poems.isEmpty {
            effects += show(&poetry, fallback.snapshot(at: now.date), now)
        }
        return effects
    }

    /// The poem's picture arrived, or could not be had (the panel keeps what it has).
    static func imageLoaded(_ poetry: inout PoetryState, url: String, path: String?, reason: String?,
                            _ now: Instant) -> [KioskEffect] {
        guard poetry.imageLoading == url else { return [] }
        poetry.imageLoading = nil
        var effects: [KioskEffect] = []
        if let path {
            poetry.entry.imagePath = path
            if poetry.entry.source == .timeline { effects.append(.savePoetry(poetry.entry)) }
        } else {
            // The address as anyone may read it: a token in poetry-image-url stays out of the log.
            let address: String = URL(string: url)?.publicAddress ?? url
            let why: String = reason.map { ": \($0)" } ?? ""
            effects.append(.emit(.warning(message: "poetry: the picture \(address) could not be loaded\(why)")))
        }
        return effects
    }

    /// Time passed: scheduled entries come due, a reload may start, the spinner steps while
    /// the panel is `onScreen`.
    static func advance(_ poetry: inout PoetryState, onScreen: Bool, _ now: Instant) -> [KioskEffect] {
        var effects: [KioskEffect] = []
        if let due = poetry.upcoming.last(where: { $0.at <= now.uptime }) {
            poetry.upcoming.removeAll { $0.at <= now.uptime }
            effects += show(&poetry, due.entry, now)
        }
        if !poetry.loading, let reloadAt = poetry.reloadAt, now.uptime >= reloadAt {
            poetry.loading = true
            poetry.reloadAt = nil
            effects.append(.reloadPoetry)
        }
        if onScreen, poetry.spinning, now.uptime >= poetry.spinnerStepAt {
            poetry.spinnerPhase += 1
            poetry.spinnerStepAt = now.uptime + 1 / PoetryState.spinnerRate
        }
        return effects
    }

    /// Puts `entry` on the panel. Its picture is fetched when it has a URL and no file;
    /// meanwhile the previous picture stays (or the spinner turns when there is none).
    private static func show(_ poetry: inout PoetryState, _ entry: PoetryEntry, _ now: Instant) -> [KioskEffect] {
        var entry = entry
        var effects: [KioskEffect] = []
        if let url = entry.imageURL, entry.imagePath == nil {
            entry.imagePath = poetry.entry.imageURL == url ? poetry.entry.imagePath : nil
            if poetry.imageLoading != url.absoluteString {
                poetry.imageLoading = url.absoluteString
                poetry.spinnerStepAt = now.uptime + 1 / PoetryState.spinnerRate
                effects.append(.loadPoetryImage(url))
            }
        }
        let changed = entry != poetry.entry
        poetry.entry = entry
        if entry.source == .timeline { effects.append(.savePoetry(entry)) }
        if changed { effects.append(.emit(.poetry(source: entry.source, origin: entry.origin))) }
        return effects
    }

    /// The detail screen's panel as the poetry state says it, after each of the feature's
    /// actions (nothing when another screen is up).
    static func showOnDetail(_ state: inout KioskState) {
        guard case .detail(var detail) = state.scene else { return }
        detail.poetry = state.poetry.entry
        detail.spinnerPhase = state.poetry.spinning ? state.poetry.spinnerPhase : nil
        state.scene = .detail(detail)
    }
}
