import SplashCore

/// What wakes the kiosk's loop, from a window (SDL's events), the console's input devices
/// (`EvdevInput`) or the loop's own machinery, before it means anything to the core
/// (`InputMapper`).
enum ShellEvent: Equatable {
    /// The window was closed.
    case quit
    /// A finger down or up at 0…1 across screen `screen` (0 the first).
    case touch(down: Bool, x: Double, y: Double, screen: Int)
    /// The pointer's button down or up at a pixel of the output (a window's own pixels).
    case click(down: Bool, x: Int, y: Int)
    /// A key pressed.
    case key(Key)
    /// The output changed size (a window resized, a screen set up again).
    case resized
    /// What is shown must be drawn again whole (a window exposed, the terminal back).
    case redraw
    /// Background work posted something to the mailbox.
    case wake
}
