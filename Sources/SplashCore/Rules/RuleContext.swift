import FoundationEssentials

/// What eligibility depends on besides the catalog and the wall clock.
public struct RuleContext: Equatable, Sendable {
    /// Whether the wall clock can be trusted (`ClockTrust`); until it can, campaigns bound
    /// to dates and times are not shown.
    public var clockTrusted: Bool
    /// The kiosk's monotonic seconds now, for `minInterval` within a run (the wall clock
    /// may jump); nil outside a run (the commands).
    public var uptime: Double?
    /// The zone of campaigns whose feed names none: the device's.
    public var deviceTimeZone: Zone
    /// How to choose among the eligible campaigns of the top priority.
    public var pick: PickRule
    /// The groups this device is in; nil: every campaign is for it (no device to judge by).
    public var device: DeviceGroups?

    /// No default for the clock's trust or the zone: every caller says what its device has.
    public init(clockTrusted: Bool, uptime: Double? = nil, deviceTimeZone: Zone, pick: PickRule = .newest,
                device: DeviceGroups? = nil) {
        self.device = device
        self.clockTrusted = clockTrusted
        self.uptime = uptime
        self.deviceTimeZone = deviceTimeZone
        self.pick = pick
    }
}
