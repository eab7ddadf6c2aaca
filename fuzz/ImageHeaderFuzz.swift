/// libFuzzer entry: the image header validator on arbitrary bytes.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzImageHeader(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    if let header = try? ImageHeader.parse(bytes) {
        precondition(header.width > 0 && header.height > 0, "empty size accepted")
        precondition(header.width <= ImageHeader.maxSide && header.height <= ImageHeader.maxSide, "side over the limit")
        precondition(header.width * header.height <= ImageHeader.maxPixels, "area over the limit")
    }
    _ = ImageHeader.isComplete(.jpeg, tail: bytes)
    _ = ImageHeader.isComplete(.png, tail: bytes)
    return 0
}
