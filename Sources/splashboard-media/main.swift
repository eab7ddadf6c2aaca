import CSystem
import FoundationEssentials
import Glibc
import SplashCore
import SplashMedia
import SplashServices

// The media process: the only one that parses clips. It reaches no network and no device:
// the clip comes as a descriptor, frames go back through shared memory, and before a byte
// of the clip is read its own syscall filter lets it open nothing more (a play's hardware
// decoder, opened before, is handed out under it).
//   splashboard-media probe   the clip on standard input; its facts as one JSON line on
//                             standard output, then its first frame's thumbnail pixels (BGR)
//   splashboard-media play    serve the display on descriptor 3 (MediaMessage)
//   splashboard-media check-filter [--play] DIR
//                             the probe's (or a play's) filter installed, each call it must
//                             stop tried in DIR (and, for a play, the broker's handouts)
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
            fputs("splashboard-media: not probing as root: \(error.explained)\n", stderr)
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
        let result = try VideoProbe.probe(fd: 0)
        answer["facts"] = try JSONReader.value(Data(result.facts.json.utf8))
        answer["thumbnail"] = [result.thumbnailWidth, result.thumbnailHeight]
        pixels = result.thumbnail
    } catch {
        answer["error"] = error.explained
    }
    let line = Data(JSONValue(answer).encoded().utf8)
    StandardStream.output.write(line + Data("\n".utf8) + Data(pixels))
    exit(0)
case "play":
    _ = splash_die_with_parent(SIGKILL)
    MediaSandbox.offerToTheOOMKiller()
    signal(SIGPIPE, SIG_IGN)
    exit(MediaServer(socket: 3).run())
case "check-filter" where arguments.count == 2, "check-filter" where arguments.count == 3 && arguments[1] == "--play":
    // Installs the probe's filter (or, with --play, a play's, with a broker handing out a
    // stand-in for a decoder device) and tries what it must stop, in the folder given (one
    // this user may write): each call on a line, and exit 0 only when every one was stopped
    // and every handout came as it should.
    let play = arguments.count == 3
    let folder = arguments[arguments.count - 1]
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
    // The stand-in device: opened twice and removed before the filter, so that only the
    // broker can answer for its path; the folder, to be listed.
    let device = folder + "/video-check-\(getpid())"
    var handouts: [MediaSandbox.Handout] = []
    if play {
        let written = open(device, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        _ = "device".withCString { write(written, $0, 6) }
        handouts = [MediaSandbox.Handout(path: device, fd: written), MediaSandbox.Handout(path: device, fd: open(device, O_RDONLY | O_CLOEXEC)),
                    MediaSandbox.Handout(path: folder, fd: open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC), reusable: true)]
        unlink(device)
    }
    let broker: MediaSandbox.Broker?
    do {
        broker = try MediaSandbox.lockDown(sharingFrames: play, handingOut: handouts)
    } catch {
        fputs("splashboard-media: \(error.explained)\n", stderr)
        exit(1)
    }
    var through = 0
    var wrong = 0
    for call in 0..<splash_forbidden_count() {
        var result: Int32 = 0
        let name = String(cString: splash_try_forbidden(call, folder, file, &result))
        if play && name == "memfd_create" {
            // A play makes its frame ring so.
            print("\(name): " + (result == 0 ? "went through (a play's frame ring)" : "failed (\(String(cString: strerror(result))))"))
            if result != 0 { wrong += 1 }
            continue
        }
        let stopped = result == EPERM || result == EACCES
        if !stopped { through += 1 }
        print("\(name): " + (result == 0 ? "went through" : stopped ? "stopped (\(String(cString: strerror(result))))"
                                : "failed, not by the filter (\(String(cString: strerror(result))))"))
    }
    if play {
        if broker == nil { print("broker: not started (this kernel cannot hand out descriptors under a filter)") }
        // Each handout once, the folder each time, and nothing more.
        for attempt in 1...3 {
            let got = open(device, O_RDONLY | O_CLOEXEC)
            var bytes = [UInt8](repeating: 0, count: 6)
            let read = got >= 0 ? pread(got, &bytes, 6, 0) : -1
            let expected = attempt < 3 && broker != nil
            let ok = expected ? read == 6 && String(decoding: bytes, as: UTF8.self) == "device" : got < 0
            if !ok { wrong += 1 }
            print("openat (the handed-out device, \(attempt)): "
                  + (got >= 0 ? "handed out" + (read == 6 ? "" : ", not readable") : "stopped (\(String(cString: strerror(errno))))"))
            if got >= 0 { close(got) }
        }
        for attempt in 1...2 {
            let listing = opendir(folder)
            let ok = (listing != nil) == (broker != nil)
            if !ok { wrong += 1 }
            print("opendir (the device folder, \(attempt)): " + (listing != nil ? "handed out" : "stopped"))
            if let listing { closedir(listing) }
        }
        broker?.finish()
        let after = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if after >= 0 { wrong += 1; close(after) }
        print("openat (the device folder, after finish): " + (after >= 0 ? "went through" : "stopped"))
    }
    if through > 0 { print("files it could make are left in \(folder) (planted-N): remove them") }
    exit(through == 0 && wrong == 0 ? 0 : 1)
case "--version":
    print("splashboard-media \(Version.current)")
default:
    fputs("""
    Usage: splashboard-media probe   < CLIP    (what a sync runs on each new clip)
           splashboard-media play              (what the kiosk runs for a video splash)
           splashboard-media check-filter [--play] DIR
                                               (installs the filter, tries what it must stop)

    The media half of Splashboard: it decodes clips, with neither network nor devices.

    """, stderr)
    exit(2)
}
