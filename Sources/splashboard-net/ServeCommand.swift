import CSystem
import FoundationEssentials
import Glibc
import SplashCore
import SplashFonts
import SplashNetwork
import SplashServices
import SplashStorage

/// `splashboard-net serve`: answers the display on the socket it was given — descriptor 3
/// from systemd's socket unit (listening) or from the kiosk that started it (connected) —
/// or on `--network-socket PATH`, which it then listens on itself.
struct ServeCommand {
    let options: KioskOptions
    let environment: [String: String]

    func run() -> Never {
        let parent = environment["SPLASHBOARD_PARENT_PID"].flatMap { pid_t($0) }
        if let parent {
            // Started by a kiosk: go with it (a kiosk killed mid-sync leaves no orphan writing).
            _ = splash_die_with_parent(SIGKILL)
            if getppid() != parent { exit(0) }
        }
        let device = DeviceStorage.forNetwork(options: options, environment: environment, serving: true)
        if let note = device.guardAddresses() { fputs("splashboard-net: warning: \(note)\n", stderr) }
        // The operator named the report receiver, as the feed: it may be on an inside address.
        if let report = options.reportURL { AddressGuard.installed?.allow(report) }
        let server = NetworkServer(data: device, canDraw: GlyphFinder().canDraw, clock: .system) { fputs("splashboard-net: warning: \($0)\n", stderr) }

        if environment["LISTEN_PID"].flatMap({ pid_t($0) }) == getpid(), environment["LISTEN_FDS"] == "1" {
            server.listen(on: 3)
        }
        if parent != nil {
            server.serve(connection: 3)
            exit(0)
        }
        if let path = options.networkSocket {
            server.listen(on: listening(at: path))
        }
        fail("nothing to serve: run from splashboard-net.socket, from the kiosk, or with --network-socket PATH", status: 2)
    }

    /// A socket listening at `path` (a stale one is replaced), open to this user and group.
    private func listening(at path: String) -> Int32 {
        do {
            return try UnixSocket.listen(at: path, mode: 0o660, backlog: 16)
        } catch UnixSocketError.pathTooLong(let path) {
            fail("\(path): the path is too long for a socket", status: 2)
        } catch {
            fail("cannot listen at \(error.explained)", status: 1)
        }
    }
}
