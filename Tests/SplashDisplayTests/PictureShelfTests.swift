import Foundation
import SplashCore
@testable import SplashDisplay
import SplashTestSupport
import Testing

/// A picture replaced in the cache under the same name (changed on its server, fetched
/// again) is not shown from what the display read of the old file.
@Suite struct PictureShelfTests {
    @Test func aPictureReplacedUnderTheSameNameIsLetGoAndReadAgain() throws {
        let folder = try temporaryFolder()
        let path = folder + "/picture"
        let other = folder + "/other"
        try writeImage(path, width: 320, height: 180, bands: [red])
        try writeImage(other, width: 64, height: 64, bands: [blue])
        let shelf = PictureShelf()
        #expect(try shelf.size(of: path) == Size(width: 320, height: 180))
        #expect(try shelf.size(of: other) == Size(width: 64, height: 64))
        #expect(shelf.forgetChanged().isEmpty)
        // Written beside it and renamed over it, as the cache does.
        try writeImage(folder + "/new", width: 640, height: 360, bands: [green])
        #expect(rename(folder + "/new", path) == 0)
        #expect(shelf.forgetChanged() == [path])
        #expect(try shelf.size(of: path) == Size(width: 640, height: 360))
        #expect(shelf.forgetChanged().isEmpty)
        // Removed (the cache cleared): let go too.
        #expect(unlink(other) == 0)
        #expect(shelf.forgetChanged() == [other])
    }
}
