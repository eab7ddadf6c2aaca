import FoundationEssentials
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
/// Here: the loop, its start and `send`; the effects in `+Effects`, waiting and input in
/// `+Waiting`, the screen's power in `+Power`, the control socket's answers in `+Control`.
/// What it is given is a `KioskSetup` and its `KioskDependencies`; drawing is the `ScreenPainter`'s, a clip's process
/// and frames the `VideoShell`'s, input the `EventWaiter`'s.
public final class KioskRunner {

    let setup: KioskSetup
    /// The clock, the stores and the services the run reaches.
    let dependencies: KioskDependencies
    /// Where frames go: every screen, the first the core's layout.
    let screens: Screens
    var canvas: Canvas { screens.first }
    let log: EventLog
    var clock: RunClock { dependencies.clock }
    var state: KioskState
    var script: ScriptPlayer
    var quit = false
    /// Actions waiting their turn, and whether one is being reduced (its effects carried out).
    private var queued: [KioskAction] = []
    private var isSending = false
    /// Results from background work, delivered to the loop by waking its waiter.
    let mailbox = Mailbox()
    let waiter: EventWaiter
    /// What the screens show (the scene, a clip's frames, black).
    let painter: ScreenPainter
    /// The clip under the pill and the media process kept warm.
    let clips: VideoShell
    /// Turns the screens off and on (`screen-off`); nil headless.
    let screenSwitch: ScreenSwitch?
    /// What the last change of the screen's power did, one line per means.
    var powerMeans: [String] = []
    /// The picture `FirstPictureMemo` holds now (written only when it changes).
    public var expectedFirstPicture: String?

    /// The loop for `setup`, reaching out through `dependencies` (its clock among them),
    /// drawing on `screens` with `fonts`; events go to `log`.
    public init(setup: KioskSetup, dependencies: KioskDependencies, screens: Screens, fonts: FontBook, log: EventLog) {
        self.setup = setup
        self.dependencies = dependencies
        self.screens = screens
        self.log = log
        let clock = dependencies.clock
        state = KioskState(settings: setup.settings, screen: screens.first.layoutSize)
        state.poetry.entry = setup.cachedPoetry ?? .placeholder
        state.poetry.fallback = setup.bundledPoetry
        script = ScriptPlayer(setup.script)
        screenSwitch = setup.options.headless ? nil
            : ScreenSwitch(methods: setup.options.screenOff, marker: setup.options.dataDir + "/" + ScreenSwitch.markerName)
        waiter = screens.eventWaiter(touchOutput: setup.options.touchOutput, log: log, clock: clock)
        painter = ScreenPainter(screens: screens, fonts: fonts, options: setup.options, log: log, clock: clock)
        clips = VideoShell(painter: painter, options: setup.options,
                           post: Self.poster(mailbox: mailbox, waiter: waiter))
    }

    /// Runs until `--exit-after` is met or the window is closed (SIGTERM, SIGINT).
    public func run() throws {
        let options = setup.options
        if let dir = options.snapshotDir { try ScreenPainter.prepareSnapshotFolder(dir) }
        send(.catalogLoaded(setup.catalog, message: setup.message, screen: setup.screen))
        // A feed read before the first frame is a sync that has happened: the core takes it
        // where it would ask for the first.
        if let first = setup.initialSync {
            send(.syncedBeforeStart(first))
        }
        if let look = dependencies.timeSync { send(.clockObserved(look(), clock.now())) }
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
            painter.prepareUpcomingDetail(state)
            waitForSomething()
            takeCatalogChanges()
            if let look = dependencies.timeSync { send(.clockObserved(look(), clock.now())) }
            send(.tick(clock.now()))
        }
    }

    /// Draws until the screen shows the state, the core told what was presented after each
    /// pass (by the loop, never from inside a pass).
    func drawUntilShown() throws {
        while true {
            let pass = try painter.drawIfChanged(state, video: clips)
            for action in pass.told { send(action) }
            guard pass.again else { return }
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
