import Foundation
import SplashTestSupport
@testable import SplashDisplay
import Testing

/// The kiosk's fonts are read from memory: the font file mapped, not read through stdio a
/// few bytes at a time (thousands of system calls to the first frame, most of the console's
/// start-up under emulation), and no descriptor held open on it for each size.
@Suite struct FontFileTests {
    @Test func theFontIsMappedAndNoDescriptorIsHeldOnIt() throws {
        let fonts = try FontBook.located(font: nil, memo: nil)
        for size in [20, 30, 48] { #expect(fonts.font(size: size) != nil) }
        #expect(fonts.width(of: "跳过 3", size: 30) > 0)
        let path = URL(fileURLWithPath: fonts.face.path).resolvingSymlinksInPath().path
        let maps = try String(contentsOfFile: "/proc/self/maps", encoding: .utf8)
        #expect(maps.split(separator: "\n").contains { $0.hasSuffix(" " + path) || $0.hasSuffix(" " + fonts.face.path) },
                "\(path) is not mapped")
        let open = try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")
            .compactMap { try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/" + $0) }
        #expect(!open.contains(path) && !open.contains(fonts.face.path), "\(open)")
    }
}
