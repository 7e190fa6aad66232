// SPDX-License-Identifier: GPL-3.0-or-later
import TiltSystem
#if canImport(Glibc)
import Glibc
#endif

/// The terminal a full-screen view runs on: raw input, the alternate screen, the
/// window size, and putting all of it back on every way out — `restore()` for
/// the ordinary ones, a crash guard for the rest.
public final class Terminal {
    public let input: FileDescriptor
    public let output: FileDescriptor
    /// The input's settings before raw mode; nil when they were not changed.
    private var saved: termios?
    public private(set) var isActive = false

    public init(input: FileDescriptor = .standardInput, output: FileDescriptor = .standardOutput) {
        self.input = input
        self.output = output
    }

    /// Whether `output` is a terminal that takes escape sequences (TERM unset or
    /// `dumb` means a plain line printer, as in an editor's shell buffer).
    public static func isUsable(_ output: FileDescriptor, term: String?) -> Bool {
        guard let term, !term.isEmpty, term != "dumb" else { return false }
        return output.isTerminal
    }

    /// Switches to the alternate screen and, with `rawInput` on a terminal input,
    /// to reading keys one by one without echo.
    public func enter(rawInput: Bool) throws(Errno) {
        if rawInput, input.isTerminal {
            var settings = termios()
            _ = try Syscall.call("tcgetattr") { tcgetattr(input.rawValue, &settings) }
            var raw = settings
            // No line editing, no echo. ISIG stays: Ctrl-C and Ctrl-Z come as signals,
            // handled in the loop with the other signals.
            raw.c_lflag &= ~tcflag_t(ICANON | ECHO | IEXTEN)
            // Ctrl-S must not freeze the view (flow control); Enter stays a CR.
            raw.c_iflag &= ~tcflag_t(IXON | ICRNL)
            withUnsafeMutableBytes(of: &raw.c_cc) {
                $0[Int(VMIN)] = 1
                $0[Int(VTIME)] = 0
            }
            _ = try Syscall.call("tcsetattr") { tcsetattr(input.rawValue, TCSANOW, &raw) }
            saved = settings
        }
        CrashGuard.arm(output: output.rawValue, input: input.rawValue, settings: saved)
        isActive = true
        try write(ScreenFrame.enter)
    }

    /// Leaves the alternate screen, shows the cursor and gives the input back its
    /// settings. Safe to call twice; errors are ignored (the terminal may be gone).
    public func restore() {
        guard isActive else { return }
        isActive = false
        CrashGuard.disarm()
        let leave = ScreenFrame.leave
        _ = try? output.writeAll(UnsafeRawBufferPointer(start: leave.utf8Start, count: leave.utf8CodeUnitCount))
        if var settings = saved {
            // TCSAFLUSH: keys typed after quitting do not land in the shell.
            _ = try? Syscall.call("tcsetattr") { tcsetattr(input.rawValue, TCSAFLUSH, &settings) }
            saved = nil
        }
    }

    deinit { restore() }

    public func write(_ text: String) throws(Errno) {
        try output.writeAll(text)
    }

    /// The window's columns and lines; 80×24 when the terminal does not say.
    public func size() -> (width: Int, height: Int) {
        var size = winsize()
        let known = (try? Syscall.call("ioctl") { ioctl(output.rawValue, UInt(TIOCGWINSZ), &size) }) != nil
        guard known, size.ws_col > 0, size.ws_row > 0 else { return (80, 24) }
        return (Int(size.ws_col), Int(size.ws_row))
    }
}

/// Puts the terminal back when the process dies of a crash signal, then lets the
/// signal go on to the handler that was there before (the runtime's backtrace) or
/// to its default. Only async-signal-safe calls in the handler: write, tcsetattr,
/// sigaction.
enum CrashGuard {
    nonisolated(unsafe) static var outputFD: Int32 = -1
    nonisolated(unsafe) static var inputFD: Int32 = -1
    /// In heap memory, not a global `termios`: the compiler gives a global of that
    /// imported type 57 bytes where a copy writes 60 (AddressSanitizer reports it in
    /// `scripts/sanitize address`). An allocation has the type's full size.
    nonisolated(unsafe) static let settings: UnsafeMutablePointer<termios> = {
        let storage = UnsafeMutablePointer<termios>.allocate(capacity: 1)
        storage.initialize(to: termios())
        return storage
    }()
    /// The actions replaced, indexed by signal number; allocated before any handler runs.
    nonisolated(unsafe) static var previous: UnsafeMutablePointer<sigaction>?

    static let signals: [Int32] = [SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP]

    static func arm(output: Int32, input: Int32, settings saved: termios?) {
        // Every global the handler reads is set here, so none is first touched in the handler.
        _ = ScreenFrame.leave
        outputFD = output
        inputFD = saved == nil ? -1 : input
        if let saved { settings.pointee = saved }
        guard previous == nil else { return }
        let table = UnsafeMutablePointer<sigaction>.allocate(capacity: Int(NSIG))
        table.initialize(repeating: sigaction(), count: Int(NSIG))
        previous = table
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { signal in
            CrashGuard.putBack()
            // The previous action takes over: a fault re-runs and meets it, abort() raises again.
            if let previous = CrashGuard.previous { sigaction(signal, previous + Int(signal), nil) }
        }
        sigemptyset(&action.sa_mask)
        for signal in signals { sigaction(signal, &action, table + Int(signal)) }
    }

    static func disarm() {
        guard let table = previous else { return }
        for signal in signals { sigaction(signal, table + Int(signal), nil) }
        previous = nil
        table.deallocate()
        outputFD = -1
        inputFD = -1
    }

    static func putBack() {
        if outputFD >= 0 {
            let leave = ScreenFrame.leave
            _ = Glibc.write(outputFD, leave.utf8Start, leave.utf8CodeUnitCount)
        }
        if inputFD >= 0 { _ = tcsetattr(inputFD, TCSAFLUSH, settings) }
    }
}
