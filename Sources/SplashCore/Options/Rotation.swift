/// Clockwise rotation of everything drawn, for screens mounted on their side.
public enum Rotation: Int, Equatable, Sendable, CaseIterable {
    case none = 0
    case quarter = 90
    case half = 180
    case threeQuarters = 270

    /// The size the app lays out in, for a physical output of `output` size.
    public func logicalSize(for output: Size) -> Size {
        switch self {
        case .none, .half: return output
        case .quarter, .threeQuarters: return Size(width: output.height, height: output.width)
        }
    }

    /// Maps a touch given as 0…1 across the physical output (SDL's finger events, absolute
    /// pointers on the console) to the app's logical coordinates.
    public func logicalPoint(normalizedX: Double, normalizedY: Double, output: Size) -> Point {
        let p = Point(x: Int((normalizedX * Double(output.width - 1)).rounded()),
                      y: Int((normalizedY * Double(output.height - 1)).rounded()))
        return logicalPoint(p, output: output)
    }

    /// Maps a point on the physical output to the app's logical (unrotated) coordinates.
    public func logicalPoint(_ p: Point, output: Size) -> Point {
        switch self {
        case .none: return p
        case .half: return Point(x: output.width - 1 - p.x, y: output.height - 1 - p.y)
        // Content turned 90° clockwise: logical (lx, ly) lands at (H - 1 - ly, lx).
        case .quarter: return Point(x: p.y, y: output.width - 1 - p.x)
        case .threeQuarters: return Point(x: output.height - 1 - p.y, y: p.x)
        }
    }
}

extension Rotation {
    /// This turn followed by `other` (`rotate` in the config added to a panel's own
    /// orientation).
    public func adding(_ other: Rotation) -> Rotation {
        Rotation(rawValue: (rawValue + other.rawValue) % 360) ?? .none
    }
}
