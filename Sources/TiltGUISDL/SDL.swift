// SPDX-License-Identifier: GPL-3.0-or-later
import CSDL2
import TiltClient
import TiltCore
import TiltGUI
#if canImport(Glibc)
import Glibc
#endif

/// The only file that talks to SDL2: a window, a renderer, textures and the
/// event queue, in the few shapes the rest of the GUI needs.

struct SDLError: Error, CustomStringConvertible {
    var description: String

    /// `what` failed, with SDL's reason.
    init(_ what: String) {
        description = "\(what): \(String(cString: SDL_GetError()))"
    }

    init(message: String) {
        description = message
    }
}

/// What happened, in the GUI's terms.
enum InputEvent {
    case quit
    case key(Key)
    case pointerDown(Int64, Point)
    case pointerUp(Int64, Point)
    /// A press that will not end well: focus lost.
    case pointerCancel
    /// The window needs drawing again (resized, rotated, uncovered).
    case redraw
    /// The socket watcher's wake-up: the daemon has sent something.
    case daemonReadable
    /// The window's display may be turned another way, or the window is on another display.
    case displayTurned
    /// The picture loader has an answer.
    case pictureReady
    /// A file dropped on the window.
    case dropped(String)
    case ignored
}

enum SDLEvents {
    /// The mouse id SDL gives mouse events it makes up from touches (SDL_TOUCH_MOUSEID);
    /// the finger events carry those touches already.
    private static let touchMouseID = UInt32.max
    private static let mousePointer: Int64 = -1

    /// Starts the video subsystem only: joysticks and sensors would make SDL poll
    /// instead of sleeping in SDL_WaitEventTimeout. Only `display`'s driver is tried.
    static func start(_ display: DisplayChoice) throws(SDLError) {
        if let missing = display.missing { throw SDLError(message: missing) }
        // The one display the environment names, not every driver SDL has (a Wayland
        // probe without a Wayland display complains on standard error by itself).
        if let driver = display.driver { SDL_SetHint(SDL_HINT_VIDEODRIVER, driver) }
        // Touches arrive as finger events; the synthetic mouse copies are filtered by id.
        SDL_SetHint(SDL_HINT_MOUSE_TOUCH_EVENTS, "0")
        SDL_SetHint(SDL_HINT_VIDEO_X11_NET_WM_BYPASS_COMPOSITOR, "0")
        // SDL 2 reads the app id and the X11 class from the environment only, at window
        // creation; one set by whoever started the board wins.
        setenv("SDL_VIDEO_WAYLAND_WMCLASS", AppIdentity.id, 0)
        setenv("SDL_VIDEO_X11_WMCLASS", AppIdentity.id, 0)
        guard SDL_Init(UInt32(SDL_INIT_VIDEO)) == 0 else {
            throw SDLError(message: display.failure(reason: String(cString: SDL_GetError())))
        }
        // With no display SDL falls back to drawing off screen, where nobody sees the
        // board and SDL polls every millisecond: unless asked for, that is an error.
        let driver = SDL_GetCurrentVideoDriver().map { String(cString: $0) } ?? ""
        if ["offscreen", "dummy"].contains(driver), getenv("SDL_VIDEODRIVER") == nil {
            SDL_Quit()
            throw SDLError(message: display.failure(reason: "SDL found no driver that opens it"))
        }
        wakeEventType = SDL_RegisterEvents(3)
        turnEventType = wakeEventType + 1
        pictureEventType = wakeEventType + 2
    }

    static func stop() { SDL_Quit() }

    /// Set once before the watcher thread starts; read-only afterwards.
    nonisolated(unsafe) private static var wakeEventType: UInt32 = UInt32.max

    /// Set once at start, like the wake-up's.
    nonisolated(unsafe) private static var turnEventType: UInt32 = UInt32.max

    /// Set once at start, like the wake-up's.
    nonisolated(unsafe) private static var pictureEventType: UInt32 = UInt32.max

