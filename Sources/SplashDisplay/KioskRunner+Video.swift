import CSDL2
import Foundation
import SplashCore
import SplashServices

/// A clip under the pill, carried out: the media process started for it, each frame the
/// core presents drawn from the ring with the pill over it (one snapshot per countdown
/// second), the frame on the screen kept until the next replaces it (a countdown tick or an
/// expose draws it again with the pill), frames given back, the process stopped with the
/// splash.
extension KioskRunner {
    func startVideo(show: Int, clip: VideoClip, blends: Bool) {
        stopVideo(poster: false)
        let post = poster()
        guard let program = ChildProgram.locateMedia() else {
            post { .videoFailed(show: show, reason: "the media process (splashboard-media) is not installed", $0) }
            return
        }
        let placement = VideoPlacement(clip: Size(width: clip.facts.width, height: clip.facts.height),
                                       on: canvas.layoutSize, mode: setup.options.fit)
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
            if let warm = warmMedia {
                warmMedia = nil
                started = try (try? play(in: warm)) ?? play(in: WarmMediaProcess(program: program))
            } else {
                started = try play(in: WarmMediaProcess(program: program))
            }
            started.onStuck = { post { .videoFailed(show: show, reason: "the media process stopped reading what it is sent", $0) } }
            started.blends = blends
            player = started
            videoPlacement = placement
            videoSnapshotCountdown = nil
            videoFramesDrawn = 0
            shownVideoSlot = nil
        } catch {
            let reason = error.localizedDescription
            post { .videoFailed(show: show, reason: reason, $0) }
        }
    }

    func stopVideo(poster: Bool) {
        player?.stop()
        player = nil
        videoPlacement = nil
        shownVideoSlot = nil
        // The splash stays up: its picture goes back on the screen.
        if poster { needsRedraw = true }
    }

    /// The core wants a media process ready for the next video show (`on`: started now,
    /// unless one is kept or a clip plays), or none.
    func keepMediaWarm(_ on: Bool) -> [KioskAction] {
        warmMediaAsked = on
        guard on else {
            warmMedia = nil
            return []
        }
        return startWarmMediaIfAsked().map { [$0] } ?? []
    }

    /// Starts the media process the core asked for when none is kept and no clip plays (a
    /// replacement waits for the loop to be idle, never while a frame is drawn); a failure
    /// is returned for the core to hear.
    func startWarmMediaIfAsked() -> KioskAction? {
        guard warmMediaAsked, player == nil else { return nil }
        warmMediaAsked = false
        guard warmMedia == nil else { return nil }
        do {
            guard let program = ChildProgram.locateMedia() else { throw MediaPlayerError("it is not installed") }
            warmMedia = try WarmMediaProcess(program: program)
            return nil
        } catch {
            return .mediaWarmFailed(reason: error.localizedDescription)
        }
    }

    /// Draws the frame in `slot` of video show `show` and the pill over it, presents it, and
    /// frees the frame it replaces.
    func presentVideoFrame(show: Int, slot: Int) {
        guard let player, player.show == show else { return }
        guard drawVideoFrame(slot) else {
            player.free(slot)
            return
        }
        if let replaced = shownVideoSlot, replaced != slot { player.free(replaced) }
        shownVideoSlot = slot
    }

    /// Draws the frame on the screen again, with the pill as it is now (a countdown tick, an
    /// expose); false when there is none.
    @discardableResult
    func redrawVideoFrame() -> Bool {
        guard let slot = shownVideoSlot else { return false }
        return drawVideoFrame(slot)
    }

    private func drawVideoFrame(_ slot: Int) -> Bool {
        guard let player, let placement = videoPlacement, case .splash(let splash) = state.scene,
              let pixels = player.pixels(of: slot) else { return false }
        let size = canvas.layoutSize
        let surface = canvas.beginFrame()
        // The poster may show where the clip leaves the background: covered at the first
        // frame, and at every frame where the renderer's buffer is not kept between frames.
        if placement.letterboxed(on: size), videoFramesDrawn == 0 || !surface.drawsInSoftware {
            surface.clear(setup.options.background)
        }
        // An animated GIF's transparent pixels show the background, as its poster's do.
        if player.blends { surface.fill(placement.destination, setup.options.background) }
        surface.drawFrame(pixels, width: player.width, height: player.height, stride: player.stride, layout: player.layout,
                          from: placement.source, to: placement.destination, blends: player.blends)
        SplashRenderer(surface: surface, fonts: fonts).drawPill(splash.countdown, button: state.skipButton)
        // One snapshot per countdown second, not one per frame.
        var snapshotPath: String?
        if let dir = setup.options.snapshotDir, videoSnapshotCountdown != splash.countdown {
            videoSnapshotCountdown = splash.countdown
            snapshotCount += 1
            snapshotPath = dir + "/" + String(format: "%04d-%@.png", snapshotCount, Scene.Kind.splash.rawValue)
        }
        canvas.underPill = nil
        do {
            try canvas.endFrame(snapshotPath: snapshotPath)
        } catch {
            log.emit(.warning(message: "cannot write a snapshot of a video frame: \(error.localizedDescription)"),
                     at: clock.uptime)
        }
        // The clip covers the poster: its decoded pixels go (drawn again if the clip fails),
        // unless another screen still shows it.
        if videoFramesDrawn == 0, canvas.others.isEmpty { canvas.releasePictures(except: []) }
        videoFramesDrawn += 1
        framesPresented += 1
        drawn = (state.scene, size)
        return true
    }
}
