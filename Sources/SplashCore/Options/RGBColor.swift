/// An opaque colour, written `#RRGGBB` in options and config.
public struct RGBColor: Equatable, Hashable, Sendable, CustomStringConvertible {
    /// The red channel, 0 to 255.
    public var red: UInt8
    /// The green channel, 0 to 255.
    public var green: UInt8
    /// The blue channel, 0 to 255.
    public var blue: UInt8

    /// The colour of these three channels.
    public init(red: UInt8, green: UInt8, blue: UInt8) {
        self.red = red
        self.green = green
        self.blue = blue
    }

    /// Parses `#RRGGBB` (the `#` may be left out); nil for anything else.
    public init?(hex: String) {
        var digits = Substring(hex)
        if digits.hasPrefix("#") { digits = digits.dropFirst() }
        guard digits.count == 6, digits.allSatisfy(\.isHexDigit), let value = UInt32(digits, radix: 16) else {
            return nil
        }
        self.init(red: UInt8(value >> 16 & 0xFF), green: UInt8(value >> 8 & 0xFF), blue: UInt8(value & 0xFF))
    }

    /// `#RRGGBB` with capital hex digits, as the options take it.
    public var description: String {
        func hex(_ v: UInt8) -> String {
            let s = String(v, radix: 16, uppercase: true)
            return s.count == 1 ? "0" + s : s
        }
        return "#" + hex(red) + hex(green) + hex(blue)
    }

    /// Pure black, the default letterbox colour.
    public static let black = RGBColor(red: 0, green: 0, blue: 0)
    /// Pure white.
    public static let white = RGBColor(red: 255, green: 255, blue: 255)
    /// The poetry widget's yellow.
    public static let widgetYellow = RGBColor(red: 254, green: 211, blue: 0)
}
