// swift-tools-version:6.0
// SPDX-License-Identifier: GPL-3.0-or-later
import PackageDescription

// Layers, each depending only on the ones above it:
//   TiltCore      pure model: puzzle, history, tilt detector, trace format, line framing (no I/O)
//   TiltSolver    the solver: searches, pattern databases (as bytes; the caller does the file I/O)
//   TiltSystem    typed wrappers over the few syscalls we use (one funnel)
//   TiltCommandLine  commands declared once: parsing, help, usage errors (exit 64)
//   TiltDevices   sensor sources: IIO, evdev, replay; udev discovery
//   TiltWire      protocol v1 messages and their JSON
//   TiltDaemon    event loop, sessions, persistence, systemd's protocols (spoken directly)
//   TiltClient    a client's connection to the daemon, its copy of the board, its keymap and texts
//   TiltTerminal, TiltGUI, TiltGUISDL  the terminal and graphical views of a client; no view imports another
//   executables   tiltpuzzled, tiltpuzzle, tiltpuzzle-gui, tiltpuzzle-bench (thin)
// Each C library has one system-library target, imported by exactly one Swift file;
// CLinux is kernel headers (epoll, eventfd, signalfd, timerfd), used by TiltSystem only.
// CIIO links nothing: libiio is opened at run time, only when an IIO sensor is used.
// The daemon's modules leave out the implicit import of _StringProcessing (Regex and
// substring search), so the statically linked daemon carries none of its code or of
// _RegexParser's (1 MB of text; docs/performance.md, memory).
let lean: [SwiftSetting] = [.unsafeFlags(["-Xfrontend", "-disable-implicit-string-processing-module-import"])]

