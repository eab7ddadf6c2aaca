import CTurboJPEG
import FoundationEssentials
import SplashCore

/// A picture's thumbnail for the operator view: scaled to fit a square of `side` pixels by
/// averaging every source pixel a thumbnail pixel covers (smooth, never aliased, however
/// large the picture), then encoded by TurboJPEG at quality 75.
public enum Thumbnail {
    /// The side of the square a thumbnail fits in, in pixels.
    public static let side = 320
    /// The JPEG quality thumbnails are encoded at.
    public static let quality: Int32 = 75

    /// The thumbnail of `picture` as JPEG bytes.
    public static func jpeg(of picture: PixelBuffer) throws -> [UInt8] {
        let scaled = try fitted(picture)
        guard let tj = tjInitCompress() else { throw ImageError.undecodable("JPEG: the encoder could not start") }
        defer { tjDestroy(tj) }
        var output: UnsafeMutablePointer<UInt8>?
        var size: UInt = 0
        let format = scaled.format == .bgr24 ? TJPF_BGR : TJPF_BGRX
        guard tjCompress2(tj, scaled.pixels.assumingMemoryBound(to: UInt8.self), Int32(scaled.width), Int32(scaled.pitch),
                          Int32(scaled.height), Int32(format.rawValue), &output, &size, Int32(TJSAMP_420.rawValue),
                          quality, 0) == 0, let output else {
            throw ImageError.undecodable("JPEG: \(String(cString: tjGetErrorStr2(tj)))")
        }
        defer { tjFree(output) }
        return Array(UnsafeBufferPointer(start: output, count: Int(size)))
    }

    /// The size `width`×`height` takes to fit the thumbnail's square (never larger).
    public static func size(fitting width: Int, _ height: Int) -> (width: Int, height: Int) {
        let scale = min(1.0, Double(side) / Double(max(1, max(width, height))))
        return (max(1, Int((Double(width) * scale).rounded())), max(1, Int((Double(height) * scale).rounded())))
    }

    /// `picture` scaled down to the thumbnail's size: each pixel the mean of the source
    /// pixels it covers (a box filter; at most every source pixel is read once per row band).
    static func fitted(_ picture: PixelBuffer) throws -> PixelBuffer {
        let (tw, th) = size(fitting: picture.width, picture.height)
        let out = try PixelBuffer(width: tw, height: th, format: picture.format)
        let channels = picture.format.bytesPerPixel
        let source = picture.pixels.assumingMemoryBound(to: UInt8.self)
        let target = out.pixels.assumingMemoryBound(to: UInt8.self)
        var sums = [Int](repeating: 0, count: tw * channels)
        var counts = [Int](repeating: 0, count: tw)
        // Where each target column starts in the source.
        let columnStart = (0...tw).map { $0 * picture.width / tw }
        for ty in 0..<th {
            let y0 = ty * picture.height / th
            let y1 = max(y0 + 1, (ty + 1) * picture.height / th)
            for i in sums.indices { sums[i] = 0 }
            for i in counts.indices { counts[i] = 0 }
            for y in y0..<y1 {
                let row = source + y * picture.pitch
                for tx in 0..<tw {
                    let x0 = columnStart[tx]
                    let x1 = max(x0 + 1, columnStart[tx + 1])
                    for x in x0..<x1 {
                        for c in 0..<channels { sums[tx * channels + c] += Int(row[x * channels + c]) }
                    }
                    counts[tx] += x1 - x0
                }
            }
            let row = target + ty * out.pitch
            for tx in 0..<tw {
                for c in 0..<channels {
                    row[tx * channels + c] = UInt8((sums[tx * channels + c] + counts[tx] / 2) / counts[tx])
                }
            }
        }
        return out
    }
}
