import FoundationEssentials

/// Whether the screen is lit, why, and until when: the schedule in force (the device's
/// or its feed's), an operator's override, a touch's wake, and the time spent in each state.
public struct ScreenPower: Equatable, Sendable {
    /// Where the schedule in force comes from (`status` says it).
    public enum Source: String, Equatable, Sendable {
        /// The device's `screen-hours`, `screen-days` or `screen-off-dates`.
        case config
        /// The feed's `screen` object.
        case feed
        /// Neither: the screen is always on.
        case none
    }

    /// An operator's `screen on|off`, in force until the schedule next changes: until
    /// what it says differs from `scheduled`, what it said at the command (`until` is when
    /// that was due then; nil: no change ahead, so until `screen auto` or a schedule that
    /// comes to say otherwise — a clock trusted since, another feed).
    public struct Override: Equatable, Sendable {
        /// On or off.
        public var on: Bool
        /// What the schedule said when the command came.
        public var scheduled: Bool
        /// When the schedule was due to change then.
        public var until: Date?
    }

    /// The device's schedule (`screen-*`); in force whenever it says anything.
    public var configSchedule = ScreenSchedule()
    /// The feed's schedule and the zone it is read in (nil: the device's).
    public var feedSchedule = ScreenSchedule()
    /// The zone of the feed's schedule.
    public var feedZone: Zone?
    /// The group whose schedule in the feed this is; nil: the feed's own.
    public var feedGroup: String?
    /// Whether the screen is lit.
    public var isOn = true
    /// Why it is as it is.
    public var reason: ScreenReason = .start
    /// Until when it stays so, as far as is known (the schedule's next change, an
    /// override's end, a touch's wake); nil: no change ahead.
    public var until: Date?
    /// The operator's override, while in force.
    public var override: Override?
    /// When a touch's wake ends (monotonic), while the screen is lit by one.
    public var wakeUntil: Seconds?
    /// When the state is looked at again by itself (monotonic): the earliest change ahead.
    public var checkAt: Seconds?
    /// Seconds spent lit and dark before `since`.
    public var secondsOn: Seconds = 0
    public var secondsOff: Seconds = 0
    /// When the state last changed (monotonic).
    public var since: Seconds = 0

    /// The schedule in force and where it comes from.
    public var source: Source {
        if configSchedule.isSet { return .config }
        return feedSchedule.isSet ? .feed : .none
    }

    /// Seconds spent lit and dark up to `uptime`, the current stretch included.
    public func totals(at uptime: Seconds) -> (on: Seconds, off: Seconds) {
        let current = max(0, uptime - since)
        return isOn ? (secondsOn + current, secondsOff) : (secondsOn, secondsOff + current)
    }

    /// "screen off (schedule, from the feed) until 07:30", in `zone`, as `status` and the
    /// operator view say it; the zone is named when it is not the device's (`deviceZone`).
    public func summary(zone: Zone, deviceZone: Zone, now: Date) -> String {
        var text = "screen \(isOn ? "on" : "off")"
        switch (reason, source) {
        case (.schedule, .config), (.start, .config): text += " (schedule)"
        case (.schedule, .feed), (.start, .feed): text += " (the feed's schedule)"
        case (.schedule, .none), (.start, .none): text += " (no schedule)"
        case (.command, _): text += " (splashboard screen \(isOn ? "on" : "off"))"
        case (.touch, _): text += " (woken by a touch)"
        }
        if let until {
            let end = zone.local(until)
            let time = String(cFormat: "%02d:%02d", end.hour, end.minute)
            let day: String
            switch end.dayNumber - zone.local(now).dayNumber {
            case 0: day = ""
            case 1: day = "tomorrow "
            default:
                let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
                let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
                day = "\(weekdays[end.weekday - 1]) \(end.day) \(months[end.month - 1]) "
            }
            text += " until \(day)\(time)" + (zone.identifier == deviceZone.identifier ? "" : " (\(zone.identifier) time)")
        }
        return text
    }
}
