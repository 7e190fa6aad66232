import Foundation
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// A real Wayland compositor (sway) with its headless backend and software renderer:
/// no screen, no XWayland, no X display. sway refuses to run as root, so as root it
/// runs as `nobody`, and so do the tools that talk to it. Missing tools fail the test
/// (scripts/debian-packages.txt lists them).
final class Compositor {
    let directory: TemporaryDirectory
    private let server = Process()
    private let runtime: String
    private let logPath: String
    /// The user the compositor and its clients run as: this one, or nobody as root.
    private let user: (uid: uid_t, gid: gid_t)?
    /// The environment sway starts its programs with (`exec`).
    let environment: [String: String]

    /// A compositor whose one output is `size`; its programs find the tools and the
    /// board in `path` first.
    init(directory: TemporaryDirectory, size: (width: Int, height: Int), path: String,
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
        ].merging(extraEnvironment) { _, extra in extra }
        server.executableURL = try VirtualDisplay.tool("sway", package: "sway")
        server.arguments = ["-c", config]
        try asUser(server)
        server.environment = environment
        let log = try VirtualDisplay.outputFile(logPath)
        server.standardOutput = log
        server.standardError = log
        try server.run()
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

    /// Runs `process` as the compositor's user: through setpriv, when this is root.
    private func asUser(_ process: Process) throws {
        guard let user, let program = process.executableURL?.path else { return }
        process.executableURL = try VirtualDisplay.tool("setpriv", package: "util-linux")
        process.arguments = ["--reuid=\(user.uid)", "--regid=\(user.gid)", "--clear-groups", "--", program]
            + (process.arguments ?? [])
    }

    /// Starts a Wayland tool as a client of this compositor; its output goes to TOOL.out.
    func start(_ tool: String, package: String, _ arguments: [String]) throws -> Process {
        let process = Process()
        process.executableURL = try VirtualDisplay.tool(tool, package: package)
        process.arguments = arguments
        try asUser(process)
        var environment = self.environment
        environment["WAYLAND_DISPLAY"] = "wayland-1"
        environment["SWAYSOCK"] = ipcSocket
        process.environment = environment
        let outputPath = directory.path + "/\(tool).out"
        let output = try VirtualDisplay.outputFile(outputPath)
        process.standardOutput = output
        process.standardError = output
        try process.run()
        return process
    }

    /// Runs a Wayland tool as a client of this compositor to its end; its output.
    @discardableResult
    func run(_ tool: String, package: String, _ arguments: [String], timeout: Double = 10) throws -> String {
        let process = try start(tool, package: package, arguments)
        let outputPath = directory.path + "/\(tool).out"
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning, Date() < deadline { usleep(5_000) }
        if process.isRunning {
            VirtualDisplay.kill(process)
            throw TestFailure("\(tool) \(arguments.joined(separator: " ")) took over \(Int(timeout)) s")
        }
        let text = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
        guard process.terminationStatus == 0 else { throw TestFailure("\(tool) \(arguments.joined(separator: " ")) failed: \(text)") }
        return text
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
