import Foundation

/// One `key = value` setting and where it came from.
public struct Setting: Equatable, Sendable {
    public var key: String
    /// nil for a bare flag on the command line (`--headless`).
    public var value: String?
    /// `--key` for the command line, `path:line` for the config file.
    public var source: String

    public init(key: String, value: String?, source: String) {
        self.key = key
        self.value = value
        self.source = source
    }
}

/// The config file: `key = value` lines with the option names without `--`, `#` comments
/// and blank lines. A value may be wrapped in double quotes to keep spaces at its ends.
public enum ConfigFile {
    /// Splits the file's text into settings; a line that is not `key = value` is an error
    /// naming `path:line`.
    public static func parse(_ text: String, path: String) throws -> [Setting] {
        var settings: [Setting] = []
        for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let source = "\(path):\(index + 1)"
            let line = rawLine.trimmingCharacters(in: .whitespacesAndNewlines)
            if line.isEmpty || line.hasPrefix("#") { continue }
            guard let eq = line.firstIndex(of: "=") else {
                throw OptionError(source: source, problem: "expected `key = value`, got \"\(line)\"")
            }
            let key = line[..<eq].trimmingCharacters(in: .whitespaces)
            var value = line[line.index(after: eq)...].trimmingCharacters(in: .whitespaces)
            guard !key.isEmpty else {
                throw OptionError(source: source, problem: "a setting name is missing before `=`")
            }
            if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") {
                value = String(value.dropFirst().dropLast())
            }
            settings.append(Setting(key: key, value: value, source: source))
        }
        return settings
    }
}
