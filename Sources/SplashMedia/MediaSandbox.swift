import CSystem
import FoundationEssentials
import Glibc

/// The media process's own confinement, on top of its service's: an address-space limit,
/// and — before a byte of the clip is read — a syscall filter under which no file can be
/// opened, no socket made or connected and no program started. A hardware decoder is
/// opened before the filter and handed out under it (`Handout`, `Broker`).
public enum MediaSandbox {
    /// The most address space the media process may use.
    public static let addressSpace: UInt = 2 << 30

    /// Limits memory; throws when the limit cannot be set.
    public static func limitMemory() throws {
        guard splash_limit_address_space(UInt(addressSpace)) == 0 else {
            throw MediaError.setup("cannot limit the media process's memory: \(String(cString: strerror(errno)))")
        }
    }

    /// Makes this process the first the kernel's OOM killer takes (oom_score_adj 1000): a
    /// clip that takes the service's memory ends the clip, not the display.
    public static func offerToTheOOMKiller() {
        let fd = open("/proc/self/oom_score_adj", O_WRONLY | O_CLOEXEC)
        guard fd >= 0 else { return }
        _ = "1000".withCString { write(fd, $0, 4) }
        close(fd)
    }

    /// A descriptor opened before the filter, handed out under it for an `openat` of exactly
    /// `path` (absolute, at most 255 bytes): once, or each time from its start (`reusable`,
    /// a folder to list).
    public struct Handout {
        public let path: String
        public let fd: Int32
        public let reusable: Bool

        public init(path: String, fd: Int32, reusable: Bool = false) {
            self.path = path
            self.fd = fd
            self.reusable = reusable
        }
    }

    /// The thread that answers the filter's `openat`s from the handouts.
    public final class Broker {
        private let broker: UnsafeMutablePointer<splash_broker>

        fileprivate init(_ broker: UnsafeMutablePointer<splash_broker>) {
            self.broker = broker
        }

        /// Closes what was not handed out: from now on every `openat` is refused.
        public func finish() {
            splash_broker_finish(broker)
        }
    }

    /// Installs the syscall filter on every thread; throws when the kernel refuses it.
    /// `sharingFrames`: the process makes the shared memory frames go back in (a play);
    /// a probe makes none. With `handouts`, a broker answers `openat` from them and is
    /// returned; where the kernel has no listener for a filter (before 5.7) they are closed,
    /// the plain filter is installed and nil returned. (Before 5.14 the broker starts but the
    /// kernel refuses each hand-over: FFmpeg's V4L2 decoder then fails to open and the clip is
    /// decoded in software, as without one.)
    @discardableResult
    public static func lockDown(sharingFrames: Bool, handingOut handouts: [Handout] = []) throws -> Broker? {
        let memfd: Int32 = sharingFrames ? 1 : 0
        var table: [splash_handout] = []
        for handout in handouts {
            if table.count < 16, let row = entry(handout) { table.append(row) } else { close(handout.fd) }
        }
        if !table.isEmpty {
            var listener: Int32 = -1
            if splash_media_syscall_filter(memfd, &listener) == 0 {
                if let broker = splash_broker_start(listener, &table, Int32(table.count)) { return Broker(broker) }
                // Without its broker every openat would wait: closing the listener refuses them.
                let reason = String(cString: strerror(errno))
                close(listener)
                throw MediaError.setup("cannot start the media process's file broker: \(reason)")
            }
        }
        for row in table { close(row.fd) }
        guard splash_media_syscall_filter(memfd, nil) == 0 else {
            throw MediaError.setup("cannot install the media process's syscall filter: \(String(cString: strerror(errno)))")
        }
        return nil
    }

    /// The C table's row for `handout`; nil for a path that does not fit.
    private static func entry(_ handout: Handout) -> splash_handout? {
        var row = splash_handout()
        let bytes = Array(handout.path.utf8)
        guard bytes.first == UInt8(ascii: "/"), bytes.count < MemoryLayout.size(ofValue: row.path) else { return nil }
        withUnsafeMutableBytes(of: &row.path) { raw in
            raw.copyBytes(from: bytes)
        }
        row.fd = handout.fd
        row.reusable = handout.reusable ? 1 : 0
        return row
    }
}
