import CSDL2
import Foundation
import SplashCore
import SplashServices

/// Each distinct screen drawn once and presented, the detail drawn ahead while a splash
/// counts down; what was presented is told to the core (`framePresented`, `imageFailed`).
extension KioskRunner {
    /// What a drawing pass tells the core, in order, and whether the screen must be drawn
    /// again once it has heard (a campaign's splash that would not draw: the core chooses
    /// again).
    struct DrawPass {
        var told: [KioskAction] = []
        var again = false
    }

    /// Draws until the screen shows the state, the core told what was presented after each
    /// pass (by the loop, never from inside a pass).
    func drawUntilShown() throws {
        while true {
            let pass = try drawIfChanged()
            for action in pass.told { send(action) }
            guard pass.again else { return }
        }
    }

    func drawIfChanged() throws -> DrawPass {
        let size = canvas.layoutSize
        let distinct = drawn.map { $0.scene != state.scene || $0.size != size } ?? true
        guard distinct || needsRedraw else { return DrawPass() }
        if case .starting = state.scene { return DrawPass() }
        let forced = needsRedraw
        needsRedraw = false

        // A clip is playing: the frame on the screen is drawn again with the new number (or,
        // after an expose or a resize, the whole screen with it); it writes its own snapshot.
        if state.video?.origin != nil, player != nil, let last = drawn, case .splash(let before) = last.scene,
           case .splash(let splash) = state.scene, before.campaignID == splash.campaignID,
           before.imagePath == splash.imagePath {
            if forced || last.size != size { videoFramesDrawn = 0 }
            if redrawVideoFrame() { return DrawPass() }
        }
        var snapshotPath: String?
        if distinct, let dir = setup.options.snapshotDir {
            snapshotCount += 1
            snapshotPath = dir + "/" + String(format: "%04d-%@.png", snapshotCount, sceneKind.rawValue)
        }
        // A countdown tick on the same picture redraws the pill alone.
        if !forced, let last = drawn, last.size == size, case .splash(let before) = last.scene,
           case .splash(let splash) = state.scene, before.imagePath == splash.imagePath,
           before.campaignID == splash.campaignID, try tickPill(splash, snapshotPath: snapshotPath) {
            framesPresented += 1
            drawn = (state.scene, size)
            return DrawPass(told: distinct ? [presented()] : [])
        }

        let surface = canvas.beginFrame()
        var failure: DrawFailure?
        var keep: Set<String> = []
        var pillKept = false
        switch state.scene {
        case .splash(let splash):
            let button = state.skipButton
            var kept = false
            do {
                try SplashRenderer(surface: surface, fonts: fonts)
                    .draw(splash, button: button, fit: setup.options.fit, background: setup.options.background) {
                        kept = canvas.keepUnder(button.frame, key: pillKey(splash, size))
                    }
            } catch {
                failure = DrawFailure(path: splash.imagePath, reason: error.localizedDescription)
                if splash.campaignID != nil {
                    // Never present a campaign's splash without its image: the core chooses again.
                    return DrawPass(told: [.imageFailed(path: splash.imagePath, reason: error.localizedDescription, clock.now())],
                                    again: true)
                }
            }
            keep = [splash.imagePath]
            pillKept = kept
        case .detail(let detail):
            let ahead = detailAhead.show(detail, size: size, on: canvas)
            failure = ahead.shown ? ahead.failure : drawDetail(detail, on: surface)
            keep = Set([detail.imagePath, detail.poetry.imagePath, state.splashPictureAhead].compactMap { $0 })
        case .operator(let view):
            OperatorRenderer(surface: surface, fonts: fonts).draw(view)
            // A campaign's page keeps its picture while it is open: decoded once, not at each redraw.
            keep = Set([view.campaignPage?.imagePath].compactMap { $0 })
        case .starting:
            return DrawPass()
        }

        try canvas.endFrame(snapshotPath: snapshotPath)
        let othersKept = try drawOtherScreens()
        // Once the picture is on every screen, the ticks need only what is under the pills:
        // the decoded picture is let go (where a screen's ticks redraw it all, it is kept).
        if pillKept, othersKept { keep = [] }
        for screen in [canvas] + canvas.others { screen.releasePictures(except: keep) }
        framesPresented += 1
        drawn = (state.scene, size)
        var pass = DrawPass(told: distinct ? [presented()] : [])
        // A picture that would not draw is the core's to judge (and to say once).
        if let failure { pass.told.append(.imageFailed(path: failure.path, reason: failure.reason, clock.now())) }
        return pass
    }