let package = Package(
    name: "tiltpuzzle",
    products: [
        .executable(name: "tiltpuzzled", targets: ["tiltpuzzled"]),
        .executable(name: "tiltpuzzle", targets: ["tiltpuzzle"]),
        .executable(name: "tiltpuzzle-gui", targets: ["tiltpuzzle-gui"]),
        .library(name: "TiltCore", targets: ["TiltCore"]),
        .library(name: "TiltSolver", targets: ["TiltSolver"]),
    ],
    targets: [
        // Declarations only, no link: LibIIO.swift opens libiio at run time, when an IIO
        // sensor is used (docs/performance.md). The header is in libiio-dev.
        .systemLibrary(name: "CIIO", providers: [.apt(["libiio-dev"])]),
        .systemLibrary(name: "CEvdev", pkgConfig: "libevdev", providers: [.apt(["libevdev-dev"])]),
        .systemLibrary(name: "CUdev", pkgConfig: "libudev", providers: [.apt(["libudev-dev"])]),
        // Only for the graphical board (tiltpuzzle-gui), so the other programs load no GUI libraries.
        // Not through pkg-config: SDL2's cflags carry -D_REENTRANT, which SwiftPM refuses
        // with a warning on every build; the headers are found as <SDL2/…> instead.
        .systemLibrary(name: "CSDL2", providers: [.apt(["libsdl2-dev"])]),
        .systemLibrary(name: "CWayland", providers: [.apt(["libwayland-dev"])]),
        .systemLibrary(name: "CSDL2TTF", providers: [.apt(["libsdl2-ttf-dev"])]),
        // The pictures the tiles are cut from: PNG, JPEG, WebP and SVG.
        .systemLibrary(name: "CSDL2Image", providers: [.apt(["libsdl2-image-dev"])]),
        // Only for the device tests: fake /sys and /dev devices (umockdev).
        .systemLibrary(name: "CUmockdev", pkgConfig: "umockdev-1.0", providers: [.apt(["libumockdev-dev"])]),

        // squareRoot() calls libm in debug builds.
        .target(name: "TiltCore", swiftSettings: lean, linkerSettings: [.linkedLibrary("m")]),
        // The solver: the hints' and the demo's searches and their tables, over the model;
        // lean, being one of the daemon's modules. It calls nothing of libm's.
        .target(name: "TiltSolver", dependencies: ["TiltCore"], swiftSettings: lean),
        // Linux headers Glibc's module lacks (epoll, eventfd, signalfd); no library.
        .systemLibrary(name: "CLinux"),
        .target(name: "TiltSystem", dependencies: ["TiltCore", "CLinux"], swiftSettings: lean),
        .target(name: "TiltDevices", dependencies: ["TiltCore", "TiltSystem", "CIIO", "CEvdev", "CUdev"], swiftSettings: lean),
        .target(name: "TiltWire", dependencies: ["TiltCore"], swiftSettings: lean),
        .target(name: "TiltCommandLine", dependencies: ["TiltSystem"], swiftSettings: lean),
        .target(name: "TiltClient", dependencies: ["TiltCore", "TiltSystem", "TiltWire", "TiltCommandLine"]),
        .target(name: "TiltTerminal", dependencies: ["TiltCore", "TiltSystem", "TiltWire", "TiltClient", "TiltCommandLine"]),
        .target(name: "TiltGUI", dependencies: ["TiltCore", "TiltSystem", "TiltWire", "TiltClient", "TiltCommandLine"]),
        .target(name: "TiltGUISDL", dependencies: ["TiltCore", "TiltSystem", "TiltWire", "TiltClient", "TiltGUI",
                                                   "TiltCommandLine", "CSDL2", "CSDL2TTF", "CSDL2Image", "CWayland"]),
        .target(name: "TiltDaemon", dependencies: ["TiltCore", "TiltSolver", "TiltSystem", "TiltDevices", "TiltWire", "TiltCommandLine"],
                swiftSettings: lean),
        // The demo: a daemon on a thread of the client's own, replaying a tablet that solves a game.
        .target(name: "TiltDemo", dependencies: ["TiltCore", "TiltSolver", "TiltSystem", "TiltWire", "TiltDaemon", "TiltClient",
                                                 "TiltTerminal", "TiltCommandLine"]),

        .executableTarget(name: "tiltpuzzled", dependencies: ["TiltDaemon", "TiltSystem", "TiltWire", "TiltCommandLine"], swiftSettings: lean),
        .executableTarget(name: "tiltpuzzle",
                          dependencies: ["TiltCore", "TiltSystem", "TiltDevices", "TiltWire", "TiltClient", "TiltTerminal",
                                         "TiltCommandLine", "TiltGUI", "TiltDemo"]),
        .executableTarget(name: "tiltpuzzle-gui", dependencies: ["TiltGUISDL"]),
        .executableTarget(name: "tiltpuzzle-bench", dependencies: ["TiltCore", "TiltSolver", "TiltSystem", "TiltDevices", "TiltWire",
                                                                   "TiltClient", "TiltCommandLine"]),

        // Unit tests: one target per library, in memory, no subprocesses (TiltSystemTests
        // excepted: ChildProcess and posix_spawn are tested by starting sh, sleep, cat and true).
        .testTarget(name: "TiltCoreTests", dependencies: ["TiltCore"]),
        .testTarget(name: "TiltSolverTests", dependencies: ["TiltCore", "TiltSolver"]),
        .testTarget(name: "TiltSystemTests", dependencies: ["TiltCore", "TiltSystem"]),
        .testTarget(name: "TiltCommandLineTests", dependencies: ["TiltCommandLine"]),
        .testTarget(name: "TiltDevicesTests", dependencies: ["TiltCore", "TiltSystem", "TiltDevices"]),
        .testTarget(name: "TiltWireTests", dependencies: ["TiltCore", "TiltWire"]),
        .testTarget(name: "TiltDaemonTests", dependencies: ["TiltCore", "TiltSolver", "TiltWire", "TiltDaemon", "TiltSystem",
                                                     "TiltCommandLine", "TiltDevices"]),
        .testTarget(name: "TiltClientTests", dependencies: ["TiltCore", "TiltSystem", "TiltWire", "TiltClient"]),
        .testTarget(name: "TiltTerminalTests", dependencies: ["TiltCore", "TiltSystem", "TiltWire", "TiltClient", "TiltTerminal",
                                                       "TestSupport"]),
        .testTarget(name: "TiltGUITests", dependencies: ["TiltCore", "TiltSystem", "TiltWire", "TiltClient", "TiltGUI", "TiltCommandLine",
                                                  "TestSupport"]),
        // The window's own files (settings, the pictures folder) in a temporary folder; no display.
        .testTarget(name: "TiltGUISDLTests", dependencies: ["TiltGUI", "TiltGUISDL", "TiltSystem"]),
        .testTarget(name: "TiltDemoTests", dependencies: ["TiltSystem", "TiltDemo"]),

        // Tests of the built programs and the system around them: subprocesses, a
        // pseudo-terminal, a virtual display, fake devices, the installed files.
        // For the tests that run the built executables: finds them, starts a daemon on a temporary socket.
        .target(name: "TestSupport", dependencies: ["TiltSystem", "TiltWire", "TiltClient"], path: "Tests/TestSupport"),
        // The built daemon on a temporary socket. Depends on the executables so they are built first.
        .testTarget(name: "DaemonEndToEndTests", dependencies: ["tiltpuzzled", "tiltpuzzle", "TestSupport", "TiltSystem"]),
        // The built client as a subprocess (pipes and a tmux pseudo-terminal).
        .testTarget(name: "ClientEndToEndTests",
                    dependencies: ["TiltSystem", "TestSupport", "tiltpuzzled", "tiltpuzzle"]),
        // The built GUI under Xvfb against a real daemon.
        .testTarget(name: "GUIEndToEndTests", dependencies: ["TiltCore", "TiltSystem", "TiltWire", "TiltClient", "TiltGUI",
                                                     "TestSupport", "tiltpuzzle-gui", "tiltpuzzled"]),
        // The real libiio, libevdev and libudev against umockdev's fake devices; re-runs
        // itself under umockdev's preload. Starts the built client, so depends on it.
        .testTarget(name: "TiltDeviceMockTests",
                    dependencies: ["TiltCore", "TiltSystem", "TiltDevices", "CUmockdev", "tiltpuzzle"]),
        // The Python model of the core (Tests/Oracle) against TiltCore on random seeds, through python3.
        .testTarget(name: "OracleTests", dependencies: ["TiltCore", "TiltSystem"]),
        // The units, udev rules and `make install`, through systemd-analyze, udevadm and make.
        // Installs the built executables (so depends on them) and checks the daemon's defaults.
        .testTarget(name: "PackagingTests",
                    dependencies: ["TiltSystem", "TiltDaemon", "TiltClient", "TiltGUI", "TestSupport",
                                   "tiltpuzzled", "tiltpuzzle", "tiltpuzzle-gui"]),
    ],
    swiftLanguageModes: [.v6]
)

