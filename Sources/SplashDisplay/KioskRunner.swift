import CSDL2
import Foundation
import SplashCore
import SplashServices

/// The imperative shell: waits for input or the next deadline, feeds actions to
/// `Kiosk.reduce`, carries out its effects, and redraws when the scene changed.
/// It never spins: between deadlines it sleeps in `EventWaiter` (`SDL_WaitEventTimeout` on
/// X11 and Wayland, `poll(2)` on its wake pipe and the input devices elsewhere).
///
/// Actions are queued and reduced one at a time, in the order they happened: an effect
/// whose result the core must know (a show recorded or refused, the operator view's
/// reads) answers with an action that waits its turn, never with a nested reduce.
///
/// Here: the loop's state, its start and `send`; the setup in `+Setup`, the effects in
/// `+Effects`, drawing in `+Drawing`, waiting and input in `+Waiting`, the control socket's
/// answers in `+Control`. The script player, the detail drawn ahead, the mailbox and the
/// input mapping are types of their own.
public final class KioskRunner {

    var setup: Setup
    let canvas: Canvas
    let fonts: FontBook
    let log: EventLog
    let clock: RunClock
    var state: KioskState
    var script: ScriptPlayer
    var drawn: (scene: Scene, size: Size)?
    var needsRedraw = false
    var snapshotCount = 0
    var framesPresented = 0
    var quit = false
    /// Actions waiting their turn, and whether one is being reduced (its effects carried out).
    private var queued: [KioskAction] = []
    private var isSending = false
    /// The detail screen drawn ahead while the splash is up.
    let detailAhead = DetailAhead()
    /// Results from background work, delivered to the loop with an SDL user event.
    let mailbox = Mailbox()
    let wakeEvent: UInt32
    let waiter: EventWaiter
    /// Turns the screens off and on (`screen-off`); nil headless.
    let screenSwitch: ScreenSwitch?
    /// What the last change of the screen's power did, one line per means.
    var powerMeans: [String] = []
    /// The media process of the clip under the pill, while one plays.
    var player: MediaPlayer?
    /// A media process started ahead of the next video show, while the core wants one, and
    /// whether the core asked for one that is not started yet (`keepMediaWarm(true)`).
    var warmMedia: WarmMediaProcess?
    var warmMediaAsked = false
    /// Where its frames go, and the countdown of the last one written as a snapshot.
    var videoPlacement: VideoPlacement?
    var videoSnapshotCountdown: Int?
    var videoFramesDrawn = 0
    /// The ring slot whose frame is on the screen, kept until the next frame replaces it.
    var shownVideoSlot: Int?
    /// With a virtual clock: since when (real time) the loop has waited for the clip's next
    /// frame, and at which step of which show.
    /// Since when (real seconds) the loop has waited for the awaited frame of a video show, on
    /// a virtual clock: show, step, since.
    var mediaWait: (show: Int, step: Int, since: Double)?

