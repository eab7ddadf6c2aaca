import FoundationEssentials
import SplashCore
import SplashServices

/// The display's half of a clip under the pill, carried out as the core decides: the media
/// process started for it (the one kept warm when there is one), each frame the core
/// presents drawn by the painter with the pill over it (one snapshot per countdown second),
/// the frame on the screen kept until the next replaces it, frames given back, the process
/// stopped with the splash. Failures are posted for the core to judge.
final class VideoShell {
    private let painter: ScreenPainter
    private let options: KioskOptions
    private let post: (@escaping (Instant) -> KioskAction) -> Void
    /// The media process of the clip under the pill, while one plays.
    private var player: MediaPlayer?
    /// A media process started ahead of the next video show, while the core wants one, and
    /// whether the core asked for one that is not started yet.
    private var warm: WarmMediaProcess?
    private var warmAsked = false
    /// Where its frames go, and the countdown of the last one written as a snapshot.
    private var placement: VideoPlacement?
    private var snapshotCountdown: Int?
    private var framesDrawn = 0
    /// The ring slot whose frame is on the screen, kept until the next frame replaces it.
    private var shownSlot: Int?
    /// On a virtual clock: since when (real seconds) the loop has waited for which frame.
    private var awaited: (show: Int, step: Int, since: Seconds)?

    /// Frames drawn by `painter` as `options` place them; what the core must hear is handed
    /// to `post` (any thread).
    init(painter: ScreenPainter, options: KioskOptions, post: @escaping (@escaping (Instant) -> KioskAction) -> Void) {
        self.painter = painter
        self.options = options
        self.post = post
    }

    /// Whether a clip's process is playing.
    var isPlaying: Bool { player != nil }

    func start(show: Int, clip: VideoClip, blends: Bool) {
        stop(poster: false)
        let post = post
        guard let program = ChildProgram.locateMedia() else {
            post { .videoFailed(show: show, reason: "the media process (splashboard-media) is not installed", $0) }
            return
        }
        let screen = painter.canvas.layoutSize
        let placement = VideoPlacement(clip: Size(width: clip.facts.width, height: clip.facts.height), on: screen,
                                       mode: options.fit,
                                       clearing: SkipButton(screen: screen).corner)
        do {
            // Planar YUV frames (a third of the memory), turned into the screen's pixels as they
            // are drawn, where a frame is shown whole.
            let whole = placement.source == Rect(x: 0, y: 0, width: placement.frame.width, height: placement.frame.height)
            // The warm process when there is one (its libraries loaded); one that died while
            // it waited is replaced by a fresh one.
            func play(in process: WarmMediaProcess) throws -> MediaPlayer {
                try MediaPlayer(show: show, clip: clip.path, process: process, width: placement.frame.width,
                                height: placement.frame.height, slots: VideoPlayback.slots, planar: whole, post: post)
            }
            let started: MediaPlayer
            if let kept = warm {
                warm = nil
                started = try (try? play(in: kept)) ?? play(in: WarmMediaProcess(program: program))
            } else {
                started = try play(in: WarmMediaProcess(program: program))
            }
            started.onStuck = { post { .videoFailed(show: show, reason: "the media process stopped reading what it is sent", $0) } }
            started.blends = blends
            player = started
            self.placement = placement
            snapshotCountdown = nil
            framesDrawn = 0
            shownSlot = nil
        } catch {
            let reason = error.explained
            post { .videoFailed(show: show, reason: reason, $0) }
        }
    }

    /// Stops the clip; `poster`: the splash stays up and its picture goes back on the screen.
    func stop(poster: Bool) {
        player?.stop()
        player = nil
        placement = nil
        shownSlot = nil
        if poster { painter.redrawWhole() }
    }

    /// The core wants a media process ready for the next video show (`on`: started now,
    /// unless one is kept or a clip plays), or none.
    func keepWarm(_ on: Bool) -> [KioskAction] {
        warmAsked = on
        guard on else {
            warm = nil
            return []
        }
        return startWarmIfAsked().map { [$0] } ?? []
    }

    /// The core wants the used process replaced: started when the loop is next idle.
    func replaceWarm() {
        warmAsked = true
    }

    /// Starts the media process the core asked for when none is kept and no clip plays (a
    /// replacement waits for the loop to be idle, never while a frame is drawn); a failure
    /// is returned for the core to hear.
    func startWarmIfAsked() -> KioskAction? {
        guard warmAsked, player == nil else { return nil }
        warmAsked = false
        guard warm == nil else { return nil }
        do {
            guard let program = ChildProgram.locateMedia() else { throw MediaPlayerError("it is not installed") }
            warm = try WarmMediaProcess(program: program)
            return nil
        } catch {
            return .mediaWarmFailed(reason: error.explained)
        }
    }

    /// Draws the frame in `slot` of video show `show` and the pill over it, presents it, and
    /// frees the frame it replaces.
    func present(show: Int, slot: Int, _ state: KioskState) {
        guard let player, player.show == show else { return }
        guard draw(slot, state) else {
            player.free(slot)
            return
        }
        if let replaced = shownSlot, replaced != slot { player.free(replaced) }
        shownSlot = slot
    }

    /// Gives back a frame the core will not present.
    func drop(show: Int, slot: Int) {
        if player?.show == show { player?.free(slot) }
    }

    /// Draws the frame on the screen again, with the pill as it is now (a countdown tick, an
    /// expose: `whole`, the poster around it too); false when there is none.
    func redrawFrame(_ state: KioskState, whole: Bool) -> Bool {
        if whole { framesDrawn = 0 }
        guard let slot = shownSlot else { return false }
        return draw(slot, state)
    }

    /// On a virtual clock, how long (real seconds, read on `now`) the loop has waited for the
    /// awaited frame `step` of `show`, counted from the first time it asked about that frame.
    func waited(show: Int, step: Int, now: Seconds) -> Seconds {
        if awaited?.show != show || awaited?.step != step { awaited = (show, step, now) }
        return now - (awaited?.since ?? now)
    }

    private func draw(_ slot: Int, _ state: KioskState) -> Bool {
        guard let player, let placement, case .splash(let splash) = state.scene,
              let pixels = player.pixels(of: slot) else { return false }
        // One snapshot per countdown second, not one per frame.
        let snapshot = snapshotCountdown != splash.countdown
        snapshotCountdown = splash.countdown
        painter.drawClipFrame(pixels, of: player, placement: placement, splash: splash, state: state,
                              first: framesDrawn == 0, snapshot: snapshot)
        framesDrawn += 1
        return true
    }
}
