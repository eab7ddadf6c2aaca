import CSystem
import Foundation
import Glibc
import SplashCore
import SplashMedia

// The media process: the only one that parses clips. It reaches no network and no device:
// the clip comes as a descriptor, frames go back through shared memory, and once the clip
// is open its own syscall filter lets it open nothing more.
//   splashboard-media probe   the clip on standard input; its facts as one JSON line on
//                             standard output, then its first frame's thumbnail pixels (BGR)
//   splashboard-media play    serve the display on descriptor 3 (MediaMessage)
let arguments = Array(CommandLine.arguments.dropFirst())
switch arguments.first {
case "probe":
    // Dies with the network process that asked.
    _ = splash_die_with_parent(SIGKILL)
    var answer: [String: Any] = [:]
    var pixels: [UInt8] = []
    MediaSandbox.offerToTheOOMKiller()
    do {
        // Locked down before a byte of the clip is parsed; the probe decodes in software.
        try MediaSandbox.limitMemory()
        try MediaSandbox.lockDown()
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
case "--version":
    print("splashboard-media \(Version.current)")
default:
    fputs("""
    Usage: splashboard-media probe   < CLIP    (what a sync runs on each new clip)
           splashboard-media play              (what the kiosk runs for a video splash)

    The media half of Splashboard: it decodes clips, with neither network nor devices.

    """, stderr)
    exit(2)
}
