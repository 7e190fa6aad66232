// SPDX-License-Identifier: GPL-3.0-or-later
import TiltCommandLine
import TiltGUI
import TiltSystem
#if canImport(Glibc)
import Glibc
#endif

/// The window's settings on disk (`GUISettings`, docs/gui.md, Pictures). Nothing here
/// stops the window: a missing file is the defaults, a damaged one is moved aside and
/// is the defaults, a file that cannot be written costs one line and the settings of
/// this run only.
public struct SettingsFile: Sendable {
    /// nil when the environment names no config home: then nothing is kept.
    public let path: String?

    public init(path: String?) { self.path = path }

    public init(environment: [String: String] = ProcessEnvironment.current) {
        path = GUISettings.path(environment: environment)
    }

    /// The settings kept, else the defaults. A damaged file is renamed to
    /// `gui.conf.damaged-SECONDS` (kept for the player to look at, and no longer in the
    /// way of the next save), with one line on standard error saying so.
    public func load(report: (String) -> Void = StandardError.print) -> GUISettings {
        guard let path else { return .defaults }
        let reason: String
        do throws(Errno) {
            // One byte past the limit is enough to know the file is too large.
            let bytes = try FileDescriptor.readAll(path, limit: GUISettings.sizeLimit)
            do throws(GUISettings.Damage) {
                return try GUISettings.decode(bytes)
            } catch {
                reason = error.description
            }
        } catch where error == .noSuchFile {
            return .defaults
        } catch where error == .fileTooLarge {
            reason = L("over {0} KiB", GUISettings.sizeLimit / 1024)
        } catch {
            // Unreadable is not damaged: the file may be fine, and is left where it is.
            report(L("{0}: cannot read {1} ({2}); using the defaults", GUIMain.program, path, error))
            return .defaults
        }
        let aside = path + ".damaged-\(Int(MonotonicClock.wallClock()))"
        do throws(Errno) {
            _ = try Syscall.call("rename") { rename(path, aside) }
            report(L("{0}: {1} was damaged ({2}); moved it to {3}, using the defaults", GUIMain.program, path, reason, aside))
        } catch {
            report(L("{0}: {1} was damaged ({2}) and could not be moved aside ({3}); using the defaults", GUIMain.program, path, reason, error))
        }
        return .defaults
    }

    /// Writes `settings` whole or not at all (a temporary file, fsync, rename), making
    /// the folders above it (0700). Returns whether they were kept.
    @discardableResult
    public func save(_ settings: GUISettings, report: (String) -> Void = StandardError.print) -> Bool {
        guard let path else { return false }
        PrivateFolders.create(above: path)
        do throws(Errno) {
            try FileDescriptor.replaceAtomically(path, with: settings.encoded(), permissions: 0o600)
            return true
        } catch {
            report(L("{0}: cannot save the settings to {1} ({2}); they last until the window closes", GUIMain.program, path, error))
            return false
        }
    }
}
