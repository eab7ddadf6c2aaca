import FoundationEssentials

/// The config file: `key = value` lines with the option names without `--`, `#` comments
/// and blank lines, as people write them: Windows (CRLF) or old Mac (CR) line endings and a
/// UTF-8 byte order mark are read, and ` # …` after a value is a comment. A value may be
/// wrapped in double quotes to keep spaces at its ends, or a ` #` inside it.
public enum ConfigFile {
    /// Splits the file's text into settings; a line that is not `key = value` is an error
    /// naming `path:line`.
    public static func parse(_ text: String, path: String) throws -> [Setting] {
        var settings: [Setting] = []
        for (index, rawLine) in lines(of: text).enumerated() {
            let place = "\(path):\(index + 1)"
            let line = rawLine.trimmedSpaces
            if line.isEmpty || line.hasPrefix("#") { continue }
            guard let eq = line.firstIndex(of: "=") else {
                let hint = line.contains(":") ? " (use `=`, not `:`)" : ""
                throw OptionError(source: place, problem: "expected `key = value`, got \"\(TerminalText.printable(TerminalText.clipped(line)))\"\(hint)")
            }
            let key = line[..<eq].trimmedSpaces
            guard !key.isEmpty else {
                throw OptionError(source: place, problem: "a setting name is missing before `=`")
            }
            let source = "\(place): \(TerminalText.printable(TerminalText.clipped(key)))"
            let value = try self.value(String(line[line.index(after: eq)...]), source: source)
            settings.append(Setting(key: key, value: value, source: source))
        }
        return settings
    }

    /// The text of a config file's bytes, which must be UTF-8: a file saved in another
    /// encoding is named with the line of its first byte that is not, rather than read wrong.
    public static func text(_ data: Data, path: String) throws -> String {
        if let text = String(validating: data, as: UTF8.self) { return text }
        // Where the first byte that is not UTF-8 is: its line, and the byte.
        var line = 1
        var offset = 0
        var bytes = data.makeIterator()
        var decoder = UTF8()
        decoding: while true {
            switch decoder.decode(&bytes) {
            case .scalarValue(let scalar):
                if scalar == "\n" { line += 1 }
                offset += UTF8.width(scalar)
            case .emptyInput, .error:
                break decoding
            }
        }
        let index = min(offset, data.count - 1)
        throw OptionError(source: "\(path):\(line)",
                          problem: "the file is not UTF-8 text (byte 0x\(String(data[data.startIndex + index], radix: 16, uppercase: true)) "
                              + "cannot be read); save it as UTF-8")
    }

    /// The file's lines, whatever ends them (`\n`, `\r\n` or `\r`), without a leading
    /// byte order mark. Split on Unicode scalars: to Swift's `Character`, `\r\n` is one.
    static func lines(of text: String) -> [String] {
        var body = Substring(text).unicodeScalars
        if body.first == "\u{FEFF}" { body = body.dropFirst() }
        var lines: [String] = []
        var current = String.UnicodeScalarView()
        var afterCR = false
        for scalar in body {
            if afterCR, scalar == "\n" {
                afterCR = false
                continue
            }
            afterCR = scalar == "\r"
            if scalar == "\n" || scalar == "\r" {
                lines.append(String(current))
                current = String.UnicodeScalarView()
            } else {
                current.append(scalar)
            }
        }
        lines.append(String(current))
        return lines
    }

    /// The value after `=`: a quoted value is taken as written between its quotes (a
    /// comment may follow them); otherwise ` #` (a `#` after a space or tab) starts a
    /// comment, so `https://example.com/#top` keeps its fragment and `#102030` is a colour.
    static func value(_ raw: String, source: String) throws -> String {
        let trimmed = raw.trimmedSpaces
        if trimmed.hasPrefix("\"") {
            let rest = trimmed.dropFirst()
            guard let close = rest.firstIndex(of: "\"") else {
                throw OptionError(source: source, problem: "the value's closing quote \" is missing")
            }
            let after = rest[rest.index(after: close)...].trimmedSpaces
            guard after.isEmpty || after.hasPrefix("#") else {
                throw OptionError(source: source,
                                  problem: "unexpected text after the quoted value: \"\(TerminalText.printable(TerminalText.clipped(after)))\" (a comment starts with #)")
            }
            return String(rest[..<close])
        }
        // A value may begin with # (`background = #102030`); a # after a blank starts a comment.
        var value = ""
        var previous: Character = "x"
        for character in trimmed {
            if character == "#", previous == " " || previous == "\t" { break }
            value.append(character)
            previous = character
        }
        return value.trimmedSpaces
    }
}