    /// Tells the loop that the picture loader has an answer. Safe from any thread.
    static func pushPictureReady() {
        var event = SDL_Event()
        event.type = pictureEventType
        _ = SDL_PushEvent(&event)
    }

    /// Tells the loop that a display may be turned (WaylandOutputs hears it inside SDL's pump).
    static func pushDisplayTurned() {
        var event = SDL_Event()
        event.type = turnEventType
        _ = SDL_PushEvent(&event)
    }

    /// Wakes `wait`. Safe from any thread (SDL_PushEvent is).
    static func pushWakeUp() {
        var event = SDL_Event()
        event.type = wakeEventType
        _ = SDL_PushEvent(&event)
    }

    /// The next event, sleeping up to `timeout` seconds for it (nil: as long as it takes).
    static func wait(timeout: Double?) -> InputEvent? {
        var event = SDL_Event()
        let got: Int32
        if let timeout {
            got = SDL_WaitEventTimeout(&event, Int32(min(max(0, (timeout * 1000).rounded(.up)), 60_000)))
        } else {
            got = SDL_WaitEvent(&event)
        }
        return got == 1 ? translate(event) : nil
    }

    /// An event already queued, without waiting.
    static func poll() -> InputEvent? {
        var event = SDL_Event()
        return SDL_PollEvent(&event) == 1 ? translate(event) : nil
    }

    private static func translate(_ event: SDL_Event) -> InputEvent {
        switch event.type {
        case wakeEventType: return .daemonReadable
        case turnEventType: return .displayTurned
        case pictureEventType: return .pictureReady
        case SDL_DROPFILE.rawValue:
            guard let file = event.drop.file else { return .ignored }
            defer { SDL_free(file) }
            return .dropped(String(cString: file))
        case SDL_QUIT.rawValue: return .quit
        case SDL_KEYDOWN.rawValue:
            // A held key would tilt again and again; a tilt is one press.
            return event.key.repeat == 0 ? .key(key(event.key.keysym.sym)) : .ignored
        case SDL_MOUSEBUTTONDOWN.rawValue where event.button.which != touchMouseID && event.button.button == UInt8(SDL_BUTTON_LEFT):
            return .pointerDown(mousePointer, Point(x: Double(event.button.x), y: Double(event.button.y)))
        case SDL_MOUSEBUTTONUP.rawValue where event.button.which != touchMouseID && event.button.button == UInt8(SDL_BUTTON_LEFT):
            return .pointerUp(mousePointer, Point(x: Double(event.button.x), y: Double(event.button.y)))
        case SDL_FINGERDOWN.rawValue:
            return .pointerDown(event.tfinger.fingerId, fingerPoint(event.tfinger))
        case SDL_FINGERUP.rawValue:
            return .pointerUp(event.tfinger.fingerId, fingerPoint(event.tfinger))
        case SDL_WINDOWEVENT.rawValue:
            switch UInt32(event.window.event) {
            case SDL_WINDOWEVENT_FOCUS_LOST.rawValue: return .pointerCancel
            case SDL_WINDOWEVENT_EXPOSED.rawValue, SDL_WINDOWEVENT_SIZE_CHANGED.rawValue, SDL_WINDOWEVENT_RESTORED.rawValue:
                return .redraw
            case SDL_WINDOWEVENT_DISPLAY_CHANGED.rawValue: return .displayTurned
            default: return .ignored
            }
        case SDL_DISPLAYEVENT.rawValue where UInt32(event.display.event) == SDL_DISPLAYEVENT_ORIENTATION.rawValue:
            return .displayTurned
        case SDL_DISPLAYEVENT.rawValue, SDL_RENDER_TARGETS_RESET.rawValue, SDL_RENDER_DEVICE_RESET.rawValue:
            return .redraw
        default:
            return .ignored
        }
    }

