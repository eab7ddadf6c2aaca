import Dispatch
import FoundationEssentials
import SplashServices
import SplashCore

/// The control socket's answers (`splashboard status`, `screenshot`, `screen`), made on
/// the loop's thread: the socket's thread hands the loop a task and waits for its result.
extension KioskRunner {
    /// Runs `work` on the loop's thread and returns its result; nil when the loop does not
    /// get to it within 5 seconds.
    func onLoop<T>(_ work: @escaping () -> T) -> T? {
        let done = DispatchSemaphore(value: 0)
        let lock = Lock()
        var result: T?
        mailbox.post(task: {
            let value = work()
            lock.lock()
            result = value
            lock.unlock()
            done.signal()
        })
        wakeLoop()
        guard done.wait(timeout: .now() + 5) == .success else { return nil }
        lock.lock()
        defer { lock.unlock() }
        return result
    }

    /// A control request's answer, made on the loop's thread.
    func answer(_ request: ControlRequest) -> Result<(ControlAnswer, Data?), ControlError> {
        switch request {
        case .status:
            guard let status = dependencies.status?(state, clock.uptime) else { return .failure(.failed("no status here")) }
            return .success((.status(status), nil))
        case .screen(let command):
            send(.screenCommanded(command, clock.now()))
            let power = state.screenPower
            return .success((.screen(on: power.isOn, reason: power.reason, summary: Kiosk.screenSummary(of: state, now: clock.now().date)),
                             nil))
        case .screenshot:
            guard state.framesPresented > 0 else { return .failure(.failed("nothing is on the screen yet")) }
            do {
                let png = try canvas.screenshotPNG()
                let size = canvas.outputSize
                return .success((.screenshot(size), png))
            } catch {
                return .failure(.failed(error.explained))
            }
        }
    }

    func wakeLoop() {
        waiter.wake()
    }

}
