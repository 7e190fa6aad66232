// SPDX-License-Identifier: GPL-3.0-or-later
import TiltCommandLine
import TiltClient
import TiltCore
import TiltGUI
import TiltSystem
import TiltWire
#if canImport(Glibc)
import Glibc
#endif

/// The graphical board's event loop. It sleeps in SDL_WaitEventTimeout until
/// something happens: an input event, the socket watcher's wake-up, the next
/// frame while tiles are moving, or the next reconnection attempt. Idle (nothing
/// moving, connected), it waits with no timeout at all and uses no CPU.
final class GUIApp {
    private let window: Window
    private let renderer: Renderer
    private let painter: BoardPainter
    private let link: DaemonLink
    private let frameInterval: Double
    private let printsFrameStats: Bool
    private var scene = BoardScene()
    /// Where taps and keys go: the card, the picker, New's question or the board.
    private var router = InputRouter()
    /// The question New asks, while it is up: it takes every tap and key.
    private var dialog: NewGameDialog?
    /// Whether the first-start card still covers the window (FirstStart): any tap or key puts it away.
    private var welcoming: Bool
    private let welcomed: FirstStartMarker
    private var stats = FrameStats()
    /// Whether the sounds are off: `--mute` or the kept setting at start, then `m`
    /// (UserAction.toggleSound) or the picker's toggle, which are kept.
    private var muted: Bool
    private lazy var sound = SoundPlayer { [unowned self] in self.log($0) }
    /// Which way the picture is turned, for the daemon's detector (docs/gui.md, "Rotation").
    private var screen: ScreenFollower
    /// On Wayland, the outputs' transforms as they change (SDL 2 reads them only at start).
    private var outputs: WaylandOutputs?
    /// Pictures are read and decoded on the loader's thread (docs/gui.md, Pictures).
    private let pictures: PictureLoader
    /// What the tiles show, as last shown; `picture` is its decoded square.
    private var pictureChoice = PictureChoice.numbers
    private var picture: BoardPicture?
    /// The window's choices, kept across its restarts (docs/gui.md, Pictures).
    private let settingsFile: SettingsFile
    private var settings: GUISettings
    /// The picture picker, while it is up: it takes every tap and key.
    private var picker: PicturePicker?
    /// The picker's thumbnails by what they show (nil: it cannot be shown), and those loading.
    private var thumbnails: [PictureChoice: Texture?] = [:]
    private var thumbnailLoads: [Int: PictureChoice] = [:]
    /// The load the board waits for: its id, what and at what side it asked, and whether
    /// it is the kept choice (which falls back to numbers when it has gone).
    private var pendingPicture: (id: Int, choice: PictureChoice, side: Int, kept: Bool)?
    /// The side the shown picture was asked for: a window grown well past it loads it again.
    private var loadedSide = 0
    /// The whole picture shows over the board (Peek), until asked again.
    private var peeking = false
    private var running = true
    private var needsDrawing = true
    private var lastFrame = 0.0
    /// When the animations were last moved on.
    private var lastAdvance = MonotonicClock.now()

    init(options: GUIOptions, fontPath: String, candidates: [String]) throws(SDLError) {
        window = try Window(title: "tiltpuzzle", size: options.windowSize, fullscreen: options.fullscreen)
        renderer = try Renderer(window: window)
        window.show()
        painter = BoardPainter(renderer: renderer, text: TextCache(fontPath: fontPath))
        link = DaemonLink(candidates: candidates)
        welcomed = FirstStartMarker(path: FirstStart.markerPath(environment: ProcessEnvironment.current))
        welcoming = !welcomed.exists
        screen = ScreenFollower(chosen: options.screenRotation)
        do throws(Errno) {
            pictures = try PictureLoader(wake: SDLEvents.pushPictureReady)
        } catch {
            throw SDLError(message: "cannot start the picture loader: \(error)")
        }
        outputs = window.waylandDisplay.flatMap { WaylandOutputs(display: $0, changed: SDLEvents.pushDisplayTurned) }
        frameInterval = 1 / window.refreshRate
        scene.frameInterval = frameInterval
        printsFrameStats = options.frameStats
        settingsFile = SettingsFile()
        settings = settingsFile.load()
        muted = options.mute || !settings.sound
        screen.displayTurned(displayRotation)
        if let named = options.picture {
            show(PictureChoice(naming: named, workingDirectory: Self.workingDirectory), kept: false)
        } else if settings.picture != .numbers {
            show(settings.picture, kept: true)
        }
        if printsFrameStats {
            log("renderer \(renderer.name), vsync \(renderer.hasVSync ? "on" : "off"), "
                + "\(Int(window.refreshRate)) Hz")
        }
    }

