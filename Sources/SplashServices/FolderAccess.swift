import FoundationEssentials
import Glibc

/// Whether the kiosk can write where it keeps things, and if not, one line that says which
/// folder or file, whose it is, who the kiosk runs as, and the command that fixes it:
/// the start-up self-check, and what a database that cannot be written is reported as.
public enum FolderAccess {
    /// What keeps `folder` (and the files of it that are named) from being written by this
    /// process's user, or nil when nothing does. `role` names the folder: "data", "cache".
    public static func problem(_ folder: String, role: String, files: [String] = []) -> String? {
        var st = stat()
        guard stat(folder, &st) == 0 else {
            return "the \(role) folder \(folder) does not exist and cannot be made (\(String(cString: strerror(errno)))); "
                + "create it for \(user(getuid())): sudo install -d -o \(user(getuid())) \(folder)"
        }
        guard (st.st_mode & S_IFMT) == S_IFDIR else {
            return "the \(role) folder \(folder) is not a folder; remove it or point \(role)-dir elsewhere"
        }
        if access(folder, W_OK | X_OK) != 0 {
            return describe(folder, st, role: "the \(role) folder", fixing: folder)
        }
        for name in files {
            let path = folder + "/" + name
            var file = stat()
            guard stat(path, &file) == 0 else { continue }
            if access(path, R_OK | W_OK) != 0 {
                return describe(path, file, role: "\(name) in the \(role) folder", fixing: folder)
            }
        }
        return nil
    }

    /// Why this user cannot list and read the folder `folder`, with its owner and mode, or
    /// nil when it can (a folder another process writes and this one only reads).
    public static func unreadableFolder(_ folder: String, role: String) -> String? {
        var st = stat()
        guard stat(folder, &st) == 0 else {
            return "the \(role) folder \(folder) does not exist (\(String(cString: strerror(errno))))"
        }
        guard access(folder, R_OK | X_OK) != 0 else { return nil }
        return "the \(role) folder \(folder) belongs to \(user(st.st_uid)):\(group(st.st_gid)), mode \(fourDigits(st.st_mode)); "
            + "\(user(getuid())) (uid \(getuid())) cannot read it: give its group read access (sudo chmod g+rx \(folder))"
    }

    /// Why this user cannot read the file at `path`, with its owner and mode, or nil when it can.
    public static func unreadable(_ path: String) -> String? {
        guard access(path, R_OK) != 0 else { return nil }
        var st = stat()
        guard stat(path, &st) == 0 else { return "\(path): \(String(cString: strerror(errno)))" }
        return "\(path): it belongs to \(user(st.st_uid)):\(group(st.st_gid)), mode "
            + "\(fourDigits(st.st_mode)), which the user \(user(getuid())) (uid \(getuid())) cannot read"
    }

    /// "X belongs to root:root, mode 0755; splashboard (uid 998) cannot write it: …".
    static func describe(_ path: String, _ st: stat, role: String, fixing folder: String) -> String {
        let me = user(getuid())
        let readOnlyMount = statvfsReadOnly(path)
        if readOnlyMount {
            return "\(role) \(path) is on a read-only file system; \(me) cannot write it (remount it read-write, or point the folder elsewhere)"
        }
        let owner = user(st.st_uid)
        // The package's folders, shared by its two users (the splashboard-data group): its
        // configuration step gives them back as they should be.
        if getgrnam("splashboard-data") != nil, folder.hasPrefix("/var/lib/splashboard") || folder.hasPrefix("/var/cache/splashboard") {
            let asPackaged = user(st.st_uid) == "splashboard-net" && group(st.st_gid) == "splashboard-data"
            let fix = !asPackaged ? "sudo dpkg-reconfigure splashboard (it gives the folders back to the service's users)"
                : "run this as root (sudo splashboard …: a sync runs as splashboard-net)"
            return "\(role) \(path) belongs to \(owner):\(group(st.st_gid)), mode \(fourDigits(st.st_mode)); "
                + "\(me) (uid \(getuid())) cannot write it: \(fix)"
        }
        // A root-owned folder is usually a command run as root: give it back. Another user's
        // is usually the service's: run the command as that user rather than take it.
        let fix = st.st_uid == 0 || st.st_uid == getuid()
            ? "sudo chown -R \(me): \(folder)"
            : "run this as \(owner) (sudo -u \(owner) splashboard …), or make it \(me)'s: sudo chown -R \(me): \(folder)"
        return "\(role) \(path) belongs to \(owner):\(group(st.st_gid)), mode \(fourDigits(st.st_mode)); "
            + "\(me) (uid \(getuid())) cannot write it: \(fix)"
    }

    /// A mode as `0755`.
    static func fourDigits(_ mode: mode_t) -> String {
        let digits = String(mode & 0o7777, radix: 8)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    private static func statvfsReadOnly(_ path: String) -> Bool {
        var fs = statvfs()
        return statvfs(path, &fs) == 0 && (fs.f_flag & UInt(ST_RDONLY)) != 0
    }

    /// A user's name, or its number when it has none.
    public static func user(_ uid: uid_t) -> String {
        guard let entry = getpwuid(uid), let name = entry.pointee.pw_name else { return String(uid) }
        return String(cString: name)
    }

    static func group(_ gid: gid_t) -> String {
        guard let entry = getgrgid(gid), let name = entry.pointee.gr_name else { return String(gid) }
        return String(cString: name)
    }

    /// The data folder's files, which the kiosk must be able to write: the database's, which
    /// SQLite writes beside each other, and the feed's confirmation.
    public static let databaseFiles = ["splashboard.db", "splashboard.db-wal", "splashboard.db-shm", "feed-confirmed"]
}