    /// Finger positions are 0…1 across the window.
    private static func fingerPoint(_ finger: SDL_TouchFingerEvent) -> Point {
        var width: Int32 = 0
        var height: Int32 = 0
        if let window = SDL_GetWindowFromID(finger.windowID) { SDL_GetWindowSize(window, &width, &height) }
        return Point(x: Double(finger.x) * Double(width), y: Double(finger.y) * Double(height))
    }

    private static func key(_ symbol: SDL_Keycode) -> Key {
        switch symbol {
        case Int32(SDLK_UP.rawValue): return .arrow(.up)
        case Int32(SDLK_DOWN.rawValue): return .arrow(.down)
        case Int32(SDLK_LEFT.rawValue): return .arrow(.left)
        case Int32(SDLK_RIGHT.rawValue): return .arrow(.right)
        case Int32(SDLK_ESCAPE.rawValue), Int32(SDLK_AC_BACK.rawValue): return .escape
        case Int32(SDLK_RETURN.rawValue), Int32(SDLK_KP_ENTER.rawValue): return .enter
        case 32..<127: return .character(Character(Unicode.Scalar(UInt8(symbol))))
        default: return .other
        }
    }
}

/// The window the board is drawn in.
final class Window {
    let pointer: OpaquePointer

    /// The windowed frame to go back to when full screen ends.
    private var windowed: (x: Int32, y: Int32, width: Int32, height: Int32)?

    init(title: String, size: Size, fullscreen: Bool) throws(SDLError) {
        // Hidden until `show`: SDL may replace the window by one of another visual when
        // the renderer is made (OpenGL), and the player should see only the last one.
        var flags = SDL_WINDOW_RESIZABLE.rawValue | SDL_WINDOW_ALLOW_HIGHDPI.rawValue | SDL_WINDOW_HIDDEN.rawValue
        let centered = Int32(bitPattern: SDL_WINDOWPOS_CENTERED_MASK)
        var frame = (x: centered, y: centered, width: Int32(size.width), height: Int32(size.height))
        // Full screen from the start: created over the first display already, since
        // a window not yet shown may not be moved (toggleFullscreen says why).
        var bounds = SDL_Rect()
        if fullscreen, SDL_GetDisplayBounds(0, &bounds) == 0 {
            windowed = frame
            frame = (bounds.x, bounds.y, bounds.w, bounds.h)
            flags |= SDL_WINDOW_BORDERLESS.rawValue | SDL_WINDOW_FULLSCREEN_DESKTOP.rawValue
        }
        guard let window = SDL_CreateWindow(title, frame.x, frame.y, frame.width, frame.height, flags) else {
            throw SDLError("cannot open a window")
        }
        pointer = window
    }

    deinit { SDL_DestroyWindow(pointer) }

    /// Maps the window, once its renderer exists.
    func show() { SDL_ShowWindow(pointer) }

    /// The size in the coordinates pointer events use.
    var size: Size {
        var width: Int32 = 0
        var height: Int32 = 0
        SDL_GetWindowSize(pointer, &width, &height)
        return Size(width: Double(width), height: Double(height))
    }

    /// Full screen whatever manages the windows: the window first covers its display
    /// without a border by itself, which is all there is without a window manager
    /// (a kiosk session, a bare X server), then asks for full screen, which a window
    /// manager or compositor grants. Leaving it restores the frame it had.
    func toggleFullscreen() {
        if let frame = windowed {
            windowed = nil
            SDL_SetWindowFullscreen(pointer, 0)
            SDL_SetWindowBordered(pointer, SDL_TRUE)
            SDL_SetWindowSize(pointer, frame.width, frame.height)
            SDL_SetWindowPosition(pointer, frame.x, frame.y)
            return
        }
        var x: Int32 = 0, y: Int32 = 0, width: Int32 = 0, height: Int32 = 0
        SDL_GetWindowPosition(pointer, &x, &y)
        SDL_GetWindowSize(pointer, &width, &height)
        windowed = (x, y, width, height)
        var bounds = SDL_Rect()
        let display = SDL_GetWindowDisplayIndex(pointer)
        if display >= 0, SDL_GetDisplayBounds(display, &bounds) == 0 {
            SDL_SetWindowBordered(pointer, SDL_FALSE)
            SDL_SetWindowPosition(pointer, bounds.x, bounds.y)
            SDL_SetWindowSize(pointer, bounds.w, bounds.h)
        }
        SDL_SetWindowFullscreen(pointer, SDL_WINDOW_FULLSCREEN_DESKTOP.rawValue)
    }

