import Foundation
import SplashCore
@testable import SplashPictures
import SplashServices
import SplashTestSupport
import Testing

/// A picture may not stall the screen: a progressive JPEG is walked whole once per scan,
/// so one with thousands of scans is refused before anything decodes it.
@Suite(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/jpegtran"), "needs jpegtran"))
struct DecodeWorkTests {
    /// `baseline` made progressive by jpegtran (libjpeg's standard script: 10 scans for colour).
    func progressive(_ folder: String, width: Int, height: Int) throws -> String {
        try writeImage(folder + "/base.jpg", width: width, height: height, bands: [red, green, blue])
        let out = folder + "/progressive.jpg"
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/jpegtran")
        p.arguments = ["-progressive", "-outfile", out, folder + "/base.jpg"]
        try p.run()
        p.waitUntilExit()
        return out
    }

    /// The JPEG at `path` with its last scan repeated `copies` more times before the end
    /// marker: libjpeg decodes it (a warning for the bogus progression) in time
    /// proportional to the scans.
    func manyScans(_ path: String, copies: Int) throws -> Data {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        var lastScan = 0
        var i = 2
        while i + 1 < bytes.count {
            if bytes[i] == 0xFF, bytes[i + 1] == 0xDA { lastScan = i }
            i += 1
        }
        let end = bytes.count - 2  // the EOI marker
        let scan = Array(bytes[lastScan..<end])
        var out = Array(bytes[..<end])
        for _ in 0..<copies { out += scan }
        return Data(out + [0xFF, 0xD9])
    }

    @Test func anOrdinaryProgressiveJPEGPasses() throws {
        let dir = try temporaryFolder()
        let path = try progressive(dir, width: 1920, height: 1080)
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(data.withUnsafeBytes { ImageHeader.jpegScanCount($0) } == 10)
        let checked = try ImageValidator.check(path)
        #expect(checked.header.width == 1920)
        // A baseline JPEG has one scan.
        let base = try Data(contentsOf: URL(fileURLWithPath: dir + "/base.jpg"))
        #expect(base.withUnsafeBytes { ImageHeader.jpegScanCount($0) } == 1)
    }

    @Test func aJPEGWithThousandsOfScansIsRefusedBeforeItIsDecoded() throws {
        let dir = try temporaryFolder()
        let path = try progressive(dir, width: 1920, height: 1080)
        let hostile = dir + "/hostile.jpg"
        try manyScans(path, copies: 20_000).write(to: URL(fileURLWithPath: hostile))
        #expect(try Data(contentsOf: URL(fileURLWithPath: hostile)).withUnsafeBytes { ImageHeader.jpegScanCount($0) }
                == 20_010)
        #expect(throws: ImageError.tooMuchWork(scans: 20_010, width: 1920, height: 1080)) {
            try ImageValidator.check(hostile)
        }
        // The display's decoder refuses it too (a picture cached before the rule existed).
        #expect(throws: ImageError.tooMuchWork(scans: 20_010, width: 1920, height: 1080)) {
            try ImageDecoder.load(hostile, into: PixelBuffer.self)
        }
        // Within the budget, the same trick still decodes: the rule is about work, not form.
        let some = dir + "/some.jpg"
        try manyScans(path, copies: 50).write(to: URL(fileURLWithPath: some))
        #expect(throws: Never.self) { try ImageValidator.check(some) }
    }
}
