// SPDX-License-Identifier: GPL-3.0-or-later
import Testing
import TiltWire

@Suite struct SensitivityTests {
    @Test(arguments: zip([Sensitivity(trigger: 4.5, release: 1), Sensitivity(trigger: 61, release: 10),
                          Sensitivity(trigger: .nan, release: 10), Sensitivity(trigger: 20, release: 0.5),
                          Sensitivity(trigger: 20, release: 18.5), Sensitivity(trigger: 20, release: 18)],
                         [Sensitivity.Problem.triggerOutOfRange, .triggerOutOfRange, .triggerOutOfRange, .releaseOutOfRange,
                          .tooLittleHysteresis, nil]))
    func anglesAPlayerMayNotChooseHaveAKind(_ sensitivity: Sensitivity, _ problem: Sensitivity.Problem?) {
        #expect(sensitivity.problem == problem)
    }

    @Test func theKindSaysWhatToChange() {
        #expect(Sensitivity.Problem.tooLittleHysteresis.description == "\"release\" must be at least 2.0 degrees below \"trigger\"")
        #expect(Sensitivity.Problem.triggerOutOfRange.description == "\"trigger\" must be from 5.0 to 60.0 degrees")
    }
}