    /// The display's horizontal dots per inch; nil when it does not say.
    var displayDPI: Double? {
        var diagonal: Float = 0, horizontal: Float = 0, vertical: Float = 0
        let display = SDL_GetWindowDisplayIndex(pointer)
        guard display >= 0, SDL_GetDisplayDPI(display, &diagonal, &horizontal, &vertical) == 0, horizontal > 0 else { return nil }
        return Double(horizontal)
    }

    /// Drawable pixels per window point (more than 1 on a high-density screen).
    var pixelsPerPoint: Double {
        var width: Int32 = 0, height: Int32 = 0
        SDL_GL_GetDrawableSize(pointer, &width, &height)
        let points = size.width
        return width > 0 && points > 0 ? Double(width) / points : 1
    }

    /// How the window's display is turned, as SDL tells it (on Wayland, the output's
    /// transform; unknown where the backend does not say, as on X11).
    var displayOrientation: ScreenFollower.Orientation {
        let display = SDL_GetWindowDisplayIndex(pointer)
        guard display >= 0 else { return .unknown }
        switch SDL_GetDisplayOrientation(display) {
        case SDL_ORIENTATION_LANDSCAPE: return .landscape
        case SDL_ORIENTATION_LANDSCAPE_FLIPPED: return .landscapeFlipped
        case SDL_ORIENTATION_PORTRAIT: return .portrait
        case SDL_ORIENTATION_PORTRAIT_FLIPPED: return .portraitFlipped
        default: return .unknown
        }
    }

    /// The Wayland connection SDL speaks for the window; nil on another backend.
    var waylandDisplay: OpaquePointer? {
        var info = SDL_SysWMinfo()
        info.version = SDL_version(major: UInt8(SDL_MAJOR_VERSION), minor: UInt8(SDL_MINOR_VERSION),
                                   patch: UInt8(SDL_PATCHLEVEL))
        guard SDL_GetWindowWMInfo(pointer, &info) == SDL_TRUE, info.subsystem == SDL_SYSWM_WAYLAND else { return nil }
        return info.info.wl.display
    }

    /// Where the window's display is in the desktop's space.
    var displayOrigin: (x: Int32, y: Int32)? {
        var bounds = SDL_Rect()
        let display = SDL_GetWindowDisplayIndex(pointer)
        guard display >= 0, SDL_GetDisplayBounds(display, &bounds) == 0 else { return nil }
        return (bounds.x, bounds.y)
    }

    /// The display's frame rate; 60 when the display does not say.
    var refreshRate: Double {
        var mode = SDL_DisplayMode()
        let display = SDL_GetWindowDisplayIndex(pointer)
        guard display >= 0, SDL_GetCurrentDisplayMode(display, &mode) == 0, mode.refresh_rate > 0 else { return 60 }
        return Double(mode.refresh_rate)
    }
}

/// A drawn image on the graphics card: a rendered text.
final class Texture {
    fileprivate let pointer: OpaquePointer
    let width: Double
    let height: Double

    fileprivate init(pointer: OpaquePointer, width: Int, height: Int) {
        self.pointer = pointer
        self.width = Double(width)
        self.height = Double(height)
    }

    deinit { SDL_DestroyTexture(pointer) }
}

/// Draws into the window; presents at the display's refresh (vsync) when the driver can.
final class Renderer {
    private let pointer: OpaquePointer
    private let window: Window
    /// Whether the driver says `present` waits for the display's refresh (reported by --frame-stats).
    let hasVSync: Bool
    let name: String

