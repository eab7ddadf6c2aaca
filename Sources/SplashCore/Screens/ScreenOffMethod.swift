/// One way of darkening the screen (`screen-off`), tried in the order given, each where the
/// device has it.
public enum ScreenOffMethod: String, Equatable, Sendable, CaseIterable {
    /// HDMI-CEC through the kernel's CEC framework: `<Standby>` to the TV; `<Image View On>`
    /// and `<Active Source>` to wake it.
    case cec
    /// The display signal off: the CRTC made inactive (DRM), DPMS off (X11).
    case signal
    /// A backlight under /sys/class/backlight set to 0, and back.
    case backlight

    /// The methods of `text` (`"cec,signal,backlight"`; `none` for none), in its order; nil
    /// when an item is none of them.
    public static func list(_ text: String) -> [ScreenOffMethod]? {
        let items = text.split(separator: ",").map { $0.trimmedSpaces.lowercased() }
            .filter { !$0.isEmpty }
        if items == ["none"] { return [] }
        var methods: [ScreenOffMethod] = []
        for item in items {
            guard let m = ScreenOffMethod(rawValue: item) else { return nil }
            if !methods.contains(m) { methods.append(m) }
        }
        return methods.isEmpty ? nil : methods
    }
}
