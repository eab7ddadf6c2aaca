import FoundationEssentials
import SplashCore

/// The screen turned off and on as the core decides (`powerScreen`): a black frame first,
/// then the means `screen-off` names; while dark the loop looks for no screens and
/// systemd's watchdog is relaxed, so nothing wakes it but input, work and the schedule.
extension KioskRunner {
    /// Returns what the core must hear: lit, the screen's new size (a screen set up again)
    /// and that it is lit.
    func powerScreen(_ on: Bool) -> [KioskAction] {
        if !on { painter.blackOut() }
        let report = screenSwitch?.turn(on, screens: screens) ?? ScreenSwitch.Report()
        powerMeans = report.done
        for problem in report.problems { log.emit(.warning(message: problem), at: clock.uptime) }
        waiter.rescansPaused = !on
        guard on else { return [] }
        var answers: [KioskAction] = []
        // The screens are read afresh: one unplugged, replaced or in another mode while it
        // was dark is set up again before the first frame.
        switch screens.consoleChanged() {
        case .same: break
        case .lost: log.emit(.output([]), at: clock.uptime)
        case .opened(let names):
            log.emit(.output(names), at: clock.uptime)
            answers += readScreenSizes()
        }
        painter.forgetShown()
        return answers + [.screenLit(clock.now())]
    }
}
