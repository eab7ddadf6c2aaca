import Dispatch
import FoundationEssentials
import Glibc
import SplashCore

/// A program run to its end with what it wrote: how `preview` runs the network program and
/// itself, and `feed check` the network program.
extension ChildProgram {
    /// Runs `program` with `arguments` and `environment` and waits for it: its exit status
    /// (128 + the signal that ended it; 127 when it could not be started, with why on its
    /// stderr) and what it wrote on stdout and stderr, both read at once.
    public static func capture(_ program: String, _ arguments: [String], environment: [String: String])
        -> (status: Int32, stdout: String, stderr: String) {
        var out: [Int32] = [-1, -1], err: [Int32] = [-1, -1]
        guard pipe(&out) == 0 else { return (127, "", "cannot run \(program): \(String(cString: strerror(errno)))\n") }
        guard pipe(&err) == 0 else {
            close(out[0]); close(out[1])
            return (127, "", "cannot run \(program): \(String(cString: strerror(errno)))\n")
        }
        for fd in out + err { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        let pid: pid_t
        do {
            pid = try ChildProgram.spawn(program, arguments, descriptors: [(out[1], 1), (err[1], 2)], environment: environment)
        } catch {
            [out[0], out[1], err[0], err[1]].forEach { close($0) }
            return (127, "", "cannot run \(program): \(error.explained)\n")
        }
        close(out[1])
        close(err[1])
        // Both pipes are read at once, so that neither fills while the other is waited on.
        final class Box: @unchecked Sendable { var data = Data() }
        let errors = Box()
        let done = DispatchSemaphore(value: 0)
        let errReader = err[0]
        SerialWorker.detached(name: "splashboard.child-stderr") {
            errors.data = FileReader.readToEnd(errReader)
            done.signal()
        }
        let outData = FileReader.readToEnd(out[0])
        done.wait()
        close(out[0])
        close(err[0])
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        let code = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        return (code, String(decoding: outData, as: UTF8.self), String(decoding: errors.data, as: UTF8.self))
    }
}
