import Foundation
import SplashCore

extension ImageHeader {
    /// The header of the picture file at `path` (read from its first MiB, where a JPEG's
    /// or PNG's size is found); nothing is decoded.
    public static func read(fromFile path: String) throws -> ImageHeader {
        guard let handle = FileHandle(forReadingAtPath: path) else { throw ImageError.undecodable("\(path) cannot be opened") }
        defer { try? handle.close() }
        return try parse([UInt8](handle.readData(ofLength: 1 << 20)))
    }
}