    init(window: Window) throws(SDLError) {
        self.window = window
        let vsync = SDL_RENDERER_PRESENTVSYNC.rawValue
        guard let renderer = SDL_CreateRenderer(window.pointer, -1, SDL_RENDERER_ACCELERATED.rawValue | vsync)
                ?? SDL_CreateRenderer(window.pointer, -1, SDL_RENDERER_SOFTWARE.rawValue) else {
            throw SDLError("cannot draw in the window")
        }
        pointer = renderer
        var info = SDL_RendererInfo()
        SDL_GetRendererInfo(renderer, &info)
        hasVSync = info.flags & vsync != 0
        name = info.name.map { String(cString: $0) } ?? "unknown"
        SDL_SetRenderDrawBlendMode(renderer, SDL_BLENDMODE_BLEND)
    }

    deinit { SDL_DestroyRenderer(pointer) }

    /// Scales drawing so layout works in window coordinates on high-density screens too.
    func matchWindowScale() {
        var outputWidth: Int32 = 0
        var outputHeight: Int32 = 0
        SDL_GetRendererOutputSize(pointer, &outputWidth, &outputHeight)
        let size = window.size
        guard size.width > 0, size.height > 0 else { return }
        SDL_RenderSetScale(pointer, Float(Double(outputWidth) / size.width), Float(Double(outputHeight) / size.height))
    }

    func clear(_ color: Color) {
        setColor(color)
        SDL_RenderClear(pointer)
    }

    func fill(_ rect: Rect, _ color: Color) {
        setColor(color)
        var frame = sdlRect(rect)
        SDL_RenderFillRectF(pointer, &frame)
    }

    /// Draws `texture` centred in `rect`, shrunk to fit it, and to `scale` if that is
    /// smaller, but never below `minimumScale` (text stays legible, docs/gui.md).
    func draw(_ texture: Texture, centeredIn rect: Rect, scale: Double = 1, minimumScale: Double = 0) {
        draw(texture, in: rect, scale: scale, minimumScale: minimumScale, alignLeft: false)
    }

    /// Draws `texture` at the left of `rect`, vertically centred, at its size.
    func draw(_ texture: Texture, leftIn rect: Rect) {
        draw(texture, in: rect, scale: 1, minimumScale: 1, alignLeft: true)
    }

    private func draw(_ texture: Texture, in rect: Rect, scale: Double, minimumScale: Double, alignLeft: Bool) {
        let scale = max(minimumScale, min(scale, Self.fit(texture, in: rect)))
        let width = texture.width * scale
        let height = texture.height * scale
        let x = alignLeft ? rect.x : rect.x + (rect.width - width) / 2
        var frame = sdlRect(Rect(x: x.rounded(), y: (rect.y + (rect.height - height) / 2).rounded(), width: width, height: height))
        SDL_RenderCopyF(pointer, texture.pointer, nil, &frame)
    }

    /// Draws the part `source` of `texture` (in its pixels) stretched over `rect`.
    func draw(_ texture: Texture, from source: Rect, into rect: Rect) {
        var from = SDL_Rect(x: Int32(source.x.rounded()), y: Int32(source.y.rounded()),
                            w: Int32((source.maxX).rounded() - source.x.rounded()), h: Int32((source.maxY).rounded() - source.y.rounded()))
        var frame = sdlRect(rect)
        SDL_RenderCopyF(pointer, texture.pointer, &from, &frame)
    }

    /// The scale (at most 1: text is never enlarged, it would blur) at which `texture` fits in `rect`.
    static func fit(_ texture: Texture, in rect: Rect) -> Double {
        min(1, rect.width / max(1, texture.width), rect.height / max(1, texture.height))
    }

    func present() { SDL_RenderPresent(pointer) }

