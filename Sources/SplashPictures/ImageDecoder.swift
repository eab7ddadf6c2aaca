import CPNG
import CTurboJPEG
import CWebP
import FoundationEssentials
import SplashCore
import SplashServices

/// Decodes JPEG, PNG and still WebP files (not GIF: see `ImageDownloader.check`), chosen by the file's first bytes (never a format-guessing
/// loader). Anything else is refused, and so is a JPEG whose decode would exceed the work
/// budget (`ImageHeader.maxScanWork`), wherever it comes from (a picture cached before the
/// budget existed, a bundled file).
///
/// A JPEG is decoded by libjpeg-turbo's TurboJPEG API, scaled down in the decoder (DCT
/// scaling: 1/8, 1/4, 3/8, 1/2 … 7/8) to the smallest size at or above what is asked for,
/// straight into 24-bit pixels: a 4K picture for a 1080p screen is decoded at 1920x1080,
/// and never held at full size. A PNG is decoded whole by libpng's simplified API, to
/// 24-bit pixels or, with transparency, 32-bit; a WebP likewise, by libwebp's decoder (the
/// kiosk's WebP decoder everywhere). Pixels go straight into the memory of
/// whoever keeps them (`PixelDestination`): no SDL here, so the network process links none.
public enum ImageDecoder {
    /// Pixels decoded from a picture, and the size of the original they were decoded from
    /// (larger than the pixels when a JPEG was decoded scaled down).
    public struct Decoded<Pixels: PixelDestination> {
        /// Where the pixels are, the caller's now.
        public let pixels: Pixels
        /// The decoded size and layout.
        public let width: Int
        /// The decoded height in pixels.
        public let height: Int
        /// The layout of each decoded pixel.
        public let format: PixelFormat
        /// The size of the picture in the file.
        public let original: Size
        /// Pixels decoded elsewhere (a GIF's first frame, by the display).
        public init(pixels: Pixels, width: Int, height: Int, format: PixelFormat, original: Size) {
            self.pixels = pixels
            self.width = width
            self.height = height
            self.format = format
            self.original = original
        }

        /// Pixels held per pixel of the original.
        public var scale: Double { Double(width) / Double(max(1, original.width)) }
    }

    /// Decodes the file at `path` at full size.
    public static func load<Pixels: PixelDestination>(_ path: String, into: Pixels.Type) throws -> Decoded<Pixels> {
        try load(path, scale: 1, into: Pixels.self)
    }

    /// Decodes the file at `path` with at least `scale` pixels per pixel of the original
    /// (a JPEG may come out smaller than the original; a PNG is always whole).
    public static func load<Pixels: PixelDestination>(_ path: String, scale: Double,
                                                      into: Pixels.Type) throws -> Decoded<Pixels> {
        try decode(UntrustedFile.read(path), scale: scale, into: Pixels.self)
    }

    /// Decodes a picture file's bytes, read as `UntrustedFile` reads them, like `load`.
    public static func decode<Pixels: PixelDestination>(_ data: Data, scale: Double,
                                                        into: Pixels.Type) throws -> Decoded<Pixels> {
        let head = [UInt8](data.prefix(16))
        guard let kind = ImageHeader.kind(of: head) else {
            throw head.isEmpty ? ImageError.empty : ImageHeader.refusal(for: head)
        }
        switch kind {
        case .png:
            return try data.withUnsafeBytes { try decodePNG($0, into: Pixels.self) }
        case .webp:
            return try data.withUnsafeBytes { try decodeWebP($0, into: Pixels.self) }
        case .gif:
            // A GIF's frames are decoded by the media process (checked there), its first
            // frame by the display (`GIFPoster`, giflib): never here, where the network process is.
            throw ImageError.undecodable("a GIF is decoded by the media process and the display only")
        case .jpeg:
            // Read whole (at most the 20 MiB a picture may have), its scans counted, then
            // decoded from memory.
            let header = try ImageHeader.parse([UInt8](data.prefix(1 << 20)))
            return try data.withUnsafeBytes { bytes in
                try ImageHeader.checkDecodeWork(bytes, header: header)
                return try decodeJPEG(bytes, scale: scale, into: Pixels.self)
            }
        }
    }

