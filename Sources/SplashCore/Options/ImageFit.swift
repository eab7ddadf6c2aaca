/// How a splash image is placed on a screen of another shape.
public enum ImageFit: String, Equatable, Sendable, CaseIterable {
    /// The whole image, letterboxed on the background colour.
    case fit
    /// The screen covered, the image cropped around its focus (the centre by default).
    case fill

    /// Pixels drawn per pixel of the picture when it is placed on `screen`: what it must be
    /// decoded with at least.
    public func scale(of image: Size, on screen: Size) -> Double {
        Self.scale(of: placement(of: image, on: screen))
    }

    /// Pixels drawn per pixel of the picture for a placement.
    public static func scale(of placement: (source: Rect, destination: Rect)) -> Double {
        Double(placement.destination.width) / Double(max(1, placement.source.width))
    }

    /// The most of a picture's width or height, in percent, `fit` crops to cover the screen
    /// rather than leave bars: a 16:9 picture on an 800x480 screen fills it (a 6 % crop)
    /// instead of leaving slivers of 15 px that look like a fault, and so does a 2:3 poster
    /// on a 480x800 one (10 %) rather than stand between bars of 40 px; a 4:3 one on a 16:9
    /// screen (25 %) is letterboxed.
    public static let snapShare = 12

    /// Source and destination rectangles for drawing an image of `image` size on `screen`.
    /// `fit` uses the whole image and a centred destination, or covers the screen when that
    /// crops no more than `snapShare` % (with `snap`); `fill` crops the source and covers the
    /// whole screen.
    /// A crop keeps `focus` in view, as near the middle as the picture's edges allow.
    /// `clearing`: the top-right corner of that size (the pill's, `SkipButton.corner`) is
    /// kept clear where the bars have room for it: a picture with bars beside it moves left,
    /// one with bars above and below moves down, just enough that the corner is all bar —
    /// or to the edge, where the bar left on the other side would be narrower than the
    /// screen's margin (a sliver looks like a fault; one bar looks meant).
    public func placement(of image: Size, on screen: Size, snap: Bool = true,
                          focus: FocusPoint = .centre, clearing corner: Size? = nil) -> (source: Rect, destination: Rect) {
        if self == .fit, snap, image.width > 0, image.height > 0, screen.width > 0, screen.height > 0 {
            let fitted = exactPlacement(of: image, on: screen, focus: focus).destination
            let kept = min(fitted.width * 100 / screen.width, fitted.height * 100 / screen.height)
            if kept < 100, kept >= 100 - Self.snapShare { return Self.fill.exactPlacement(of: image, on: screen, focus: focus) }
        }
        var placed = exactPlacement(of: image, on: screen, focus: focus)
        if let corner { placed.destination = Self.clear(corner, of: placed.destination, on: screen) }
        return placed
    }

    /// `picture` moved within `screen` so that a corner of `corner`'s size at the top right
    /// is all bar, where the bars beside (or above and below) it are that wide together.
    static func clear(_ corner: Size, of picture: Rect, on screen: Size) -> Rect {
        var moved = picture
        let margin = ScreenGrid(screen: screen).margin
        let across = screen.width - picture.width
        let down = screen.height - picture.height
        if across > 0, across >= corner.width {
            let right = max(across - across / 2, corner.width)
            moved.x = across - right < margin ? 0 : across - right
        } else if down > 0, down >= corner.height {
            let top = max(down / 2, corner.height)
            moved.y = down - top < margin ? down : top
        }
        return moved
    }

    private func exactPlacement(of image: Size, on screen: Size, focus: FocusPoint) -> (source: Rect, destination: Rect) {
        let whole = Rect(x: 0, y: 0, width: image.width, height: image.height)
        let full = Rect(x: 0, y: 0, width: screen.width, height: screen.height)
        guard image.width > 0, image.height > 0, screen.width > 0, screen.height > 0 else {
            return (whole, full)
        }
        let imageAspect = Double(image.width) / Double(image.height)
        let screenAspect = Double(screen.width) / Double(screen.height)
        switch self {
        case .fit:
            if imageAspect > screenAspect {
                let h = Int((Double(screen.width) / imageAspect).rounded())
                return (whole, Rect(x: 0, y: (screen.height - h) / 2, width: screen.width, height: h))
            } else {
                let w = Int((Double(screen.height) * imageAspect).rounded())
                return (whole, Rect(x: (screen.width - w) / 2, y: 0, width: w, height: screen.height))
            }
        case .fill:
            if imageAspect > screenAspect {
                let w = Int((Double(image.height) * screenAspect).rounded())
                return (Rect(x: FocusPoint.offset(whole: image.width, window: w, at: focus.x), y: 0, width: w, height: image.height), full)
            } else {
                let h = Int((Double(image.width) / screenAspect).rounded())
                return (Rect(x: 0, y: FocusPoint.offset(whole: image.height, window: h, at: focus.y), width: image.width, height: h), full)
            }
        }
    }
}
