import FoundationEssentials
import Glibc

/// The folder a trial on the virtual clock keeps its catalog, shows and cache in, removed
/// when the process exits, by whatever `exit` it ends (a signal that kills it leaves it).
enum ScratchFolder {
    nonisolated(unsafe) private static var path: String?

    /// Removes `folder` and all in it when the process exits.
    static func removeAtExit(_ folder: String) {
        path = folder
        atexit {
            guard let folder = ScratchFolder.path else { return }
            try? FileManager.default.removeItem(atPath: folder)
        }
    }
}
