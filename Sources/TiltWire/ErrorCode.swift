// SPDX-License-Identifier: GPL-3.0-or-later
/// The stable codes of `error` messages (docs/protocol.md lists them).
public enum ErrorCode: String, Sendable, CaseIterable {
    /// The line is not valid UTF-8.
    case invalidUTF8 = "invalid-utf8"
    /// The line is not JSON.
    case invalidJSON = "invalid-json"
    /// The JSON is not an object.
    case notAnObject = "not-an-object"
    /// No `cmd` string.
    case missingCommand = "missing-cmd"
    case unknownCommand = "unknown-command"
    /// An argument is missing, of the wrong type, or out of range.
    case badArgument = "bad-argument"
    /// The line exceeds 64 KiB; the connection is closed after this error.
    case lineTooLong = "line-too-long"
    /// The client limit is reached; the connection is closed after this error.
    case tooManyClients = "too-many-clients"
    /// The change was made but could not be saved.
    case saveFailed = "save-failed"
    /// Calibration needs a running sensor with at least one sample.
    case noSensor = "no-sensor"
    /// Never sent: what a client makes of a code it does not know (from a newer daemon).
    case unknown = "unknown"
}
