import CSDL2
import FoundationEssentials
import SplashCore

extension EventWaiter {
    /// The waiter for `screens`. In a window: SDL's events. On the console: input
    /// straight from evdev mapped to the screen it touches (`touchOutput` unless a device
    /// names one), a look at the screens' connectors at each rescan (unplugged, back, another
    /// mode: said in `log` and turned into a resize), and the terminal given up and taken
    /// back on a VT switch.
    static func forScreens(_ screens: Screens, touchOutput: String?, log: EventLog, clock: RunClock) -> EventWaiter {
        guard screens.isConsole else { return EventWaiter(driver: screens.driver) }
        let canvas = screens.first
        let input = EvdevInput(outputSize: { [canvas] in (canvas.outputSize.width, canvas.outputSize.height) },
                               screenIndex: { [screens] name in screens.screenIndex(named: name ?? touchOutput) })
        let onRescan = { [screens, log, clock] in
            switch screens.consoleChanged() {
            case .same: return
            case .lost: log.emit(.output([]), at: clock.uptime); return
            case .opened(let names): log.emit(.output(names), at: clock.uptime)
            }
            pushWindowEvent(SDL_WINDOWEVENT_SIZE_CHANGED)
        }
        let onTerminal = { [screens, log, clock] (request: TerminalSwitch.Request) in
            switch request {
            case .away:
                screens.giveUp()
                log.emit(.terminal(shown: false), at: clock.uptime)
            case .back:
                log.emit(.terminal(shown: true), at: clock.uptime)
                guard screens.takeBack() else {
                    log.emit(.warning(message: "back on the kiosk's terminal, but another program holds the screen "
                                         + "(DRM master); trying again every 2 s"), at: clock.uptime)
                    return
                }
                pushWindowEvent(SDL_WINDOWEVENT_EXPOSED)
            }
        }
        return EventWaiter(driver: screens.driver, console: input, onRescan: onRescan, terminal: TerminalSwitch.take(),
                           onTerminal: onTerminal)
    }

    /// Puts a window event of `kind` in SDL's queue, for the loop to handle as a resize or an
    /// expose.
    private static func pushWindowEvent(_ kind: SDL_WindowEventID) {
        var event = SDL_Event()
        event.type = SDL_WINDOWEVENT.rawValue
        event.window.event = UInt8(kind.rawValue)
        SDL_PushEvent(&event)
    }
}
