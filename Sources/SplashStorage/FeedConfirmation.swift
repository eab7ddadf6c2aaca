import FoundationEssentials
import Glibc
import SplashServices

/// When the kiosk last confirmed its catalog with the feed, kept as the modification time
/// of a small file beside the database (`feed-confirmed`, which holds the feed's `storedName`): a
/// feed answered "not modified" moves it with one `utimensat`, so that a 304 writes
/// nothing into the database and nothing that could be left half written.
struct FeedConfirmation {
    let path: String

    init(dataDir: String) {
        path = dataDir + "/feed-confirmed"
    }

    /// The time noted for `url`, nil when none is (or it was noted for another feed).
    func date(for url: URL) -> Date? {
        // The network process writes it; the display reads it without following a link or blocking.
        guard let data = try? UntrustedFile.read(path, limit: 4096), String(data: data, encoding: .utf8) == url.storedName
        else { return nil }
        var st = stat()
        guard stat(path, &st) == 0 else { return nil }
        return Date(timeIntervalSince1970: Double(st.st_mtim.tv_sec) + Double(st.st_mtim.tv_nsec) / 1e9)
    }

    /// Notes `url` as confirmed at `date`. Best effort: a folder that cannot be written
    /// loses only this note (the start-up check says so).
    func note(_ url: URL, at date: Date) {
        let name = url.storedName
        let seconds = date.timeIntervalSince1970.rounded(.down)
        let stamp = timespec(tv_sec: Int(seconds), tv_nsec: Int((date.timeIntervalSince1970 - seconds) * 1e9))
        var times = [stamp, stamp]
        // The usual 304: one utimensat. A file of another feed, or of another user (a sync
        // run as root), is replaced: that needs the folder, not the file.
        if (try? String(contentsOfFile: path, encoding: .utf8)) == name, utimensat(AT_FDCWD, path, &times, 0) == 0 { return }
        let temporary = path + ".tmp-\(getpid())"
        guard (try? name.write(toFile: temporary, atomically: false, encoding: .utf8)) != nil else { return }
        _ = utimensat(AT_FDCWD, temporary, &times, 0)
        if rename(temporary, path) != 0 { unlink(temporary) }
    }
}
