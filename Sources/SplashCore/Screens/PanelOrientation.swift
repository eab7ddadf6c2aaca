/// How a panel is mounted, as its connector's "panel orientation" property says (set by
/// the kernel from its quirks table, or by `video=…:panel_orientation=` on its command
/// line), and the turn that puts the picture upright on it. The kernel's own console
/// turns the same way (`drm_client_rotation`: left side up is 90° counter-clockwise).
public enum PanelOrientation: String, Equatable, Sendable {
    case normal = "Normal"
    case upsideDown = "Upside Down"
    case leftSideUp = "Left Side Up"
    case rightSideUp = "Right Side Up"

    /// The clockwise turn frames are drawn with on this panel.
    public var rotation: Rotation {
        switch self {
        case .normal: return .none
        case .upsideDown: return .half
        case .leftSideUp: return .threeQuarters
        case .rightSideUp: return .quarter
        }
    }
}
