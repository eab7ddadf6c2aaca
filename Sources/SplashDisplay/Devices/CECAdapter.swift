import CSystem
import FoundationEssentials
import Glibc

/// An HDMI-CEC adapter of the kernel's CEC framework (`/dev/cecN`: the Raspberry Pi's vc4
/// HDMI, a USB-CEC dongle, the `vivid` test driver's emulated output), used as a playback
/// device: it claims a logical address of its own, puts the TV in standby and wakes it.
/// Each message is sent until the TV acknowledges it, at most `tries` times.
final class CECAdapter {
    /// The device node.
    let path: String
    private let fd: Int32
    /// How often a message is sent before the TV counts as not answering.
    static let tries = 3
    /// The most the kiosk waits, after waking a TV whose address it could not read
    /// (f.f.f.f: the TV cut its hotplug signal while asleep), for the address to come back.
    static let addressWaitSeconds = 2.0

    /// The logical address of the TV, which every sink has.
    static let tv: UInt8 = 0
    /// The address a device sends from before it has one of its own.
    static let unregistered: UInt8 = 15
    /// "No physical address": f.f.f.f.
    static let invalidAddress: UInt16 = 0xFFFF

    private init(path: String, fd: Int32) {
        self.path = path
        self.fd = fd
    }

    deinit { close(fd) }

    /// The adapters under `folder` that can play a source (an HDMI output): a sink's own
    /// adapter (physical address 0.0.0.0, or one configured as the TV) is left alone.
    static func openAll(folder: String = "/dev") -> (adapters: [CECAdapter], notes: [String]) {
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [])
            .filter { $0.hasPrefix("cec") && $0.dropFirst(3).allSatisfy(\.isNumber) && $0.count > 3 }
            .sorted { (Int($0.dropFirst(3)) ?? 0) < (Int($1.dropFirst(3)) ?? 0) }
        var adapters: [CECAdapter] = []
        var notes: [String] = []
        for name in names {
            let path = folder + "/" + name
            let fd = open(path, O_RDWR | O_CLOEXEC)
            guard fd >= 0 else {
                notes.append("\(path): cannot open (\(String(cString: strerror(errno))))")
                continue
            }
            let adapter = CECAdapter(path: path, fd: fd)
            var caps = cec_caps()
            guard splash_cec_caps(fd, &caps) == 0 else { continue }
            if adapter.physicalAddress == 0 || adapter.logicalAddresses.contains(tv) { continue }
            adapters.append(adapter)
        }
        return (adapters, notes)
    }

    /// The adapter's physical address (`0x1000` is 1.0.0.0), or f.f.f.f when it has none.
    var physicalAddress: UInt16 {
        var address: UInt16 = Self.invalidAddress
        _ = splash_cec_phys_addr(fd, &address)
        return address
    }

    /// The logical addresses it holds (none before it has claimed one).
    var logicalAddresses: [UInt8] {
        var addrs = cec_log_addrs()
        guard splash_cec_log_addrs(fd, &addrs) == 0 else { return [] }
        // An adapter not configured (yet, or any more: no physical address) reads 0xFF there.
        return withUnsafeBytes(of: addrs.log_addr) { Array($0.prefix(Int(addrs.num_log_addrs))) }
            .filter { $0 < Self.unregistered }
    }

    /// The address it sends from: the one it holds, else a playback device's it claims now;
    /// nil while it cannot have one (no physical address).
    private func ownAddress() -> UInt8? {
        if let held = logicalAddresses.first { return held }
        var addrs = cec_log_addrs()
        if splash_cec_log_addrs(fd, &addrs) == 0, addrs.num_log_addrs == 0 {
            _ = splash_cec_claim_playback(fd, "Splashboard")
        }
        return logicalAddresses.first
    }

    /// `<Standby>` to the TV.
    func standby() -> CECOutcome {
        guard let own = ownAddress() else {
            return .failed("\(path): no logical address (physical address \(Self.format(physicalAddress))), so <Standby> cannot be sent")
        }
        return send([own << 4 | Self.tv, 0x36], what: "<Standby>")
    }

    /// `<Image View On>` to the TV, then `<Active Source>` with this device's physical
    /// address. A TV that cut its hotplug signal while asleep leaves the adapter without an
    /// address (f.f.f.f): `<Image View On>` goes from the unregistered address, and
    /// `<Active Source>` follows once the address is back.
    func wake() -> CECOutcome {
        let own = ownAddress()
        let from = own ?? Self.unregistered
        let woken = send([from << 4 | Self.tv, 0x04], what: "<Image View On>")
        guard case .done(let tries) = woken else { return woken }
        var address = physicalAddress
        var sender = own
        if sender == nil {
            // Counted in steps of a tenth of a second, not read off the wall clock: a clock
            // stepped back (NTP's first correction on a board with no RTC) never stretches it.
            for _ in 0..<Int(Self.addressWaitSeconds * 10) {
                usleep(100_000)
                address = physicalAddress
                if address != Self.invalidAddress, let got = ownAddress() { sender = got; break }
            }
        }
        guard let sender, address != Self.invalidAddress else { return .done(tries: tries) }
        let active = send([sender << 4 | 0x0F, 0x82, UInt8(address >> 8), UInt8(address & 0xFF)], what: "<Active Source>")
        if case .failed(let why) = active { return .partly(why) }
        return .done(tries: tries)
    }

    /// Sends `bytes` until acknowledged, at most `tries` times.
    private func send(_ bytes: [UInt8], what: String) -> CECOutcome {
        var last = ""
        var tries = 0
        for attempt in 1...Self.tries {
            tries = attempt
            var msg = cec_msg()
            msg.len = UInt32(bytes.count)
            withUnsafeMutableBytes(of: &msg.msg) { buffer in
                for (i, b) in bytes.enumerated() { buffer[i] = b }
            }
            if splash_cec_transmit(fd, &msg) != 0 {
                last = "not sent (\(String(cString: strerror(errno))))"
                // Refused by the kernel (no address, adapter gone): another try gives the same.
                if errno != EBUSY { break }
                continue
            }
            if splash_cec_tx_ok(&msg) != 0 { return .done(tries: attempt) }
            last = splash_cec_tx_nack(&msg) != 0 ? "not acknowledged" : String(cFormat: "transmit status 0x%02x", splash_cec_tx_status(&msg))
        }
        return .failed("\(path): \(what) to the TV: \(last) after \(tries) \(tries == 1 ? "try" : "tries")")
    }

    /// A physical address as HDMI writes it: `1.0.0.0`.
    static func format(_ address: UInt16) -> String {
        [12, 8, 4, 0].map { String((address >> UInt16($0)) & 0xF, radix: 16) }.joined(separator: ".")
    }
}

/// How a CEC request went.
enum CECOutcome: Equatable {
    /// Acknowledged, after this many tries of its message (of the first, for a wake).
    case done(tries: Int)
    /// The TV was woken, but what follows was not acknowledged.
    case partly(String)
    /// Not acknowledged, or not sent: why.
    case failed(String)
}
