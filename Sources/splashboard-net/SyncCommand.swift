import Glibc
import FoundationEssentials
import SplashCore
import SplashFonts
import SplashNetwork
import SplashServices
import SplashStorage

/// `splashboard sync`: one sync now, which fetches and checks again the pictures and clips
/// refused before. Exit 0 when the feed applied (or had not changed), 1 with the reason.
struct SyncCommand {
    let options: KioskOptions
    let environment: [String: String]

    func run() -> Int32 {
        // Run as root (`sudo splashboard sync`), the sync runs as the owner of the data folder
        // — the service's network process, splashboard-net —, so that what it writes stays
        // that user's; never as root.
        var st = stat()
        let rootsFolder = stat(options.dataDir, &st) != 0 || st.st_uid == 0
        if getuid() == 0, rootsFolder {
            // Where the package is installed, a data folder of root's is a mistake to fix, not
            // a reason to fetch as root. Elsewhere (a kiosk run as root by hand) it stays root's.
            if getpwnam(PrivilegeDrop.serviceUser) != nil {
                fail("the data folder \(options.dataDir) belongs to root (or is missing), and a sync never fetches as root: "
                     + "sudo dpkg-reconfigure splashboard gives the service's folders back to their users; a folder of "
                     + "your own: give it to the user the kiosk runs as (sudo chown -R USER: \(options.dataDir) \(options.cacheDir))", status: 1)
            }
            fputs("note: running as root: the data folder \(options.dataDir) is root's (or not made yet) and no service user\n"
                  + "  is installed to run as, so this sync fetches as root (clips are still probed as nobody).\n"
                  + "  To fetch as a user of its own: sudo chown -R USER: \(options.dataDir) \(options.cacheDir),\n"
                  + "  then sync as USER.\n",
                  stderr)
        }
        do {
            if !rootsFolder, let note = try PrivilegeDrop.leaveRoot(writing: options.dataDir) { fputs("note: \(note)\n", stderr) }
        } catch {
            fail(error.explained, status: 1)
        }
        let data = DeviceStorage.forNetwork(options: options, environment: environment)
        if let note = data.guardAddresses() { fputs("warning: \(note)\n", stderr) }
        let clock = NetworkClock.system
        let sync = FeedSync(store: data.store, cache: data.cache, fetcher: Fetcher(clock: clock), cacheMaxBytes: options.cacheMaxMB << 20,
                            videoMaxBytes: options.videoMaxMB << 20)
        // Run by hand, a sync checks again what was refused: the operator may have put a
        // fixed file up at the same address.
        sync.options.retryRefused = true
        sync.options.canDraw = GlyphFinder().canDraw
        sync.options.revalidateAll = true
        let report = sync.sync(data.feed, now: clock.date())
        // What a feed wrote is shown escaped: it cannot act on the operator's terminal.
        for warning in report.warnings { fputs("warning: \(TerminalText.printable(warning))\n", stderr) }
        for problem in report.pictureErrors { fputs("error: \(TerminalText.printable(problem))\n", stderr) }
        switch report.status {
        case .ok, .notModified:
            let catalog = (try? data.store.catalog(cache: data.cache)) ?? []
            let now = clock.date()
            let context = DeviceRules.context(at: now, catalog: catalog, environment: environment, pick: options.pick,
                                              device: data.store.device)
            let eligible = catalog.filter { $0.isEligible(at: now, context: context) }.count
            let what = report.status == .ok ? "applied" : "not modified"
            print("\(data.feed.publicAddress): \(what); \(Plural.count(report.campaigns, "campaign")), \(eligible) eligible"
                  + String(cFormat: "; %.1f ms", report.milliseconds ?? 0))
            // Files replaced on their servers: a running kiosk shows the new ones from its next splash.
            for address in report.replaced {
                print("changed on its server and fetched again: \(TerminalText.printable(address))")
            }
            // The warnings of the feed in force were printed when it was read; a 304 says they stand.
            if report.status == .notModified, let kept = try? data.store.feedState(for: data.feed).warnings, !kept.isEmpty {
                print("current feed: \(Plural.count(kept.count, "warning")) (unchanged since it was read):")
                for warning in kept { fputs("warning: \(TerminalText.printable(warning))\n", stderr) }
            }
            return 0
        case .error:
            fputs("splashboard: sync failed: \(TerminalText.printable(report.error ?? "unknown error"))\n", stderr)
            // Said only where there is a last good feed (not on a first read, nor in preview's scratch folder).
            if (try? data.store.feedState(for: data.feed))?.lastSuccess != nil {
                fputs("splashboard: nothing was changed: the campaigns of the last good feed stay in force\n", stderr)
            }
            return 1
        }
    }
}