    func run() {
        while running {
            let event = SDLEvents.wait(timeout: sleepLimit(now: MonotonicClock.now()))
            // Still after a sleep: what starts moving now starts from its beginning.
            if !scene.isAnimating { lastAdvance = MonotonicClock.now() }
            if let event {
                handle(event)
                while running, let more = SDLEvents.poll() { handle(more) }
            }
            connectIfDue()
            playSounds()
            let drawnAt = MonotonicClock.now()
            if running, needsDrawing || scene.isAnimating, frameIsDue(drawnAt) { drawFrame(at: drawnAt) }
        }
        closeInOrder()
    }

    /// Takes the window down in the order SDL needs, before GUIApp's stored properties
    /// go in whatever order Swift releases them, and before SDL_Quit. The program's exit
    /// status is Xlib's to decide once the window is gone: an X error on any of SDL's
    /// connections (a request naming a destroyed window or GL context) makes Xlib's
    /// default handler exit with status 1 after the loop has returned 0.
    /// - The socket watcher first: on X11 its wake-up of a blocked SDL_WaitEventTimeout
    ///   is an X request on a connection of SDL's own aimed at this window, and one that
    ///   the daemon's traffic started as the loop ended must be written while the window
    ///   exists, not race its destruction (a running sensor streams poses a hundred times
    ///   a second, so at a quit one is often in flight). Stopping waits for it.
    /// - Then the textures, which belong to the renderer: SDL_DestroyRenderer frees them,
    ///   and destroying one afterwards reaches a freed texture, renderer and GL context.
    /// The renderer and the window follow when GUIApp ends.
    private func closeInOrder() {
        link.close()
        painter.text.removeAll()
    }

    // MARK: Waiting

    /// How long the loop may sleep: nil (until an event) when nothing is due. The sound
    /// card needs a turn when its sound should be over, to pause it, and later to close it.
    private func sleepLimit(now: Double) -> Double? {
        let due: [Double?] = [needsDrawing || scene.isAnimating ? nextFrame : nil, link.nextAttempt, sound.nextDue]
        return due.compactMap { $0 }.min().map { max(0, $0 - now) }
    }

    /// Frames are paced by the loop as well as by vsync: some drivers (a virtual X
    /// server, the software renderer) claim vsync or have none and would otherwise
    /// draw as fast as the CPU allows. Frames are timed from their start, so with a
    /// real vsync the wait after presenting is already over and costs no frame.
    private var nextFrame: Double { lastFrame + frameInterval * 0.95 }

    private func frameIsDue(_ now: Double) -> Bool { now >= nextFrame }

    // MARK: Events

    private func handle(_ event: InputEvent) {
        switch event {
        case .quit:
            running = false
        case .key(let key): route(.key(key))
        case .pointerDown(let pointer, let point): route(.pointerDown(pointer, point))
        case .pointerUp(let pointer, let point): route(.pointerUp(pointer, point))
        case .pointerCancel: route(.pointerCancel)
        case .redraw:
            needsDrawing = true
        case .displayTurned:
            screen.displayTurned(displayRotation)
            tellScreen()
            needsDrawing = true
        case .daemonReadable:
            do throws(DaemonConnection.Failure) {
                take(try link.receive())
            } catch {
                lostDaemon(error)
            }
        case .pictureReady:
            takePictures()
        case .dropped(let path):
            show(.file(path), kept: false)
        case .ignored:
            break
        }
    }

    /// What is topmost over the board, for the router.
    private var inputLayer: InputRouter.Layer {
        if welcoming { return .welcome }
        if let picker { return .picker(picker) }
        if dialog != nil { return .dialog }
        return .board(empty: scene.state?.empty, peeking: peeking)
    }

    /// A tap or a key, sent where the router says.
    private func route(_ input: InputRouter.Input) {
        switch router.route(input, to: inputLayer, layout: layout) {
        case .welcomed?:
            welcoming = false
            welcomed.remember()
            needsDrawing = true
        case .pickerKey(let key)?:
            if let action = picker?.handle(key, in: layout) { act(action) }
            needsDrawing = true
        case .picker(let choice)?:
            if let action = picker?.choose(choice, in: layout) { act(action) }
            needsDrawing = true
        case .dialog(let choice)?:
            answer(choice)
        case .action(let action)?:
            perform(action)
        case .cannotMove(let index)?:
            scene.nudge(at: index)
            needsDrawing = true
        case .endPeek?:
            peeking = false
            needsDrawing = true
        case nil:
            break
        }
    }

    private func answer(_ choice: NewGameDialog.Choice) {
        guard var open = dialog else { return }
        let (command, stays) = open.choose(choice)
        dialog = stays ? open : nil
        needsDrawing = true
        if let command { perform(.send(command)) }
    }

