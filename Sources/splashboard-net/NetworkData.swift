import Foundation
import SplashCore
import SplashNetwork
import SplashServices

/// The device's data as the network process opens it: the display's, plus the address
/// guard and the sync.
struct NetworkData {
    let data: KioskData

    /// Opens the folders (removing the temporary files a crash left behind).
    /// `serving`: a database that cannot be written does not stop the process; each sync
    /// answers why instead.
    init(options: KioskOptions, environment: [String: String], serving: Bool = false) {
        do {
            data = try KioskData(options: options, assets: Assets.locate(environment: environment), orInMemory: serving)
        } catch {
            fail(error.localizedDescription, status: 1)
        }
    }

    /// Puts this process's requests behind the address guard (`allow-private-addresses`);
    /// returns a note for the log when it is not (a proxy decides, or it could not start).
    func guardAddresses() -> String? {
        do {
            return try AddressGuard.install(rule: data.options.privateAddresses, feed: data.feed).reason
        } catch {
            return "the address guard did not start (\(error.localizedDescription)); pictures are fetched unchecked"
        }
    }
}
