import CFFmpeg
import FoundationEssentials

/// Decoded frames scaled to a size and turned into BGRA or planar YUV 4:2:0 (Y, U, V, full
/// range BT.601: JPEG's, which the display's converter, libjpeg-turbo's, takes), written
/// straight into the memory they are shown from (libswscale, bilinear).
final class FrameScaler {
    private var context: OpaquePointer?
    let width: Int
    let height: Int
    let format: AVPixelFormat

    /// Scales to `width`x`height` in `format` (BGRA for the screen, RGB24 for thumbnails).
    init(width: Int, height: Int, format: AVPixelFormat = AV_PIX_FMT_BGRA) {
        self.width = width
        self.height = height
        self.format = format
    }

    deinit { sws_freeContext(context) }

    /// The pixel formats libswscale takes as full range (JPEG's); every other YUV source,
    /// and what it makes of RGB, is studio range.
    private static let fullRangeFormats: [AVPixelFormat] = [
        AV_PIX_FMT_YUVJ420P, AV_PIX_FMT_YUVJ422P, AV_PIX_FMT_YUVJ444P, AV_PIX_FMT_YUVJ440P, AV_PIX_FMT_YUVJ411P,
    ]

    /// Writes `frame` scaled into `destination`, `stride` bytes a line (of the first
    /// plane: a planar YUV 4:2:0 frame's U and V planes follow its Y plane, at half the
    /// stride and half the height).
    func scale(_ frame: UnsafeMutablePointer<AVFrame>, into destination: UnsafeMutablePointer<UInt8>, stride: Int) throws {
        let source = AVPixelFormat(rawValue: frame.pointee.format)
        // Planar YUV keeps the source's range through libswscale, which then copies a clip
        // at the ring's own size as it is; studio range is stretched to full range after
        // (`StudioRange`), so that every frame is written as JPEG's.
        let fullRange = FrameScaler.fullRangeFormats.contains(source)
        let written = format == AV_PIX_FMT_YUV420P && fullRange ? AV_PIX_FMT_YUVJ420P : format
        context = sws_getCachedContext(context, frame.pointee.width, frame.pointee.height, source,
                                       Int32(width), Int32(height), written, SWS_BILINEAR, nil, nil, nil)
        guard let context else { throw MediaError.decode("cannot scale frames of this pixel format") }
        var planes: [UnsafeMutablePointer<UInt8>?] = [destination, nil, nil, nil]
        var strides: [Int32] = [Int32(stride), 0, 0, 0]
        if format == AV_PIX_FMT_YUV420P {
            let luma = stride * height
            let chroma = (stride / 2) * (height / 2)
            planes = [destination, destination + luma, destination + luma + chroma, nil]
            strides = [Int32(stride), Int32(stride / 2), Int32(stride / 2), 0]
        }
        let data = withUnsafePointer(to: &frame.pointee.data) { $0.withMemoryRebound(to: UnsafePointer<UInt8>?.self, capacity: 8) { $0 } }
        let lines = withUnsafePointer(to: &frame.pointee.linesize) { $0.withMemoryRebound(to: Int32.self, capacity: 8) { $0 } }
        let rows = sws_scale(context, data, lines, 0, frame.pointee.height, &planes, &strides)
        guard rows > 0 else { throw MediaError.decode("scaling a frame failed") }
        if format == AV_PIX_FMT_YUV420P, !fullRange {
            let luma = stride * height
            StudioRange.expandLuma(destination, count: luma)
            StudioRange.expandChroma(destination + luma, count: 2 * (stride / 2) * (height / 2))
        }
    }
}
