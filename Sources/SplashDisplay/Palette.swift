import SplashCore

/// The colours of the screens.
enum Palette {
    static let page = RGBColor(red: 0xF5, green: 0xF2, blue: 0xEA)
    static let ink = RGBColor(red: 0x1E, green: 0x1E, blue: 0x1E)
    static let softInk = RGBColor(red: 0x4A, green: 0x46, blue: 0x40)
    static let poemInk = RGBColor(red: 0x2B, green: 0x21, blue: 0x00)
    static let emblem = RGBColor(red: 0xE0, green: 0xB4, blue: 0x00)
    /// The pill: an opaque dark fill under white text (contrast above 12:1 whatever is
    /// behind it), inside a light ring and a dark hairline, so that its shape stands off
    /// black, white, grey and busy pictures alike (one of the two rings is at least 3:1
    /// against any colour).
    static let pillFill = RGBColor(red: 0x1C, green: 0x1C, blue: 0x1E)
    static let pillRing = RGBColor(red: 0xF2, green: 0xF2, blue: 0xF2)
    static let pillOutline = RGBColor.black

    /// Tiles for drawn poem emblems: deep tones that carry white text on the yellow card.
    static let emblemTiles: [RGBColor] = [
        RGBColor(red: 0xB5, green: 0x4A, blue: 0x2A), RGBColor(red: 0x2E, green: 0x6B, blue: 0x5E),
        RGBColor(red: 0x3B, green: 0x4F, blue: 0x8C), RGBColor(red: 0x7A, green: 0x3E, blue: 0x6B),
        RGBColor(red: 0x5C, green: 0x6B, blue: 0x2E), RGBColor(red: 0x8C, green: 0x5A, blue: 0x1E),
    ]

    /// The emblem tile for a poem, the same one every time for the same title.
    static func emblemColor(for origin: String) -> RGBColor {
        let sum = origin.unicodeScalars.reduce(0) { ($0 &* 31 &+ Int($1.value)) & 0xFFFF }
        return emblemTiles[sum % emblemTiles.count]
    }
}
