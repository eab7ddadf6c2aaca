import FoundationEssentials

/// The bundled files: the default splash image, the demo feed and its pictures.
/// Looked for in `$SPLASHBOARD_ASSETS`, then beside the binary (`../share/splashboard`,
/// as installed), then in the source tree the binary was built in.
public struct Assets {
    /// The folder that holds them.
    public let folder: String

    /// The default splash image, shown when no campaign is eligible.
    public var defaultSplash: String { folder + "/default-splash.jpg" }
    /// The demo feed, used when no feed is set.
    public var demoFeed: URL { URL(fileURLWithPath: folder + "/demo/feed.json") }
    /// The bundled poems, a JSON list.
    public var poems: String { folder + "/poems.json" }

    /// The first of those places that holds the bundled files (its `default-splash.jpg`
    /// exists), else /usr/share/splashboard if it does; nil when none does.
    public static func locate(environment: [String: String]) -> Assets? {
        var candidates: [String] = []
        if let env = environment["SPLASHBOARD_ASSETS"], !env.isEmpty { candidates.append(env) }
        let exe = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
        var dir = exe
        for _ in 0..<5 {
            candidates.append(dir.appendingPathComponent("share/splashboard").path)
            candidates.append(dir.appendingPathComponent("assets").path)
            dir = dir.deletingLastPathComponent()
        }
        candidates.append("/usr/share/splashboard")
        return candidates.first { FileManager.default.fileExists(atPath: $0 + "/default-splash.jpg") }.map(Assets.init)
    }
}
