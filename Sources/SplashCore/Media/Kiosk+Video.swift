import Foundation

/// A clip under the pill: asked for once its show is recorded, its frames presented when
/// due and dropped when late (the countdown never waits for them), stopped with the splash,
/// and — when the media process fails, hangs or sends what it should not — ended with an
/// error while the poster stays and the countdown goes on.
extension Kiosk {
    /// A frame of show `show` is in slot `slot`, due `pts` seconds after the first.
    static func videoFrameReady(_ state: inout KioskState, show: Int, slot: Int, pts: Double,
                                _ now: Instant) -> [KioskEffect] {
        guard var video = state.video, video.show == show, video.requested else { return [.dropVideoFrame(show: show, slot: slot)] }
        guard !video.pending.contains(where: { $0.slot == slot }), video.pending.count < VideoPlayback.slots else {
            return failVideo(&state, "the media process handed over a frame slot twice")
        }
        if let origin = video.origin, origin + pts > now.uptime + video.aheadLimit {
            // Decoding runs a few frames ahead at most: a frame due far later would hold the
            // clip still (the next frames wait behind it).
            return failVideo(&state, "the media process handed over a frame due \(Int(origin + pts - now.uptime)) s ahead")
        }
        video.lastHeard = now.uptime
        video.pending.append(.init(slot: slot, pts: pts))
        var effects: [KioskEffect] = []
        if video.origin == nil {
            // The first frame: shown at once, and the clock of the others set by it.
            video.origin = now.uptime - pts
            effects.append(.emit(.videoStarted(ms: Int(((now.uptime - video.startedAt) * 1000).rounded()),
                                               decoder: video.clip.facts.decoder)))
        }
        state.video = video
        return effects + presentDueFrames(&state, now)
    }

    /// Presents the latest frame that is due, dropping the ones before it.
    static func presentDueFrames(_ state: inout KioskState, _ now: Instant) -> [KioskEffect] {
        guard var video = state.video, let origin = video.origin else { return [] }
        var effects: [KioskEffect] = []
        var due: VideoPlayback.Frame?
        while let first = video.pending.first, origin + first.pts <= now.uptime + 1e-9 {
            if let late = due {
                effects.append(.dropVideoFrame(show: video.show, slot: late.slot))
                video.dropped += 1
            }
            due = video.pending.removeFirst()
        }
        if let due {
            effects.append(.presentVideoFrame(show: video.show, slot: due.slot))
            video.presented += 1
            // A slot is free again: the next frame is owed from now (however far ahead it is due).
            video.lastHeard = max(video.lastHeard, now.uptime)
        }
        state.video = video
        return effects
    }

    /// Time has passed: due frames go up, and a media process that went quiet is given up.
    static func advanceVideo(_ state: inout KioskState, _ now: Instant) -> [KioskEffect] {
        guard let video = state.video else { return [] }
        if let hangs = video.hangsAt, now.uptime >= hangs {
            return failVideo(&state, "the media process sent no frame for \(Int(now.uptime - video.lastHeard)) s")
        }
        return presentDueFrames(&state, now)
    }

    /// The media process failed for show `show`.
    static func videoFailed(_ state: inout KioskState, show: Int, reason: String) -> [KioskEffect] {
        guard let video = state.video, video.show == show else { return [] }
        return failVideo(&state, reason)
    }

    /// Ends the clip: the poster goes back up, the countdown goes on, and it is said.
    static func failVideo(_ state: inout KioskState, _ reason: String) -> [KioskEffect] {
        guard let video = state.video else { return [] }
        state.video = nil
        return [.stopVideo(poster: true),
                .emit(.error(message: "\(AnimationLimits.isAnimation(video.clip.facts) ? "animated GIF" : "video") "
                                      + "\(video.clip.path) stopped: \(reason); its picture stays on the screen"))]
    }

    /// The splash ends: the clip stops with it.
    static func stopVideo(_ state: inout KioskState) -> [KioskEffect] {
        guard let video = state.video else { return [] }
        state.video = nil
        // A clip that was never asked for (its show not recorded, its poster refused) ended
        // nothing.
        guard video.requested else { return [] }
        return [.stopVideo(poster: false), .emit(.videoEnded(presented: video.presented, dropped: video.dropped))]
    }
}
