import CSystem
import Foundation
import Glibc

/// The media process's own confinement, on top of its service's: an address-space limit,
/// and — once the clip and its decoder are open — a syscall filter under which no file
/// can be opened, no socket made or connected and no program started.
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

    /// Installs the syscall filter on every thread; throws when the kernel refuses it.
    /// `sharingFrames`: the process makes the shared memory frames go back in (a play);
    /// a probe makes none.
    public static func lockDown(sharingFrames: Bool) throws {
        guard splash_media_syscall_filter(sharingFrames ? 1 : 0) == 0 else {
            throw MediaError.setup("cannot install the media process's syscall filter: \(String(cString: strerror(errno)))")
        }
    }
}
