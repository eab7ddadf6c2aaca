import FoundationEssentials

/// The screen power's own rules: which schedule is in force, an operator's override and
/// when it ends, a touch's wake, and whether the screen is lit at an instant. A feature of
/// its own: it changes only the `ScreenPower` it is handed; the root (`Kiosk+Screen`) says
/// a change and ends what was on the screen.
enum ScreenPowerRules {
    /// The schedule in force (the device's, else its feed's) and the calendar it is read
    /// in: the feed's zone for the feed's, else the device's.
    static func schedule(of power: ScreenPower, deviceZone: Zone) -> (ScreenSchedule, Zone) {
        switch power.source {
        case .config, .none: return (power.configSchedule, deviceZone)
        case .feed: return (power.feedSchedule, power.feedZone ?? deviceZone)
        }
    }

    /// `splashboard screen on|off|auto`: an override until the schedule's next change (for
    /// good with no schedule), or the schedule again; a touch's wake ends.
    static func command(_ power: inout ScreenPower, _ command: ScreenCommand, deviceZone: Zone,
                        clockTrusted: Bool, _ now: Instant) {
        let (schedule, zone) = schedule(of: power, deviceZone: deviceZone)
        let next = schedule.nextChange(after: now.date, zone: zone, clockTrusted: clockTrusted)
        let scheduled = schedule.isOn(at: now.date, zone: zone, clockTrusted: clockTrusted)
        switch command {
        case .auto: power.override = nil
        case .on: power.override = .init(on: true, scheduled: scheduled, until: next)
        case .off: power.override = .init(on: false, scheduled: scheduled, until: next)
        }
        power.wakeUntil = nil
    }

    /// A touch lights the screen (or keeps it lit) for `seconds` from `now`.
    static func wake(_ power: inout ScreenPower, for seconds: Double, _ now: Instant) {
        power.wakeUntil = now.uptime + seconds
    }

    /// What the screen should be at `now`: an override while it lasts, else a touch's wake
    /// while the schedule says dark, else the schedule; when it is looked at again by
    /// itself, the reason, and the time spent lit and dark. Returns whether it was lit or
    /// darkened.
    static func update(_ power: inout ScreenPower, deviceZone: Zone, clockTrusted trusted: Bool, _ now: Instant) -> Bool {
        let (schedule, zone) = schedule(of: power, deviceZone: deviceZone)
        let scheduledOn = schedule.isOn(at: now.date, zone: zone, clockTrusted: trusted)
        let next = schedule.nextChange(after: now.date, zone: zone, clockTrusted: trusted)
        // An override ends when the schedule changes: its time has come, or the schedule
        // itself now says otherwise than it did (a clock trusted since, another feed).
        if let o = power.override, o.scheduled != scheduledOn || o.until.map({ now.date >= $0 }) == true {
            power.override = nil
        }
        if let w = power.wakeUntil, now.uptime >= w { power.wakeUntil = nil }
        let uptime = { (date: Date) in now.uptime + max(0, date.timeIntervalSince(now.date)) }

        let on: Bool
        var why: ScreenReason
        if let o = power.override {
            (on, why, power.until) = (o.on, .command, o.until ?? next)
            power.wakeUntil = nil
            power.checkAt = [o.until, next].compactMap { $0 }.min().map(uptime)
        } else if let w = power.wakeUntil, !scheduledOn {
            (on, why, power.until) = (true, .touch, now.date.addingTimeInterval(w - now.uptime))
            power.checkAt = [w, next.map(uptime)].compactMap { $0 }.min()
        } else {
            power.wakeUntil = nil
            (on, why, power.until) = (scheduledOn, .schedule, next)
            power.checkAt = next.map(uptime)
        }
        // The reason is what the state holds by now, as `status` says it beside the schedule
        // in force: a command's or a touch's while theirs lasts, else the schedule's where
        // there is one, else the start's (the screen is as the kiosk started it: on).
        if why == .schedule && power.source == .none { why = .start }
        let changed = on != power.isOn
        if changed {
            let totals = power.totals(at: now.uptime)
            (power.secondsOn, power.secondsOff, power.since) = (totals.on, totals.off, now.uptime)
            power.isOn = on
        }
        power.reason = why
        return changed
    }
}
