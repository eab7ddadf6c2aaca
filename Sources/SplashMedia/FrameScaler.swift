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

    /// Writes `frame` scaled into `destination`, `stride` bytes a line (of the first
    /// plane: a planar YUV 4:2:0 frame's U and V planes follow its Y plane, at half the
    /// stride and half the height).
    func scale(_ frame: UnsafeMutablePointer<AVFrame>, into destination: UnsafeMutablePointer<UInt8>, stride: Int) throws {
        let source = AVPixelFormat(rawValue: frame.pointee.format)
        let before = context
        context = sws_getCachedContext(context, frame.pointee.width, frame.pointee.height, source,
                                       Int32(width), Int32(height), format, SWS_BILINEAR, nil, nil, nil)
        guard let context else { throw MediaError.decode("cannot scale frames of this pixel format") }
        if format == AV_PIX_FMT_YUV420P, context != before {
            // Full range out, the source's range and coefficients kept.
            var inverse: UnsafeMutablePointer<Int32>?, table: UnsafeMutablePointer<Int32>?
            var sourceRange: Int32 = 0, range: Int32 = 0, brightness: Int32 = 0, contrast: Int32 = 0, saturation: Int32 = 0
            if sws_getColorspaceDetails(context, &inverse, &sourceRange, &table, &range, &brightness, &contrast,
                                        &saturation) >= 0 {
                _ = sws_setColorspaceDetails(context, inverse, sourceRange, sws_getCoefficients(SWS_CS_ITU601), 1,
                                             brightness, contrast, saturation)
            }
        }
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
    }
}
