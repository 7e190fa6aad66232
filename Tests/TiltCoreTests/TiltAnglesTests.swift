// SPDX-License-Identifier: GPL-3.0-or-later
import Testing
import TiltCore

/// The tilt angles' one set of bounds (DEVELOPERS.md, "One definition per rule"): what
/// the detector can work with, and the narrower ranges a player may choose, each of
/// whose choices the detector accepts.
@Suite struct TiltAnglesTests {
    @Test func aTriggerLiesStrictlyBetweenFlatAndUpright() {
        #expect(TiltAngles.detectorAccepts(trigger: 20))
        #expect(TiltAngles.detectorAccepts(trigger: 0.5))
        #expect(TiltAngles.detectorAccepts(trigger: 89.5))
        for refused in [0, 90, -1, 91, .infinity, -.infinity, .nan] as [Double] {
            #expect(!TiltAngles.detectorAccepts(trigger: refused), "\(refused)")
        }
    }

    @Test func aReleaseIsFromFlatUpToNotIncludingTheTrigger() {
        #expect(TiltAngles.detectorAccepts(release: 0, trigger: 20))
        #expect(TiltAngles.detectorAccepts(release: 10, trigger: 20))
        #expect(TiltAngles.detectorAccepts(release: 19.99, trigger: 20))
        #expect(!TiltAngles.detectorAccepts(release: 20, trigger: 20))
        #expect(!TiltAngles.detectorAccepts(release: 25, trigger: 20))
        #expect(!TiltAngles.detectorAccepts(release: -0.5, trigger: 20))
        #expect(!TiltAngles.detectorAccepts(release: .nan, trigger: 20))
    }

    @Test func everyAngleAPlayerMayChooseTheDetectorAccepts() {
        // The corners of the player's ranges, and a grid between them, with the
        // release at least the minimum hysteresis under the trigger.
        let triggers = stride(from: TiltAngles.playerTrigger.lowerBound, through: TiltAngles.playerTrigger.upperBound, by: 0.5)
        for trigger in triggers {
            #expect(TiltAngles.detectorAccepts(trigger: trigger), "trigger \(trigger)")
            let highest = min(TiltAngles.playerRelease.upperBound, trigger - TiltAngles.minimumHysteresis)
            for release in stride(from: TiltAngles.playerRelease.lowerBound, through: highest, by: 0.5) {
                #expect(TiltAngles.detectorAccepts(release: release, trigger: trigger), "release \(release) trigger \(trigger)")
            }
        }
    }

    @Test func thePlayersRangesFitTogetherInsideTheDetectors() {
        #expect(TiltAngles.detector.contains(TiltAngles.playerTrigger.lowerBound))
        #expect(TiltAngles.detector.contains(TiltAngles.playerTrigger.upperBound))
        #expect(TiltAngles.detector.contains(TiltAngles.playerRelease.lowerBound))
        // The highest release a player may choose sits the minimum hysteresis under the
        // highest trigger, and the lowest trigger leaves room for the lowest release.
        #expect(TiltAngles.playerRelease.upperBound + TiltAngles.minimumHysteresis == TiltAngles.playerTrigger.upperBound)
        #expect(TiltAngles.playerRelease.lowerBound + TiltAngles.minimumHysteresis <= TiltAngles.playerTrigger.lowerBound)
    }

    @Test func theDetectorsDefaultAnglesAreOnesAPlayerMayChoose() throws {
        let defaults = TiltDetector.Configuration()
        #expect(TiltAngles.playerTrigger.contains(defaults.triggerAngle))
        #expect(TiltAngles.playerRelease.contains(defaults.releaseAngle))
        #expect(defaults.triggerAngle - defaults.releaseAngle >= TiltAngles.minimumHysteresis)
        try defaults.validate()
    }
}
