import FoundationEssentials
import Glibc

/// What a command run as root does before it fetches or parses anything from the network:
/// it becomes a user with no more rights than the service's network process — the owner of
/// the folder it writes, when that is not root; else the service's own `splashboard-net`;
/// else (the package not installed) `nobody`. Network data is never parsed as root.
public enum PrivilegeDrop {
    /// The user the network process runs as in the service.
    public static let serviceUser = "splashboard-net"

    /// The user this process became when it left root (`leaveRoot`); nil when it did not:
    /// what it cannot read, it says it could not read as that user.
    public nonisolated(unsafe) private(set) static var leftRootAs: String? = ProcessInfo.processInfo.environment[leftRootVariable]
        .flatMap { $0.isEmpty ? nil : $0 }

    /// Set by a command that ran as root for the program it starts as another user
    /// (`preview`): that program, and the ones it starts, read as that user for root.
    public static let leftRootVariable = "SPLASHBOARD_LEFT_ROOT_AS"

    /// The user a command run as root works as when it writes nothing of the device's: the
    /// service's network user, else `nobody`.
    public static func unprivilegedUser() -> (name: String, uid: uid_t, gid: gid_t)? {
        guard let entry = getpwnam(serviceUser) ?? getpwnam("nobody"), let name = entry.pointee.pw_name else { return nil }
        return (String(cString: name), entry.pointee.pw_uid, entry.pointee.pw_gid)
    }

    /// Leaves root, when this process is root, for the owner of `folder` (unless root
    /// owns it) or the service's network user or `nobody`. Returns the note to print
    /// ("running as …"), nil when it was not root; throws when it could not.
    public static func leaveRoot(writing folder: String?) throws -> String? {
        guard getuid() == 0 || geteuid() == 0 else { return nil }
        var st = stat()
        let owner = folder.flatMap { stat($0, &st) == 0 && st.st_uid != 0 ? getpwuid(st.st_uid) : nil }
            .flatMap { entry in entry.pointee.pw_name.map { (String(cString: $0), entry.pointee.pw_uid, entry.pointee.pw_gid) } }
        guard let (user, uid, gid) = owner ?? unprivilegedUser() else {
            throw PrivilegeDropError(reason: "there is no \(serviceUser) or nobody user to run as")
        }
        // As the service writes: what it makes in the shared folders stays the group's.
        umask(0o007)
        guard initgroups(user, gid) == 0, setgid(gid) == 0, setuid(uid) == 0, setuid(0) != 0 else {
            throw PrivilegeDropError(reason: "cannot run as \(user): \(String(cString: strerror(errno)))")
        }
        leftRootAs = user
        let why = owner != nil ? "the owner of \(folder ?? "")" : user == serviceUser ? "the service's network user"
            : "no service user is installed"
        return "running as \(user) (\(why)): nothing from the network is read as root"
    }
}

/// Root could not be left.
public struct PrivilegeDropError: LocalizedError {
    /// What went wrong.
    public var reason: String

    public var errorDescription: String? { reason }
}
