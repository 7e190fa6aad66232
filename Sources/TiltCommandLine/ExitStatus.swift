// SPDX-License-Identifier: GPL-3.0-or-later
/// The exit statuses of every tiltpuzzle program (sysexits.h where one fits), so
/// scripts can tell failures apart; docs/client.md lists them and the rule: what a
/// program can check itself is a usage error before it connects, 1 only when the
/// daemon refused.
public enum ExitStatus {
    public static let ok: Int32 = 0
    /// The daemon refused the request (an `error` reply); nothing else.
    public static let refused: Int32 = 1
    /// A command that moves tiles (`tilt`, `move`, `slide`, `undo`, `redo`) was taken,
    /// and no tile moved: a tile that cannot go that way, nothing to undo.
    public static let nothingMoved: Int32 = 2
    /// EX_USAGE: the command line was wrong.
    public static let usage: Int32 = 64
    /// EX_DATAERR: the input (a trace, a board) was wrong.
    public static let dataError: Int32 = 65
    /// EX_NOINPUT: an input file (a trace to replay) is missing or unreadable.
    public static let noInput: Int32 = 66
    /// EX_UNAVAILABLE: no daemon answers, or the sensor (for `record`, `sensors`) is not there.
    public static let unavailable: Int32 = 69
    /// EX_SOFTWARE: something that should not happen did (the demo did not end solved).
    public static let software: Int32 = 70
    /// EX_OSERR: the system refused what we needed (a thread, a folder).
    public static let systemError: Int32 = 71
    /// EX_OSFILE: a file the program needs is missing or unusable.
    public static let missingFile: Int32 = 72
    /// EX_CANTCREAT: an output file cannot be created.
    public static let cannotCreate: Int32 = 73
    /// EX_IOERR: a device failed or went away while it was read (`record`).
    public static let ioError: Int32 = 74
    /// EX_TEMPFAIL: try again later: the daemon took the request but did not answer in
    /// time (the client), or the state directory is another daemon's (the daemon).
    public static let temporaryFailure: Int32 = 75
    /// EX_PROTOCOL: the daemon speaks another protocol, or garbled it.
    public static let protocolError: Int32 = 76
    /// EX_NOPERM: the socket is not ours to open.
    public static let noPermission: Int32 = 77
}
