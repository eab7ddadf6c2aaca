/// What a screen's next buffer lacks, where frames are shown from a few buffers in turn
/// (a DRM output's two dumb buffers, a framebuffer's two panned pages, or one buffer
/// written in place): the buffer written next last held the frame `buffers` presents ago,
/// so it lacks this frame's changed rectangle and those of the presents since; until each
/// buffer has had a whole frame, it lacks all of it.
public struct BufferDamage: Equatable, Sendable {
    /// How many buffers are shown in turn.
    public private(set) var buffers: Int
    /// The changed rectangles of the last `buffers - 1` presents, the newest last (nil: all).
    private var recent: [Rect?] = []
    /// How many buffers have had a whole frame (0 to `buffers`).
    private var filled = 0

    /// The damage of a screen showing `buffers` buffers in turn, none filled yet.
    public init(buffers: Int) {
        self.buffers = max(1, buffers)
    }

    /// The part of a frame of bounds `whole` to copy into the buffer written next, when
    /// `damage` is what changed since the last present (nil: everything).
    public mutating func toCopy(damage: Rect?, whole: Rect) -> Rect {
        var region = filled >= buffers ? damage : nil
        for earlier in recent {
            region = earlier.flatMap { e in region.map { e.union($0) } }
        }
        let copy = (region ?? whole).clipped(to: whole)
        recent = Array((recent + [damage?.clipped(to: whole)]).suffix(buffers - 1))
        if copy == whole { filled = min(filled + 1, buffers) }
        return copy
    }

    /// Every buffer lacks all of the frame again (another program drew into them, or the
    /// screen now shows `buffers` buffers in turn).
    public mutating func reset(buffers: Int? = nil) {
        if let buffers { self.buffers = max(1, buffers) }
        recent = []
        filled = 0
    }
}