    /// The core's word that the scene is on the screen.
    private func presented() -> KioskAction {
        .framePresented(sceneKind, sinceStart: RunClock.millisecondsSinceProcessStart(), clock.now())
    }

    /// What lies under the pill of `splash` on a screen laid out at `size`.
    func pillKey(_ splash: SplashScene, _ size: Size) -> String {
        "\(splash.campaignID ?? "")|\(splash.imagePath)|\(size)"
    }

    /// A countdown tick: on every screen, what was under the pill put back and the pill
    /// drawn with the new number; only the pill's rectangle is presented. False (nothing
    /// drawn) when a screen has not kept what was under its pill: the frame is drawn whole.
    func tickPill(_ splash: SplashScene, snapshotPath: String?) throws -> Bool {
        let screens = [canvas] + canvas.others
        let buttons = screens.map { SkipButton(screen: $0.layoutSize, maxCountdown: state.settings.countdown) }
        let ready = zip(screens, buttons).allSatisfy { screen, button in
            screen.underPill.map { $0.key == pillKey(splash, screen.layoutSize) && $0.rect == button.frame } ?? false
        }
        guard ready else { return false }
        for (screen, button) in zip(screens, buttons) {
            let surface = screen.beginFrame()
            guard screen.restoreUnder(button.frame, key: pillKey(splash, screen.layoutSize)) else { return false }
            SplashRenderer(surface: surface, fonts: fonts).drawPill(splash.countdown, button: button)
            try screen.endFrame(snapshotPath: screen === canvas ? snapshotPath : nil, damage: button.frame)
        }
        return true
    }

    /// The same scene on each other console screen, laid out for its size and turn. A
    /// picture that will not draw there is drawn as it can be: the first screen's frame is
    /// the one the core hears about. True when every one kept what is under its pill (a
    /// splash) — its ticks can redraw the pill alone.
    @discardableResult
    func drawOtherScreens() throws -> Bool {
        var allKept = true
        for other in canvas.others {
            let surface = other.beginFrame()
            switch state.scene {
            case .splash(let splash):
                let button = SkipButton(screen: other.layoutSize, maxCountdown: state.settings.countdown)
                try? SplashRenderer(surface: surface, fonts: fonts)
                    .draw(splash, button: button, fit: setup.options.fit, background: setup.options.background) {
                        if !other.keepUnder(button.frame, key: pillKey(splash, other.layoutSize)) { allKept = false }
                    }
            case .detail(let detail):
                _ = drawDetail(detail, on: surface)
            case .operator(let view):
                OperatorRenderer(surface: surface, fonts: fonts).draw(view)
            case .starting:
                continue
            }
            try other.endFrame(snapshotPath: nil)
        }
        return allKept
    }

    func drawDetail(_ detail: DetailScene, on surface: Surface) -> DrawFailure? {
        do {
            try DetailRenderer(surface: surface, fonts: fonts).draw(detail)
            return nil
        } catch {
            return DrawFailure(path: detail.imagePath ?? "", reason: error.localizedDescription)
        }
    }

    /// While a splash is up, draws the detail screen it hands over to off the screen.
    func prepareUpcomingDetail() {
        let detail = state.upcomingDetail
        detailAhead.prepare(detail, size: canvas.layoutSize, on: canvas) { surface in
            detail.flatMap { drawDetail($0, on: surface) }
        }
    }

    /// The current screen's kind, for snapshots and `frame` events.
    var sceneKind: Scene.Kind { state.scene.kind }
}
