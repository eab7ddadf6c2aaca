import CSystem
import Foundation
import Glibc
import SplashCore
import SplashMedia
import SplashServices

// The media process: the only one that parses clips. It reaches no network and no device:
// the clip comes as a descriptor, frames go back through shared memory, and once the clip
// is open its own syscall filter lets it open nothing more.
//   splashboard-media probe   the clip on standard input; its facts as one JSON line on
//                             standard output, then its first frame's thumbnail pixels (BGR)
//   splashboard-media play    serve the display on descriptor 3 (MediaMessage)
//   splashboard-media check-filter DIR
//                             the filter installed, each call it must stop tried in DIR
let arguments = Array(CommandLine.arguments.dropFirst())
switch arguments.first {
case "probe":
    // Dies with the network process that asked.
    _ = splash_die_with_parent(SIGKILL)
    // It needs no file of anyone's (the clip comes as its standard input): never root.
    if getuid() == 0 {
        do {
            _ = try PrivilegeDrop.leaveRoot(writing: nil)
        } catch {
            // Said where the network process's own messages go (the journal); the clip waits.
            fputs("splashboard-media: not probing as root: \(error.localizedDescription)\n", stderr)
            exit(1)
        }
    }
    var answer: [String: Any] = [:]
    var pixels: [UInt8] = []
    MediaSandbox.offerToTheOOMKiller()
    do {
        // Locked down before a byte of the clip is parsed; the probe decodes in software.
        try MediaSandbox.limitMemory()
        try MediaSandbox.lockDown(sharingFrames: false)
        let result = try VideoProbe.probe(fd: 0, hardware: false)
        answer["facts"] = try JSONSerialization.jsonObject(with: Data(result.facts.json.utf8))
        answer["thumbnail"] = [result.thumbnailWidth, result.thumbnailHeight]
        pixels = result.thumbnail
    } catch {
        answer["error"] = error.localizedDescription
    }
    let line = (try? JSONSerialization.data(withJSONObject: answer, options: [.sortedKeys])) ?? Data("{}".utf8)
    FileHandle.standardOutput.write(line + Data("\n".utf8) + Data(pixels))
    exit(0)
case "play":
    _ = splash_die_with_parent(SIGKILL)
    MediaSandbox.offerToTheOOMKiller()
    signal(SIGPIPE, SIG_IGN)
    exit(MediaServer(socket: 3).run())
case "check-filter" where arguments.count == 2:
    // Installs the probe's filter and tries what it must stop, in the folder given (one this
    // user may write): each call on a line, and exit 0 only when every one was stopped.
    let folder = arguments[1]
    // A file of its own, removed at once (nothing is left behind when the filter holds: it
    // forbids removing files) and reached through its descriptor.
    let made = folder + "/splashboard-check-\(getpid())"
    let fd = open(made, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
    guard fd >= 0 else {
        fputs("splashboard-media: cannot write in \(folder): \(String(cString: strerror(errno)))\n", stderr)
        exit(2)
    }
    unlink(made)
    let file = "/proc/self/fd/\(fd)"
    do {
        try MediaSandbox.lockDown(sharingFrames: false)
    } catch {
        fputs("splashboard-media: \(error.localizedDescription)\n", stderr)
        exit(1)
    }
    var through = 0
    for call in 0..<splash_forbidden_count() {
        var result: Int32 = 0
        let name = String(cString: splash_try_forbidden(call, folder, file, &result))
        let stopped = result == EPERM || result == EACCES
        if !stopped { through += 1 }
        print("\(name): " + (result == 0 ? "went through" : stopped ? "stopped (\(String(cString: strerror(result))))"
                                : "failed, not by the filter (\(String(cString: strerror(result))))"))
    }
    if through > 0 { print("files it could make are left in \(folder) (planted-N): remove them") }
    exit(through == 0 ? 0 : 1)
case "--version":
    print("splashboard-media \(Version.current)")
default:
    fputs("""
    Usage: splashboard-media probe   < CLIP    (what a sync runs on each new clip)
           splashboard-media play              (what the kiosk runs for a video splash)
           splashboard-media check-filter DIR  (installs the filter, tries what it must stop)

    The media half of Splashboard: it decodes clips, with neither network nor devices.

    """, stderr)
    exit(2)
}
