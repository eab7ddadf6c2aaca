import FoundationEssentials
import SplashCore
import SplashServices

/// Waiting for the next deadline or input without spinning, and turning what wakes the
/// loop (input, the mailbox, scripted steps) into actions.
extension KioskRunner {
    /// The earliest moment something is due: the core's deadline (a timed run's end
    /// included) or the next scripted input.
    var nextDeadline: Seconds? {
        [state.nextDeadline, script.nextTime].compactMap { $0 }.min()
    }

    func waitForSomething() {
        // The media process the core asked for is started now that the loop is idle (after
        // the frame that followed the show that used the last, not while it was drawn).
        if let failed = clips.startWarmIfAsked() { send(failed) }
        let deadline = nextDeadline
        switch clock.mode {
        case .virtual:
            if let event = waiter.poll() {
                handle(event)
            } else if let video = state.video, video.awaitsFrame {
                // Decoding takes no virtual time: the clip's next frame is waited for, so that
                // every run shows the same frames at the same moments, for as long as the core
                // allows; how long it was is the core's to judge.
                let step = video.awaitedStep
                let waited = clips.waited(show: video.show, step: step, now: MonotonicClock.seconds())
                if let got = waiter.next(timeoutMs: Int32(max(1, (VideoPlayback.virtualPatience - waited) * 1000))) {
                    handle(got)
                } else {
                    let waited = clips.waited(show: video.show, step: step, now: MonotonicClock.seconds())
                    send(.videoFrameAwaited(show: video.show, step: step, waited: waited, clock.now()))
                }
            } else if state.backgroundBusy {
                // Work on another thread takes no virtual time: wait for it before jumping ahead.
                if let got = waiter.next(timeoutMs: nil) { handle(got) }
            } else if let deadline {
                clock.advance(to: deadline)
            } else if let got = waiter.next(timeoutMs: nil) {
                handle(got)
            }
        case .real:
            var ms = deadline.map { max(0, Int32(min((($0 - clock.uptime) * 1000).rounded(.up), 86_400_000))) }
            if let watchdog = dependencies.notifier?.watchdogInterval {
                // Wake in time to feed systemd's watchdog.
                ms = min(ms ?? Int32.max, Int32(watchdog * 1000))
            }
            if let got = waiter.next(timeoutMs: ms) { handle(got) }
            dependencies.notifier?.keepAlive()
        }
        while let event = waiter.poll() { handle(event) }
        runDueScriptSteps()
    }

    /// Hands the core the catalog as another writer left it, when one did: before the input
    /// or the deadline that woke the loop, so the next splash is chosen from it.
    func takeCatalogChanges() {
        if let changed = dependencies.catalogChanges?() {
            // A picture changed on its server came under the same name: the one kept goes.
            if screens.forgetChangedPictures() { painter.forgetDetailAhead() }
            send(.catalogChanged(changed.catalog, message: changed.message, screen: changed.screen, clock.now()))
        }
    }

    func handle(_ event: ShellEvent) {
        takeCatalogChanges()
        if event == .wake {
            for make in mailbox.take() { send(make(clock.now())) }
            for task in mailbox.takeTasks() { task() }
            return
        }
        switch InputMapper.meaning(of: event, screens: screens, pill: { state.skipButton(on: $0) }) {
        case .action(let make):
            send(make(clock.now()))
        case .resized:
            for action in readScreenSizes() { send(action) }
            painter.redrawWhole()
        case .redraw:
            painter.redrawWhole()
        case .quit:
            quit = true
        case .ignored:
            break
        }
    }

    /// Every screen's size read again (a resize, a screen set up again); the first one's new
    /// layout is what the core must hear.
    func readScreenSizes() -> [KioskAction] {
        screens.refreshSizes() ? [.resized(canvas.layoutSize)] : []
    }

    func runDueScriptSteps() {
        for step in script.due(at: clock.uptime) {
            for action in ScriptPlayer.actions(for: step, in: state, at: clock.now()) { send(action) }
        }
    }
}
