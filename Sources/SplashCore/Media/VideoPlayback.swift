/// A clip being played under the pill: which show it is (the shell's messages name it),
/// the frames the media process has handed over and not yet shown, and when frames are
/// due — the first frame sets the clock, each later one is due that much after it.
public struct VideoPlayback: Equatable, Sendable {
    /// A decoded frame waiting in the ring: its slot and its time after the first frame.
    public struct Frame: Equatable, Sendable {
        public var slot: Int
        public var pts: Double
    }

    /// Which video show this is; a message about another one is stale.
    public var show: Int
    /// The clip and what is known of it.
    public var clip: VideoClip
    /// When the show started (the poster went up), on the monotonic clock.
    public var startedAt: Seconds
    /// Whether the media process was asked to play (once the show is recorded).
    public var requested = false
    /// When the first frame was presented, minus its time: frame `pts` is due at `origin + pts`.
    public var origin: Seconds?
    /// Frames handed over and not yet shown, in the order they came.
    public var pending: [Frame] = []
    /// When the media process last handed over a frame, was asked to play, or had a slot
    /// freed (a frame shown): the next frame is owed from then.
    public var lastHeard: Seconds
    /// Frames shown and frames dropped (late) in this show.
    public var presented = 0
    public var dropped = 0

    /// Seconds the first frame may take, and then each further one, before the media
    /// process counts as hung.
    public static let firstFrameTimeout: Seconds = 5
    public static let frameTimeout: Seconds = 2
    /// Seconds ahead of now a frame may be due when it is handed over: decoding runs a few
    /// frames ahead, never this far — more for an animation whose frames are held long (a
    /// ring's worth of its longest).
    public static let baseAheadLimit: Seconds = 5
    public var aheadLimit: Seconds {
        max(Self.baseAheadLimit, Double(Self.slots) * (clip.facts.longestFrame ?? 0) + 1)
    }
    /// Frames the ring holds: one on the screen, two decoding ahead.
    public static let slots = 3

    /// A playback of `clip` for show `show`, started at `at`.
    public init(show: Int, clip: VideoClip, at: Seconds) {
        self.show = show
        self.clip = clip
        startedAt = at
        lastHeard = at
    }

    /// When the first pending frame is due, if one is pending and the clock is set.
    public var nextFrameAt: Seconds? {
        guard let origin, let first = pending.first else { return nil }
        return origin + first.pts
    }

    /// When the media process counts as hung if nothing more comes.
    public var hangsAt: Seconds? {
        guard requested, pending.isEmpty else { return nil }
        return lastHeard + (origin == nil ? Self.firstFrameTimeout : Self.frameTimeout)
    }

    /// Whether the next step needs a frame from the media process (a virtual clock waits
    /// for it instead of jumping ahead).
    public var awaitsFrame: Bool { requested && pending.isEmpty }

    /// On a virtual clock, which stands still while a frame is awaited: the real seconds the
    /// media process has for each frame before it counts as hung (`videoFrameAwaited`).
    public static let virtualPatience: Seconds = 10

    /// Which frame is awaited: the same one as long as none is shown or dropped.
    public var awaitedStep: Int { presented + dropped }
}