    /// A texture of `width`×`height` ARGB pixels, rows packed.
    /// `smooth`: drawn larger or smaller than its pixels (a picture), it is filtered, not blocky.
    func texture(argb pixels: [UInt32], width: Int, height: Int, smooth: Bool = false) -> Texture? {
        guard width > 0, height > 0,
              let texture = SDL_CreateTexture(pointer, SDL_PIXELFORMAT_ARGB8888.rawValue,
                                              Int32(SDL_TEXTUREACCESS_STATIC.rawValue), Int32(width), Int32(height)) else {
            return nil
        }
        _ = pixels.withUnsafeBytes { SDL_UpdateTexture(texture, nil, $0.baseAddress, Int32(width * 4)) }
        SDL_SetTextureBlendMode(texture, SDL_BLENDMODE_BLEND)
        if smooth { SDL_SetTextureScaleMode(texture, SDL_ScaleModeLinear) }
        return Texture(pointer: texture, width: width, height: height)
    }

    private func setColor(_ color: Color) {
        SDL_SetRenderDrawColor(pointer, color.red, color.green, color.blue, color.alpha)
    }

    private func sdlRect(_ rect: Rect) -> SDL_FRect {
        SDL_FRect(x: Float(rect.x), y: Float(rect.y), w: Float(rect.width), h: Float(rect.height))
    }
}

/// The sound card, fed mono 16-bit samples by queueing them (SDL_QueueAudio): the loop
/// hands a sound over and goes on, it never waits for the card. Opening it starts SDL's
/// audio subsystem, which only the first sound needs; closing the last one stops it
/// again, so a silent window has no audio thread (docs/gui.md, "Sound").
final class AudioDevice {
    private let id: SDL_AudioDeviceID
    /// Frames a second, as the device gives them: the samples are made for it.
    let rate: Int

    /// Opens the default output for `rate` frames a second, or the rate it prefers.
    /// The error is SDL's reason alone.
    init(rate: Int) throws(SDLError) {
        if SDL_WasInit(UInt32(SDL_INIT_AUDIO)) == 0, SDL_InitSubSystem(UInt32(SDL_INIT_AUDIO)) != 0 {
            throw SDLError(message: String(cString: SDL_GetError()))
        }
        var wanted = SDL_AudioSpec()
        wanted.freq = Int32(rate)
        wanted.format = SDL_AudioFormat(AUDIO_S16SYS)
        wanted.channels = 1
        // About 10 ms at 48 kHz: a sound starts soon after its event.
        wanted.samples = 512
        var obtained = SDL_AudioSpec()
        // Only the rate may differ; SDL converts the channels and the format itself.
        let id = SDL_OpenAudioDevice(nil, 0, &wanted, &obtained, Int32(SDL_AUDIO_ALLOW_FREQUENCY_CHANGE))
        guard id != 0, obtained.freq > 0 else {
            let reason = String(cString: SDL_GetError())
            if id != 0 { SDL_CloseAudioDevice(id) }
            SDL_QuitSubSystem(UInt32(SDL_INIT_AUDIO))
            throw SDLError(message: reason)
        }
        self.id = id
        self.rate = Int(obtained.freq)
    }

    deinit {
        SDL_CloseAudioDevice(id)
        SDL_QuitSubSystem(UInt32(SDL_INIT_AUDIO))
    }

    /// Adds `samples` after what is still queued; false when SDL refused them.
    func queue(_ samples: [Int16]) -> Bool {
        samples.withUnsafeBytes { SDL_QueueAudio(id, $0.baseAddress, UInt32($0.count)) } == 0
    }

    /// Seconds of sound queued and not yet handed to the card.
    var queuedSeconds: Double {
        Double(SDL_GetQueuedAudioSize(id)) / Double(MemoryLayout<Int16>.size * rate)
    }

    /// A paused device plays nothing (SDL feeds the card silence).
    func pause(_ paused: Bool) {
        SDL_PauseAudioDevice(id, paused ? 1 : 0)
    }
}