    private func perform(_ action: UserAction) {
        switch action {
        case .newGame:
            switch NewGameDialog.request(state: scene.state) {
            case .start(let size): perform(.send(.new(size: size, seed: nil, shuffle: true)))
            case .ask(let question): dialog = question
            }
            needsDrawing = true
        case .chooseSize:
            dialog = NewGameDialog.chooseSize(state: scene.state)
            needsDrawing = true
        case .quit:
            running = false
        case .toggleFullscreen:
            window.toggleFullscreen()
            needsDrawing = true
        case .cycleSensitivity:
            let next = scene.nextSensitivity
            perform(.send(.configure(trigger: next.trigger, release: next.release)))
        case .turnScreen:
            screen.chooseNext(after: scene.game.screen)
            tellScreen()
        case .choosePicture:
            let files = PicturesFolderListing.folder().map { PicturesFolderListing.pictures(in: $0) } ?? []
            var current = settings
            current.picture = pictureChoice
            current.sound = !muted
            picker = PicturePicker(builtIns: BuiltInPictures.all.map(\.name), files: files, settings: current)
            peeking = false
            loadThumbnails()
            needsDrawing = true
        case .peek:
            peeking = picture != nil && !peeking
            needsDrawing = true
        case .toggleSound:
            turnSound(on: muted)
        case .send(let command):
            switch link.send(command) {
            case .success(let id): scene.sent(command, id: id)
            case .failure(let failure): lostDaemon(failure)
            }
        }
    }

    private func take(_ messages: [ServerMessage]) {
        for message in messages {
            if case .move = message { stats.slideQueued() }
            if scene.receive(message) { perform(.send(.state)) }
            // New's question speaks of the game as it is now, not as it was when asked.
            if var open = dialog {
                dialog = open.follow(message, state: scene.state) ? open : nil
                if dialog == nil { router.forget() }
            }
        }
        needsDrawing = true
    }

    /// Plays what the scene's events called for since the last turn; muted, drops it,
    /// so nothing old plays when the sound comes back on.
    private func playSounds() {
        let now = MonotonicClock.now()
        sound.service(now: now)
        let effects = scene.takeSounds()
        if !muted { sound.play(effects, now: now) }
    }

    private func connectIfDue() {
        switch link.connectIfDue(now: MonotonicClock.now()) {
        case .success(let greeting)?:
            scene.connection = .connected
            take(greeting)
            // The tilt gauge follows the detector's view (docs/gui.md).
            perform(.send(.subscribe(pose: true)))
            screen.connected()
            tellScreen()
        case .failure(let failure)?:
            let before = scene.sensorLine
            scene.disconnected(reason: Self.firstLine(failure))
            needsDrawing = needsDrawing || scene.sensorLine != before
        case nil:
            break
        }
    }

    /// How the window's display is turned: the Wayland output's transform, else SDL's word.
    private var displayRotation: ScreenRotation? {
        if let outputs, let origin = window.displayOrigin, let rotation = outputs.rotation(atX: origin.x, y: origin.y) {
            return rotation
        }
        return ScreenFollower.rotation(window.displayOrientation)
    }

    /// Tells the daemon how the picture is turned, when that changed or it has not heard.
    private func tellScreen() {
        guard scene.connection == .connected, let command = screen.due() else { return }
        perform(.send(command))
    }

    private func lostDaemon(_ failure: DaemonConnection.Failure) {
        link.drop()
        scene.disconnected(reason: Self.firstLine(failure))
        router.forget()
        needsDrawing = true
    }

    private static func firstLine(_ failure: DaemonConnection.Failure) -> String {
        String(failure.description.split(separator: "\n").first ?? "")
    }

    // MARK: Pictures

    /// Starts showing `choice`: numbers at once, a picture once the loader has it (the
    /// board keeps what it shows until then, and when the picture cannot be shown).
    private func show(_ choice: PictureChoice, kept: Bool) {
        peeking = false
        needsDrawing = true
        guard choice != .numbers else {
            pendingPicture = nil
            shownPicture(nil, choice: .numbers)
            return
        }
        let side = boardPixels
        pendingPicture = (pictures.load(choice, side: side), choice, side, kept)
    }

    /// What the picker asks for.
    private func act(_ action: PicturePicker.Action) {
        switch action {
        case .pick(let choice):
            closePicker()
            show(choice, kept: false)
        case .numberCorners(let corners):
            settings.numberCorners = corners
            picture?.corners = corners
            settingsFile.save(settings)
        case .sound(let on):
            turnSound(on: on)
        case .close:
            closePicker()
        case .page:
            loadThumbnails()
        }
    }

    /// The thumbnails go with the picker: a folder of photos holds no memory once it is shut.
    private func closePicker() {
        picker = nil
        thumbnails.removeAll()
        thumbnailLoads.removeAll()
    }

