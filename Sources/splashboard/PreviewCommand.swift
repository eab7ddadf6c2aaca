import Dispatch
import FoundationEssentials
import Glibc
import SplashCore
import SplashDisplay
import SplashLink
import SplashServices
import SplashStorage

/// `splashboard preview FEED --size WxH … --out DIR`: each campaign's splash and detail
/// screens at each size, as PNGs, and one contact sheet of them all — on a throwaway
/// database and cache, so no show is recorded, no ping or proof of play is sent and the
/// device's folders are never opened.
///
/// The feed is read by the network program (`splashboard-net sync` into the throwaway
/// folders: the sync's own limits, decoder and picture checks); each screen is drawn by
/// this program run headless on a one-campaign feed of it, with its picture already in
/// the throwaway cache — the very drawing code of the kiosk, its schedule left aside.
struct PreviewCommand {
    let options: KioskOptions
    let environment: [String: String]

    func run(feed: URL, sizes: [Size], out: String) -> Int32 {
        if getuid() == 0 || geteuid() == 0 { return runUnprivileged(out: out) }
        let scratch = TemporaryFolder.path + "splashboard-preview-\(getpid())-\(UUID().uuidString.prefix(8))"
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        /// Stops with `message`, the scratch folder removed (`fail` exits before a defer runs).
        func fail(_ message: String, status: Int32) -> Never {
            try? FileManager.default.removeItem(atPath: scratch)
            splashboard.fail("preview: " + message, status: status)
        }
        do {
            try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        } catch {
            fail("cannot make the folder \(out): \(error.explained)", status: 1)
        }
        do {
            try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
            try "".write(toFile: scratch + "/empty.conf", atomically: true, encoding: .utf8)
        } catch {
            fail("cannot make a scratch folder in \(TemporaryFolder.path): \(error.explained)", status: 1)
        }
        // A config of its own: the device's report-url, metrics file and folders stay out of it.
        // Every campaign, unless groups are named: then what a device in them would show.
        let groups = options.deviceGroups.isEmpty ? DeviceGroups.everyGroup : options.deviceGroups.joined(separator: ",")
        let common = ["--config", scratch + "/empty.conf", "--data-dir", scratch + "/data", "--cache-dir", scratch + "/cache",
                      "--allow-private-addresses", options.privateAddresses.optionValue, "--metrics-file", "off",
                      "--device-groups", groups] + (options.deviceID.map { ["--device-id", $0] } ?? [])
        let program: String
        do {
            program = try NetworkLink.locateProgram(environment: environment)
        } catch {
            fail(error.explained, status: 1)
        }
        let sync = ChildProgram.capture(program, ["sync", "--feed", feed.absoluteString] + common, environment: childEnvironment(scratch))
        // The feed's warnings and refused pictures as the sync saw them; its failure is the preview's.
        let said = sync.stderr.replacing("splashboard: sync failed: ", with: "splashboard: preview: the feed cannot be read: ")
        StandardStream.error.write(Data(said.utf8))
        guard sync.status == 0 else { return 2 }

        let data: DeviceStorage
        let catalog: [CatalogEntry]
        do {
            var throwaway = options
            throwaway.dataDir = scratch + "/data"
            throwaway.cacheDir = scratch + "/cache"
            throwaway.feed = feed
            throwaway.deviceGroups = options.deviceGroups.isEmpty ? [DeviceGroups.everyGroup] : options.deviceGroups
            data = try DeviceStorage(options: throwaway, assets: Assets.locate(environment: environment))
            // The device previewed is in the groups named, and is the device id given, if any:
            // not this machine.
            data.store.device = DeviceGroups(names: throwaway.deviceGroups, deviceID: options.deviceID)
            catalog = try data.store.catalog(cache: data.cache)
        } catch {
            fail(error.explained, status: 1)
        }
        let message = (try? data.store.feedState(for: feed))?.message
        var shots: [(label: String, path: String)] = []
        var problems = 0
        var previewed = 0
        let me = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path
        for (index, entry) in catalog.enumerated() {
            let name = String(cFormat: "%02d-", index + 1) + Self.fileName(entry.campaign.id.rawValue)
            if let device = data.store.device, !device.includes(entry.campaign.groups) {
                let reason = Ineligibility.notForThisDevice(groups: entry.campaign.groups ?? [], device: device.memberships).message
                print("\(TerminalText.printable(entry.campaign.id.rawValue)): not previewed: \(TerminalText.printable(reason))")
                continue
            }
            guard entry.imagePath != nil else {
                let why = switch entry.picture {
                case .refused(let problem, _): "its picture was refused: \(problem)"
                case .waiting(let reason): "its picture could not be fetched: \(reason)"
                case .cached: "its picture could not be fetched"
                }
                print("\(TerminalText.printable(entry.campaign.id.rawValue)): not previewed: \(TerminalText.printable(why))")
                problems += 1
                continue
            }
            previewed += 1
            let one = scratch + "/\(name).json"
            do {
                try Self.oneCampaignFeed(entry.campaign, message: message).write(toFile: one, atomically: true, encoding: .utf8)
            } catch {
                fail(error.explained, status: 1)
            }
            for size in sizes {
                let shotsDir = scratch + "/shots-\(name)-\(size)"
                let run = ChildProgram.capture(me, ["--headless", "--clock", "virtual", "--exit-after", "detail", "--feed", one,
                                            "--log-format", "json",
                                            "--size", size.description, "--snapshot", shotsDir,
                                            "--data-dir", scratch + "/run-\(name)-\(size)", "--cache-dir", scratch + "/cache",
                                            "--config", scratch + "/empty.conf", "--metrics-file", "off",
                                            "--countdown", String(entry.campaign.countdown ?? options.countdown),
                                            "--fit", options.fit.rawValue, "--background", options.background.description],
                                       environment: childEnvironment(scratch))
                let files = ((try? FileManager.default.contentsOfDirectory(atPath: shotsDir)) ?? []).sorted()
                guard run.status == 0, let splash = files.first(where: { $0.hasSuffix("-splash.png") }),
                      let detail = files.last(where: { $0.hasSuffix("-detail.png") }) else {
                    print("\(TerminalText.printable(entry.campaign.id.rawValue)) at \(size): not previewed: the kiosk stopped "
                          + "(\(run.stderr.split(separator: "\n").last.map(String.init) ?? "exit \(run.status)"))")
                    problems += 1
                    continue
                }
                // What the detail screen had to give up at this size, as the kiosk said it.
                for gaveUp in Self.gaveUp(inLog: run.stdout) {
                    print("\(TerminalText.printable(entry.campaign.id.rawValue)) at \(size): detail: "
                          + TerminalText.printable(gaveUp.joined(separator: "; ")))
                }
                for (scene, file) in [("splash", splash), ("detail", detail)] {
                    let target = out + "/\(name)-\(size)-\(scene).png"
                    try? FileManager.default.removeItem(atPath: target)
                    do {
                        try FileManager.default.copyItem(atPath: shotsDir + "/" + file, toPath: target)
                    } catch {
                        fail("cannot write \(target): \(error.explained)", status: 1)
                    }
                    shots.append(("\(entry.campaign.id) · \(size) · \(scene)", target))
                    print(target)
                }
            }
        }
        if !shots.isEmpty {
            let sheet = out + "/contact-sheet.png"
            do {
                try ContactSheet.write(shots, columns: sizes.count * 2, to: sheet, fonts: fontBook())
                print(sheet)
            } catch {
                print("contact sheet not written: \(error.explained)")
                problems += 1
            }
        }
        let which = previewed == catalog.count ? Plural.count(catalog.count, "campaign") : "\(previewed) of \(Plural.count(catalog.count, "campaign"))"
        print("\(which) at \(Plural.count(sizes.count, "size")): \(Plural.count(shots.count, "screen")) in \(out)"
              + (problems > 0 ? "; \(Plural.count(problems, "problem")) above (splashboard feed check lists the feed's)" : ""))
        return problems > 0 ? 1 : 0
    }

