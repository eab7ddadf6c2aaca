import FoundationEssentials

/// Text no installed font can draw: each field with such characters is a warning, since
/// the screen would show them as empty boxes. Which characters a device can draw is a fact
/// of its fonts, given by the shell (`canDraw`).
extension FeedDocument {
    /// The warning for `text` when some of its characters cannot be drawn (the first three
    /// named, each once), else nil.
    static func glyphWarning(_ text: String, canDraw: (Unicode.Scalar) -> Bool) -> String? {
        var missing: [Unicode.Scalar] = []
        var more = 0
        for scalar in text.unicodeScalars where scalar.value >= 0x80 && !scalar.properties.isWhitespace
            && scalar.properties.generalCategory != .format && scalar.properties.generalCategory != .nonspacingMark
            && !missing.contains(scalar) {
            guard !canDraw(scalar) else { continue }
            if missing.count < 3 { missing.append(scalar) } else { more += 1 }
        }
        guard let first = missing.first else { return nil }
        let hex = { (s: Unicode.Scalar) in String(s.value, radix: 16, uppercase: true) }
        let named = missing.map { "\"\(Character($0))\" (U+\(String(repeating: "0", count: max(0, 4 - hex($0).count)) + hex($0)))" }
            .joined(separator: ", ") + (more > 0 ? " and \(more) more" : "")
        return "\(named) cannot be drawn by any font installed on this device and would show as "
            + "\(missing.count + more == 1 ? "an empty box" : "empty boxes"); remove "
            + "\(missing.count + more == 1 ? "it" : "them"), or install a font that has "
            + "\(missing.count + more == 1 ? "it" : "them") (`fc-list :charset=\(String(first.value, radix: 16))` "
            + "shows when one is)"
    }
}
