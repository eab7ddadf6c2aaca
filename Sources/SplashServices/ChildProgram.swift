import CSystem
import FoundationEssentials
import Glibc

/// A helper program of the kiosk's own (the media process), found and started with only
/// the descriptors it is given: nothing else of this process — not the screen's, not the
/// input's, not the network's sockets — crosses over.
public enum ChildProgram {
    /// Where `name` is looked for: `$variable`, beside this program, then where the package
    /// installs it.
    public static func candidates(_ name: String, variable: String, environment: [String: String]) -> [String] {
        var places: [String] = []
        if let given = environment[variable], !given.isEmpty { places.append(given) }
        let exe = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
        places.append(exe.appendingPathComponent(name).path)
        places.append("/usr/libexec/splashboard/" + name)
        return places
    }

    /// The first of `candidates` that can be run, or nil.
    public static func locate(_ name: String, variable: String, environment: [String: String]) -> String? {
        candidates(name, variable: variable, environment: environment).first { access($0, X_OK) == 0 }
    }

    /// The media process's program (`$SPLASHBOARD_MEDIA`, beside this program, or where the
    /// package installs it), or nil.
    public static func locateMedia(environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        locate("splashboard-media", variable: "SPLASHBOARD_MEDIA", environment: environment)
    }

    /// Starts `program` with `arguments`, each of `descriptors` (this process's, the child's
    /// number) in place and every other descriptor closed, `adding` to the environment (this
    /// process's, or `environment` when given). Returns its pid, or throws the reason it
    /// could not start.
    public static func spawn(_ program: String, _ arguments: [String], descriptors: [(Int32, Int32)],
                             environment base: [String: String]? = nil, adding: [String: String] = [:]) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for (mine, theirs) in descriptors { posix_spawn_file_actions_adddup2(&actions, mine, theirs) }
        // Standard input, output and error not given are /dev/null, not this process's (the
        // display's standard input is its terminal).
        for standard in Int32(0)...2 where !descriptors.contains(where: { $0.1 == standard }) {
            posix_spawn_file_actions_addopen(&actions, standard, "/dev/null", O_RDWR, 0)
        }
        splash_spawn_close_from(&actions, (descriptors.map(\.1).max() ?? 2) + 1)
        var environment = (base ?? ProcessInfo.processInfo.environment).merging(adding) { _, new in new }
        // systemd's variables are this process's, not the child's.
        for key in ["LISTEN_FDS", "LISTEN_PID", "LISTEN_FDNAMES", "NOTIFY_SOCKET", "WATCHDOG_USEC", "WATCHDOG_PID"] {
            environment[key] = nil
        }
        let argv = ([program] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid: pid_t = 0
        let status = posix_spawn(&pid, program, &actions, nil, argv, envp)
        guard status == 0 else { throw ChildProgramError(program: program, reason: String(cString: strerror(status))) }
        return pid
    }

    /// Ends `pid` (SIGKILL) and reaps it; `waiting` false: waits 50 ms at the most, then
    /// leaves it to a thread of its own, so that a child stuck in the kernel (a driver's
    /// release) cannot hold the caller.
    public static func stop(_ pid: pid_t, waiting: Bool = true) {
        kill(pid, SIGKILL)
        let reap = {
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        }
        guard !waiting else { return reap() }
        var status: Int32 = 0
        for _ in 0..<50 {
            if waitpid(pid, &status, WNOHANG) != 0 { return }
            usleep(1000)
        }
        SerialWorker.detached(name: "splashboard.reap-\(pid)", reap)
    }

    /// How `pid` ended, once it has, without reaping it (its pid stays its own until
    /// `stop`): nil while it runs.
    public static func peekExit(_ pid: pid_t) -> String? {
        var info = siginfo_t()
        guard waitid(P_PID, id_t(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0, info._sifields._sigchld.si_pid == pid else { return nil }
        let code = info._sifields._sigchld.si_status
        switch info.si_code {
        case Int32(CLD_EXITED): return "ended (status \(code))"
        case Int32(CLD_KILLED), Int32(CLD_DUMPED):
            return "was killed by signal \(code)" + (code == SIGSYS ? " (a syscall filter)" : "")
        default: return "ended"
        }
    }
}

/// A helper program that could not be started.
public struct ChildProgramError: LocalizedError {
    /// The program.
    public var program: String
    /// Why.
    public var reason: String

    public var errorDescription: String? { "cannot start \(program): \(reason)" }
}
