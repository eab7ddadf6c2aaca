import Foundation

/// The screen's power: the schedule in force (the device's, else its feed's), an
/// operator's override, a touch's wake. Dark means nothing is drawn, shown or counted;
/// lit again, the kiosk starts over with a splash.
extension Kiosk {
    /// The schedule in force and the calendar it is read in.
    static func screenSchedule(of state: KioskState) -> (ScreenSchedule, Calendar) {
        var calendar = Calendar(identifier: .gregorian)
        switch state.screenPower.source {
        case .config, .none:
            calendar.timeZone = state.settings.timeZone
            return (state.screenPower.configSchedule, calendar)
        case .feed:
            calendar.timeZone = state.screenPower.feedZone ?? state.settings.timeZone
            return (state.screenPower.feedSchedule, calendar)
        }
    }

    /// The zone the schedule in force is read in (for saying "until 07:30").
    public static func screenZone(of state: KioskState) -> TimeZone {
        screenSchedule(of: state).1.timeZone
    }

    /// "screen off (schedule) until 07:30", as `status`, the operator view and the journal
    /// say it: in the schedule's zone, named when it is not the device's.
    public static func screenSummary(of state: KioskState, now: Date) -> String {
        state.screenPower.summary(zone: screenZone(of: state), deviceZone: state.settings.timeZone, now: now)
    }

    /// Takes the feed's `screen` object (nil: the feed has none) and looks at the screen again.
    static func takeFeedScreen(_ state: inout KioskState, _ screen: FeedScreen?, _ now: Instant?) -> [KioskEffect] {
        state.screenPower.feedSchedule = (try? screen?.schedule()) ?? ScreenSchedule()
        state.screenPower.feedZone = screen?.timezone.flatMap(TimeZone.init(identifier:))
        guard let now else { return [] }
        return updateScreen(&state, now, reason: .schedule)
    }

    /// `splashboard screen on|off|auto`: an override until the schedule's next change (for
    /// good with no schedule), or the schedule again.
    static func commandScreen(_ state: inout KioskState, _ command: ScreenCommand, _ now: Instant) -> [KioskEffect] {
        let (schedule, calendar) = screenSchedule(of: state)
        let trusted = state.clockTrusted
        let next = schedule.nextChange(after: now.date, calendar: calendar, clockTrusted: trusted)
        let scheduled = schedule.isOn(at: now.date, calendar: calendar, clockTrusted: trusted)
        switch command {
        case .auto: state.screenPower.override = nil
        case .on: state.screenPower.override = .init(on: true, scheduled: scheduled, until: next)
        case .off: state.screenPower.override = .init(on: false, scheduled: scheduled, until: next)
        }
        state.screenPower.wakeUntil = nil
        return updateScreen(&state, now, reason: .command)
    }

    /// A press or a key on a dark screen: with `wake-on-touch`, it lights the screen for that
    /// long and goes no further (never a click-through on a screen nobody could see).
    /// Input on a screen a touch lit keeps it lit. Returns nil when the input goes on as usual.
    static func screenInput(_ state: inout KioskState, _ now: Instant) -> [KioskEffect]? {
        let wake = Double(state.settings.wakeOnTouch)
        if state.screenPower.isOn {
            if state.screenPower.wakeUntil != nil {
                state.screenPower.wakeUntil = now.uptime + wake
                _ = updateScreen(&state, now, reason: .touch)
            }
            return nil
        }
        guard wake > 0, state.hasStarted else { return [] }
        state.screenPower.wakeUntil = now.uptime + wake
        return updateScreen(&state, now, reason: .touch)
    }

    /// Looks at what the screen should be at `now` and lights or darkens it when that
    /// changed; `reason` is said when the change is the caller's doing (a command, a touch).
    static func updateScreen(_ state: inout KioskState, _ now: Instant, reason: ScreenReason) -> [KioskEffect] {
        var power = state.screenPower
        let (schedule, calendar) = screenSchedule(of: state)
        let trusted = state.clockTrusted
        let scheduledOn = schedule.isOn(at: now.date, calendar: calendar, clockTrusted: trusted)
        let next = schedule.nextChange(after: now.date, calendar: calendar, clockTrusted: trusted)
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
        state.screenPower = power
        guard state.hasStarted, changed || reason == .start else { return [] }

        // The event says what made the change: the start, a command (`auto` included) or a
        // touch, else the state's own reason (the schedule).
        let said = reason == .start || reason == .command || reason == .touch ? reason : power.reason
        let event: KioskEffect = .emit(.screen(on: on, reason: said, until: power.until))
        if !on { return darken(&state, now) + [.powerScreen(on: false), event] + told(&state, on: on, reason: said, now) }
        // Lit at start: the first frame comes first (`framePresented` wakes a TV left asleep).
        if reason == .start { return [event] + told(&state, on: on, reason: said, now) }
        // Lit again: the kiosk starts over with a splash, shown (and counted) as at any start,
        // once the means have lit the screen (`screenLit`): its countdown begins then.
        return [.powerScreen(on: true), event] + told(&state, on: on, reason: said, now)
    }

    /// Who hears of a change of the screen besides the log: the service manager (once it
    /// knows the kiosk is up; a start in the dark is that moment, no frame coming to say it)
    /// and the journal (every change, and a start in the dark; one the event says is a
    /// start, lit, is the usual).
    static func told(_ state: inout KioskState, on: Bool, reason: ScreenReason, _ now: Instant) -> [KioskEffect] {
        let summary = screenSummary(of: state, now: now.date)
        var effects: [KioskEffect] = []
        if !on, !state.serviceToldReady {
            state.serviceToldReady = true
            effects.append(.serviceReady)
        }
        if state.serviceToldReady { effects.append(.serviceScreen(dark: !on, status: summary)) }
        if !(on && reason == .start) { effects.append(.journalScreen(summary: summary)) }
        return effects
    }

    /// The means have lit the screen: the kiosk starts over with a splash (unless it is on
    /// a screen already: the first frame's wake of a kiosk started lit).
    static func screenLit(_ state: inout KioskState, _ now: Instant) -> [KioskEffect] {
        guard state.hasStarted, state.screenPower.isOn, state.scene == .starting else { return [] }
        return enterSplash(&state, now)
    }

    /// What is on the screen ends as the screen goes dark: a show ends (`screen_off`), the
    /// operator view closes; nothing is drawn until it is lit again.
    static func darken(_ state: inout KioskState, _ now: Instant) -> [KioskEffect] {
        var effects: [KioskEffect] = []
        if case .splash(let splash) = state.scene { effects += endShow(&state, splash, by: .screenOff, now) }
        if case .operator = state.scene { effects.append(.emit(.operatorView(open: false))) }
        state.scene = .starting
        state.operatorView.cornerPressAt = nil
        state.operatorView.press = nil
        state.operatorView.campaign = nil
        state.splashPictureAhead = nil
        return effects
    }
}
