import CSDL2
import Foundation
import SplashCore
import SplashServices

/// Each distinct screen drawn once and presented, the detail drawn ahead while a splash
/// counts down; what was presented is told to the core (`framePresented`, `imageFailed`).
extension KioskRunner {
    func drawIfChanged() throws {
        let size = canvas.layoutSize
        let distinct = drawn.map { $0.scene != state.scene || $0.size != size } ?? true
        guard distinct || needsRedraw else { return }
        if case .starting = state.scene { return }
        needsRedraw = false

        let surface = canvas.beginFrame()
        var failure: DrawFailure?
        switch state.scene {
        case .splash(let splash):
            do {
                try SplashRenderer(surface: surface, fonts: fonts)
                    .draw(splash, button: state.skipButton, fit: setup.options.fit, background: setup.options.background)
            } catch {
                failure = DrawFailure(path: splash.imagePath, reason: error.localizedDescription)
                if splash.campaignID != nil {
                    // Never present a campaign's splash without its image: the core chooses again.
                    send(.imageFailed(path: splash.imagePath, reason: error.localizedDescription, clock.now()))
                    return try drawIfChanged()
                }
            }
            canvas.releasePictures(except: [splash.imagePath])
        case .detail(let detail):
            let ahead = detailAhead.show(detail, size: size, on: canvas)
            failure = ahead.shown ? ahead.failure : drawDetail(detail, on: surface)
            canvas.releasePictures(except: Set([detail.imagePath, detail.poetry.imagePath, state.splashPictureAhead]
                .compactMap { $0 }))
        case .operator(let view):
            OperatorRenderer(surface: surface, fonts: fonts).draw(view)
            // A campaign's page keeps its picture while it is open: decoded once, not at each redraw.
            canvas.releasePictures(except: Set([view.campaignPage?.imagePath].compactMap { $0 }))
        case .starting:
            return
        }

        var snapshotPath: String?
        if distinct, let dir = setup.options.snapshotDir {
            snapshotCount += 1
            snapshotPath = dir + "/" + String(format: "%04d-%@.png", snapshotCount, sceneKind.rawValue)
        }
        try canvas.endFrame(snapshotPath: snapshotPath)
        try drawOtherScreens()
        framesPresented += 1
        drawn = (state.scene, size)
        if distinct {
            send(.framePresented(sceneKind, sinceStart: RunClock.millisecondsSinceProcessStart(), clock.now()))
        }
        // A picture that would not draw is the core's to judge (and to say once).
        if let failure { send(.imageFailed(path: failure.path, reason: failure.reason, clock.now())) }
    }

    /// The same scene on each other console screen, laid out for its size and turn. A
    /// picture that will not draw there is drawn as it can be: the first screen's frame is
    /// the one the core hears about.
    func drawOtherScreens() throws {
        for other in canvas.others {
            let surface = other.beginFrame()
            switch state.scene {
            case .splash(let splash):
                let button = SkipButton(screen: other.layoutSize, maxCountdown: state.settings.countdown)
                try? SplashRenderer(surface: surface, fonts: fonts)
                    .draw(splash, button: button, fit: setup.options.fit, background: setup.options.background)
            case .detail(let detail):
                _ = drawDetail(detail, on: surface)
            case .operator(let view):
                OperatorRenderer(surface: surface, fonts: fonts).draw(view)
            case .starting:
                continue
            }
            try other.endFrame(snapshotPath: nil)
        }
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
