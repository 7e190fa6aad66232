// SPDX-License-Identifier: GPL-3.0-or-later
import Testing
import TiltCommandLine
import TiltCore
@testable import TiltDaemon

@Suite struct ConfigurationTests {
    @Test func emptyIsTheDefaults() throws {
        #expect(try Configuration.parse("") == Configuration())
        #expect(try Configuration.parse("# only comments\n; and these\n\n") == Configuration())
    }

    @Test func everyKeyIsRead() throws {
        let text = """
        [detector]
        trigger-angle = 25
        release-angle = 12.5
        magnitude-tolerance = 0.3
        max-angular-rate = 500
        settle-time = 0.2
        screen-rotation = 270
        mount-matrix = 0, 1, 0; -1, 0, 0; 0, 0, 1
        auto-neutral = no
        auto-neutral-hold = 1.5
        [game]
        undo-levels = 50
        default-size = 3
        [clients]
        max-clients = 10
        max-queued-bytes = 65536
        [sensor]
        source = replay:/tmp/x.csv
        always-on = yes
        sample-rate = 200
        """
        let c = try Configuration.parse(text)
        #expect(c.detector.triggerAngle == 25 && c.detector.releaseAngle == 12.5)
        #expect(c.detector.magnitudeTolerance == 0.3 && c.detector.maxAngularRate == 500 && c.detector.settleTime == 0.2)
        #expect(c.detector.screenRotation == .threeQuarters)
        #expect(c.mountMatrixOverride == Matrix3([0, 1, 0, -1, 0, 0, 0, 0, 1]))
        #expect(!c.detector.autoNeutral && c.detector.autoNeutralHold == 1.5)
        #expect(c.undoLevels == 50 && c.defaultSize == 3)
        #expect(c.limits.maxClients == 10 && c.limits.maxQueuedBytes == 65536)
        #expect(c.source == "replay:/tmp/x.csv" && c.alwaysOn && c.sampleRate == 200)
        // The documentation table names each key once.
        #expect(Set(Configuration.keys.map { "\($0.section).\($0.name)" }).count == Configuration.keys.count)
    }

    @Test(arguments: [
        ("[detector]\ntrigger-angel = 20", "line 2: unknown key 'trigger-angel' in [detector]"),
        ("trigger-angle = 20", "line 1: unknown key 'trigger-angle' outside any section"),
        ("[detecter]", "line 1: unknown section [detecter]"),
        ("[detector\n", "line 1: unclosed section header"),
        ("[detector]\ntrigger-angle 20", "line 2: expected 'key = value'"),
        ("[detector]\ntrigger-angle = steep", "line 2: trigger-angle must be a number from 0.0 to 90.0, not 'steep'"),
        ("[detector]\nscreen-rotation = 45", "line 2: screen-rotation must be 0, 90, 180 or 270, not '45'"),
        ("[detector]\nmount-matrix = 1,0,0,0,0,0,0,0,1", "line 2: mount-matrix must be nine numbers of an invertible matrix, not '1,0,0,0,0,0,0,0,1'"),
        ("[game]\ndefault-size = 11", "line 2: default-size must be a whole number from 2 to 10, not '11'"),
        ("[sensor]\nalways-on = maybe", "line 2: always-on must be true or false, not 'maybe'"),
        ("[detector]\nauto-neutral = sometimes", "line 2: auto-neutral must be true or false, not 'sometimes'"),
        ("[detector]\nauto-neutral-hold = 0.1", "line 2: auto-neutral-hold must be a number from 0.2 to 10.0, not '0.1'"),
        ("[detector]\ntrigger-angle = 10\nrelease-angle = 15", "release angle 15.0° must be at least 0° and below the trigger angle"),
    ])
    func badConfigurationsNameTheLine(text: String, message: String) {
        #expect(throws: Configuration.Problem.self) { try Configuration.parse(text) }
        do {
            _ = try Configuration.parse(text)
        } catch {
            #expect(error.description == message)
        }
    }
}
