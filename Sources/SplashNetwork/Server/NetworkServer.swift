import FoundationEssentials
import Glibc
import SplashCore
import SplashServices
import SplashStorage

/// The network process's side of the link: reads requests (JSON lines) from the display
/// and answers each when its work is done. Syncs run one after another on a thread of
/// their own, poems and poem pictures on others, so a long sync never holds up a poem.
public final class NetworkServer: @unchecked Sendable {
    /// The longest request line accepted; a longer one ends that connection.
    public static let requestLimit = 64 * 1024

    private let feed: URL
    private let sync: FeedSync
    private let poems: PoemSource?
    private let pictures: PoetryPictures?
    private let reporter: ShowReporter?
    private let pings: TrackingPings
    private let poetryImageURL: URL?
    private let clock: NetworkClock
    private let syncWorker = SerialWorker(name: "splashboard.sync")
    private let poemWorker = SerialWorker(name: "splashboard.poetry")
    private let slots = ConnectionSlots()

    /// `warn` takes a line for the log (the network process's standard error); `canDraw`
    /// says whether this device's fonts can draw a character; every backoff, budget, rate
    /// and give-up is measured on `clock` (an I/O wait's own deadline excepted).
    public init(data: DeviceStorage, canDraw: ((Unicode.Scalar) -> Bool)?, clock: NetworkClock,
                warn: @escaping (String) -> Void) {
        let options = data.options
        self.clock = clock
        reporter = options.reportURL.map {
            let reporter = ShowReporter(url: $0, dataDir: options.dataDir, deviceID: data.deviceID, warn: warn, clock: clock)
            reporter.groups = options.deviceGroups
            return reporter
        }
        pings = TrackingPings(dataDir: options.dataDir, fetcher: Fetcher(clock: clock), clock: clock, warn: warn)
        feed = data.feed
        sync = FeedSync(store: data.store, cache: data.cache, fetcher: Fetcher(clock: clock), cacheMaxBytes: options.cacheMaxMB << 20,
                             videoMaxBytes: options.videoMaxMB << 20)
        sync.options.unwritable = data.storeProblem
        sync.options.canDraw = canDraw
        sync.options.revalidateAfter = TimeInterval(options.revalidateAfter)
        poems = options.poetryURL.map { PoemSource(url: $0, fetcher: Fetcher(clock: clock)) }
        let current = try? data.store.loadPoetry(imageURL: options.poetryImageURL)
        pictures = options.poetryImageURL.map { _ in PoetryPictures(cache: data.cache, fetcher: Fetcher(clock: clock), current: current?.imagePath) }
        poetryImageURL = options.poetryImageURL
    }

    /// Serves one connection until the other side closes it. `trustsClock`: the peer is
    /// the kiosk that started this process (its `now` is taken, for `--clock virtual`);
    /// a peer of a listening socket is not, and this process's own clock is used.
    public func serve(connection fd: Int32, trustsClock: Bool = true) {
        let writer = AnswerWriter(fd: fd)
        let channel = LineChannel(fd: fd, limit: Self.requestLimit)
        reading: while true {
            switch channel.next() {
            case .line(let line):
                guard let request = try? NetworkWire.decode(NetworkRequest.self, from: line) else {
                    writer.closeAfterError("not a request: \(String(decoding: line.prefix(80), as: UTF8.self))")
                    return
                }
                writer.expect()
                var asked = request
                if !trustsClock, case .sync = asked.ask { asked.ask = .sync(now: nil) }
                handle(asked, abandoned: writer.isAbandoned, answer: writer.write)
            case .tooLong:
                writer.closeAfterError("a request longer than \(Self.requestLimit) bytes")
                return
            case .closed, .failed, .timedOut:
                break reading
            }
        }
        writer.finish()
    }

    /// Accepts connections on a listening socket (the service's) for as long as it runs,
    /// each served on a thread of its own. Only a peer running as this user, as root, or
    /// as the owner of the socket's file (the display's user) is served
    /// (`SO_PEERCRED`); the rest get one error line.
    public func listen(on fd: Int32) -> Never {
        let owner = Self.socketOwner(fd)
        while true {
            guard let client = SocketAccept.next(on: fd, warn: { fputs("splashboard-net: \($0)\n", stderr) }) else {
                // The socket itself is unusable (closed, not listening): nothing here mends it,
                // so the process ends, for the service manager to start it with a new one.
                fputs("splashboard-net: the network socket no longer accepts connections (\(String(cString: strerror(errno)))); "
                      + "stopping, to be started again\n", stderr)
                exit(1)
            }
            if let peer = Self.peerUser(client), peer != getuid(), peer != 0, peer != owner {
                AnswerWriter(fd: client).closeAfterError("this socket serves the kiosk's display only (uid \(peer) refused)")
                continue
            }
            // A bounded number at once, each on a thread of its own; the rest are turned away
            // with one line, and a system out of threads costs this connection, not the process.
            guard slots.take() else {
                AnswerWriter(fd: client).closeAfterError("\(ConnectionSlots.limit) connections are served at once already; "
                                                          + "try again when one has ended")
                continue
            }
            if let refused = NamedThread.tryStart(name: "splashboard.connection", { [self] in
                serve(connection: client, trustsClock: false)
                slots.giveBack()
            }) {
                slots.giveBack()
                AnswerWriter(fd: client).closeAfterError("no thread to serve this connection (\(refused)); try again")
            }
        }
    }

