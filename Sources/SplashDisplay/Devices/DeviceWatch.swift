import FoundationEssentials
import Glibc

/// Notices device nodes coming and going (inotify on `/dev`, `/dev/dri` and `/dev/input`):
/// a GPU's driver that has just loaded, a touch screen plugged in. The loop polls its
/// descriptor with the input devices and rescans at once when it is readable, instead of
/// at its next periodic look, so a new screen is drawn on within a moment of its node
/// appearing, at no cost while nothing changes.
final class DeviceWatch {
    /// The descriptor to poll; -1 when inotify is not available (the periodic rescan remains).
    let fd: Int32
    private let folders: [String]
    private var watched: [String: Int32] = [:]

    /// Watches `folders` (those that do not exist yet are added when they appear).
    init(folders: [String] = ["/dev", "/dev/dri", "/dev/input"]) {
        self.folders = folders
        fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        addMissing()
    }

    deinit {
        if fd >= 0 { close(fd) }
    }

    /// Whether a node was made or removed since the last call (reads what is waiting).
    func changed() -> Bool {
        guard fd >= 0 else { return false }
        var buffer = [UInt8](repeating: 0, count: 4096)
        var any = false
        while read(fd, &buffer, buffer.count) > 0 { any = true }
        if any { addMissing() }
        return any
    }

    /// Adds the folders not watched yet that exist now (`/dev/dri` appears with the first GPU).
    private func addMissing() {
        guard fd >= 0 else { return }
        for folder in folders where watched[folder] == nil {
            let wd = inotify_add_watch(fd, folder, UInt32(IN_CREATE | IN_DELETE))
            if wd >= 0 { watched[folder] = wd }
        }
    }
}
