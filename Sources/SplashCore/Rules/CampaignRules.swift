import FoundationEssentials

/// Whether a campaign may be shown now, why not, and when it may: its window
/// (`startAt`/`endAt`), count, picture, days, hours, daily cap and spacing, with a clock
/// that may not be trusted yet. Pure: time and the zone come in as values.
public enum CampaignRules {
    /// Why `entry` cannot be shown at `date`, in words, or nil when it can.
    public static func ineligibility(of entry: CatalogEntry, at date: Date, context: RuleContext) -> String? {
        reason(of: entry, at: date, context: context)?.message
    }

    /// Why `entry` cannot be shown at `date`, or nil when it can.
    public static func reason(of entry: CatalogEntry, at date: Date, context: RuleContext) -> Ineligibility? {
        let c = entry.campaign
        if let device = context.device, !device.includes(c.groups) {
            return .notForThisDevice(groups: c.groups ?? [], device: device.memberships)
        }
        if c.isDateBound && !context.clockTrusted { return .waitingForClock }
        if let start = c.startAt, let end = c.endAt, end <= start { return .emptyWindow }
        if let start = c.startAt, date < start { return .notStarted }
        if let end = c.endAt, date >= end { return .ended }
        if entry.remaining <= 0 { return .usedUp }
        switch entry.picture {
        case .refused(let problem, _): return .imageRefused(problem)
        case .waiting(let why): return .imageMissing(why)
        case .cached: break
        }
        guard !c.hours.isEmpty || !c.days.isEmpty || c.maxPerDay != nil || c.minInterval != nil else { return nil }
        let zone = Self.zone(for: c, context: context)
        if !c.hours.isEmpty || !c.days.isEmpty {
            switch window(of: c, at: date, zone: zone) {
            case .inside: break
            case .notToday: return .notToday
            case .outsideHours: return .outsideHours
            }
        }
        if let cap = c.maxPerDay, showsOnLocalDay(of: date, in: entry, zone: zone) >= cap { return .dailyCapReached }
        if let gap = c.minInterval, tooSoon(entry, at: date, gap: Double(gap), context: context) { return .tooSoon }
        return nil
    }

    /// When `entry`, not eligible at `date` for a reason that passes with time, becomes
    /// eligible as far as that reason goes; nil when time alone will not do it.
    public static func nextEligible(_ entry: CatalogEntry, after date: Date, context: RuleContext) -> Date? {
        let c = entry.campaign
        let zone = Self.zone(for: c, context: context)
        switch reason(of: entry, at: date, context: context) {
        case .notStarted: return c.startAt
        case .notToday, .outsideHours: return nextWindowStart(of: c, after: date, zone: zone)
        case .dailyCapReached: return zone.nextMidnight(after: date)
        case .tooSoon:
            return entry.lastShownAt.map { $0.addingTimeInterval(Double(c.minInterval ?? 0)) }
        default: return nil
        }
    }

    /// The campaign to show among `catalog` at `date`: the highest priority among the
    /// eligible, then by `context.pick` — `newest`: a campaign for this device's groups
    /// before one for every screen, then the newest; `rotate`: each in turn, the least
    /// recently shown first; nil when none is eligible.
    public static func pick(in catalog: [CatalogEntry], at date: Date, context: RuleContext) -> Int? {
        pick(in: catalog, among: catalog.indices.filter { reason(of: catalog[$0], at: date, context: context) == nil },
             context: context)
    }

    /// `pick` among the indices of `catalog` already known to be eligible.
    static func pick(in catalog: [CatalogEntry], among eligible: [Int], context: RuleContext) -> Int? {
        guard let top = eligible.map({ catalog[$0].campaign.priority }).max() else { return nil }
        let candidates = eligible.filter { catalog[$0].campaign.priority == top }
        switch context.pick {
        case .newest:
            // The group's own before the all-screens one: what a screen's group was given is
            // meant for it, and a newer campaign for every screen would hide it until it ran out.
            let targeted = candidates.filter { catalog[$0].campaign.groups != nil }
            return (targeted.isEmpty ? candidates : targeted)
                .max { Campaign.isOlder(catalog[$0].campaign, than: catalog[$1].campaign) }
        case .rotate:
            // The least recently shown first (never shown before any); ties go to the newest.
            return candidates.min { a, b in
                let la = catalog[a].lastShownAt ?? .distantPast
                let lb = catalog[b].lastShownAt ?? .distantPast
                return la != lb ? la < lb : Campaign.isOlder(catalog[b].campaign, than: catalog[a].campaign)
            }
        }
    }

    // MARK: the parts

    enum Window { case inside, notToday, outsideHours }

    static func zone(for campaign: Campaign, context: RuleContext) -> Zone {
        campaign.timeZone.flatMap(Zone.init(identifier:)) ?? context.deviceTimeZone
    }

    /// Whether `date` is inside one of the campaign's windows on an allowed day. The part of
    /// an overnight window after midnight belongs to the day it began on.
    static func window(of c: Campaign, at date: Date, zone: Zone) -> Window {
        let local = zone.local(date)
        let minute = local.minuteOfDay
        let today = Weekday(rawValue: local.weekday) ?? .sun
        let yesterday = Weekday(rawValue: (today.rawValue + 5) % 7 + 1) ?? .sun
        func allowed(_ day: Weekday) -> Bool { c.days.isEmpty || c.days.contains(day) }
        let windows = c.hours.isEmpty ? [DailyWindow(start: 0, end: 1440)] : c.hours
        for w in windows {
            if w.overnight {
                if minute >= w.start && allowed(today) { return .inside }
                if minute < w.end && allowed(yesterday) { return .inside }
            } else if minute >= w.start && minute < w.end && allowed(today) {
                return .inside
            }
        }
        // Not today at all, or today but not now.
        let anyToday = allowed(today) || windows.contains { $0.overnight && allowed(yesterday) }
        return anyToday ? .outsideHours : .notToday
    }

    /// The next moment after `date` at which a window of the campaign opens on an allowed day.
    static func nextWindowStart(of c: Campaign, after date: Date, zone: Zone) -> Date? {
        let windows = c.hours.isEmpty ? [DailyWindow(start: 0, end: 1440)] : c.hours
        var best: Date?
        let today = zone.local(date).dayNumber
        for day in today...(today + 8) {
            let weekday = Weekday(rawValue: Zone.weekday(ofDay: day)) ?? .sun
            guard c.days.isEmpty || c.days.contains(weekday) else { continue }
            for w in windows {
                // A start the clock skips (a spring-forward night) is as far past the change.
                let start = zone.date(day: day, minute: w.start)
                guard start > date else { continue }
                if best.map({ start < $0 }) ?? true { best = start }
            }
            if best != nil { return best }
        }
        return best
    }

    /// Shows of `entry` recorded on the local calendar day of `date` (each counted by its
    /// own local date, so a clock that jumps does not reopen a day that is full).
    static func showsOnLocalDay(of date: Date, in entry: CatalogEntry, zone: Zone) -> Int {
        entry.recentShows.filter { zone.isSameDay($0, date) }.count
    }

    /// Whether the last show was less than `gap` seconds ago, by the wall clock or — within
    /// this run — by the monotonic clock, whichever says so. A wall clock behind the last
    /// show (it was set back) waits until it is `gap` past it.
    static func tooSoon(_ entry: CatalogEntry, at date: Date, gap: Double, context: RuleContext) -> Bool {
        if let last = entry.lastShownAt, date.timeIntervalSince(last) < gap { return true }
        if let lastUptime = entry.lastShownUptime, let now = context.uptime, now - lastUptime < gap { return true }
        return false
    }
}