    /// The size a JPEG of `original` size is decoded at when drawn `width` pixels wide:
    /// the smallest DCT scale of it at least that wide (never above the original).
    public static func jpegSize(of original: Size, drawnWidth width: Int) -> Size {
        let f = factor(for: Double(width) / Double(max(1, original.width)))
        return Size(width: Int(splash_tj_scaled(Int32(clamping: original.width), f)),
                    height: Int(splash_tj_scaled(Int32(clamping: original.height), f)))
    }

    /// The DCT scaling factor TurboJPEG decodes with for `scale`: the smallest at or above
    /// it, never above 1.
    static func factor(for scale: Double) -> tjscalingfactor {
        var count: Int32 = 0
        guard let list = tjGetScalingFactors(&count) else { return tjscalingfactor(num: 1, denom: 1) }
        var best = tjscalingfactor(num: 1, denom: 1)
        for f in UnsafeBufferPointer(start: list, count: Int(count)) where f.num <= f.denom {
            let value = Double(f.num) / Double(f.denom)
            if value + 1e-9 >= scale, value < Double(best.num) / Double(best.denom) { best = f }
        }
        return best
    }

    /// A PNG whole, through libpng's simplified API (which reads every chunk's CRC and the
    /// whole image data: a cut or damaged file is an error, not half a picture).
    private static func decodePNG<Pixels: PixelDestination>(_ bytes: UnsafeRawBufferPointer,
                                                            into: Pixels.Type) throws -> Decoded<Pixels> {
        var image = png_image()
        splash_png_prepare(&image)
        defer { png_image_free(&image) }
        guard png_image_begin_read_from_memory(&image, bytes.baseAddress, bytes.count) != 0 else {
            throw ImageError.undecodable("PNG: \(pngMessage(image))")
        }
        splash_png_16bit_is_srgb(&image)
        let alpha = splash_png_has_alpha(&image) != 0
        let format: PixelFormat = alpha ? .bgra32 : .bgr24
        image.format = alpha ? splash_png_format_bgra() : splash_png_format_bgr()
        let width = Int(image.width)
        let height = Int(image.height)
        let pixels = try Pixels.make(width: width, height: height, format: format)
        guard png_image_finish_read(&image, nil, pixels.pixels, Int32(pixels.pitch), nil) != 0,
              splash_png_failed(&image) == 0 else {
            pixels.discard()
            throw ImageError.undecodable("PNG: \(pngMessage(image))")
        }
        return Decoded(pixels: pixels, width: width, height: height, format: format,
                       original: Size(width: width, height: height))
    }

    /// A still WebP whole, by libwebp, straight into the destination's memory: 24-bit, or
    /// 32-bit with alpha. An animated one is refused (its frames are not a still picture).
    private static func decodeWebP<Pixels: PixelDestination>(_ bytes: UnsafeRawBufferPointer,
                                                             into: Pixels.Type) throws -> Decoded<Pixels> {
        guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else { throw ImageError.empty }
        var width: Int32 = 0, height: Int32 = 0, alpha: Int32 = 0, animated: Int32 = 0
        guard splash_webp_features(base, bytes.count, &width, &height, &alpha, &animated) == 0 else {
            throw ImageError.undecodable("WebP: libwebp cannot read its headers")
        }
        if animated != 0 { throw ImageError.animatedWebP }
        let header = ImageHeader(kind: .webp, width: Int(width), height: Int(height))
        guard header.width > 0, header.height > 0, header.width <= ImageHeader.maxSide, header.height <= ImageHeader.maxSide,
              header.width * header.height <= ImageHeader.maxPixels else {
            throw ImageError.tooLarge(width: header.width, height: header.height)
        }
        let format: PixelFormat = alpha != 0 ? .bgra32 : .bgr24
        let pixels = try Pixels.make(width: header.width, height: header.height, format: format)
        let out = pixels.pixels.assumingMemoryBound(to: UInt8.self)
        let size = pixels.pitch * header.height
        let done = alpha != 0 ? WebPDecodeBGRAInto(base, bytes.count, out, size, Int32(pixels.pitch))
                              : WebPDecodeBGRInto(base, bytes.count, out, size, Int32(pixels.pitch))
        guard done != nil else {
            pixels.discard()
            throw ImageError.undecodable("WebP: the data is not a whole picture")
        }
        return Decoded(pixels: pixels, width: header.width, height: header.height, format: format,
                       original: Size(width: header.width, height: header.height))
    }

