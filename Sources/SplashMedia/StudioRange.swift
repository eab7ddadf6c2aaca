/// Planar YUV in studio (limited) range, 16–235 for luma and 16–240 for chroma, stretched in
/// place to full range (0–255), as JPEG's planes are: what the display's converter takes.
///
/// libswscale converts the range only through its whole scaler, even for a frame it would
/// otherwise copy as it is (a clip at the screen's size): that cost 0.12 CPU seconds a
/// second of 1080p video. This is one multiply and shift a byte, which the compiler turns
/// into vector instructions (0.5–0.7 ms a 1080p frame, luma and chroma, on the benchmark host).
enum StudioRange {
    /// Stretches `count` luma bytes at `plane`: (y − 16) × 255 / 219, clamped.
    static func expandLuma(_ plane: UnsafeMutablePointer<UInt8>, count: Int) {
        // 255 / 219 in 14-bit fixed point (19077), rounded.
        stretch(plane, count: count, from: 16, by: 19077, to: 0)
    }

    /// Stretches `count` chroma bytes at `plane` about their middle: (c − 128) × 255 / 224
    /// + 128, clamped.
    static func expandChroma(_ plane: UnsafeMutablePointer<UInt8>, count: Int) {
        // 255 / 224 in 14-bit fixed point (18651), rounded.
        stretch(plane, count: count, from: 128, by: 18651, to: 128)
    }

    /// Each byte `v` of `count` at `plane` made (v − `low`) × `factor` / 2¹⁴ + `base`, rounded
    /// and clamped to a byte.
    @inline(__always)
    private static func stretch(_ plane: UnsafeMutablePointer<UInt8>, count: Int, from low: Int32, by factor: Int32, to base: Int32) {
        for i in 0..<count {
            let v = ((Int32(plane[i]) &- low) &* factor &+ 8192) >> 14 &+ base
            plane[i] = UInt8(truncatingIfNeeded: v < 0 ? 0 : (v > 255 ? 255 : v))
        }
    }
}
