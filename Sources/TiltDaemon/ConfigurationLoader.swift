// SPDX-License-Identifier: GPL-3.0-or-later
import TiltSystem

/// Where the daemon's configuration comes from: the file (`--config`, else the default
/// path, which may be missing) with the command line's overrides, read at start and
/// again on SIGHUP. A reload takes only what can change under running clients; the
/// sensor's source and rate, and always-on, wait for a restart (docs/tiltpuzzled.8.md).
struct ConfigurationLoader {
    /// The file, or nil for the defaults alone (a daemon embedded in another program).
    private let path: String?
    /// Named on the command line: then a missing file is an error, not the defaults.
    private let named: Bool
    private let alwaysOn: Bool
    private let source: String?

    init(options: DaemonOptions, readsFile: Bool) {
        path = readsFile ? options.configPath ?? Configuration.defaultPath : nil
        named = options.configPath != nil
        alwaysOn = options.alwaysOn
        source = options.source
    }

    /// The configuration to start with.
    func load() throws(Daemon.StartError) -> Configuration {
        var configuration = try read()
        if alwaysOn { configuration.alwaysOn = true }
        if let source { configuration.source = source }
        return configuration
    }

    /// `current` with what a reload may change read again from the file.
    func reload(_ current: Configuration) throws(Daemon.StartError) -> Configuration {
        let new = try read()
        var configuration = current
        configuration.detector = new.detector
        configuration.mountMatrixOverride = new.mountMatrixOverride
        configuration.undoLevels = new.undoLevels
        configuration.defaultSize = new.defaultSize
        configuration.limits = new.limits
        return configuration
    }

    private func read() throws(Daemon.StartError) -> Configuration {
        guard let path else { return Configuration() }
        let text: String
        do throws(Errno) {
            text = try FileDescriptor.readText(path)
        } catch {
            if !named && error == .noSuchFile { return Configuration() }
            throw Daemon.StartError(message: "cannot read configuration \(path): \(error)")
        }
        do throws(Configuration.Problem) {
            return try Configuration.parse(text)
        } catch {
            throw Daemon.StartError(message: "configuration \(path): \(error)")
        }
    }
}
