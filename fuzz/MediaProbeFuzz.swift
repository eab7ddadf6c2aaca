/// libFuzzer entry: the media process's demuxing and first-frame decoding (FFmpeg behind the
/// probe, from memory) on arbitrary bytes. What it accepts must be within the limits.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMediaProbe(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    if let result = try? VideoProbe.probe(bytes: bytes), VideoLimits.problem(result.facts) == nil {
        precondition(result.facts.width > 0 && result.facts.height > 0, "empty size accepted")
        precondition(result.facts.framesDecoded > 0, "a clip accepted without a decoded frame")
        precondition(result.thumbnail.count == result.thumbnailWidth * result.thumbnailHeight * 3, "thumbnail size")
    }
    return 0
}
