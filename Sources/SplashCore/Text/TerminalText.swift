/// Text from a feed made safe for a person's terminal: control characters (C0, DEL, C1)
/// and the Unicode controls that reorder or hide text are shown escaped (`\x1b`,
/// `\u{202e}`), so a title cannot move the cursor, retitle the window, clear the screen or
/// fake a line in the output of `splashboard campaigns` or `sync`. JSON output is not
/// passed through this: JSON escapes what it must itself.
public enum TerminalText {
    /// `text` with every character a terminal would act on written out as an escape.
    public static func printable(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: needsEscape) else { return text }
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            if needsEscape(scalar) {
                out += scalar.value < 0x80 ? "\\x" + hex(scalar.value, 2) : "\\u{" + hex(scalar.value, 1) + "}"
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// `text` cut to `limit` characters at the most, ending with "..." when it was cut: for
    /// quoting what a file or a feed said in a one-line message.
    public static func clipped(_ text: String, to limit: Int = 80) -> String {
        text.count > limit ? String(text.prefix(limit - 3)) + "..." : text
    }

    static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F: return true
        // Bidirectional overrides and isolates, and the marks that change how text reads.
        case 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: return true
        // The line and paragraph separators: a line break to some readers.
        case 0x2028, 0x2029: return true
        default: return false
        }
    }

    private static func hex(_ value: UInt32, _ digits: Int) -> String {
        let s = String(value, radix: 16)
        return String(repeating: "0", count: max(0, digits - s.count)) + s
    }
}
