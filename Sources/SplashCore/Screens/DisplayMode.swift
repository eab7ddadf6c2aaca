/// A display mode asked for in the config (`drm-mode = 1920x1080` or `1920x1080@60`): the
/// rare override of the mode the kiosk picks for a connector (`ModeChoice`).
public struct DisplayMode: Equatable, Sendable, CustomStringConvertible {
    /// Pixels across and down.
    public var size: Size
    /// Frames a second, rounded; nil: any.
    public var refresh: Int?

    /// The mode `size` at `refresh` Hz (nil: any rate).
    public init(size: Size, refresh: Int? = nil) {
        self.size = size
        self.refresh = refresh
    }

    /// Reads `WIDTHxHEIGHT` or `WIDTHxHEIGHT@HZ`; nil when it is neither.
    public init?(parsing text: String) {
        let parts = text.lowercased().split(separator: "@", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count) else { return nil }
        let sides = parts[0].split(separator: "x", omittingEmptySubsequences: false)
        guard sides.count == 2, let w = Int(sides[0]), let h = Int(sides[1]),
              (64...16_384).contains(w), (64...16_384).contains(h)
        else { return nil }
        var refresh: Int?
        if parts.count == 2 {
            guard let hz = Int(parts[1]), (1...1_000).contains(hz) else { return nil }
            refresh = hz
        }
        self.init(size: Size(width: w, height: h), refresh: refresh)
    }

    /// As written in the config.
    public var description: String { refresh.map { "\(size)@\($0)" } ?? size.description }
}
