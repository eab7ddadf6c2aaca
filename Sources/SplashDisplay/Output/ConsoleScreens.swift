import FoundationEssentials
import SplashCore

/// Which console screens the kiosk draws on.
enum ConsoleScreens {
    /// Every KMS output with a screen connected (on `drm`, when named), else the
    /// framebuffer device (`framebuffer`, else `/dev/fb0`) — the firmware's (efifb, vesafb,
    /// simplefb) before the GPU's driver has loaded, or a small panel's (fbtft) that has no
    /// other. DRM outputs in `keeping` that are as they were stay set up; the KMS devices
    /// in `devices` (by node) are used as they are open, their master held.
    static func openAll(_ request: ConsoleRequest, keeping: [any ScreenOutput] = [],
                        devices: [String: DRMDevice] = [:]) throws -> [any ScreenOutput] {
        do {
            return try DRMOutput.openAll(requested: request.drm, mode: request.mode,
                                         keeping: keeping.compactMap { $0 as? DRMOutput }, devices: devices)
        } catch DisplayError.noDisplay(let noDRM) {
            // A KMS device named by the operator is the one wanted: no framebuffer instead.
            guard request.drm == nil || request.framebuffer != nil else { throw DisplayError.noDisplay(noDRM) }
            if let same = keeping.first(where: { $0 is FramebufferOutput }) { return [same] }
            let path = request.framebuffer ?? DefaultPaths.framebuffer
            do {
                return [try FramebufferOutput.open(path)]
            } catch DisplayError.noDisplay(let noFramebuffer) {
                throw DisplayError.noDisplay("\(noDRM); \(noFramebuffer)")
            }
        }
    }
}
