import CSDL2
import Foundation
import SplashCore

extension EventWaiter {
    /// The waiter for `canvas`'s screens. In a window: SDL's events. On the console: input
    /// straight from evdev mapped to the screen it touches (`touchOutput` unless a device
    /// names one), a look at the screens' connectors at each rescan (unplugged, back, another
    /// mode: said in `log` and turned into a resize), and the terminal given up and taken
    /// back on a VT switch.
    static func forScreens(of canvas: Canvas, touchOutput: String?, log: EventLog, clock: RunClock) -> EventWaiter {
        guard canvas.isConsole else { return EventWaiter(driver: canvas.driver) }
        let input = EvdevInput(outputSize: { [canvas] in (canvas.outputSize.width, canvas.outputSize.height) },
                               screenIndex: { [canvas] name in canvas.screenIndex(named: name ?? touchOutput) })
        let onRescan = { [canvas, log, clock] in
            switch canvas.consoleChanged() {
            case .same: return
            case .lost: log.emit(.output([]), at: clock.uptime); return
            case .opened(let names): log.emit(.output(names), at: clock.uptime)
            }
            pushWindowEvent(SDL_WINDOWEVENT_SIZE_CHANGED)
        }
        let onTerminal = { [canvas, log, clock] (request: TerminalSwitch.Request) in
            switch request {
            case .away:
                canvas.giveUpScreens()
                log.emit(.terminal(shown: false), at: clock.uptime)
            case .back:
                log.emit(.terminal(shown: true), at: clock.uptime)
                guard canvas.takeBackScreens() else {
                    log.emit(.warning(message: "back on the kiosk's terminal, but another program holds the screen "
                                         + "(DRM master); trying again every 2 s"), at: clock.uptime)
                    return
                }
                pushWindowEvent(SDL_WINDOWEVENT_EXPOSED)
            }
        }
        return EventWaiter(driver: canvas.driver, console: input, onRescan: onRescan, terminal: TerminalSwitch.take(),
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
