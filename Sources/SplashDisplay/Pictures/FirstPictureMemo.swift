import Glibc
import SplashCore
import SplashServices

/// The picture the next start is expected to show first, kept in a small file of its own
/// in the data folder (`first-picture`, 0600: read only when this user wrote it), so that
/// its frame can be composed (`ComposedPicture`) while the database is read and the screen
/// opened. A guess, never a decision: the first splash is still the one the core chooses,
/// and one that shows another picture draws it as before.
public struct FirstPictureMemo {
    /// The file it is kept in.
    public let file: String

    /// The memo of the data folder `dataDir`.
    public init(dataDir: String) {
        file = dataDir + "/first-picture"
    }

    /// The path written last, when `isPicture` takes it (a cached image, the bundled
    /// default picture).
    public func read(accepting isPicture: (String) -> Bool) -> String? {
        guard let path = UntrustedFile.ownText(file)?.trimmed, isPicture(path) else { return nil }
        return path
    }

    /// Keeps `path` for the next start when it differs from `kept` (what `read` gave);
    /// nil (a start on the detail screen) removes it. Losing it costs only the composing
    /// ahead next time, so a failure to write is ignored.
    public func write(_ path: String?, kept: String?) {
        guard path != kept else { return }
        guard let path else {
            unlink(file)
            return
        }
        UntrustedFile.writeOwn(path, to: file)
    }
}
