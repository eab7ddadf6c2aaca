import Foundation
import Glibc
import SplashServices

/// Waits until `condition` holds, looking every 20 ms for at most `seconds` on the monotonic
/// clock, and says whether it did. A test waits for what it needs to see, never for a
/// fixed time: how long a real process takes is the machine's business.
@discardableResult
public func eventually(within seconds: TimeInterval = 30, _ condition: () throws -> Bool) rethrows -> Bool {
    let end = MonotonicClock.seconds() + seconds
    while MonotonicClock.seconds() < end {
        if try condition() { return true }
        usleep(20_000)
    }
    return try condition()
}
