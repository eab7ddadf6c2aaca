import FoundationEssentials
import SplashCore
import SplashServices

/// Checks a downloaded image before it may take a final name in the cache: a JPEG, PNG
/// or WebP header within the size limits, an end marker (not cut short), a decode within the
/// work budget, a successful decode with the matching decoder at the size the header
/// declared. Makes the thumbnail while the picture is decoded.
public enum ImageValidator {
    /// What a check found in an image that passed it.
    public struct Checked: Equatable {
        /// The image's kind and size, from its header.
        public var header: ImageHeader
        /// The thumbnail: fits a 320 px square, JPEG quality 75.
        public var thumbnail: [UInt8]
    }

    /// The side of the square a thumbnail fits in, in pixels.
    public static let thumbnailSide = Thumbnail.side

    /// Checks the image file at `path` and makes its thumbnail; throws `ImageError` saying
    /// why it may not be cached.
    public static func check(_ path: String) throws -> Checked {
        guard let file = FileReader(path: path) else {
            throw ImageError.undecodable("\(path) cannot be opened")
        }
        let head = [UInt8](file.read(upTo: 1 << 20))
        let header = try ImageHeader.parse(head)
        let end = file.size
        file.seek(to: end > 32 ? end - 32 : 0)
        guard ImageHeader.isComplete(header.kind, tail: [UInt8](file.read(upTo: 32))) else {
            throw ImageError.truncated(header.kind.rawValue)
        }
        // A WebP's RIFF header says how long it is.
        if header.kind == .webp, let length = ImageHeader.riffLength(head), length != Int(end) {
            throw length > Int(end) ? ImageError.truncated("WebP")
                : ImageError.malformed("\(Int(end) - length) bytes after the end its header gives")
        }
        // The decoder refuses a JPEG whose scans would take too long before decoding it. A
        // JPEG is decoded scaled down in the decoder to about twice the thumbnail (all of
        // its data is still read and checked): a 4K picture costs a few hundred KB here.
        let decoded = try ImageDecoder.load(path, scale: Double(2 * thumbnailSide) / Double(max(header.width, header.height)),
                                            into: PixelBuffer.self)
        guard decoded.original == Size(width: header.width, height: header.height) else {
            throw ImageError.undecodable("decoded \(decoded.original), header said \(header.width)×\(header.height)")
        }
        return Checked(header: header, thumbnail: try Thumbnail.jpeg(of: decoded.pixels))
    }
}