    /// The user id of the process on the other end of a Unix socket.
    static func peerUser(_ fd: Int32) -> uid_t? {
        // struct ucred { pid_t pid; uid_t uid; gid_t gid; } (a GNU type the Glibc module hides).
        var credentials: (pid: pid_t, uid: uid_t, gid: gid_t) = (0, 0, 0)
        var size = socklen_t(MemoryLayout<(pid_t, uid_t, gid_t)>.size)
        guard getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &credentials, &size) == 0 else { return nil }
        return credentials.uid
    }

    /// The owner of the file a listening Unix socket is bound to (systemd's `SocketUser=`).
    static func socketOwner(_ fd: Int32) -> uid_t? {
        var address = sockaddr_un()
        var length = socklen_t(MemoryLayout<sockaddr_un>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard named == 0 else { return nil }
        let path = withUnsafeBytes(of: address.sun_path) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        var st = stat()
        guard !path.isEmpty, stat(path, &st) == 0 else { return nil }
        return st.st_uid
    }

    /// Syncs (and poems) asked for and not finished, at the most; one more is answered at
    /// once that the process is busy.
    static let maxQueuedSyncs = 4
    private let queueLock = Lock()
    private var queued: [NetworkRequest.Kind: Int] = [:]

    /// Runs `work` on `worker` unless `maxQueuedSyncs` of `kind` wait already (then `answer`
    /// says so at once), and not at all once its asker has gone.
    private func queue(_ kind: NetworkRequest.Kind, _ what: String, id: Int, on worker: SerialWorker,
                       abandoned: @escaping () -> Bool, answer: @escaping (NetworkAnswer) -> Void,
                       _ work: @escaping () -> Void) {
        queueLock.lock()
        let full = queued[kind, default: 0] >= Self.maxQueuedSyncs
        if !full { queued[kind, default: 0] += 1 }
        queueLock.unlock()
        if full {
            return answer(NetworkAnswer(id: id, .failed("the network process has \(Self.maxQueuedSyncs) \(what) waiting already")))
        }
        worker.async { [self] in
            defer { queueLock.lock(); queued[kind, default: 1] -= 1; queueLock.unlock() }
            // Nobody waits for it any more (the display went or gave up): not run.
            if abandoned() { return answer(NetworkAnswer(id: id, .abandoned)) }
            work()
        }
    }

    private func handle(_ request: NetworkRequest, abandoned: @escaping () -> Bool,
                        answer: @escaping (NetworkAnswer) -> Void) {
        let id = request.id
        switch request.ask {
        case .sync(let asOf):
            queue(.sync, "syncs", id: id, on: syncWorker, abandoned: abandoned, answer: answer) { [self] in
                let report = sync.sync(feed, now: asOf ?? clock.date())
                answer(NetworkAnswer(id: id, .synced(NetworkWire.trimmed(report))))
                // Shows and pings that could not be sent are tried again on the sync's schedule.
                reporter?.wake()
                pings.wake()
            }
        case .report:
            reporter?.wake()
            pings.wake()
            answer(NetworkAnswer(id: id, .taken))
        case .poem:
            queue(.poem, "poems", id: id, on: poemWorker, abandoned: abandoned, answer: answer) { [poems] in
                guard let poems else { return answer(NetworkAnswer(id: id, .failed("no poetry-url is set"))) }
                do {
                    answer(NetworkAnswer(id: id, .poem(try poems.fetch())))
                } catch {
                    answer(NetworkAnswer(id: id, .failed(error.explained)))
                }
            }
        case .poemPicture(let asked):
            guard let pictures, let configured = poetryImageURL else {
                return answer(NetworkAnswer(id: id, .failed("no poetry-image-url is set")))
            }
            // Only the configured picture: a peer does not name what this process fetches.
            guard let asked, asked == configured.absoluteString, let url = URL(string: asked) else {
                return answer(NetworkAnswer(id: id, .failed("only the configured poetry-image-url is fetched")))
            }
            pictures.load(url) { got in
                switch got {
                case .cached(let path): answer(NetworkAnswer(id: id, .picture(path: path)))
                case .missing(let reason): answer(NetworkAnswer(id: id, .failed(reason)))
                }
            }
        }
    }
}

/// Writes answers to one connection, one whole line at a time from any thread, and closes
/// it once the reader has stopped and every request read has been answered.
private final class AnswerWriter: @unchecked Sendable {
    private let fd: Int32
    private let lock = Lock()
    private var unanswered = 0
    private var readerDone = false
    private var closed = false

    init(fd: Int32) {
        self.fd = fd
    }

    /// Whether the peer has gone (it closed its side): work for it is not begun.
    func isAbandoned() -> Bool {
        lock.lock()
        defer { lock.unlock() }
        return closed || readerDone
    }

    /// One more request is being worked on.
    func expect() {
        lock.lock()
        unanswered += 1
        lock.unlock()
    }

    func write(_ answer: NetworkAnswer) {
        let line = NetworkWire.line(answer)
        lock.lock()
        defer { lock.unlock() }
        if answer.id != 0 { unanswered -= 1 }
        defer { closeIfDone() }
        guard !closed else { return }
        // A display that has gone asks again when it is back.
        LineChannel.sendAll(line, on: fd)
    }

    /// Answers id 0 with `reason` and ends the connection: a peer that sends what is not a
    /// request is not listened to further.
    func closeAfterError(_ reason: String) {
        write(NetworkAnswer(id: 0, .failed(reason)))
        finish()
    }

    /// No more requests: the connection closes once the answers in flight are written.
    func finish() {
        lock.lock()
        readerDone = true
        closeIfDone()
        lock.unlock()
    }

    /// Called with the lock held.
    private func closeIfDone() {
        guard readerDone, unanswered <= 0, !closed else { return }
        closed = true
        close(fd)
    }
}