// Fuzz targets (Tests/Fuzz/README.md): built only by scripts/fuzz, which sets
// TILTPUZZLE_FUZZ and passes -sanitize=fuzzer. Their entry point is libFuzzer's
// LLVMFuzzerTestOneInput and libFuzzer supplies main, so outside that build they
// would not link: `swift build` and `swift test` never see them.
if Context.environment["TILTPUZZLE_FUZZ"] != nil {
    let fuzzers: [(name: String, dependencies: [Target.Dependency])] = [
        ("json", ["TiltWire"]),
        ("request", ["TiltCore", "TiltWire"]),
        ("server-message", ["TiltCore", "TiltWire"]),
        ("line-splitter", ["TiltCore"]),
        ("trace", ["TiltCore", "TiltDevices"]),
        ("scan-decoder", ["TiltDevices"]),
        ("sysfs", ["TiltCore", "TiltDevices"]),
        ("configuration", ["TiltCore", "TiltDaemon"]),
        ("saved-game", ["TiltCore", "TiltDaemon"]),
        ("board-notation", ["TiltCore"]),
    ]
    // Only the libraries the fuzzers reach, so that one `swift build` makes them all.
    let reached: Set = ["TiltCore", "TiltSolver", "TiltSystem", "TiltDevices", "TiltWire", "TiltCommandLine", "TiltDaemon"]
    package.targets.removeAll { $0.type != .system && !reached.contains($0.name) }
    package.products = fuzzers.map { .executable(name: "fuzz-\($0.name)", targets: ["fuzz-\($0.name)"]) }
    package.targets.append(.target(name: "FuzzSupport", path: "Tests/Fuzz/Support"))
    for fuzzer in fuzzers {
        package.targets.append(.executableTarget(name: "fuzz-\(fuzzer.name)", dependencies: fuzzer.dependencies + ["FuzzSupport"],
                                                 path: "Tests/Fuzz/\(fuzzer.name)"))
    }
}
