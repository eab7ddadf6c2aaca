import SplashCore

/// The colours of the screens.
enum Palette {
    static let page = RGBColor(red: 0xF5, green: 0xF2, blue: 0xEA)
    static let ink = RGBColor(red: 0x1E, green: 0x1E, blue: 0x1E)
    static let softInk = RGBColor(red: 0x4A, green: 0x46, blue: 0x40)
    static let poemInk = RGBColor(red: 0x2B, green: 0x21, blue: 0x00)
    static let emblem = RGBColor(red: 0xE0, green: 0xB4, blue: 0x00)
    /// The pill: black at this opacity, under white text.
    static let pillAlpha: UInt8 = 150
}