    /// libpng's message for the last error of `image`.
    private static func pngMessage(_ image: png_image) -> String {
        var message = image.message
        let text = withUnsafeBytes(of: &message) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        return text.isEmpty ? "the data is not a whole PNG" : text
    }

    /// Decodes a JPEG's bytes at exactly `size` (one of the decoder's DCT scales) straight
    /// into 32-bit rows (B, G, R, unused) at `pixels`, `pitch` bytes apart: a picture
    /// composed into a frame with no copy of its own. False when it cannot be decoded that
    /// way (not a JPEG, no DCT scale gives `size`, CMYK); throws what `decode` throws for a
    /// picture that does not decode (then the rows hold nothing to show).
    public static func decodeJPEG(_ data: Data, at size: Size, into pixels: UnsafeMutableRawPointer,
                                  pitch: Int) throws -> Bool {
        guard ImageHeader.kind(of: [UInt8](data.prefix(16))) == .jpeg else { return false }
        let header = try ImageHeader.parse([UInt8](data.prefix(1 << 20)))
        return try data.withUnsafeBytes { bytes in
            try ImageHeader.checkDecodeWork(bytes, header: header)
            return try withDecoder(bytes) { tj, base, width, height, colorspace in
                let f = factor(for: Double(size.width) / Double(max(1, width)))
                guard colorspace != Int32(TJCS_CMYK.rawValue), colorspace != Int32(TJCS_YCCK.rawValue),
                      Int(splash_tj_scaled(width, f)) == size.width, Int(splash_tj_scaled(height, f)) == size.height
                else { return false }
                try decompress(tj, base, count: bytes.count, into: pixels.assumingMemoryBound(to: UInt8.self), pitch: pitch,
                               width: Int32(size.width), height: Int32(size.height), format: TJPF_BGRX)
                return true
            }
        }
    }

    /// Starts TurboJPEG on a JPEG's bytes and reads its header: `body` gets the decoder,
    /// the bytes, the picture's width and height and its colour space.
    private static func withDecoder<T>(_ bytes: UnsafeRawBufferPointer,
                                       _ body: (tjhandle, UnsafePointer<UInt8>, Int32, Int32, Int32) throws -> T) throws -> T {
        guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), let tj = tjInitDecompress() else {
            throw ImageError.undecodable("JPEG: the decoder could not start")
        }
        defer { tjDestroy(tj) }
        var width: Int32 = 0
        var height: Int32 = 0
        var subsampling: Int32 = 0
        var colorspace: Int32 = 0
        guard tjDecompressHeader3(tj, base, UInt(bytes.count), &width, &height, &subsampling, &colorspace) == 0 else {
            throw ImageError.undecodable("JPEG: \(String(cString: tjGetErrorStr2(tj)))")
        }
        return try body(tj, base, width, height, colorspace)
    }

    /// Decompresses the whole picture into rows of `pitch` bytes in `format`, at `width` ×
    /// `height` (a DCT scale of it). Throws on a fatal error and on data that ended early
    /// (half a picture, which is never shown); other warnings (stray bytes between markers,
    /// common in cameras' files) leave the picture whole.
    private static func decompress(_ tj: tjhandle, _ base: UnsafePointer<UInt8>, count: Int, into pixels: UnsafeMutablePointer<UInt8>,
                                   pitch: Int, width: Int32, height: Int32, format: TJPF) throws {
        guard tjDecompress2(tj, base, UInt(count), pixels, width, Int32(pitch), height, Int32(format.rawValue),
                            splash_tj_decode_flags()) != 0 else { return }
        let reason = String(cString: tjGetErrorStr2(tj))
        if tjGetErrorCode(tj) == Int32(TJERR_FATAL.rawValue) || reason.lowercased().contains("premature end") {
            throw ImageError.undecodable("JPEG: \(reason)")
        }
    }

    private static func decodeJPEG<Pixels: PixelDestination>(_ bytes: UnsafeRawBufferPointer, scale: Double,
                                                             into: Pixels.Type) throws -> Decoded<Pixels> {
        try withDecoder(bytes) { tj, base, width, height, colorspace in
            try decodeJPEG(tj, base, bytes, width: width, height: height, colorspace: colorspace, scale: scale,
                           into: Pixels.self)
        }
    }

    private static func decodeJPEG<Pixels: PixelDestination>(_ tj: tjhandle, _ base: UnsafePointer<UInt8>,
                                                             _ bytes: UnsafeRawBufferPointer, width: Int32, height: Int32,
                                                             colorspace: Int32, scale: Double,
                                                             into: Pixels.Type) throws -> Decoded<Pixels> {
        let f = factor(for: scale)
        let w = splash_tj_scaled(width, f)
        let h = splash_tj_scaled(height, f)
        // Three bytes a pixel (B, G, R in memory): a quarter less to hold than 32-bit pixels.
        let target = try Pixels.make(width: Int(w), height: Int(h), format: .bgr24)
        let pixels = target.pixels.assumingMemoryBound(to: UInt8.self)
        let decoded = Decoded(pixels: target, width: Int(w), height: Int(h), format: .bgr24,
                              original: Size(width: Int(width), height: Int(height)))
        // CMYK and YCCK pictures (what print designers export) decode to CMYK, then to RGB here:
        // TurboJPEG has no conversion from them to RGB.
        if colorspace == Int32(TJCS_CMYK.rawValue) || colorspace == Int32(TJCS_YCCK.rawValue) {
            do {
                try decodeCMYK(tj, bytes, into: pixels, pitch: target.pitch, width: w, height: h,
                               inverted: hasAdobeMarker(bytes))
            } catch {
                target.discard()
                throw error
            }
            return decoded
        }
        do {
            try decompress(tj, base, count: bytes.count, into: pixels, pitch: target.pitch, width: w, height: h, format: TJPF_BGR)
        } catch {
            target.discard()
            throw error
        }
        return decoded
    }
}

