import FoundationEssentials
import SplashCore
import SplashServices

/// A frame's life: begun on the layout-sized surface, its pictures kept or let go, then
/// presented (turned onto the output when rotated), written as a snapshot when asked.
extension Canvas {
    /// Starts a frame and returns what to draw it on (layout-sized; turned onto the output
    /// at `endFrame` when rotated).
    @discardableResult
    public func beginFrame() -> Surface {
        if shownFromScreenBuffer { drawInMemoryAgain() }
        surface.textRuns.removeAll(keepingCapacity: true)
        return surface
    }

    /// Hands over a picture already decoding, for the frame that will show it.
    public func handOver(_ picture: PendingPicture) {
        shelf.handOver(picture)
    }

    /// Hands over the first splash's frame, composed ahead, for the frame that will show it.
    public func handOver(_ composed: ComposedPicture) {
        self.composed = composed
    }

    /// Frees decoded pictures other than `paths` (and a frame composed ahead for another).
    public func releasePictures(except paths: Set<String>) {
        shelf.release(except: paths)
        if let composed, !paths.contains(composed.path) { self.composed = nil }
    }

    /// Finishes a frame: turns it onto the output, writes `snapshotPath` as PNG when given,
    /// and presents it. `damage` is the only part that changed since the last frame, in
    /// layout pixels (nil: all of it); only it is copied to the screen.
    public func endFrame(snapshotPath: String?, damage: Rect? = nil) throws {
        var damage = damage
        if rotation != .none, surface.frame !== frame {
            damage = nil
            frame.fill(nil, .black)
            frame.drawTurned(surface.frame, by: rotation)
        }
        if let snapshotPath { try writePNG(snapshotPath) }
        guard !suspended, let output else { return }
        // A first picture still being composed into the screen's buffer is let finish.
        if let composed, composed.intoScreen { composed.finish() }
        if try !output.present(frame, damage: damage) { takeNewFramebuffer() }
    }

    /// Keeps what the frame being drawn shows in `rect` (the picture under the pill, before
    /// the pill is drawn), as `key`; false where frames are turned, where a tick redraws
    /// everything.
    @discardableResult
    public func keepUnder(_ rect: Rect, key: String) -> Bool {
        underPill = nil
        guard rotation == .none else { return false }
        underPill = SavedRegion(of: surface.frame, rect: rect, key: key)
        return underPill != nil
    }

    /// Puts back what `keepUnder` kept as `key` in `rect`, to draw over it again; false
    /// when nothing was kept for it (the next frame is then drawn whole).
    public func restoreUnder(_ rect: Rect, key: String) -> Bool {
        guard let kept = underPill, kept.key == key, kept.rect == rect, rotation == .none else { return false }
        kept.restore(onto: surface.frame)
        return true
    }
}
