import FoundationEssentials
import SplashCore

/// Reads the config file for `OptionParser` as both programs do: nil when there is none;
/// a folder, a file this user may not read, or text that is not UTF-8 is an `OptionError`
/// that names the file and what is wrong with it.
public enum ConfigFileReader {
    /// The text of the config file at `path`; nil when there is nothing there.
    public static func text(at path: String) throws -> String? {
        let kind = PathKind.of(path)
        guard kind != .nothing else { return nil }
        if kind == .folder { throw OptionError(source: path, problem: "\(path): it is a folder, not a config file") }
        if let why = FolderAccess.unreadable(path) { throw OptionError(source: path, problem: why) }
        return try ConfigFile.text(Data(contentsOf: URL(fileURLWithPath: path)), path: path)
    }
}
