import FoundationEssentials
import SplashCore
import SplashDisplay
import SplashLink
import SplashServices
import SplashStorage

extension RunCommand {
    /// What a fleet sees of this kiosk: each show in the journal, proof of play and
    /// tracking pings through the network process, the metrics file, and the control
    /// socket's status. Returns the metrics file, to be written once more at the exit.
    func wireFleet(_ setup: inout KioskSetup, _ dependencies: inout KioskDependencies, device: DeviceStorage,
                   link: NetworkLink, screens: Screens, log: EventLog) -> MetricsFile? {
        let clock = dependencies.clock
        let journal = JournalEntry.socketPath(environment: environment)
        let deviceID = device.deviceID
        let reporting = options.reportURL != nil
        device.store.trackingDevice = deviceID
        // A word to the network process that an outbox has something (it answers at once);
        // the core says when (`wakeOutbox`).
        dependencies.wakeOutbox = { link.send(.report, timeout: LinkedSync.reportTimeout) { _ in } }
        dependencies.showEnded = { show in
            JournalEntry.send(ProofOfPlay.journalFields(for: show, deviceID: deviceID), to: journal)
        }

        dependencies.screenChanged = { summary, means in
            var fields: [(String, String)] = [
                ("MESSAGE", summary + (means.isEmpty ? "" : " by " + means.joined(separator: ", "))),
                ("PRIORITY", "6"), ("SYSLOG_IDENTIFIER", "splashboard"), ("SCREEN_POWER", summary),
            ]
            if !means.isEmpty { fields.append(("SCREEN_MEANS", means.joined(separator: ", "))) }
            if let deviceID { fields.append(("DEVICE_ID", deviceID)) }
            JournalEntry.send(fields, to: journal)
        }
        let metrics = MetricsFile.path(option: options.metricsFile).map { path in
            MetricsFile(path: path, dataDir: options.dataDir, cacheDir: options.cacheDir, feed: device.feed,
                        reporting: reporting) { log.emit(.warning(message: $0), at: clock.uptime) }
        }
        metrics?.update { $0.deviceID = deviceID; $0.deviceGroups = options.deviceGroups }
        dependencies.observe = { [clock] event, state in
            guard let metrics else { return }
            let now = clock.now().date
            metrics.update { m in
                var catalogChanged = m.campaigns.isEmpty
                switch event {
                case .firstFrame(let ms): m.firstFrameSeconds = Double(ms) / 1000
                case .frame(let scene): m.scene = scene.rawValue
                case .sync(let status, _, _, _, let reason):
                    m.syncs[status, default: 0] += 1
                    if let reason { m.syncErrors[reason.rawValue, default: 0] += 1 }
                    catalogChanged = true
                case .splash: catalogChanged = true  // a show left one fewer
                default: break
                }
                // A window is one screen; the console has those it draws on (none: no display).
                m.outputs = screens.count
                let power = state.screenPower
                let totals = power.totals(at: clock.uptime)
                (m.screenOn, m.screenReason) = (state.hasStarted ? power.isOn : nil, power.reason.rawValue)
                (m.screenSecondsOn, m.screenSecondsOff) = (totals.on, totals.off)
                if catalogChanged {
                    let context = state.ruleContext(clock.now())
                    m.campaigns = Dictionary(grouping: state.catalog) { KioskMetrics.CampaignState($0, at: now, context: context) }
                        .mapValues(\.count)
                }
            }
        }

        setup.controlSocket = options.runtimeDir.map { $0 + "/" + ControlRequest.socketName }
        dependencies.status = { [options] state, uptime in
            let screen = KioskStatus.screen(of: state)
            let feed = try? device.store.feedState(for: device.feed)
            var status = KioskStatus(version: Version.current, device: deviceID, scene: screen.scene, campaign: screen.campaign,
                               countdown: screen.countdown, feed: device.feed.publicAddress, lastSync: feed?.lastConfirmed,
                               lastChange: feed?.lastChange, lastError: feed?.lastError, warnings: feed?.warnings ?? [],
                               reportUnsent: options.reportURL == nil ? 0 : (try? device.store.unreportedCount()) ?? 0,
                               uptimeSeconds: uptime, screen: screens.first.outputSize.description)
            status.problems = device.writeProblems + (DesktopCheck.warning(driver: screens.driver).map { [$0] } ?? [])
            status.dataDir = options.dataDir
            status.pictureProblems = KioskStatus.pictureProblems(of: state)
            status.groups = state.settings.device?.memberships ?? []
            status.otherScreens = KioskStatus.otherScreens(of: state, now: clock.now())
            // Each campaign shown now and then: when its shows run out at the rate of its latest.
            let context = state.ruleContext(clock.now())
            status.runOut = state.catalog.filter { $0.isEligible(at: clock.now().date, context: context) }.prefix(20).compactMap { entry in
                device.store.runOut(of: entry).map { "\(entry.campaign.id): \($0)" }
            }
            status.takeScreenPower(of: state, now: clock.now().date)
            if !state.sync.running, let next = state.sync.nextAt { status.nextSync = Date().addingTimeInterval(max(0, next - uptime)) }
            return status
        }
        return metrics
    }
}
