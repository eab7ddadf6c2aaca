/// A planar YUV 4:2:0 frame (Y, then U and V at half the stride) turned into 32-bit pixels,
/// BT.601 video range: what a clip's frames come as when the media process leaves the
/// conversion to the display.
enum PlanarFrame {
    /// Converts the `width`×`height` frame at `bytes` (`stride` bytes a luma row) into
    /// B, G, R, X pixels at `target`, `pitch` bytes a row.
    static func convert(_ bytes: UnsafeRawPointer, width: Int, height: Int, stride: Int, into target: UnsafeMutableRawPointer,
                        pitch: Int) {
        let luma = bytes.assumingMemoryBound(to: UInt8.self)
        let u = luma + stride * height
        let v = u + (stride / 2) * (height / 2)
        @inline(__always) func clamp(_ x: Int32) -> UInt32 { UInt32(x < 0 ? 0 : x > 255 ? 255 : x) }
        for row in 0..<height {
            let out = (target + row * pitch).assumingMemoryBound(to: UInt32.self)
            let yRow = luma + row * stride
            let uRow = u + (row / 2) * (stride / 2)
            let vRow = v + (row / 2) * (stride / 2)
            for x in 0..<width {
                let c = 298 * (Int32(yRow[x]) - 16)
                let d = Int32(uRow[x / 2]) - 128
                let e = Int32(vRow[x / 2]) - 128
                let r = clamp((c + 409 * e + 128) >> 8)
                let g = clamp((c - 100 * d - 208 * e + 128) >> 8)
                let b = clamp((c + 516 * d + 128) >> 8)
                out[x] = 0xFF00_0000 | r << 16 | g << 8 | b
            }
        }
    }
}
