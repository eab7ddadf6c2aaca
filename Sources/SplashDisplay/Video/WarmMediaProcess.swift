import CSystem
import FoundationEssentials
import Glibc
import SplashServices

/// A media process started before its show (`splashboard-media play`, one end of a socket
/// pair as its descriptor 3), its libraries loaded, waiting for the clip: kept while the
/// core wants one (a campaign with shows left has a clip), so a video show's first frame does
/// not wait for FFmpeg's hundred libraries to be mapped. Used by one show, then replaced.
final class WarmMediaProcess {
    let pid: pid_t
    let socket: Int32
    private var handedOver = false

    /// Starts `program`.
    init(program: String) throws {
        var pair: [Int32] = [0, 0]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &pair) == 0 else {
            throw MediaPlayerError("no socket pair: \(String(cString: strerror(errno)))")
        }
        do {
            pid = try ChildProgram.spawn(program, ["play"], descriptors: [(pair[1], 3)])
        } catch {
            close(pair[0])
            close(pair[1])
            throw error
        }
        close(pair[1])
        socket = pair[0]
    }

    /// The process and its socket are the caller's from now on.
    func handOver() -> (pid: pid_t, socket: Int32) {
        handedOver = true
        return (pid, socket)
    }

    deinit {
        guard !handedOver else { return }
        close(socket)
        // Reaped on a thread of its own, as a player's process is.
        ChildProgram.stop(pid, waiting: false)
    }
}
