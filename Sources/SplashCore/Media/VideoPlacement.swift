/// Where a clip's frames go on a screen: the size the media process scales each frame to,
/// the part of it shown and where — fitted (letterboxed on the background) or filled
/// (cropped), as pictures are. Frames are scaled once, in the media process, to the size
/// they are shown at.
public struct VideoPlacement: Equatable, Sendable {
    /// The size frames are scaled to.
    public var frame: Size
    /// The part of a scaled frame shown (all of it when fitted).
    public var source: Rect
    /// Where it goes on the screen.
    public var destination: Rect

    /// The placement of a `clip`-sized clip on `screen`, `fit` or `fill`, leaving the pill's
    /// `corner` clear where its bars have room (`ImageFit.placement`).
    public init(clip: Size, on screen: Size, mode: ImageFit, clearing corner: Size? = nil) {
        let placed = mode.placement(of: clip, on: screen, clearing: corner)
        destination = placed.destination
        let scale = placed.source.width > 0 ? Double(placed.destination.width) / Double(placed.source.width) : 1
        let side = MediaMessage.maxSide
        frame = Size(width: min(side, max(1, Int((Double(clip.width) * scale).rounded()))),
                     height: min(side, max(1, Int((Double(clip.height) * scale).rounded()))))
        let x = min(max(0, Int((Double(placed.source.x) * scale).rounded())), frame.width - 1)
        let y = min(max(0, Int((Double(placed.source.y) * scale).rounded())), frame.height - 1)
        source = Rect(x: x, y: y, width: min(destination.width, frame.width - x), height: min(destination.height, frame.height - y))
    }

    /// Whether the frame leaves part of the screen to the background.
    public func letterboxed(on screen: Size) -> Bool {
        destination != Rect(x: 0, y: 0, width: screen.width, height: screen.height)
    }
}
