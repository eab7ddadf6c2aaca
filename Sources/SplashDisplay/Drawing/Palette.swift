import SplashCore

/// The colours of the screens.
enum Palette {
    static let page = RGBColor(red: 0xF5, green: 0xF2, blue: 0xEA)
    static let ink = RGBColor(red: 0x1E, green: 0x1E, blue: 0x1E)
    static let softInk = RGBColor(red: 0x4A, green: 0x46, blue: 0x40)
    static let poemInk = RGBColor(red: 0x2B, green: 0x21, blue: 0x00)
    static let emblem = RGBColor(red: 0xE0, green: 0xB4, blue: 0x00)
    /// The poetry card: the widget's yellow (#FED300) as a 28 % tint over the page, so the
    /// card is secondary to the campaign beside it.
    static let card = RGBColor(red: 0xF8, green: 0xE9, blue: 0xA8)
    /// The poem's author: a softer tone of the poem's ink (7:1 on the card).
    static let poemSoftInk = RGBColor(red: 0x6B, green: 0x5A, blue: 0x2A)
    /// The pill: a solid near-black fill (#262626, nothing of the picture through it) under a
    /// white label, inside a light hairline. The label is 15:1 on the fill whatever is
    /// behind it, and either the hairline or the fill is at least 3:1 against any colour
    /// around the pill (docs/SCREENS.md).
    static let pillFill = RGBColor(red: 0x26, green: 0x26, blue: 0x26)
    static let pillEdge = RGBColor(red: 0xF2, green: 0xF2, blue: 0xF2)
    /// The hairline around a picture on the detail screen: black at 9 %.
    static let pictureEdgeAlpha: UInt8 = 23

    /// The operator view's own: a dark page, so that it is never taken for the kiosk's screens.
    enum Operator {
        static let background = RGBColor(red: 0x1B, green: 0x1D, blue: 0x22)
        static let tileColor = RGBColor(red: 0x2A, green: 0x2D, blue: 0x34)
        static let text = RGBColor(red: 0xEC, green: 0xEC, blue: 0xEC)
        static let muted = RGBColor(red: 0x9A, green: 0xA0, blue: 0xA6)
        static let good = RGBColor(red: 0x66, green: 0xBB, blue: 0x6A)
        static let warn = RGBColor(red: 0xFF, green: 0xB3, blue: 0x00)
        static let bad = RGBColor(red: 0xEF, green: 0x53, blue: 0x50)
    }

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

    /// `tone` as a light tint over the card (`share` % of it): a drawn emblem's tile, quieter
    /// than the campaign beside it, its glyph drawn in the tone itself.
    static func tint(_ tone: RGBColor, _ share: Int) -> RGBColor {
        func mix(_ a: UInt8, _ b: UInt8) -> UInt8 { UInt8((Int(a) * share + Int(b) * (100 - share) + 50) / 100) }
        return RGBColor(red: mix(tone.red, card.red), green: mix(tone.green, card.green), blue: mix(tone.blue, card.blue))
    }
}
