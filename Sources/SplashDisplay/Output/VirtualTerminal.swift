import CSystem
import Glibc

/// The virtual terminal the kiosk was started on (the service's tty1, its standard
/// input), set to graphics mode while the kiosk draws on the console — as Plymouth does —
/// so that neither the text console's cursor nor a kernel message draws over the picture
/// (on a framebuffer, the console shares the kiosk's memory). Set back to text when the
/// kiosk stops; systemd's `TTYReset=` does it too after a crash.
final class VirtualTerminal {
    private let fd: Int32

    /// Graphics mode on the terminal of `fd` (standard input by default); nil when it is
    /// not a virtual terminal (a run from a shell over ssh, the tests).
    static func enterGraphics(fd: Int32 = STDIN_FILENO) -> VirtualTerminal? {
        guard splash_vt_mode(fd) >= 0, splash_vt_set_graphics(fd, 1) == 0 else { return nil }
        // A run that ends by `exit` (the loop's end, SIGTERM) gives the terminal back too;
        // asked for once, however often the kiosk moves between screens.
        if fd == STDIN_FILENO, !restoresAtExit {
            restoresAtExit = true
            atexit { _ = splash_vt_set_graphics(STDIN_FILENO, 0) }
        }
        return VirtualTerminal(fd: fd)
    }

    /// Whether standard input's terminal is set back to text at the process's exit.
    private nonisolated(unsafe) static var restoresAtExit = false

    private init(fd: Int32) {
        self.fd = fd
    }

    deinit {
        _ = splash_vt_set_graphics(fd, 0)
    }
}
