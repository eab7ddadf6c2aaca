import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

public extension Error {
    /// What went wrong, in words: a `LocalizedError`'s description, a file error's reason
    /// and path, a system error's name, else the error as Swift prints it. What Foundation's
    /// `localizedDescription` gave, without its ICU-backed localisation.
    var explained: String {
        if let described = (self as? LocalizedError)?.errorDescription { return described }
        if let posix = self as? POSIXError { return Self.reason(posix.code.rawValue) }
        if let cocoa = self as? CocoaError {
            let path = cocoa.userInfo["NSFilePath"] as? String ?? (cocoa.userInfo["NSURL"] as? URL)?.path
            let cause = (cocoa.userInfo["NSUnderlyingError"] as? POSIXError).map { Self.reason($0.code.rawValue) }
            let what: String
            switch cocoa.code {
            case .fileNoSuchFile, .fileReadNoSuchFile: what = "no such file"
            case .fileReadNoPermission, .fileWriteNoPermission: what = "permission denied"
            case .fileWriteOutOfSpace: what = "no space left on the device"
            case .fileWriteVolumeReadOnly: what = "the file system is read-only"
            case .fileWriteFileExists: what = "a file of that name exists"
            case .fileReadCorruptFile: what = "the file's contents cannot be read"
            case .fileReadTooLarge: what = "the file is too large"
            default: what = cause ?? "file error \(cocoa.code.rawValue)"
            }
            let reason = cause.map { $0.lowercased() == what ? what : "\(what) (\($0))" } ?? what
            return path.map { "\($0): \(reason)" } ?? reason
        }
        return String(describing: self)
    }

    private static func reason(_ code: Int32) -> String {
        guard let text = strerror(code) else { return "system error \(code)" }
        return String(cString: text).lowercased()
    }
}