    /// The loop for `setup`, drawing on `canvas` with `fonts`; events go to `log`, time from `clock`.
    public init(setup: Setup, canvas: Canvas, fonts: FontBook, log: EventLog, clock: RunClock) {
        self.setup = setup
        self.canvas = canvas
        self.fonts = fonts
        self.log = log
        self.clock = clock
        state = KioskState(settings: setup.settings, screen: canvas.layoutSize)
        state.poetry.entry = setup.cachedPoetry ?? .placeholder
        state.poetry.fallback = setup.bundledPoetry
        script = ScriptPlayer(setup.script)
        wakeEvent = SDL_RegisterEvents(1)
        screenSwitch = setup.options.headless ? nil
            : ScreenSwitch(methods: setup.options.screenOff, marker: setup.options.dataDir + "/" + ScreenSwitch.markerName)
        if canvas.isConsole {
            // On the console: input straight from evdev, and a look at the screen's
            // connector at each rescan (unplugged, back, another mode).
            let input = EvdevInput(outputSize: { [canvas] in (canvas.outputSize.width, canvas.outputSize.height) },
                                   screenIndex: { [canvas, touchOutput = setup.options.touchOutput] name in
                                       canvas.screenIndex(named: name ?? touchOutput)
                                   })
            let onRescan = { [canvas, log, clock] in
                let change = canvas.consoleChanged()
                switch change {
                case .same: return
                case .lost: log.emit(.output([]), at: clock.uptime); return
                case .opened(let names): log.emit(.output(names), at: clock.uptime)
                }
                var event = SDL_Event()
                event.type = SDL_WINDOWEVENT.rawValue
                event.window.event = UInt8(SDL_WINDOWEVENT_SIZE_CHANGED.rawValue)
                SDL_PushEvent(&event)
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
                    var event = SDL_Event()
                    event.type = SDL_WINDOWEVENT.rawValue
                    event.window.event = UInt8(SDL_WINDOWEVENT_EXPOSED.rawValue)
                    SDL_PushEvent(&event)
                }
            }
            waiter = EventWaiter(driver: canvas.driver, console: input, onRescan: onRescan,
                                 terminal: TerminalSwitch.take(), onTerminal: onTerminal)
        } else {
            waiter = EventWaiter(driver: canvas.driver)
        }
    }

    /// Runs until `--exit-after` is met or the window is closed (SIGTERM, SIGINT).
    /// Makes the `--snapshot` folder and proves it can be written (a file made and removed),
    /// before the first frame: the error names the folder and why.
    static func prepareSnapshotFolder(_ dir: String) throws {
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: dir, isDirectory: &isFolder), !isFolder.boolValue {
            throw DisplayError.snapshotFolder(path: dir, reason: "it is a file, not a folder")
        }
        func why() -> String { String(cString: strerror(errno)).lowercased() }
        do {
            try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        } catch {
            // Made again by hand for the system's own reason (Foundation's words name no errno).
            guard mkdir(dir, 0o755) == 0 || errno == EEXIST else {
                throw DisplayError.snapshotFolder(path: dir, reason: "it cannot be made: " + why())
            }
        }
        let probe = dir + "/.splashboard-\(getpid())"
        let fd = open(probe, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw DisplayError.snapshotFolder(path: dir, reason: why()) }
        close(fd)
        unlink(probe)
    }

    public func run() throws {
        let options = setup.options
        if let dir = options.snapshotDir { try Self.prepareSnapshotFolder(dir) }
        send(.catalogLoaded(setup.catalog, message: setup.message, screen: setup.screen))
        if let look = setup.timeSync { send(.clockObserved(look(), clock.now())) }
        send(.started(clock.now()))
        var control: ControlSocket?
        if let path = setup.controlSocket {
            let (opened, note) = ControlSocket.open(at: path) { [weak self] request in
                self?.onLoop { self?.answer(request) ?? .failure(.failed("the kiosk is stopping")) }
                    ?? .failure(.failed("the kiosk did not answer within 5 s"))
            }
            control = opened
            if let note { log.emit(.warning(message: note), at: clock.uptime) }
        }
        defer { withExtendedLifetime(control) {} }

        while !quit {
            try drawUntilShown()
            if state.runIsOver(at: clock.uptime) { return }
            prepareUpcomingDetail()
            waitForSomething()
            takeCatalogChanges()
            if let look = setup.timeSync { send(.clockObserved(look(), clock.now())) }
            send(.tick(clock.now()))
        }
    }

    /// Reduces `action` and carries out its effects, then the actions they answered with,
    /// one at a time. Called while an action is being handled, it queues `action` behind it.
    func send(_ action: KioskAction) {
        queued.append(action)
        guard !isSending else { return }
        isSending = true
        defer { isSending = false }
        while !queued.isEmpty {
            let next = queued.removeFirst()
            for effect in Kiosk.reduce(&state, next) {
                queued += perform(effect)
            }
        }
    }

}