    /// Sound on or off, kept for the next start.
    private func turnSound(on: Bool) {
        // What was called for before follows the setting it was made under.
        playSounds()
        muted = !on
        settings.sound = on
        settingsFile.save(settings)
    }

    /// Asks for the thumbnails of the picker's page that are neither shown nor on their way.
    private func loadThumbnails() {
        guard let picker else { return }
        let loading = Set(thumbnailLoads.values)
        for thumbnail in picker.frames(in: layout).thumbnails {
            let choice = picker.entries[thumbnail.index].choice
            guard choice != .numbers, thumbnails[choice] == nil, !loading.contains(choice) else { continue }
            let side = Int((thumbnail.picture.width * window.pixelsPerPoint).rounded())
            thumbnailLoads[pictures.load(choice, side: side)] = choice
        }
    }

    private func takePictures() {
        for answer in pictures.take() {
            if let choice = thumbnailLoads.removeValue(forKey: answer.id) {
                // Kept even when it failed (nil), so a file that is no picture is not asked for again.
                let texture = try? answer.picture.map { square in
                    renderer.texture(argb: square.pixels, width: square.side, height: square.side, smooth: true)
                }.get()
                thumbnails.updateValue(texture ?? nil, forKey: choice)
                needsDrawing = true
                continue
            }
            guard let pending = pendingPicture, answer.id == pending.id else { continue }
            pendingPicture = nil
            needsDrawing = true
            switch answer.picture {
            case .success(let square):
                guard let texture = renderer.texture(argb: square.pixels, width: square.side, height: square.side, smooth: true) else {
                    refused(pending.choice, because: L("the window cannot hold it"))
                    continue
                }
                loadedSide = pending.side
                scene.note = nil
                shownPicture(BoardPicture(texture: texture, side: Double(square.side), corners: settings.numberCorners),
                             choice: pending.choice)
            case .failure(let refusal) where pending.kept:
                // The kept picture has gone (deleted, on a card taken out): numbers, said once.
                log("the picture \(pending.choice.title) cannot be shown (\(refusal)); showing numbers")
                scene.note = L("{0} cannot be shown: numbers instead", pending.choice.title)
                shownPicture(nil, choice: .numbers)
            case .failure(let refusal):
                refused(pending.choice, because: refusal.description)
            }
        }
    }

    /// A picture that cannot be shown leaves the board as it was and says why, in the
    /// status line and on standard error (where a script that passed `--picture` sees it).
    private func refused(_ choice: PictureChoice, because reason: String) {
        scene.note = L("cannot show {0}: {1}", choice.title, reason)
        log("cannot show \(choice.title): \(reason)")
    }

    private func shownPicture(_ shown: BoardPicture?, choice: PictureChoice) {
        picture = shown
        pictureChoice = choice
        if settings.picture != choice {
            settings.picture = choice
            settingsFile.save(settings)
        }
        // Solved, a picture shows whole a moment before the panel covers part of it.
        scene.solvedPause = shown == nil ? 0 : Self.solvedPictureShows
    }

    /// How long a solved picture shows whole before the solved panel (docs/gui.md, Solved).
    static let solvedPictureShows = 2.0

    /// The board's side in the display's pixels: the size a picture is decoded to.
    private var boardPixels: Int {
        min(2048, max(64, Int((layout.board.width * window.pixelsPerPoint).rounded())))
    }

    /// A window grown well past the picture's size loads it again, sharper.
    private func reloadPictureIfSmall() {
        guard let picture, pendingPicture == nil, Int(picture.side) >= loadedSide, boardPixels * 2 > loadedSide * 3 else { return }
        pendingPicture = (pictures.load(pictureChoice, side: boardPixels), pictureChoice, boardPixels, false)
    }

    private static var workingDirectory: String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        guard getcwd(&buffer, buffer.count) != nil else { return "/" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    // MARK: Drawing

    private var layout: Layout {
        Layout(window: window.size, side: scene.animator?.side ?? 4,
               pointsPerMillimetre: Layout.pointsPerMillimetre(dpi: window.displayDPI, pixelsPerPoint: window.pixelsPerPoint))
    }

    private func drawFrame(at now: Double) {
        let wasAnimating = scene.isAnimating
        scene.advance(by: now - lastAdvance)
        lastAdvance = now
        renderer.matchWindowScale()
        reloadPictureIfSmall()
        painter.draw(scene, in: layout, picture: picture, peeking: peeking, dialog: dialog, picker: picker.map { ($0, thumbnails) },
                     welcoming: welcoming)
        renderer.present()
        painter.text.endFrame()
        lastFrame = now
        needsDrawing = false
        if wasAnimating { stats.frame(at: now) }
        if !scene.isAnimating, let summary = stats.finish(), printsFrameStats { log(summary) }
    }

    private func log(_ message: String) {
        StandardError.print("tiltpuzzle-gui: \(message)")
    }
}
