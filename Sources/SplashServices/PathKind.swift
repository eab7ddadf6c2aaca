#if canImport(Glibc)
import Glibc
#endif

/// What is at a path, as the checks before reading or writing ask it.
public enum PathKind: Equatable, Sendable {
    case nothing, folder, other

    /// What `path` is (following a symbolic link).
    public static func of(_ path: String) -> PathKind {
        var info = stat()
        guard stat(path, &info) == 0 else { return .nothing }
        return (info.st_mode & S_IFMT) == S_IFDIR ? .folder : .other
    }
}
