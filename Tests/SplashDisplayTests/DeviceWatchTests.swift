import Foundation
@testable import SplashDisplay
import SplashTestSupport
import Testing

/// Device nodes coming and going are noticed at once (inotify), including in a folder that
/// appears only later — as `/dev/dri` does when the first GPU's driver loads.
@Suite struct DeviceWatchTests {
    @Test func aNodeInAFolderThatCameLaterIsNoticed() throws {
        let dev = try temporaryFolder()
        let watch = DeviceWatch(folders: [dev, dev + "/dri"])
        #expect(watch.fd >= 0)
        #expect(!watch.changed())
        try FileManager.default.createDirectory(atPath: dev + "/dri", withIntermediateDirectories: false)
        #expect(watch.changed())
        #expect(!watch.changed())
        // The folder is watched now: its first node is seen too.
        FileManager.default.createFile(atPath: dev + "/dri/card0", contents: nil)
        #expect(watch.changed())
        try FileManager.default.removeItem(atPath: dev + "/dri/card0")
        #expect(watch.changed())
    }
}
