import CSystem
import Glibc

/// Switches away from the kiosk's virtual terminal and back (Ctrl+Alt+F2 on a service
/// keyboard, `chvt 2`), taken part in as Plymouth does (`VT_SETMODE VT_PROCESS`): the
/// kernel asks before it switches away, the kiosk gives up its screens (DRM master
/// dropped, nothing drawn) and lets the switch go on, so the other terminal's console is
/// shown; when the terminal is back, the kernel says so, and the kiosk takes its screens
/// again and redraws.
///
/// The kernel's signals (SIGUSR1 away, SIGUSR2 back) are written to a pipe by a handler
/// that does nothing else; the loop polls the pipe (`fd`) and answers in its own time.
final class TerminalSwitch {
    /// What the kernel said.
    enum Request: Equatable {
        /// Another terminal is wanted: give the screens up, then `release()`.
        case away
        /// The kiosk's terminal is shown again: `acknowledge()`, then take the screens.
        case back
    }

    /// The pipe's end the loop polls.
    let fd: Int32
    private let writeEnd: Int32
    private let terminal: Int32

    /// Takes part in the switches of the virtual terminal on `terminal` (standard input by
    /// default); nil when it is not a virtual terminal or the kernel refused.
    static func take(terminal: Int32 = STDIN_FILENO) -> TerminalSwitch? {
        guard splash_vt_mode(terminal) >= 0 else { return nil }
        var fds: [Int32] = [-1, -1]
        guard splash_pipe_nonblocking(&fds) == 0 else { return nil }
        guard splash_vt_process_mode(terminal, fds[1]) == 0 else {
            close(fds[0])
            close(fds[1])
            return nil
        }
        return TerminalSwitch(fd: fds[0], writeEnd: fds[1], terminal: terminal)
    }

    private init(fd: Int32, writeEnd: Int32, terminal: Int32) {
        self.fd = fd
        self.writeEnd = writeEnd
        self.terminal = terminal
    }

    deinit {
        _ = splash_vt_auto_mode(terminal)
        close(fd)
        close(writeEnd)
    }

    /// What the kernel has asked since the last look, in order.
    func take() -> [Request] {
        var bytes = [UInt8](repeating: 0, count: 64)
        var requests: [Request] = []
        while true {
            let got = read(fd, &bytes, bytes.count)
            guard got > 0 else { break }
            requests += bytes.prefix(got).map { $0 == UInt8(ascii: "R") ? .away : .back }
        }
        return requests
    }

    /// Lets the switch away go on (after the screens were given up).
    func release() { _ = splash_vt_release(terminal) }

    /// Says the terminal is taken back.
    func acknowledge() { _ = splash_vt_acknowledge(terminal) }
}
