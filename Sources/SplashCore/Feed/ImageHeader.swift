import FoundationEssentials

/// The kind and pixel size of a JPEG, PNG, WebP or GIF, read from its first bytes, before
/// any decoding, so oversized or disguised files are refused cheaply.
public struct ImageHeader: Equatable, Sendable {
    /// The formats shown; the raw value is the name used in messages.
    public enum Kind: String, Sendable {
        case jpeg = "JPEG"
        case png = "PNG"
        /// A still WebP (lossy or lossless, with or without alpha).
        case webp = "WebP"
        /// A GIF, still or animated (its frames are decoded by the media process).
        case gif = "GIF"
    }

    /// Which of the formats the file is.
    public var kind: Kind
    /// Pixels from left to right.
    public var width: Int
    /// Pixels from top to bottom.
    public var height: Int

    /// A header of this kind and size, as given (the limits are checked by `parse`).
    public init(kind: Kind, width: Int, height: Int) {
        self.kind = kind
        self.width = width
        self.height = height
    }

    /// The longest side accepted, in pixels.
    public static let maxSide = 8192
    /// The most pixels accepted in all (width × height).
    public static let maxPixels = 40_000_000

    /// The kind from the magic bytes alone, or nil.
    public static func kind(of bytes: [UInt8]) -> Kind? {
        if bytes.count >= 3, bytes[0] == 0xFF, bytes[1] == 0xD8, bytes[2] == 0xFF { return .jpeg }
        if bytes.count >= 8, Array(bytes[0..<8]) == pngSignature { return .png }
        if bytes.count >= 12, bytes.starts(with: Array("RIFF".utf8)), Array(bytes[8..<12]) == Array("WEBP".utf8) { return .webp }
        if bytes.count >= 6, bytes.starts(with: Array("GIF87a".utf8)) || bytes.starts(with: Array("GIF89a".utf8)) { return .gif }
        return nil
    }

    static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// Parses the header from the start of a file and checks the size limits.
    public static func parse(_ bytes: [UInt8]) throws -> ImageHeader {
        guard !bytes.isEmpty else { throw ImageError.empty }
        let header: ImageHeader
        switch kind(of: bytes) {
        case .png: header = try parsePNG(bytes)
        case .jpeg: header = try parseJPEG(bytes)
        case .webp: header = try parseWebP(bytes)
        case .gif: header = try parseGIF(bytes)
        case nil: throw refusal(for: bytes)
        }
        guard header.width > 0, header.height > 0 else {
            throw ImageError.malformed("a size of \(header.width)×\(header.height)")
        }
        guard header.width <= maxSide, header.height <= maxSide, header.width * header.height <= maxPixels else {
            throw ImageError.tooLarge(width: header.width, height: header.height)
        }
        return header
    }

    /// Whether the file's last bytes close the image (JPEG's EOI marker, PNG's IEND chunk),
    /// so a download cut short is never mistaken for a whole picture.
    public static func isComplete(_ kind: Kind, tail: [UInt8]) -> Bool {
        switch kind {
        case .jpeg:
            // Some encoders pad after EOI; allow a little.
            var end = tail.count
            while end > 0, tail[end - 1] == 0x00 || tail[end - 1] == 0x0A || tail[end - 1] == 0x0D || tail[end - 1] == 0x20 {
                end -= 1
            }
            return end >= 2 && tail[end - 2] == 0xFF && tail[end - 1] == 0xD9
        case .png:
            let iend: [UInt8] = [0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82]
            return tail.count >= 12 && Array(tail.suffix(12)) == iend
        case .webp:
            // A WebP has no end marker: its RIFF header says its length (`riffLength`).
            return true
        case .gif:
            // The trailer byte, 0x3B; some encoders pad after it.
            var end = tail.count
            while end > 0, tail[end - 1] == 0x00 || tail[end - 1] == 0x0A || tail[end - 1] == 0x0D { end -= 1 }
            return end >= 1 && tail[end - 1] == 0x3B
        }
    }

    /// The whole length a WebP's RIFF header gives the file (its size field and the 8
    /// bytes before it): a file of another length was cut short or has something after it.
    public static func riffLength(_ head: [UInt8]) -> Int? {
        guard head.count >= 12 else { return nil }
        return Int(le32(head, 4)) + 8
    }

