// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import TestSupport
import TiltSystem
#if canImport(Glibc)
import Glibc
#endif

/// A real Wayland compositor (sway) with its headless backend and software renderer:
/// no screen, no XWayland, no X display. sway refuses to run as root, so as root it
/// runs as `nobody`, and so do the tools that talk to it. Missing tools fail the test
/// (scripts/debian-packages.txt lists them).
final class Compositor {
    let directory: TestSupport.TemporaryDirectory
    private let server: ChildProcess
    private let runtime: String
    private let logPath: String
    /// The user the compositor and its clients run as: this one, or nobody as root.
    private let user: (uid: uid_t, gid: gid_t)?
    /// The environment sway starts its programs with (`exec`).
    let environment: [String: String]

    /// A compositor whose one output is `size`; its programs find the tools and the
    /// board in `path` first.
    init(directory: TestSupport.TemporaryDirectory, size: (width: Int, height: Int), path: String,
         extraEnvironment: [String: String]) throws {
        self.directory = directory
        runtime = directory.path + "/run"
        logPath = directory.path + "/sway.log"
        if getuid() == 0 {
            guard let nobody = getpwnam("nobody") else { throw TestFailure("no user nobody to run sway as (it refuses root)") }
            user = (nobody.pointee.pw_uid, nobody.pointee.pw_gid)
        } else {
            user = nil
        }
        try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        chmod(directory.path, 0o755)
        if let user { chown(runtime, user.uid, user.gid) }
        let config = directory.path + "/sway.config"
        try """
            xwayland disable
            output HEADLESS-1 resolution \(size.width)x\(size.height)
            default_border none
            """.write(toFile: config, atomically: false, encoding: .utf8)
        environment = [
            "PATH": path + ":/usr/bin:/bin", "HOME": directory.path, "XDG_RUNTIME_DIR": runtime,
            "WLR_BACKENDS": "headless", "WLR_RENDERER": "pixman", "WLR_LIBINPUT_NO_DEVICES": "1",
            // The board's sounds go nowhere, as in the other GUI tests (GUIProcess).
            "SDL_AUDIODRIVER": "dummy",
        ].merging(extraEnvironment) { _, extra in extra }
        let log = try VirtualDisplay.outputFile(logPath)
        server = try ChildProcess(try Self.command([try VirtualDisplay.tool("sway", package: "sway"), "-c", config], as: user),
                                  environment: VirtualDisplay.only(environment), standardOutput: log, standardError: log,
                                  otherDescriptors: .closed)
        let deadline = Date().addingTimeInterval(15)
        while ipcSocket == nil || !FileManager.default.fileExists(atPath: runtime + "/wayland-1"), Date() < deadline {
            guard server.isRunning else { throw TestFailure("sway stopped:\n\(self.log)") }
            usleep(20_000)
        }
        guard ipcSocket != nil else { throw TestFailure("sway did not open its sockets:\n\(self.log)") }
    }

    deinit { VirtualDisplay.kill(server) }

    var log: String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }

    private var ipcSocket: String? {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: runtime)) ?? []
        return names.first { $0.hasPrefix("sway-ipc.") && $0.hasSuffix(".sock") }.map { runtime + "/" + $0 }
    }

    /// `command` run as `user`: through setpriv, when this is root.
    private static func command(_ command: [String], as user: (uid: uid_t, gid: gid_t)?) throws -> [String] {
        guard let user else { return command }
        return [try VirtualDisplay.tool("setpriv", package: "util-linux"),
                "--reuid=\(user.uid)", "--regid=\(user.gid)", "--clear-groups", "--"] + command
    }

    /// A Wayland tool's command line and environment as a client of this compositor.
    private func client(_ tool: String, package: String, _ arguments: [String]) throws
        -> (command: [String], environment: [String: String?]) {
        var environment = self.environment
        environment["WAYLAND_DISPLAY"] = "wayland-1"
        environment["SWAYSOCK"] = ipcSocket
        let command = try Self.command([try VirtualDisplay.tool(tool, package: package)] + arguments, as: user)
        return (command, VirtualDisplay.only(environment))
    }

    /// Starts a Wayland tool as a client of this compositor; its output goes to TOOL.out.
    func start(_ tool: String, package: String, _ arguments: [String]) throws -> ChildProcess {
        let (command, environment) = try client(tool, package: package, arguments)
        return try VirtualDisplay.start(command, environment: environment, outputPath: directory.path + "/\(tool).out")
    }

    /// Runs a Wayland tool as a client of this compositor to its end; its output.
    @discardableResult
    func run(_ tool: String, package: String, _ arguments: [String], timeout: Double = 10) throws -> String {
        let (command, environment) = try client(tool, package: package, arguments)
        return try VirtualDisplay.run(command, described: "\(tool) \(arguments.joined(separator: " "))",
                                      environment: environment, outputPath: directory.path + "/\(tool).out",
                                      timeout: timeout)
    }

    /// The windows sway manages, from its tree: app id, shell and where they are.
    struct View {
        var appID: String?
        var shell: String?
        var rect: (x: Int, y: Int, width: Int, height: Int)
    }

    func views() throws -> [View] {
        let tree = try JSONSerialization.jsonObject(with: Data(try run("swaymsg", package: "sway", ["-t", "get_tree", "-r"]).utf8))
        var found: [View] = []
        func visit(_ node: Any) {
            guard let node = node as? [String: Any] else { return }
            if node["type"] as? String == "con" || node["type"] as? String == "floating_con",
               let rect = node["rect"] as? [String: Int], node["pid"] != nil {
                found.append(View(appID: node["app_id"] as? String, shell: node["shell"] as? String,
                                  rect: (rect["x"] ?? 0, rect["y"] ?? 0, rect["width"] ?? 0, rect["height"] ?? 0)))
            }
            for key in ["nodes", "floating_nodes"] { (node[key] as? [Any])?.forEach(visit) }
        }
        visit(tree)
        return found
    }

    /// The compositor's picture of `view` (grim, as a PPM), kept in `file`.
    func screenshot(_ view: View, file: String) throws -> Screenshot {
        let r = view.rect
        // Written where the compositor's user may write, then moved.
        let shot = runtime + "/shot.ppm"
        try run("grim", package: "grim", ["-t", "ppm", "-g", "\(r.x),\(r.y) \(r.width)x\(r.height)", shot])
        try? FileManager.default.removeItem(atPath: file)
        try FileManager.default.moveItem(atPath: shot, toPath: file)
        return try Screenshot(ppm: Data(contentsOf: URL(fileURLWithPath: file)))
    }
}
