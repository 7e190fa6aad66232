// SPDX-License-Identifier: GPL-3.0-or-later
import TiltCommandLine

extension DaemonConnection.Failure {
    /// The exit status a client command ends with after this failure (docs/client.md).
    public var exitStatus: Int32 {
        switch self {
        case .noDaemon, .notASocket, .closed, .io, .noGreeting: ExitStatus.unavailable
        case .permissionDenied: ExitStatus.noPermission
        case .protocolMismatch, .garbled: ExitStatus.protocolError
        case .noReply: ExitStatus.temporaryFailure
        }
    }
}
