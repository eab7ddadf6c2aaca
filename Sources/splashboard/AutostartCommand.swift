import FoundationEssentials
import Glibc
import SplashCore

/// `splashboard autostart on|off`: the kiosk in a desktop user's session. The desktop
/// starts it at login; it opens full-screen there, keeps the screen from blanking and
/// hides the pointer, with that user's own data and cache.
struct AutostartCommand {
    let environment: [String: String]

    func run(on: Bool) -> Int32 {
        guard getuid() != 0 else {
            return refuse("autostart is for the desktop's user: run it without sudo, as the user who logs in to the desktop")
        }
        guard let folder = AutostartEntry.folder(environment: environment) else {
            return refuse("cannot tell your home folder: HOME is not set; set it and run this again")
        }
        let path = folder + "/" + AutostartEntry.fileName
        return on ? add(at: path, in: folder) : remove(at: path)
    }

    private func add(at path: String, in folder: String) -> Int32 {
        let config = DefaultPaths.systemConfig
        if access(config, F_OK) == 0, access(config, R_OK) != 0 {
            let user = environment["USER"] ?? "$USER"
            return refuse("you cannot read \(config), so the kiosk could not start in your session: "
                          + "run 'sudo adduser \(user) splashboard-data', log out and in again, then run this again")
        }
        let entry = AutostartEntry(program: Self.program)
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            try Data(entry.text.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            return refuse("cannot write \(path): \(error.explained); check that the folder is yours")
        }
        print("autostart on: \(path) starts the kiosk full-screen at your next login to the desktop")
        if Self.serviceEnabled {
            print("note: the kiosk service also runs on tty1; stop it with 'sudo systemctl disable --now splashboard'")
        }
        return 0
    }

    private func remove(at path: String) -> Int32 {
        guard unlink(path) == 0 else {
            if errno == ENOENT {
                print("autostart off: no entry at \(path); nothing to remove")
                return 0
            }
            return refuse("cannot remove \(path): \(String(cString: strerror(errno))); check that the file is yours")
        }
        print("autostart off: removed \(path); the kiosk no longer starts at login")
        return 0
    }

    private func refuse(_ message: String) -> Int32 {
        fputs("splashboard: \(message)\n", stderr)
        return 2
    }

    /// This program, by its real path, for the entry's Exec.
    private static var program: String {
        symlinkTarget("/proc/self/exe") ?? CommandLine.arguments[0]
    }

    /// Whether the system service is enabled at boot.
    private static var serviceEnabled: Bool {
        access("/etc/systemd/system/multi-user.target.wants/splashboard.service", F_OK) == 0
    }
}
