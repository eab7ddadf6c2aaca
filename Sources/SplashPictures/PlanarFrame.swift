import CTurboJPEG

/// A planar YUV 4:2:0 frame (Y, then U and V at half the stride; full range BT.601, as the
/// media process writes it) turned into 32-bit pixels by libjpeg-turbo's converter — the
/// one its JPEG decoder uses, SIMD where the machine has it: what a clip's frames come as
/// when they are shown whole.
public enum PlanarFrame {
    /// libjpeg-turbo's handle, made once; frames are converted on the display's loop only.
    nonisolated(unsafe) private static var handle: tjhandle?

    /// Converts the `width`×`height` frame at `bytes` (`stride` bytes a luma row) into
    /// B, G, R, X pixels at `target`, `pitch` bytes a row; false when it cannot.
    @discardableResult
    public static func convert(_ bytes: UnsafeRawPointer, width: Int, height: Int, stride: Int,
                               into target: UnsafeMutableRawPointer, pitch: Int) -> Bool {
        if handle == nil { handle = tjInitDecompress() }
        guard let handle else { return false }
        let luma = bytes.assumingMemoryBound(to: UInt8.self)
        let u = luma + stride * height
        let v = u + (stride / 2) * (height / 2)
        var planes: [UnsafePointer<UInt8>?] = [luma, u, v]
        let strides: [Int32] = [Int32(stride), Int32(stride / 2), Int32(stride / 2)]
        return tjDecodeYUVPlanes(handle, &planes, strides, Int32(TJSAMP_420.rawValue),
                                 target.assumingMemoryBound(to: UInt8.self), Int32(width), Int32(pitch), Int32(height),
                                 Int32(TJPF_BGRX.rawValue), 0) == 0
    }
}
