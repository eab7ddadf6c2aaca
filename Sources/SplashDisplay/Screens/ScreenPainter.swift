import Glibc
import FoundationEssentials
import SplashCore
import SplashServices

/// The output of the display's shell: draws the core's scene on every screen once each
/// time it changes (a countdown tick redraws the pill alone), the detail drawn ahead while
/// a splash counts down, snapshots numbered in order, and a clip's frames with the pill over
/// them. It decides nothing: what it presented, or could not, is returned for the core.
final class ScreenPainter {
    /// What a drawing pass tells the core, in order, and whether the screen must be drawn
    /// again once it has heard (a campaign's splash that would not draw: the core chooses
    /// again).
    struct DrawPass {
        var told: [KioskAction] = []
        var again = false
    }

    /// Every screen; the first is laid out as the core's layout, the others for their own.
    let screens: Screens
    var canvas: Canvas { screens.first }
    let fonts: FontBook
    private let options: KioskOptions
    private let log: EventLog
    private let clock: RunClock
    /// The detail screen drawn ahead while the splash is up.
    private let detailAhead = DetailAhead()
    /// The scene last presented and the size it was laid out for.
    private var drawn: (scene: Scene, size: Size)?
    /// Whether the screen must be drawn whole at the next pass (an expose, a resize, lit again).
    private var needsRedraw = false
    private var snapshotCount = 0
    /// The campaigns (at a screen size) whose detail screen's compromises were said.
    private var layoutsSaid: Set<String> = []

    /// Draws on `screens` with `fonts`, as `options` say (fit, background, snapshots);
    /// warnings go to `log`, time is read on `clock`.
    init(screens: Screens, fonts: FontBook, options: KioskOptions, log: EventLog, clock: RunClock) {
        self.screens = screens
        self.fonts = fonts
        self.options = options
        self.log = log
        self.clock = clock
    }

