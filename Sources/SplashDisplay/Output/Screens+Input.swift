import FoundationEssentials
import SplashCore

/// Where the screens' input comes from.
extension Screens {
    /// The loop's waiter for these screens. In a window: SDL's events. On the console: input
    /// straight from evdev mapped to the screen it touches (`touchOutput` unless a device
    /// names one), a look at the screens' connectors at each rescan (unplugged, back, another
    /// mode: said in `log` and turned into a resize), and the terminal given up and taken
    /// back on a VT switch.
    func eventWaiter(touchOutput: String?, log: EventLog, clock: RunClock) -> EventWaiter {
        guard consoleRequest != nil else { return EventWaiter(window: first.output as? SDLWindow) }
        let screens = self
        let canvas = first
        let input = EvdevInput(outputSize: { [canvas] in (canvas.outputSize.width, canvas.outputSize.height) },
                               screenIndex: { [screens] name in screens.screenIndex(named: name ?? touchOutput) })
        let onRescan = { [screens, log, clock] () -> ShellEvent? in
            switch screens.consoleChanged() {
            case .same: return nil
            case .lost: log.emit(.output([]), at: clock.uptime); return nil
            case .opened(let names): log.emit(.output(names), at: clock.uptime)
            }
            return .resized
        }
        let onTerminal = { [screens, log, clock] (request: TerminalSwitch.Request) -> ShellEvent? in
            switch request {
            case .away:
                screens.giveUp()
                log.emit(.terminal(shown: false), at: clock.uptime)
                return nil
            case .back:
                log.emit(.terminal(shown: true), at: clock.uptime)
                guard screens.takeBack() else {
                    log.emit(.warning(message: "back on the kiosk's terminal, but another program holds the screen "
                                         + "(DRM master); trying again every 2 s"), at: clock.uptime)
                    return nil
                }
                return .redraw
            }
        }
        return EventWaiter(window: nil, console: input, onRescan: onRescan, terminal: TerminalSwitch.take(),
                           onTerminal: onTerminal)
    }
}
