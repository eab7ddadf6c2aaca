import Foundation

/// How the poetry panel follows its timeline: entries become current at their dates,
/// the provider is asked again by its reload policy, a failure keeps the last good
/// entry and retries with backoff, and once real poems have been shown the panel never
/// goes back to the placeholder.
enum PoetryRules {
    /// A timeline arrived: its current entry goes on the panel, the rest are scheduled.
    static func loaded(_ state: inout KioskState, _ timeline: Timeline<PoetryEntry>, _ now: Instant) -> [KioskEffect] {
        state.poetry.loading = false
        state.poetry.failures = 0
        let scheduled = timeline.items.map {
            PoetryState.Scheduled(at: now.uptime + $0.date.timeIntervalSince(now.date), entry: $0.entry)
        }
        let due = scheduled.filter { $0.at <= now.uptime }
        state.poetry.upcoming = scheduled.filter { $0.at > now.uptime }
        state.poetry.reloadAt = timeline.reloadDate.map { max(now.uptime, now.uptime + $0.timeIntervalSince(now.date)) }
        let current: PoetryEntry
        if let last = due.last {
            current = last.entry
        } else if let first = state.poetry.upcoming.first {
            // Everything dated later: the first entry is shown now rather than nothing new.
            current = first.entry
            state.poetry.upcoming.removeFirst()
        } else {
            return []
        }
        return show(&state, current, now)
    }

    /// The provider failed: keep what is shown, retry after 30 s, 60 s, … up to the
    /// refresh period. With nothing real shown yet, a bundled poem replaces the placeholder.
    static func failed(_ state: inout KioskState, _ reason: String, _ now: Instant) -> [KioskEffect] {
        state.poetry.loading = false
        state.poetry.failures += 1
        state.poetry.reloadAt = now.uptime + SyncSchedule.backoff(failures: state.poetry.failures,
                                                                   interval: state.poetry.refresh)
        var effects: [KioskEffect] = [.emit(.warning(message: "poetry: \(reason)"))]
        if state.poetry.entry.source == .placeholder, let fallback = state.poetry.fallback, !fallback.poems.isEmpty {
            effects += show(&state, fallback.snapshot(at: now.date), now)
        }
        return effects
    }

    /// The poem's picture arrived, or could not be had (the panel keeps what it has).
    static func imageLoaded(_ state: inout KioskState, url: String, path: String?, reason: String?,
                            _ now: Instant) -> [KioskEffect] {
        guard state.poetry.imageLoading == url else { return [] }
        state.poetry.imageLoading = nil
        var effects: [KioskEffect] = []
        if let path {
            state.poetry.entry.imagePath = path
            if state.poetry.entry.source == .timeline { effects.append(.savePoetry(state.poetry.entry)) }
        } else {
            effects.append(.emit(.warning(message: "poetry: the picture \(url) could not be loaded"
                                          + (reason.map { ": \($0)" } ?? ""))))
        }
        updateScene(&state)
        return effects
    }

    /// Time passed: scheduled entries come due, a reload may start, the spinner steps.
    static func advance(_ state: inout KioskState, _ now: Instant) -> [KioskEffect] {
        var effects: [KioskEffect] = []
        if let due = state.poetry.upcoming.last(where: { $0.at <= now.uptime }) {
            state.poetry.upcoming.removeAll { $0.at <= now.uptime }
            effects += show(&state, due.entry, now)
        }
        if !state.poetry.loading, let reloadAt = state.poetry.reloadAt, now.uptime >= reloadAt {
            state.poetry.loading = true
            state.poetry.reloadAt = nil
            effects.append(.reloadPoetry)
        }
        if case .detail = state.scene, state.poetry.spinning, now.uptime >= state.poetry.spinnerStepAt {
            state.poetry.spinnerPhase += 1
            state.poetry.spinnerStepAt = now.uptime + 1 / PoetryState.spinnerRate
            updateScene(&state)
        }
        return effects
    }

    /// Puts `entry` on the panel. Its picture is fetched when it has a URL and no file;
    /// meanwhile the previous picture stays (or the spinner turns when there is none).
    private static func show(_ state: inout KioskState, _ entry: PoetryEntry, _ now: Instant) -> [KioskEffect] {
        var entry = entry
        var effects: [KioskEffect] = []
        if let url = entry.imageURL, entry.imagePath == nil {
            entry.imagePath = state.poetry.entry.imageURL == url ? state.poetry.entry.imagePath : nil
            if state.poetry.imageLoading != url.absoluteString {
                state.poetry.imageLoading = url.absoluteString
                state.poetry.spinnerStepAt = now.uptime + 1 / PoetryState.spinnerRate
                effects.append(.loadPoetryImage(url))
            }
        }
        let changed = entry != state.poetry.entry
        state.poetry.entry = entry
        if entry.source == .timeline { effects.append(.savePoetry(entry)) }
        if changed { effects.append(.emit(.poetry(source: entry.source, origin: entry.origin))) }
        updateScene(&state)
        return effects
    }

    /// Keeps the detail screen's panel in step with the poetry state.
    static func updateScene(_ state: inout KioskState) {
        guard case .detail(var detail) = state.scene else { return }
        detail.poetry = state.poetry.entry
        detail.spinnerPhase = state.poetry.spinning ? state.poetry.spinnerPhase : nil
        state.scene = .detail(detail)
    }
}
