import SplashCore

/// What an event means to the kiosk.
enum InputMeaning {
    case action((Instant) -> KioskAction)
    case resized
    case redraw
    case quit
    case ignored
}