extension ImageDecoder {
    /// Decodes a CMYK or YCCK JPEG into `out` (BGR24 rows of `pitch` bytes): to CMYK first (a buffer of the
    /// decoded size, let go at once), then each pixel as R = (1 − C)(1 − K) and so on. Adobe's files (an APP14
    /// marker) store the inks inverted, as nearly every CMYK JPEG does.
    private static func decodeCMYK(_ tj: tjhandle, _ bytes: UnsafeRawBufferPointer, into out: UnsafeMutablePointer<UInt8>,
                                   pitch: Int, width w: Int32, height h: Int32, inverted: Bool) throws {
        let base = bytes.baseAddress!.assumingMemoryBound(to: UInt8.self)
        var cmyk = [UInt8](repeating: 0, count: Int(w) * Int(h) * 4)
        let status = cmyk.withUnsafeMutableBufferPointer { buffer in
            tjDecompress2(tj, base, UInt(bytes.count), buffer.baseAddress, w, w * 4, h, Int32(TJPF_CMYK.rawValue),
                          splash_tj_decode_flags())
        }
        if status != 0 {
            let reason = String(cString: tjGetErrorStr2(tj))
            if tjGetErrorCode(tj) == Int32(TJERR_FATAL.rawValue) || reason.lowercased().contains("premature end") {
                throw ImageError.undecodable("JPEG (CMYK): \(reason)")
            }
        }
        for y in 0..<Int(h) {
            for x in 0..<Int(w) {
                let i = (y * Int(w) + x) * 4
                var c = Int(cmyk[i]), m = Int(cmyk[i + 1]), yl = Int(cmyk[i + 2]), k = Int(cmyk[i + 3])
                if !inverted { (c, m, yl, k) = (255 - c, 255 - m, 255 - yl, 255 - k) }
                let o = y * pitch + x * 3
                out[o] = UInt8((yl * k + 127) / 255)      // B
                out[o + 1] = UInt8((m * k + 127) / 255)   // G
                out[o + 2] = UInt8((c * k + 127) / 255)   // R
            }
        }
    }

    /// Whether the JPEG has Adobe's APP14 marker ("Adobe" after FF EE) before its first scan.
    static func hasAdobeMarker(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var i = 2
        while i + 9 < bytes.count, bytes[i] == 0xFF {
            let marker = bytes[i + 1]
            if marker == 0xDA { return false }
            let length = Int(bytes[i + 2]) << 8 | Int(bytes[i + 3])
            if marker == 0xEE, length >= 7, Array(bytes[(i + 4)..<(i + 9)]) == Array("Adobe".utf8) { return true }
            i += 2 + length
        }
        return false
    }
}
