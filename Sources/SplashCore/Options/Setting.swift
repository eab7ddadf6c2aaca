import FoundationEssentials

/// One `key = value` setting and where it came from.
public struct Setting: Equatable, Sendable {
    /// The option's name, without `--`.
    public var key: String
    /// nil for a bare flag on the command line (`--headless`).
    public var value: String?
    /// `--key` for the command line, `path:line: key` for the config file.
    public var source: String

    /// A setting of `key` to `value`, read from `source`.
    public init(key: String, value: String?, source: String) {
        self.key = key
        self.value = value
        self.source = source
    }
}