    /// Makes the `--snapshot` folder and proves it can be written (a file made and removed),
    /// before the first frame: the error names the folder and why.
    static func prepareSnapshotFolder(_ dir: String) throws {
        if PathKind.of(dir) == .other {
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

    /// The next pass draws the whole screen (an expose, a resize, a poster back after a clip).
    func redrawWhole() {
        needsRedraw = true
    }

    /// The next pass draws the whole screen and forgets what it showed (lit again).
    func forgetShown() {
        drawn = nil
        needsRedraw = true
    }

    /// One pass: the scene of `state` drawn if it differs from what is on the screen (or a
    /// redraw is due), a playing clip's frame drawn again with the pill as it is now.
    func drawIfChanged(_ state: KioskState, video: VideoShell) throws -> DrawPass {
        let size = canvas.layoutSize
        let distinct = drawn.map { $0.scene != state.scene || $0.size != size } ?? true
        guard distinct || needsRedraw else { return DrawPass() }
        if case .starting = state.scene { return DrawPass() }
        let forced = needsRedraw
        needsRedraw = false

        // A clip is playing: the frame on the screen is drawn again with the new number (or,
        // after an expose or a resize, the whole screen with it); it writes its own snapshot.
        if state.video?.origin != nil, video.isPlaying, let last = drawn, case .splash(let before) = last.scene,
           case .splash(let splash) = state.scene, before.campaignID == splash.campaignID,
           before.imagePath == splash.imagePath {
            if video.redrawFrame(state, whole: forced || last.size != size) { return DrawPass() }
        }
        var snapshotPath: String?
        if distinct { snapshotPath = nextSnapshotPath(state.scene.kind) }
        // A countdown tick on the same picture redraws the pill alone.
        if !forced, let last = drawn, last.size == size, case .splash(let before) = last.scene,
           case .splash(let splash) = state.scene, before.imagePath == splash.imagePath,
           before.campaignID == splash.campaignID, try tickPill(splash, state, snapshotPath: snapshotPath) {
            drawn = (state.scene, size)
            return DrawPass(told: distinct ? [presented(state)] : [])
        }

        // The first splash's frame may be there already, composed ahead with its picture.
        var composed = false
        if case .splash(let splash) = state.scene {
            composed = canvas.takeComposed(splash.imagePath, fit: options.fit, background: options.background)
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
                    .draw(splash, button: button, fit: options.fit, background: options.background, pictureThere: composed) {
                        kept = canvas.keepUnder(button.frame, key: Self.pillKey(splash, size))
                    }
            } catch {
                failure = DrawFailure(path: splash.imagePath, reason: error.explained)
                if splash.campaignID != nil {
                    // Never present a campaign's splash without its image: the core chooses again.
                    return DrawPass(told: [.imageFailed(path: splash.imagePath, reason: error.explained, clock.now())],
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
        if case .detail(let detail) = state.scene { sayWhatTheLayoutGaveUp(detail, on: size) }
        let othersKept = try drawOtherScreens(state)
        // Once the picture is on every screen, the ticks need only what is under the pills:
        // the decoded picture is let go (where a screen's ticks redraw it all, it is kept).
        if pillKept, othersKept { keep = [] }
        screens.releasePictures(except: keep)
        drawn = (state.scene, size)
        var pass = DrawPass(told: distinct ? [presented(state)] : [])
        // A picture that would not draw is the core's to judge (and to say once).
        if let failure { pass.told.append(.imageFailed(path: failure.path, reason: failure.reason, clock.now())) }
        return pass
    }

    /// Draws a clip's frame (`pixels` of `player`, placed by `placement`) and the pill of
    /// `splash` over it, and presents it; `first`: the first frame since the clip started or
    /// the screen was drawn whole (the poster around a letterboxed clip is cleared).
    func drawClipFrame(_ pixels: UnsafeRawPointer, of player: MediaPlayer, placement: VideoPlacement, splash: SplashScene,
                       state: KioskState, first: Bool, snapshot: Bool) {
        let size = canvas.layoutSize
        let surface = canvas.beginFrame()
        // The poster may show where the clip leaves the background: covered at the first
        // frame (the frame's pixels are kept between frames).
        if placement.letterboxed(on: size), first {
            surface.clear(options.background)
        }
        // An animated GIF's transparent pixels show the background, as its poster's do.
        if player.blends { surface.fill(placement.destination, options.background) }
        // The translucent pill is drawn over what is under it: where the frame does not cover
        // it (a letterbox), what is under it is the background again, not the last pill.
        let button = state.skipButton
        if placement.letterboxed(on: size), !placement.destination.contains(button.frame) {
            surface.fill(button.frame, options.background)
        }
        surface.drawFrame(pixels, width: player.width, height: player.height, stride: player.stride, layout: player.layout,
                          from: placement.source, to: placement.destination, blends: player.blends)
        SplashRenderer(surface: surface, fonts: fonts).drawPill(splash.countdown, button: button)
        canvas.underPill = nil
        do {
            try canvas.endFrame(snapshotPath: snapshot ? nextSnapshotPath(.splash) : nil)
        } catch {
            log.emit(.warning(message: "cannot write a snapshot of a video frame: \(error.explained)"),
                     at: clock.uptime)
        }
        // The clip covers the poster: its decoded pixels go (drawn again if the clip fails),
        // unless another screen still shows it.
        if first, screens.others.isEmpty { canvas.releasePictures(except: []) }
        drawn = (state.scene, size)
    }

    /// Every screen black, its pictures let go: what shows while the means turn it off,
    /// and all that a screen that ignores them shows.
    func blackOut() {
        for screen in screens.all {
            screen.beginFrame().clear(.black)
            try? screen.endFrame(snapshotPath: nil)
            screen.releasePictures(except: [])
        }
        forgetDetailAhead()
    }

    /// While a splash is up, draws the detail screen it hands over to off the screen.
    func prepareUpcomingDetail(_ state: KioskState) {
        let detail = state.upcomingDetail
        detailAhead.prepare(detail, size: canvas.layoutSize, on: canvas) { surface in
            detail.flatMap { drawDetail($0, on: surface) }
        }
    }

    /// The detail drawn ahead is dropped (its pictures changed, or the screen went dark).
    func forgetDetailAhead() {
        detailAhead.prepare(nil, size: canvas.layoutSize, on: canvas) { _ in nil }
    }

    /// The core's word that the scene is on the screen.
    private func presented(_ state: KioskState) -> KioskAction {
        .framePresented(state.scene.kind, sinceStart: RunClock.millisecondsSinceProcessStart(), clock.now())
    }

    /// The path of the next snapshot, of a screen of `kind`; nil when none are written.
    private func nextSnapshotPath(_ kind: Scene.Kind) -> String? {
        guard let dir = options.snapshotDir else { return nil }
        snapshotCount += 1
        return dir + "/" + String(cFormat: "%04d-", snapshotCount) + kind.rawValue + ".png"
    }

    /// What lies under the pill of `splash` on a screen laid out at `size`.
    private static func pillKey(_ splash: SplashScene, _ size: Size) -> String {
        "\(splash.campaignID ?? "")|\(splash.imagePath)|\(size)"
    }

    /// A countdown tick: on every screen, what was under the pill put back and the pill
    /// drawn with the new number; only the pill's rectangle is presented. False (nothing
    /// drawn) when a screen has not kept what was under its pill: the frame is drawn whole.
    private func tickPill(_ splash: SplashScene, _ state: KioskState, snapshotPath: String?) throws -> Bool {
        let screens = screens.all
        let buttons = screens.map { state.skipButton(on: $0.layoutSize) }
        let ready = zip(screens, buttons).allSatisfy { screen, button in
            screen.underPill.map { $0.key == Self.pillKey(splash, screen.layoutSize) && $0.rect == button.frame } ?? false
        }
        guard ready else { return false }
        for (screen, button) in zip(screens, buttons) {
            let surface = screen.beginFrame()
            guard screen.restoreUnder(button.frame, key: Self.pillKey(splash, screen.layoutSize)) else { return false }
            SplashRenderer(surface: surface, fonts: fonts).drawPill(splash.countdown, button: button)
            try screen.endFrame(snapshotPath: screen === canvas ? snapshotPath : nil, damage: button.frame)
        }
        return true
    }

    /// The same scene on each other console screen, laid out for its size and turn. A
    /// picture that will not draw there is drawn as it can be: the first screen's frame is
    /// the one the core hears about. True when every one kept what is under its pill (a
    /// splash) — its ticks can redraw the pill alone.
    private func drawOtherScreens(_ state: KioskState) throws -> Bool {
        var allKept = true
        for other in screens.others {
            let surface = other.beginFrame()
            switch state.scene {
            case .splash(let splash):
                let button = state.skipButton(on: other.layoutSize)
                try? SplashRenderer(surface: surface, fonts: fonts)
                    .draw(splash, button: button, fit: options.fit, background: options.background) {
                        if !other.keepUnder(button.frame, key: Self.pillKey(splash, other.layoutSize)) { allKept = false }
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

    /// Says once per campaign and screen size what its detail screen had to give up to fit
    /// (`DetailPlacement.gaveUp`), after the frame is on the screen.
    private func sayWhatTheLayoutGaveUp(_ detail: DetailScene, on size: Size) {
        guard let campaign = detail.campaignID, layoutsSaid.insert("\(size) \(campaign)").inserted else { return }
        let pictureSize = detail.imagePath.flatMap { canvas.imageSize(of: $0) }
        let gaveUp = DetailPlacement(detail, screen: size, pictureSize: pictureSize, fonts: fonts).gaveUp(detail, fonts: fonts)
        if !gaveUp.isEmpty { log.emit(.layout(campaign: campaign, size: size, gaveUp: gaveUp), at: clock.uptime) }
    }

    private func drawDetail(_ detail: DetailScene, on surface: Surface) -> DrawFailure? {
        do {
            try DetailRenderer(surface: surface, fonts: fonts).draw(detail)
            return nil
        } catch {
            return DrawFailure(path: detail.imagePath ?? "", reason: error.explained)
        }
    }
}
