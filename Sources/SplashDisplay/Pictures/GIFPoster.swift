import CGIF
import FoundationEssentials
import SplashCore
import SplashPictures

/// The first frame of a GIF, its poster (an animated one plays through the media process),
/// decoded by giflib onto the GIF's canvas in 32-bit pixels: the frame where its descriptor
/// puts it, its transparent colour and the rest of the canvas transparent. Only the display
/// decodes it; the picture limits were held to its header and its frame to its canvas first.
enum GIFPoster {
    /// The bytes giflib reads, and how far it has read.
    private final class Source {
        let bytes: [UInt8]
        var offset = 0
        init(_ bytes: [UInt8]) { self.bytes = bytes }
    }

    /// Decodes the first frame of the GIF in `bytes` (checked: `header` and `frame`) into
    /// pixels made by `Pixels`.
    static func decode<Pixels: PixelDestination>(_ bytes: [UInt8], header: ImageHeader, frame: Rect,
                                                 into: Pixels.Type) throws -> ImageDecoder.Decoded<Pixels> {
        let source = Source(bytes)
        var error: Int32 = 0
        let opened = withExtendedLifetime(source) {
            DGifOpen(Unmanaged.passUnretained(source).toOpaque(), { gif, buffer, wanted in
                guard let gif, let buffer, let user = gif.pointee.UserData else { return 0 }
                let source = Unmanaged<Source>.fromOpaque(user).takeUnretainedValue()
                let count = max(0, min(Int(wanted), source.bytes.count - source.offset))
                source.bytes.withUnsafeBufferPointer { all in
                    buffer.update(from: all.baseAddress! + source.offset, count: count)
                }
                source.offset += count
                return Int32(count)
            }, &error)
        }
        guard let gif = opened else { throw ImageError.undecodable("GIF: \(words(error))") }
        defer { _ = withExtendedLifetime(source) { DGifCloseFile(gif, &error) } }
        var transparent: Int? = nil
        var record = UNDEFINED_RECORD_TYPE
        while true {
            guard DGifGetRecordType(gif, &record) == GIF_OK else { throw ImageError.undecodable("GIF: \(words(gif.pointee.Error))") }
            if record == TERMINATE_RECORD_TYPE { throw ImageError.malformed("a GIF without a frame") }
            if record == EXTENSION_RECORD_TYPE {
                var code: Int32 = 0
                var block: UnsafeMutablePointer<GifByteType>?
                guard DGifGetExtension(gif, &code, &block) == GIF_OK else {
                    throw ImageError.undecodable("GIF: \(words(gif.pointee.Error))")
                }
                // The graphic control extension before the frame: its transparent colour.
                if code == GRAPHICS_EXT_FUNC_CODE, let block, block[0] >= 4 {
                    transparent = block[1] & 1 != 0 ? Int(block[4]) : nil
                }
                while block != nil {
                    guard DGifGetExtensionNext(gif, &block) == GIF_OK else {
                        throw ImageError.undecodable("GIF: \(words(gif.pointee.Error))")
                    }
                }
                continue
            }
            if record == IMAGE_DESC_RECORD_TYPE { break }
        }
        guard DGifGetImageDesc(gif) == GIF_OK else { throw ImageError.undecodable("GIF: \(words(gif.pointee.Error))") }
        let desc = gif.pointee.Image
        guard Int(desc.Left) == frame.x, Int(desc.Top) == frame.y, Int(desc.Width) == frame.width,
              Int(desc.Height) == frame.height else {
            throw ImageError.undecodable("GIF: its first frame reads as \(desc.Width)×\(desc.Height), "
                                         + "its descriptor says \(frame.width)×\(frame.height)")
        }
        guard let map = desc.ColorMap ?? gif.pointee.SColorMap, let colors = map.pointee.Colors else {
            throw ImageError.malformed("a GIF without colours")
        }
        let colorCount = Int(map.pointee.ColorCount)
        let canvas = try Pixels.make(width: header.width, height: header.height, format: .bgra32)
        var succeeded = false
        defer { if !succeeded { canvas.discard() } }
        for row in 0..<header.height {
            (canvas.pixels + row * canvas.pitch).initializeMemory(as: UInt8.self, repeating: 0, count: header.width * 4)
        }
        // Rows in the order they are stored: four passes when interlaced.
        let order: [Int] = desc.Interlace
            ? [(0, 8), (4, 8), (2, 4), (1, 2)].flatMap { Array(stride(from: $0.0, to: frame.height, by: $0.1)) }
            : Array(0..<frame.height)
        var line = [GifPixelType](repeating: 0, count: frame.width)
        for y in order {
            guard DGifGetLine(gif, &line, Int32(frame.width)) == GIF_OK else {
                throw ImageError.undecodable("GIF: \(words(gif.pointee.Error))")
            }
            let target = (canvas.pixels + (frame.y + y) * canvas.pitch + frame.x * 4).assumingMemoryBound(to: UInt8.self)
            for x in 0..<frame.width {
                let index = Int(line[x])
                guard index != transparent, index < colorCount else { continue }
                let color = colors[index]
                target[x * 4] = color.Blue
                target[x * 4 + 1] = color.Green
                target[x * 4 + 2] = color.Red
                target[x * 4 + 3] = 255
            }
        }
        succeeded = true
        let size = Size(width: header.width, height: header.height)
        return ImageDecoder.Decoded(pixels: canvas, width: size.width, height: size.height, format: .bgra32, original: size)
    }

    /// giflib's words for an error.
    private static func words(_ code: Int32) -> String {
        GifErrorString(code).map { String(cString: $0) } ?? "giflib error \(code)"
    }
}
