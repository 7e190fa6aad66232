/// The exit statuses of every tiltpuzzle program (sysexits.h where one fits), so
/// scripts can tell failures apart; docs/client.md lists them.
public enum ExitStatus {
    public static let ok: Int32 = 0
    /// The daemon refused the request (an `error` reply), or the demo did not end solved.
    public static let refused: Int32 = 1
    /// EX_USAGE: the command line was wrong.
    public static let usage: Int32 = 64
    /// EX_DATAERR: the input (a trace, a board) was wrong.
    public static let dataError: Int32 = 65
    /// EX_UNAVAILABLE: no daemon answers, or the sensor is not there.
    public static let unavailable: Int32 = 69
    /// EX_SOFTWARE: something that should not happen did.
    public static let software: Int32 = 70
    /// EX_OSERR: the system refused what we needed (a thread, a folder).
    public static let systemError: Int32 = 71
    /// EX_OSFILE: a file the program needs is missing or unusable.
    public static let missingFile: Int32 = 72
    /// EX_CANTCREAT: an output file cannot be created.
    public static let cannotCreate: Int32 = 73
    /// EX_TEMPFAIL: busy for now (the daemon's state directory is another daemon's).
    public static let temporaryFailure: Int32 = 75
    /// EX_PROTOCOL: the daemon speaks another protocol, or garbled it.
    public static let protocolError: Int32 = 76
    /// EX_NOPERM: the socket is not ours to open.
    public static let noPermission: Int32 = 77
}
