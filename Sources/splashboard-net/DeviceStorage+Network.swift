import FoundationEssentials
import SplashCore
import SplashNetwork
import SplashServices
import SplashStorage

extension DeviceStorage {
    /// The device's storage as the network process opens it (removing the temporary files
    /// a crash left behind); a folder it cannot open ends the process with why.
    /// `serving`: a database that cannot be written does not stop the process; each sync
    /// answers why instead.
    static func forNetwork(options: KioskOptions, environment: [String: String], serving: Bool = false) -> DeviceStorage {
        do {
            return try DeviceStorage(options: options, assets: Assets.locate(environment: environment), orInMemory: serving)
        } catch {
            fail(error.explained, status: 1)
        }
    }

    /// Puts this process's requests behind the address guard (`allow-private-addresses`);
    /// returns a note for the log when it is not (a proxy decides, or it could not start).
    func guardAddresses() -> String? {
        do {
            return try AddressGuard.install(rule: options.privateAddresses, feed: feed).reason
        } catch {
            return "the address guard did not start (\(error.explained)); pictures are fetched unchecked"
        }
    }
}