    /// The `gave_up` lists of the `layout` events in a kiosk's JSON log.
    static func gaveUp(inLog log: String) -> [[String]] {
        log.split(separator: "\n").compactMap { line in
            guard line.contains("\"layout\""), let event = try? JSONReader.value(Data(line.utf8)) as? [String: Any],
                  event["event"] as? String == "layout" else { return nil }
            return event["gave_up"] as? [String]
        }
    }

    /// The font the kiosk would draw with, for the contact sheet's captions.
    private func fontBook() -> FontBook? {
        try? FontBook.located(font: options.font, memo: nil)
    }

    /// Run as root, the preview fetches and decodes nothing itself: the same command runs
    /// as the service's network user (or `nobody`) into a folder of that user's, and its
    /// screens are copied into `out` (which may be root's) afterwards.
    private func runUnprivileged(out: String) -> Int32 {
        guard let user = PrivilegeDrop.unprivilegedUser() else {
            splashboard.fail("preview: there is no \(PrivilegeDrop.serviceUser) or nobody user to run as", status: 1)
        }
        var template = Array((TemporaryFolder.path + "splashboard-preview-out-XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else {
            splashboard.fail("preview: cannot make a folder in \(TemporaryFolder.path): \(String(cString: strerror(errno)))", status: 1)
        }
        let scratch = String(cString: made)
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        guard chown(scratch, user.uid, user.gid) == 0 else {
            splashboard.fail("preview: cannot give \(scratch) to \(user.name): \(String(cString: strerror(errno)))", status: 1)
        }
        // The command as given, its --out the scratch folder.
        var arguments = Array(CommandLine.arguments.dropFirst())
        for at in arguments.indices {
            if arguments[at] == "--out", at + 1 < arguments.count { arguments[at + 1] = scratch }
            if arguments[at].hasPrefix("--out=") { arguments[at] = "--out=" + scratch }
        }
        fputs("note: running as \(user.name): nothing from the network is read as root\n", stderr)
        let me = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path
        var asUser = environment
        asUser[PrivilegeDrop.leftRootVariable] = user.name
        let run = ChildProgram.capture("/usr/bin/setpriv", ["--reuid", String(user.uid), "--regid", String(user.gid), "--init-groups",
                                                    "--", me] + arguments, environment: asUser)
        StandardStream.error.write(Data(run.stderr.utf8))
        do {
            try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
            // Read as every file another user wrote is read (no link followed, a regular file
            // of a picture's size at most), and written anew as root's.
            for name in try FileManager.default.contentsOfDirectory(atPath: scratch) where name.hasSuffix(".png") {
                let bytes = try UntrustedFile.read(scratch + "/" + name, limit: 64 << 20)
                try? FileManager.default.removeItem(atPath: out + "/" + name)
                guard FileManager.default.createFile(atPath: out + "/" + name, contents: bytes, attributes: [.posixPermissions: 0o644])
                else { throw CocoaError(.fileWriteNoPermission) }
            }
        } catch {
            splashboard.fail("preview: cannot write \(out): \(error.explained)", status: 1)
        }
        print(run.stdout.replacing(scratch, with: out), terminator: "")
        return run.status
    }

    /// The children's environment: a runtime folder of their own (no control socket beside
    /// a running kiosk's), and nothing the service set.
    private func childEnvironment(_ scratch: String) -> [String: String] {
        var env = environment
        env["XDG_RUNTIME_DIR"] = scratch + "/run"
        for key in ["NOTIFY_SOCKET", "WATCHDOG_USEC", "WATCHDOG_PID", "LISTEN_FDS", "LISTEN_PID"] { env[key] = nil }
        return env
    }

    /// A feed of `campaign` alone (its picture, clip, words, link and countdown), its
    /// schedule and counts left aside, its tracking left out.
    static func oneCampaignFeed(_ campaign: Campaign, message: String?) -> String {
        var fields: [(String, JSONValue)] = [("id", .string(campaign.id.rawValue)), ("picUrl", .string(campaign.picURL.absoluteString)),
                                             ("showTime", .int(1_000_000))]
        if let t = campaign.title { fields.append(("title", .string(t))) }
        if let d = campaign.detail { fields.append(("detail", .string(d))) }
        if let l = campaign.linkURL { fields.append(("linkUrl", .string(l.absoluteString))) }
        if let l = campaign.linkLabel { fields.append(("linkLabel", .string(l))) }
        // Its clip too: the splash is the clip's, with the countdown the clip gives it.
        if let v = campaign.videoURL { fields.append(("videoUrl", .string(v.absoluteString))) }
        if let c = campaign.countdown { fields.append(("countdown", .int(c))) }
        // Its picture for portrait screens and its focal point: each size shows what a kiosk of that shape would.
        if let p = campaign.portraitURL { fields.append(("picUrlPortrait", .string(p.absoluteString))) }
        if let f = campaign.focus { fields.append(("focus", .object([("x", .double(f.x)), ("y", .double(f.y))]))) }
        var document: [(String, JSONValue)] = [("campaigns", .array([.object(fields)]))]
        if let message { document.append(("message", .string(message))) }
        return JSONValue.object(document).encoded()
    }

    /// A campaign id as part of a file name.
    static func fileName(_ id: String) -> String {
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-")
        let kept = String(id.map { allowed.contains($0) ? $0 : "_" }.prefix(60))
        return kept.isEmpty ? "campaign" : kept
    }
}
