import CSDL2
import Foundation
import SplashCore

/// Checks a downloaded image before it may take a final name in the cache: a JPEG or
/// PNG header within the size limits, an end marker (not cut short), a decode within the
/// work budget, a successful decode with the matching decoder at the size the header
/// declared. Makes the thumbnail while the picture is decoded.
public enum ImageValidator {
    /// What a check found in an image that passed it.
    public struct Checked: Equatable {
        /// The image's kind and size, from its header.
        public var header: ImageHeader
        /// The thumbnail: fits a 160 px square, JPEG quality 75.
        public var thumbnail: [UInt8]
    }

    /// The side of the square a thumbnail fits in, in pixels.
    public static let thumbnailSide = 160

    /// Checks the image file at `path` and makes its thumbnail; throws `ImageError` saying
    /// why it may not be cached.
    public static func check(_ path: String) throws -> Checked {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw ImageError.undecodable("\(path) cannot be opened")
        }
        defer { try? handle.close() }
        let head = [UInt8](handle.readData(ofLength: 1 << 20))
        let header = try ImageHeader.parse(head)
        let end = handle.seekToEndOfFile()
        handle.seek(toFileOffset: end > 32 ? end - 32 : 0)
        guard ImageHeader.isComplete(header.kind, tail: [UInt8](handle.readDataToEndOfFile())) else {
            throw ImageError.truncated(header.kind.rawValue)
        }
        // The decoder refuses a JPEG whose scans would take too long before decoding it. A
        // JPEG is decoded scaled down in the decoder to about twice the thumbnail (all of
        // its data is still read and checked): a 4K picture costs a few hundred KB here.
        let decoded = try ImageDecoder.load(path, scale: Double(2 * thumbnailSide) / Double(max(header.width, header.height)))
        defer { SDL_FreeSurface(decoded.surface) }
        guard decoded.original == Size(width: header.width, height: header.height) else {
            throw ImageError.undecodable("decoded \(decoded.original), header said \(header.width)×\(header.height)")
        }
        return Checked(header: header, thumbnail: try thumbnail(of: decoded.surface))
    }

    /// A JPEG of `surface` scaled to fit a 160 px square, halving first for large images
    /// so the result is smooth rather than aliased.
    public static func thumbnail(of source: UnsafeMutablePointer<SDL_Surface>) throws -> [UInt8] {
        guard var current = SDL_ConvertSurfaceFormat(source, SDL_PIXELFORMAT_ARGB8888.rawValue, 0) else {
            throw ImageError.undecodable(sdlErrorText())
        }
        defer { SDL_FreeSurface(current) }
        let w = Int(current.pointee.w)
        let h = Int(current.pointee.h)
        let scale = min(1.0, Double(thumbnailSide) / Double(max(w, h)))
        let targetW = max(1, Int((Double(w) * scale).rounded()))
        let targetH = max(1, Int((Double(h) * scale).rounded()))
        while true {
            let cw = Int(current.pointee.w)
            let ch = Int(current.pointee.h)
            if cw == targetW && ch == targetH { break }
            let nw = cw / 2 >= targetW ? cw / 2 : targetW
            let nh = ch / 2 >= targetH ? ch / 2 : targetH
            guard let next = SDL_CreateRGBSurfaceWithFormat(0, Int32(nw), Int32(nh), 32, SDL_PIXELFORMAT_ARGB8888.rawValue)
            else { throw ImageError.undecodable(sdlErrorText()) }
            guard SDL_SoftStretchLinear(current, nil, next, nil) == 0 else {
                SDL_FreeSurface(next)
                throw ImageError.undecodable(sdlErrorText())
            }
            SDL_FreeSurface(current)
            current = next
        }
        var buffer = [UInt8](repeating: 0, count: 512 * 1024)
        let size: Int = try buffer.withUnsafeMutableBytes { raw in
            guard let rw = SDL_RWFromMem(raw.baseAddress, Int32(raw.count)) else {
                throw ImageError.undecodable(sdlErrorText())
            }
            defer { SDL_RWclose(rw) }
            guard IMG_SaveJPG_RW(current, rw, 0, 75) == 0 else { throw ImageError.undecodable(sdlErrorText()) }
            return Int(SDL_RWtell(rw))
        }
        return Array(buffer.prefix(size))
    }
}
