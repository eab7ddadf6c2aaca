import FoundationEssentials
import Glibc
import SplashCore
import SplashServices
import SplashStorage

/// Where a run on the virtual clock keeps its catalog, shows and cache, so that time that is
/// not real never uses up a device's real shows.
///
/// A data folder named on the command line is used only while it is a trial's own: new, with no
/// show in its ledger yet (a `sync` made its catalog), or marked by an earlier trial (a `trial`
/// file in it). A folder that holds a kiosk's shows, and the data folder the config file or the
/// default names (also when the command line names it too), are never written:
/// the trial works in a scratch folder of its own instead, says so in one line, and removes it
/// when it ends unless `--keep-scratch` is given. A run on the real clock removes the mark: from
/// then on the folder holds real shows.
enum TrialFolder {
    /// The file that marks a data folder as a trial's own.
    static let markName = "trial"

    /// Where a virtual-clock run works.
    enum Choice: Equatable {
        /// The data folder named on the command line, a trial's own.
        case named
        /// A scratch folder; `reason` names the data folder left alone and why.
        case scratch(reason: String)
    }

    /// Where a run with `options` keeps its catalog, shows and pictures: `options`' folders
    /// changed to the trial's, said in one line; the arguments that give the network process
    /// the same folders. A run on the real clock takes the data folder's mark away.
    static func prepare(_ options: inout KioskOptions) -> [String] {
        guard options.clock == .virtual else {
            unmark(options.dataDir)
            return []
        }
        switch choose(dataDir: options.dataDir, deviceDataDir: options.deviceDataDir) {
        case .named:
            mark(options.dataDir)
            guard !options.cacheDirNamed else { return [] }
            // Nor the device's picture cache: the trial's pictures stay in its own folder.
            options.cacheDir = options.dataDir + "/cache"
            fputs("splashboard: note: virtual clock: this trial keeps its catalog and shows in \(options.dataDir) (a trial's "
                  + "own folder) and its pictures in \(options.cacheDir), not in the device's cache (--cache-dir names "
                  + "another)\n", stderr)
            return ["--cache-dir", options.cacheDir]
        case .scratch(let reason):
            var template = Array((TemporaryFolder.path + "splashboard-virtual-XXXXXX").utf8CString)
            guard mkdtemp(&template) != nil else {
                fail("--clock virtual: cannot make a scratch folder in \(TemporaryFolder.path): "
                     + "\(String(cString: strerror(errno))); give --data-dir a new folder for the trial", status: 1)
            }
            let scratch = String(cString: template)
            options.dataDir = scratch + "/data"
            options.cacheDir = scratch + "/cache"
            options.runtimeDir = scratch
            let end: String = options.keepScratch ? "kept when it ends" : "removed when it ends (--keep-scratch keeps it)"
            let note: String = "splashboard: note: virtual clock: this trial starts empty in \(scratch), \(end), and never writes in "
                + "\(reason): time that is not real never uses up real shows\n"
            fputs(note, stderr)
            if !options.keepScratch { ScratchFolder.removeAtExit(scratch) }
            return ["--data-dir", options.dataDir, "--cache-dir", options.cacheDir]
        }
    }

    /// The choice for a data folder, from what is in it: the device's own (`deviceDataDir`,
    /// what the config file or the default names) never.
    static func choose(dataDir: String, deviceDataDir: String) -> Choice {
        guard !sameFolder(dataDir, deviceDataDir) else {
            return .scratch(reason: "the device's data folder \(dataDir) (from the config file or the default)")
        }
        if FileManager.default.fileExists(atPath: dataDir + "/" + markName) { return .named }
        // A folder this user cannot write cannot lose a show to the trial: the run names the fix.
        if access(dataDir, W_OK) != 0 || !holdsShows(dataDir) { return .named }
        return .scratch(reason: "--data-dir \(dataDir), which holds a kiosk's shows (no `\(markName)` file marks them a trial's)")
    }

    /// Whether two paths name one folder (the same once links and `..` are resolved).
    static func sameFolder(_ a: String, _ b: String) -> Bool {
        guard !a.isEmpty, !b.isEmpty else { return false }
        func resolved(_ path: String) -> String {
            URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
        }
        return a == b || resolved(a) == resolved(b)
    }

    /// Whether the ledger in `dataDir` holds a show; a ledger that cannot be read is taken to.
    static func holdsShows(_ dataDir: String) -> Bool {
        let path = dataDir + "/" + CampaignStore.fileName
        guard FileManager.default.fileExists(atPath: path) else { return false }
        guard let db = try? SQLiteDatabase(path: path),
              let found = try? db.query("SELECT EXISTS (SELECT 1 FROM shows)").first?.first else { return true }
        return found != .int(0)
    }

    /// Marks `dataDir` (made if missing) as a trial's own, so the next trial may use it too.
    static func mark(_ dataDir: String) {
        try? FileManager.default.createDirectory(atPath: dataDir, withIntermediateDirectories: true)
        let text = "This folder holds the catalog and shows of trials on the virtual clock (splashboard --clock virtual).\n"
            + "A run on the real clock that uses it removes this file; trials then keep out of it.\n"
        try? Data(text.utf8).write(to: URL(fileURLWithPath: dataDir + "/" + markName))
    }

    /// Removes the mark: a run on the real clock is about to write real shows in `dataDir`.
    static func unmark(_ dataDir: String) {
        unlink(dataDir + "/" + markName)
    }
}
