/// A key the kiosk reacts to.
public enum Key: Equatable, Sendable {
    case escape
    case space
    case enter
    /// F2 or Ctrl+O: opens and closes the operator view.
    case operatorView
    /// Paging in the operator view: PageDown and → forward, PageUp and ← back.
    case pageDown
    case pageUp
    case right
    case left
    case other
}
