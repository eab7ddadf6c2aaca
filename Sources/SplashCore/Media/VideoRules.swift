import FoundationEssentials

/// A clip under the pill: asked for once its show is recorded, its frames presented when
/// due and dropped when late (the countdown never waits for them), stopped with the splash,
/// and — when the media process fails, hangs or sends what it should not — ended with an
/// error while the poster stays and the countdown goes on. A feature of its own: it changes
/// only the playback the root hands it (nil: no clip plays).
enum VideoRules {
    /// A frame of show `show` is in slot `slot`, due `pts` seconds after the first.
    static func frameReady(_ playback: inout VideoPlayback?, show: Int, slot: Int, pts: Double,
                           _ now: Instant) -> [KioskEffect] {
        guard var video = playback, video.show == show, video.requested else { return [.dropVideoFrame(show: show, slot: slot)] }
        guard !video.pending.contains(where: { $0.slot == slot }), video.pending.count < VideoPlayback.slots else {
            return fail(&playback, "the media process handed over a frame slot twice")
        }
        if let origin = video.origin, origin + pts > now.uptime + video.aheadLimit {
            // Decoding runs a few frames ahead at most: a frame due far later would hold the
            // clip still (the next frames wait behind it).
            return fail(&playback, "the media process handed over a frame due \(Int(origin + pts - now.uptime)) s ahead")
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
        playback = video
        return effects + presentDueFrames(&playback, now)
    }

    /// Presents the latest frame that is due, dropping the ones before it.
    static func presentDueFrames(_ playback: inout VideoPlayback?, _ now: Instant) -> [KioskEffect] {
        guard var video = playback, let origin = video.origin else { return [] }
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
        playback = video
        return effects
    }

    /// Time has passed: due frames go up, and a media process that went quiet is given up.
    static func advance(_ playback: inout VideoPlayback?, _ now: Instant) -> [KioskEffect] {
        guard let video = playback else { return [] }
        if let hangs = video.hangsAt, now.uptime >= hangs {
            return fail(&playback, "the media process sent no frame for \(Int(now.uptime - video.lastHeard)) s")
        }
        return presentDueFrames(&playback, now)
    }

    /// The loop waited `waited` real seconds (a virtual clock) for frame `step` of show
    /// `show`: decoding takes no virtual time, so the frame is waited for, but not for ever.
    static func awaited(_ playback: inout VideoPlayback?, show: Int, step: Int, waited: Seconds) -> [KioskEffect] {
        guard let video = playback, video.show == show, video.awaitsFrame, video.awaitedStep == step,
              waited >= VideoPlayback.virtualPatience else { return [] }
        return fail(&playback, "the media process sent no frame in \(Int(VideoPlayback.virtualPatience)) s")
    }

    /// The media process failed for show `show`.
    static func failed(_ playback: inout VideoPlayback?, show: Int, reason: String) -> [KioskEffect] {
        guard let video = playback, video.show == show else { return [] }
        return fail(&playback, reason)
    }

    /// Ends the clip: the poster goes back up, the countdown goes on, and it is said.
    static func fail(_ playback: inout VideoPlayback?, _ reason: String) -> [KioskEffect] {
        guard let video = playback else { return [] }
        playback = nil
        return [.stopVideo(poster: true),
                .emit(.error(message: "\(AnimationLimits.isAnimation(video.clip.facts) ? "animated GIF" : "video") "
                                      + "\(video.clip.path) stopped: \(reason); its picture stays on the screen"))]
    }

    /// The splash ends: the clip stops with it.
    static func stop(_ playback: inout VideoPlayback?) -> [KioskEffect] {
        guard let video = playback else { return [] }
        playback = nil
        // A clip that was never asked for (its show not recorded, its poster refused) ended
        // nothing.
        guard video.requested else { return [] }
        return [.stopVideo(poster: false), .emit(.videoEnded(presented: video.presented, dropped: video.dropped))]
    }
}
