import CSDL2
import SplashCore

/// Maps SDL events to kiosk actions: a finger touch, a mouse click and a key press become
/// the same `tapped` and `keyPressed` actions, in layout coordinates.
enum InputMapper {
    /// `pill` places the pill on each screen, to carry a touch on another screen's pill to the first's.
    static func meaning(of event: SDL_Event, screens: Screens, pill: (Size) -> SkipButton) -> InputMeaning {
        let canvas = screens.first
        switch SDL_EventType(event.type) {
        case SDL_QUIT:
            return .quit
        case SDL_FINGERDOWN, SDL_FINGERUP:
            let p = point(of: event.tfinger, screens: screens, pill: pill)
            let down = SDL_EventType(event.type) == SDL_FINGERDOWN
            return .action { down ? .pressed(p, $0) : .released(p, $0) }
        case SDL_MOUSEBUTTONDOWN, SDL_MOUSEBUTTONUP:
            // Touches arrive as finger events; SDL's mouse copies of them are dropped.
            guard event.button.which != splash_touch_mouse_id() else { return .ignored }
            let p = canvas.layoutPoint(windowX: event.button.x, windowY: event.button.y)
            let down = SDL_EventType(event.type) == SDL_MOUSEBUTTONDOWN
            return .action { down ? .pressed(p, $0) : .released(p, $0) }
        case SDL_KEYDOWN:
            guard event.key.repeat == 0 else { return .ignored }
            let key = key(for: event.key.keysym.sym, modifiers: event.key.keysym.mod)
            return .action { .keyPressed(key, $0) }
        case SDL_WINDOWEVENT:
            switch SDL_WindowEventID(UInt32(event.window.event)) {
            case SDL_WINDOWEVENT_SIZE_CHANGED, SDL_WINDOWEVENT_RESIZED: return .resized
            case SDL_WINDOWEVENT_EXPOSED, SDL_WINDOWEVENT_SHOWN, SDL_WINDOWEVENT_RESTORED: return .redraw
            default: return .ignored
            }
        case SDL_RENDER_TARGETS_RESET, SDL_RENDER_DEVICE_RESET:
            return .redraw
        default:
            return .ignored
        }
    }

    /// Where a touch is on the first screen's layout, the core's: on the console, a touch
    /// on another screen (the index `EvdevInput` put in `windowID`) is carried over from
    /// that screen's layout (`LayoutTranslation`).
    static func point(of finger: SDL_TouchFingerEvent, screens: Screens, pill: (Size) -> SkipButton) -> Point {
        let canvas = screens.first
        let index = Int(finger.windowID)
        guard index > 0, index <= screens.others.count else {
            return canvas.layoutPoint(normalizedX: finger.x, normalizedY: finger.y)
        }
        let screen = screens.others[index - 1]
        let p = screen.layoutPoint(normalizedX: finger.x, normalizedY: finger.y)
        return LayoutTranslation.translate(p, from: screen.layoutSize, to: canvas.layoutSize, pill: pill)
    }

    static func key(for sym: SDL_Keycode, modifiers: UInt16) -> Key {
        let ctrl = modifiers & UInt16(KMOD_CTRL.rawValue) != 0
        switch sym {
        case SDL_Keycode(SDLK_ESCAPE.rawValue): return .escape
        case SDL_Keycode(SDLK_SPACE.rawValue): return .space
        case SDL_Keycode(SDLK_RETURN.rawValue), SDL_Keycode(SDLK_KP_ENTER.rawValue): return .enter
        case SDL_Keycode(SDLK_F2.rawValue): return .operatorView
        case SDL_Keycode(SDLK_o.rawValue) where ctrl: return .operatorView
        case SDL_Keycode(SDLK_PAGEDOWN.rawValue): return .pageDown
        case SDL_Keycode(SDLK_PAGEUP.rawValue): return .pageUp
        case SDL_Keycode(SDLK_RIGHT.rawValue): return .right
        case SDL_Keycode(SDLK_LEFT.rawValue): return .left
        default: return .other
        }
    }
}