    /// A still WebP's size: from its first chunk, `VP8 ` (lossy: the key frame's 14-bit
    /// sizes), `VP8L` (lossless: 14-bit sizes less one, packed) or `VP8X` (extended: the
    /// canvas's 24-bit sizes less one). An animated one (VP8X's animation flag) is refused:
    /// only a still picture is shown.
    private static func parseWebP(_ b: [UInt8]) throws -> ImageHeader {
        guard b.count >= 30 else { throw ImageError.truncated("WebP") }
        let chunk = String(decoding: b[12..<16], as: UTF8.self)
        switch chunk {
        case "VP8 ":
            guard b[23] == 0x9D, b[24] == 0x01, b[25] == 0x2A else { throw ImageError.malformed("a VP8 frame without its start code") }
            return ImageHeader(kind: .webp, width: Int(le16(b, 26) & 0x3FFF), height: Int(le16(b, 28) & 0x3FFF))
        case "VP8L":
            guard b[20] == 0x2F else { throw ImageError.malformed("a VP8L stream without its signature") }
            let bits = le32(b, 21)
            return ImageHeader(kind: .webp, width: Int(bits & 0x3FFF) + 1, height: Int((bits >> 14) & 0x3FFF) + 1)
        case "VP8X":
            if b[20] & 0x02 != 0 { throw ImageError.animatedWebP }
            let width = Int(b[24]) | Int(b[25]) << 8 | Int(b[26]) << 16
            let height = Int(b[27]) | Int(b[28]) << 8 | Int(b[29]) << 16
            return ImageHeader(kind: .webp, width: width + 1, height: height + 1)
        default:
            throw ImageError.malformed("a WebP whose first chunk is \"\(TerminalText.printable(chunk))\"")
        }
    }

    /// A GIF's size: its logical screen's, 16-bit little-endian after the signature.
    private static func parseGIF(_ b: [UInt8]) throws -> ImageHeader {
        guard b.count >= 10 else { throw ImageError.truncated("GIF") }
        return ImageHeader(kind: .gif, width: Int(le16(b, 6)), height: Int(le16(b, 8)))
    }

    /// Where a GIF's first frame lies on its canvas (its image descriptor's position and
    /// size: a frame may cover part of the canvas), found by walking the blocks before it —
    /// the colour table skipped, each extension's sub-blocks skipped by their lengths, a
    /// stray byte skipped as SDL_image skips it; nil when the bytes end (or the trailer
    /// comes) first.
    public static func gifFirstFrame(_ b: [UInt8]) -> Rect? {
        guard kind(of: b) == .gif, b.count >= 13 else { return nil }
        var i = 13
        if b[10] & 0x80 != 0 { i += 3 << ((Int(b[10]) & 7) + 1) }
        while i < b.count {
            switch b[i] {
            case 0x21:
                i += 2
                while i < b.count {
                    let length = Int(b[i])
                    i += 1 + length
                    if length == 0 { break }
                }
            case 0x2C:
                guard i + 9 <= b.count else { return nil }
                return Rect(x: Int(le16(b, i + 1)), y: Int(le16(b, i + 3)), width: Int(le16(b, i + 5)), height: Int(le16(b, i + 7)))
            case 0x3B:
                return nil
            default:
                i += 1
            }
        }
        return nil
    }

    /// A GIF's first frame, held to its canvas before anything decodes it: a decoder sizes
    /// its frame by the descriptor, and a few bytes could otherwise ask for gigabytes.
    public static func checkGIFFirstFrame(_ bytes: [UInt8], header: ImageHeader) throws -> Rect {
        guard let frame = gifFirstFrame(bytes) else { throw ImageError.malformed("a GIF without a frame") }
        guard frame.width > 0, frame.height > 0, frame.maxX <= header.width, frame.maxY <= header.height else {
            throw ImageError.malformed("a GIF whose first frame (\(frame.width)×\(frame.height) at \(frame.x),\(frame.y)) "
                                       + "lies outside its \(header.width)×\(header.height) canvas")
        }
        return frame
    }

    private static func le16(_ b: [UInt8], _ i: Int) -> UInt32 { UInt32(b[i]) | UInt32(b[i + 1]) << 8 }

    private static func le32(_ b: [UInt8], _ i: Int) -> UInt32 {
        UInt32(b[i]) | UInt32(b[i + 1]) << 8 | UInt32(b[i + 2]) << 16 | UInt32(b[i + 3]) << 24
    }

    private static func parsePNG(_ b: [UInt8]) throws -> ImageHeader {
        guard b.count >= 24 else { throw ImageError.truncated("PNG") }
        guard Array(b[12..<16]) == Array("IHDR".utf8) else { throw ImageError.malformed("the first PNG chunk is not IHDR") }
        return ImageHeader(kind: .png, width: Int(be32(b, 16)), height: Int(be32(b, 20)))
    }

    /// The decode work a JPEG may ask for, in pixels × scans: a progressive JPEG is walked
    /// whole once per scan, and a few hostile MiB can hold tens of thousands of scans. The
    /// largest picture allowed (40 megapixels) with the ten scans of an ordinary
    /// progressive JPEG is within it.
    public static let maxScanWork = 400_000_000

