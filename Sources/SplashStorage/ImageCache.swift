import FoundationEssentials
import Glibc
import SplashCore
import SplashServices

/// The on-disk image cache. A cached file is named by the SHA-256 of its URL; it is
/// written under a temporary name in the same folder, fsynced, renamed, and the folder
/// fsynced, so a final name always holds a whole, validated image. Least recently used
/// files are evicted above the size cap, except those the caller protects.
public final class ImageCache {
    /// The folder the cached images are in.
    public let folder: String
    static let partialPrefix = ".partial-"

    /// The cache in `folder`, which is created when missing.
    public init(folder: String) throws {
        self.folder = folder
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }

    /// The cache key of an image URL.
    public static func key(for url: URL) -> String { SHA256.hex(url.absoluteString) }

    /// Where the image with `key` lives once cached.
    public func path(forKey key: String) -> String { folder + "/" + key }

    /// Whether the image with `key` is cached.
    public func contains(key: String) -> Bool { FileManager.default.fileExists(atPath: path(forKey: key)) }

    /// Whether `path` is a cached image of this cache: the folder's own path, then a name
    /// of 64 hex digits.
    public func holds(_ path: String) -> Bool {
        Self.holds(path, in: folder)
    }

    /// Whether `path` is a cached image of the cache in `folder` (read before the cache is
    /// opened: the first picture guessed at start).
    public static func holds(_ path: String, in folder: String) -> Bool {
        let url = URL(fileURLWithPath: path)
        return url.deletingLastPathComponent().standardizedFileURL.path == URL(fileURLWithPath: folder).standardizedFileURL.path
            && isCacheName(url.lastPathComponent)
    }

    /// Whether a name in the folder is a cached image (64 lowercase hex digits): the only
    /// names the display takes from the database.
    public static func isCacheName(_ name: String) -> Bool {
        // By bytes: a name is checked for every campaign of a catalog, and Unicode's
        // character properties cost a lookup each.
        name.utf8.count == 64 && name.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }

    /// Removes temporary files a crash left behind; returns how many. A temporary name
    /// carries its writer's process id: the files of another process still running (the
    /// service's network process while `splashboard sync` runs) are its own to finish.
    @discardableResult
    public func removeLeftovers() -> Int {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        var removed = 0
        for name in names where name.hasPrefix(Self.partialPrefix) {
            if let writer = Self.writer(ofPartial: name), writer != getpid(), Self.isRunning(writer) { continue }
            if unlink(folder + "/" + name) == 0 { removed += 1 }
        }
        return removed
    }

