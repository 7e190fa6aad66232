// SPDX-License-Identifier: GPL-3.0-or-later
import FuzzSupport
import TiltCore
import TiltDaemon

/// The daemon's configuration file. A file either fails naming one of its lines, or
/// gives a configuration whose every value is in the range docs/tiltpuzzled.conf
/// states, that the detector accepts, and that written out as a file reads back
/// the same.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzConfiguration(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = FuzzInput(data, size)
    let text = String(decoding: input.bytes, as: UTF8.self)
    let configuration: Configuration
    do throws(Configuration.Problem) {
        configuration = try Configuration.parse(text)
    } catch {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).count
        require(error.line >= 0 && error.line <= lines, "line \(error.line) of \(lines) blamed")
        return 0
    }
    let d = configuration.detector
    require((0...90).contains(d.triggerAngle) && (0...90).contains(d.releaseAngle) && d.releaseAngle < d.triggerAngle,
            "angles \(d.triggerAngle), \(d.releaseAngle) accepted")
    require((0...1).contains(d.magnitudeTolerance) && (1...100_000).contains(d.maxAngularRate) && (0...10).contains(d.settleTime),
            "detector limits out of range accepted")
    if let matrix = configuration.mountMatrixOverride {
        require(matrix.values.allSatisfy(\.isFinite) && abs(matrix.determinant) > 1e-6, "mount matrix \(matrix) accepted")
    }
    require((0...100_000).contains(configuration.undoLevels) && Board.sides.contains(configuration.defaultSize),
            "game settings out of range accepted")
    require((1...100_000).contains(configuration.limits.maxClients) && (4096...(1 << 30)).contains(configuration.limits.maxQueuedBytes),
            "client limits out of range accepted")

    let written = file(for: configuration)
    let again = try? Configuration.parse(written)
    require(again == configuration, "the configuration written as\n\(written)\nreads differently")
    return 0
}

/// Every key, as an administrator would write it.
private func file(for c: Configuration) -> String {
    let d = c.detector
    let matrix = c.mountMatrixOverride.map { $0.values.map { "\($0)" }.joined(separator: ", ") } ?? ""
    return """
    [detector]
    trigger-angle = \(d.triggerAngle)
    release-angle = \(d.releaseAngle)
    magnitude-tolerance = \(d.magnitudeTolerance)
    max-angular-rate = \(d.maxAngularRate)
    settle-time = \(d.settleTime)
    screen-rotation = \(d.screenRotation.degrees)
    mount-matrix = \(matrix)
    [game]
    undo-levels = \(c.undoLevels)
    default-size = \(c.defaultSize)
    [clients]
    max-clients = \(c.limits.maxClients)
    max-queued-bytes = \(c.limits.maxQueuedBytes)
    [sensor]
    source = \(c.source)
    always-on = \(c.alwaysOn)

    """
}
