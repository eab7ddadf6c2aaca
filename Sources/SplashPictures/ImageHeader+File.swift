import FoundationEssentials
import SplashCore
import SplashServices

extension ImageHeader {
    /// The header of the picture file at `path` (read from its first MiB, where a JPEG's
    /// or PNG's size is found; opened as `UntrustedFile` opens one); nothing is decoded.
    public static func read(fromFile path: String) throws -> ImageHeader {
        try parse([UInt8](UntrustedFile.read(path, first: 1 << 20)))
    }
}