    /// Whether process `pid` is alive: it exists and is not a zombie waiting to be reaped.
    static func isRunning(_ pid: pid_t) -> Bool {
        guard kill(pid, 0) == 0 || errno == EPERM else { return false }
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return true }
        return !stat[close...].hasPrefix(") Z") && !stat[close...].hasPrefix(") X")
    }

    /// The process id in a temporary file's name (`.partial-<pid>-<uuid>`); nil for a name
    /// without one.
    static func writer(ofPartial name: String) -> pid_t? {
        let rest = name.dropFirst(partialPrefix.count)
        guard let dash = rest.firstIndex(of: "-") else { return nil }
        return pid_t(rest[..<dash]).flatMap { $0 > 0 ? $0 : nil }
    }

    /// A file being written; `commit` gives it its final name.
    public final class PartialFile {
        /// Its temporary name's path, in the cache folder.
        public let path: String
        let fd: Int32
        /// Bytes written so far.
        public private(set) var size = 0

        init(path: String, fd: Int32) {
            self.path = path
            self.fd = fd
        }

        deinit { close(fd) }

        /// Appends bytes.
        public func write(_ data: Data) throws {
            try data.withUnsafeBytes { raw in
                var offset = 0
                while offset < raw.count {
                    let n = Glibc.write(fd, raw.baseAddress! + offset, raw.count - offset)
                    if n < 0 {
                        if errno == EINTR { continue }
                        throw CacheError.io(path, String(cString: strerror(errno)))
                    }
                    offset += n
                }
            }
            size += data.count
        }
    }

    /// Starts a new temporary file in the cache folder.
    public func beginWrite() throws -> PartialFile {
        let path = folder + "/" + Self.partialPrefix + "\(getpid())-" + UUID().uuidString
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw CacheError.io(path, String(cString: strerror(errno))) }
        return PartialFile(path: path, fd: fd)
    }

    /// Makes a finished, validated temporary file the cached image for `key`:
    /// fsync, rename, fsync the folder.
    public func commit(_ partial: PartialFile, as key: String) throws {
        guard fsync(partial.fd) == 0 else { throw CacheError.io(partial.path, String(cString: strerror(errno))) }
        guard rename(partial.path, path(forKey: key)) == 0 else {
            throw CacheError.io(partial.path, String(cString: strerror(errno)))
        }
        syncFolder()
    }

    /// Whether a finished temporary file holds exactly the bytes already cached for `key`
    /// (a server that gives no validators answers every check in full: the same file is
    /// then not swapped in, noted or decoded again).
    public func holdsSame(_ partial: PartialFile, as key: String) -> Bool {
        var st = stat()
        guard stat(path(forKey: key), &st) == 0, Int(st.st_size) == partial.size,
              let old = FileReader(path: path(forKey: key)),
              let new = FileReader(path: partial.path) else { return false }
        // A piece at a time: a clip may be a hundred MiB.
        while true {
            let a = old.read(upTo: 1 << 20)
            let b = new.read(upTo: 1 << 20)
            guard a == b else { return false }
            if a.isEmpty { return true }
        }
    }

    /// Throws a temporary file away.
    public func discard(_ partial: PartialFile) {
        unlink(partial.path)
    }

    private func syncFolder() {
        let dfd = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if dfd >= 0 {
            fsync(dfd)
            close(dfd)
        }
    }

    /// Marks an image as just used (for least-recently-used eviction).
    public func touch(key: String) {
        utimensat(AT_FDCWD, path(forKey: key), nil, 0)
    }

    /// The cached images, with size and last use.
    public func entries() -> [(key: String, bytes: Int, used: Date)] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return names.filter(Self.isCacheName).compactMap { name in
            var st = stat()
            guard stat(folder + "/" + name, &st) == 0 else { return nil }
            return (name, Int(st.st_size), Date(timeIntervalSince1970: Double(st.st_mtim.tv_sec)))
        }
    }

    /// Bytes used by cached images.
    public func usage() -> Int { entries().reduce(0) { $0 + $1.bytes } }

    /// Why a picture was not cached when the cache had no room for it.
    public static let fullMessage = "the image cache is full (cache-max-mb); it is fetched when room is made"
    /// The same, in the two words a campaign's card has room for.
    public static let fullReason = "cache full"

    /// Deletes least recently used images until the cache fits `capBytes`, never one of
    /// `protected`. A file's use is its modification time (set when it came, or touched
    /// when shown by a display that may write here) or, later, `shown` (from the ledger,
    /// where the display only reads the cache). Returns the keys removed.
    @discardableResult
    public func evict(toFit capBytes: Int, protecting protected: Set<String>, shown: [String: Date] = [:]) -> [String] {
        var all = entries().map { entry in (entry.key, entry.bytes, max(entry.used, shown[entry.key] ?? .distantPast)) }
            .map { (key: $0.0, bytes: $0.1, used: $0.2) }
        var total = all.reduce(0) { $0 + $1.bytes }
        guard total > capBytes else { return [] }
        all.sort { $0.used < $1.used }
        var removed: [String] = []
        for entry in all where total > capBytes && !protected.contains(entry.key) {
            if unlink(path(forKey: entry.key)) == 0 {
                total -= entry.bytes
                removed.append(entry.key)
            }
        }
        if !removed.isEmpty { syncFolder() }
        return removed
    }

    /// Empties the cache (images and temporary files); returns how many files went.
    @discardableResult
    public func clear() -> Int {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        var removed = 0
        for name in names where Self.isCacheName(name) || name.hasPrefix(Self.partialPrefix) {
            if unlink(folder + "/" + name) == 0 { removed += 1 }
        }
        syncFolder()
        return removed
    }
}
