import FoundationEssentials

/// The screen's power: the schedule in force (the device's, else its feed's), an
/// operator's override, a touch's wake. Dark means nothing is drawn, shown or counted;
/// lit again, the kiosk starts over with a splash.
extension Kiosk {
    /// The schedule in force and the calendar it is read in.
    static func screenSchedule(of state: KioskState) -> (ScreenSchedule, Zone) {
        ScreenPowerRules.schedule(of: state.screenPower, deviceZone: state.settings.timeZone)
    }

    /// The zone the schedule in force is read in (for saying "until 07:30").
    public static func screenZone(of state: KioskState) -> Zone {
        screenSchedule(of: state).1
    }

    /// "screen off (schedule) until 07:30", as `status`, the operator view and the journal
    /// say it: in the schedule's zone, named when it is not the device's.
    public static func screenSummary(of state: KioskState, now: Date) -> String {
        state.screenPower.summary(zone: screenZone(of: state), deviceZone: state.settings.timeZone, now: now)
    }

    /// The schedule in force, in words for `status`: whose it is (the device's config, the
    /// feed's, a group's in the feed), its hours, days and days off, and its zone.
    public static func scheduleInForce(of state: KioskState) -> String {
        let power = state.screenPower
        let (schedule, zone) = screenSchedule(of: state)
        let whose: String
        switch power.source {
        case .none: return "none: the screen is always on"
        case .config: whose = "this device's (screen-hours, screen-days, screen-off-dates in its config)"
        case .feed: whose = power.feedGroup.map { "the feed's, for the group \($0)" } ?? "the feed's"
        }
        return "\(whose): \(schedule.summary); in \(zone.identifier)"
    }

    /// Takes the feed's `screen` object (nil: the feed has none) and looks at the screen again.
    static func takeFeedScreen(_ state: inout KioskState, _ screen: FeedScreen?, _ now: Instant?) -> [KioskEffect] {
        state.screenPower.feedSchedule = (try? screen?.schedule()) ?? ScreenSchedule()
        state.screenPower.feedZone = screen?.timezone.flatMap(Zone.init(identifier:))
        state.screenPower.feedGroup = screen?.group
        guard let now else { return [] }
        return updateScreen(&state, now, reason: .schedule)
    }

    /// `splashboard screen on|off|auto`: an override until the schedule's next change (for
    /// good with no schedule), or the schedule again.
    static func commandScreen(_ state: inout KioskState, _ command: ScreenCommand, _ now: Instant) -> [KioskEffect] {
        ScreenPowerRules.command(&state.screenPower, command, deviceZone: state.settings.timeZone,
                                 clockTrusted: state.clockTrusted, now)
        return updateScreen(&state, now, reason: .command)
    }

    /// A press or a key on a dark screen: with `wake-on-touch`, it lights the screen for that
    /// long and goes no further (never a click-through on a screen nobody could see).
    /// Input on a screen a touch lit keeps it lit. Returns nil when the input goes on as usual.
    static func screenInput(_ state: inout KioskState, _ now: Instant) -> [KioskEffect]? {
        let wake = Double(state.settings.wakeOnTouch)
        if state.screenPower.isOn {
            if state.screenPower.wakeUntil != nil {
                ScreenPowerRules.wake(&state.screenPower, for: wake, now)
                _ = updateScreen(&state, now, reason: .touch)
            }
            return nil
        }
        guard wake > 0, state.hasStarted else { return [] }
        ScreenPowerRules.wake(&state.screenPower, for: wake, now)
        return updateScreen(&state, now, reason: .touch)
    }

    /// Looks at what the screen should be at `now` and lights or darkens it when that
    /// changed; `reason` is said when the change is the caller's doing (a command, a touch).
    static func updateScreen(_ state: inout KioskState, _ now: Instant, reason: ScreenReason) -> [KioskEffect] {
        let changed = ScreenPowerRules.update(&state.screenPower, deviceZone: state.settings.timeZone,
                                              clockTrusted: state.clockTrusted, now)
        let power = state.screenPower
        let on = power.isOn
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
        OperatorViewRules.darkened(&state.operatorView)
        state.splashLookAhead = .notYet
        return effects
    }
}
