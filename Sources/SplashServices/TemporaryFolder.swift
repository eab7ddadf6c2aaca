#if canImport(Glibc)
import Glibc
#endif

/// Where scratch files go: `$TMPDIR`, else `/tmp/`, always ending in a slash (as
/// Foundation's `NSTemporaryDirectory()` gave it).
public enum TemporaryFolder {
    public static var path: String {
        var folder = getenv("TMPDIR").map { String(cString: $0) } ?? ""
        if folder.isEmpty { folder = "/tmp" }
        return folder.hasSuffix("/") ? folder : folder + "/"
    }
}