    /// How many scans (SOS segments) the JPEG in `bytes` has: its markers are walked and
    /// the entropy-coded data between them skipped, in one pass over the bytes.
    public static func jpegScanCount(_ b: UnsafeRawBufferPointer) -> Int {
        var scans = 0
        var i = 2
        while i + 1 < b.count {
            guard b[i] == 0xFF else { i += 1; continue }
            let marker = b[i + 1]
            if marker == 0xFF { i += 1; continue }
            if marker == 0x00 || marker == 0xD8 || (0xD0...0xD7).contains(marker) || marker == 0x01 { i += 2; continue }
            if marker == 0xD9 { break }
            guard i + 3 < b.count else { break }
            let length = Int(b[i + 2]) << 8 | Int(b[i + 3])
            i += 2 + max(length, 2)
            guard marker == 0xDA else { continue }
            scans += 1
            // The scan's data, up to the next marker that is not a stuffed 0xFF00 or a restart.
            while i + 1 < b.count, !(b[i] == 0xFF && b[i + 1] != 0x00 && !(0xD0...0xD7).contains(b[i + 1])) {
                i += 1
            }
        }
        return scans
    }

    /// Refuses a JPEG whose decode would exceed `maxScanWork`.
    public static func checkDecodeWork(_ bytes: UnsafeRawBufferPointer, header: ImageHeader) throws {
        guard header.kind == .jpeg else { return }
        let scans = jpegScanCount(bytes)
        if scans * header.width * header.height > maxScanWork {
            throw ImageError.tooMuchWork(scans: scans, width: header.width, height: header.height)
        }
    }

    private static func parseJPEG(_ b: [UInt8]) throws -> ImageHeader {
        var i = 2
        while i + 4 <= b.count {
            guard b[i] == 0xFF else { throw ImageError.malformed("expected a JPEG marker at byte \(i)") }
            let marker = b[i + 1]
            if marker == 0xFF { i += 1; continue }  // fill byte
            if marker == 0xD8 || (0xD0...0xD7).contains(marker) || marker == 0x01 { i += 2; continue }
            if marker == 0xD9 || marker == 0xDA { throw ImageError.malformed("no frame header before the image data") }
            let length = Int(b[i + 2]) << 8 | Int(b[i + 3])
            guard length >= 2 else { throw ImageError.malformed("a segment of length \(length)") }
            let isFrame = (0xC0...0xCF).contains(marker) && marker != 0xC4 && marker != 0xC8 && marker != 0xCC
            if isFrame {
                guard i + 9 <= b.count else { throw ImageError.truncated("JPEG") }
                let height = Int(b[i + 5]) << 8 | Int(b[i + 6])
                let width = Int(b[i + 7]) << 8 | Int(b[i + 8])
                return ImageHeader(kind: .jpeg, width: width, height: height)
            }
            i += 2 + length
        }
        throw ImageError.truncated("JPEG")
    }

    private static func be32(_ b: [UInt8], _ i: Int) -> UInt32 {
        UInt32(b[i]) << 24 | UInt32(b[i + 1]) << 16 | UInt32(b[i + 2]) << 8 | UInt32(b[i + 3])
    }

    /// A clear refusal naming what the bytes look like.
    public static func refusal(for b: [UInt8]) -> ImageError {
        func starts(_ s: String) -> Bool { b.starts(with: Array(s.utf8)) }
        if starts("GIF8") { return .malformed("a GIF whose signature is neither GIF87a nor GIF89a") }
        if VideoHeader.looksLikeClip(b) { return .notAnImage("a video clip (a clip goes in videoUrl, with its poster in picUrl)") }
        if let container = VideoHeader.otherContainer(b) { return .notAnImage("a video clip, \(container) (a clip goes in videoUrl, as MP4, WebM or Matroska)") }
        if starts("BM") { return .unsupported("BMP") }
        let text = String(decoding: b.prefix(512), as: UTF8.self).lowercased()
        let trimmed = text.drop { $0 == " " || $0 == "\n" || $0 == "\r" || $0 == "\t" || $0 == "\u{FEFF}" }
        if trimmed.contains("<svg") { return .unsupported("SVG") }
        if trimmed.hasPrefix("<!doctype html") || trimmed.hasPrefix("<html") || trimmed.contains("<body") {
            return .notAnImage("an HTML page")
        }
        if trimmed.hasPrefix("{") || trimmed.hasPrefix("[") { return .notAnImage("JSON") }
        if trimmed.hasPrefix("<") { return .notAnImage("XML or HTML") }
        return .notAnImage("unknown data")
    }
}
