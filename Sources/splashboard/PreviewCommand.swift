import Foundation
import SplashCore

/// `splashboard preview FEED --size WxH … --out DIR`.
struct PreviewCommand {
    let options: KioskOptions
    let environment: [String: String]

    func run(feed: URL, sizes: [Size], out: String) -> Int32 {
        fail("preview is not available yet", status: 1)
    }
}
