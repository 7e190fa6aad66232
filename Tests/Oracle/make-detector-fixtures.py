#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Generates the golden tilt-detector fixtures in Tests/Fixtures/detector/.

    python3 Tests/Oracle/make-detector-fixtures.py           # write NAME.csv and NAME.expected
    python3 Tests/Oracle/make-detector-fixtures.py --check   # exit 1 if the written files are stale

Each case is a realistic 100 Hz trace (smooth eased motion, Gaussian sensor noise) and
the directions the detector must fire for it (docs/tilt-detection.md). Before anything is
written, every trace is replayed through the detector model in tiltsim.py and must fire
exactly the expected directions; most cases also check that they *bite*, i.e. that a
detector missing the feature under test would fire something else. The file format is
described in Tests/Fixtures/detector/README.md.
"""

import argparse
import math
import os
import sys
import zlib

sys.dont_write_bytecode = True  # keep Tests/Oracle free of __pycache__
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tiltsim as ts  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OUT_DIR = os.path.join(ROOT, "Tests", "Fixtures", "detector")
RATE = 100  # Hz
G = ts.STANDARD_GRAVITY

# Tilt angles (x, y) in degrees as the detector measures them: x > 0 is the left edge
# lowered, y > 0 the bottom edge lowered (docs/tilt-detection.md signs).
TOWARDS = {"right": (-1, 0), "left": (1, 0), "up": (0, -1), "down": (0, 1)}


def towards(direction, degrees):
    dx, dy = TOWARDS[direction]
    return (dx * degrees, dy * degrees)


class Motion:
    """A pose over time, built from segments: hold, eased move, or any function.

    Angles are (x, y) tilts in degrees; `ts.pose` turns them into a unit vector whose
    components are the tilts' sines, the same parametrisation as the Swift tests.
    """

    def __init__(self, start=(0.0, 0.0)):
        self.segments = []  # (start time, duration, function of local time -> angles)
        self.end = 0.0
        self.pose = start

    def add(self, duration, function):
        self.segments.append((self.end, duration, function))
        self.end += duration
        self.pose = function(duration)
        return self

    def copy(self):
        other = Motion(self.pose)
        other.segments, other.end = list(self.segments), self.end
        return other

    def hold(self, duration):
        here = self.pose
        return self.add(duration, lambda u: here)

    def move(self, target, duration):
        a = self.pose

        def along(u):
            f = ts.ease(u / duration)
            return (a[0] + (target[0] - a[0]) * f, a[1] + (target[1] - a[1]) * f)
        return self.add(duration, along)

    def tilt(self, target, ramp=0.3, hold=0.3, rest=0.4):
        """Out to `target`, held, back to where it started, rested: one physical tilt."""
        home = self.pose
        return self.move(target, ramp).hold(hold).move(home, ramp).hold(rest)

    def angles(self, t):
        for start, duration, function in self.segments:
            if t < start + duration:
                return function(max(0.0, t - start))
        return self.pose


def times(end):
    return [k / RATE for k in range(int(round(end * RATE)) + 1)]


def case_noise(name):
    """A noise generator seeded from the case name, so cases don't share noise."""
    return ts.Noise(zlib.crc32(name.encode()))


def render_samples(name, motion, sigma, frame=lambda v: v, extra=lambda t: (0.0, 0.0, 0.0)):
    """Samples of `motion` at 100 Hz: the reading mapped by `frame` (to the sensor frame),
    scaled to 1 g, plus `extra` acceleration (knocks, shakes), plus sensor noise."""
    noise = case_noise(name)
    samples = []
    for t in times(motion.end):
        v = ts.scale(frame(ts.pose(*motion.angles(t))), G)
        v = ts.add(v, extra(t))
        samples.append((t, tuple(c + noise.gauss(sigma) for c in v)))
    return samples


class Case:
    def __init__(self, name, description, expected, samples, config=(), checks=()):
        self.name, self.description, self.expected = name, description, list(expected)
        self.samples, self.config, self.checks = samples, list(config), list(checks)

    def files(self):
        comments = ["case: %s: %s" % (self.name, self.description)]
        comments += ["config: %s %s" % kv for kv in self.config]
        csv = ts.format_trace(comments, self.samples)
        expected = "".join(d + "\n" for d in self.expected)
        return csv, expected


# --- The cases -------------------------------------------------------------------

def clean(direction):
    motion = Motion().hold(0.5).tilt(towards(direction, 30), ramp=0.3, hold=0.3, rest=0.5)
    return Case("clean-" + direction,
                "flat, one smooth 30 deg tilt %s, back to flat" % direction,
                [direction], render_samples("clean-" + direction, motion, 0.04))


def sequence():
    steps = [("right", 31), ("down", 29), ("right", 33), ("down", 30), ("left", 28), ("up", 32)]
    motion = Motion().hold(0.5)
    for direction, degrees in steps:
        motion.tilt(towards(direction, degrees), ramp=0.25, hold=0.2, rest=0.3)
    motion.hold(0.2)
    return Case("sequence", "six tilts of 28-33 deg in a row: right down right down left up",
                [d for d, _ in steps], render_samples("sequence", motion, 0.04))


FLICK = (28.0, -31.0)  # left 28, up 31: the larger, y, must win
FLICK_RAMP = 0.08


def flick_lead(motion_before):
    """The lead time before the flick so both axes cross the trigger between the same
    two samples. A smooth ramp always passes the trigger on its larger axis first, so
    only such a crossing tells "larger tilt wins" from "first axis to cross wins".
    A degree either side of 20 is four noise sigmas."""
    for ms in range(300, 400):
        lead = ms / 1000
        m = motion_before.copy().hold(lead).move(FLICK, FLICK_RAMP)
        previous = None
        for t in times(m.end):
            if t < motion_before.end:
                continue
            x, y = (abs(a) for a in m.angles(t))
            if max(x, y) >= 20:
                if min(x, y) >= 21 and previous is not None and max(previous) <= 19:
                    return lead
                break
            previous = (x, y)
    raise RuntimeError("no lead time gives a clean double crossing")


def diagonal():
    motion = Motion().hold(0.5)
    motion.tilt((-32, -24), ramp=0.3, hold=0.3, rest=0.4)   # right 32, up 24: right
    motion.tilt((22, 34), ramp=0.3, hold=0.3, rest=0.2)      # left 22, down 34: down
    motion.hold(flick_lead(motion)).move(FLICK, FLICK_RAMP)   # a brisk flick: up
    motion.hold(0.3).move((0, 0), 0.3).hold(0.5)
    samples = render_samples("diagonal", motion, 0.04)

    def both_axes_past_trigger_when_the_flick_fires():
        t, direction = ts.replay(samples)[2]
        reading = dict(samples)[t]
        x, y = (abs(a) for a in ts.tilt_angles(reading))
        if direction == "up" and min(x, y) > 20.5:
            return True
        return "flick fired %s at %.1f, %.1f deg" % (direction, x, y)

    return Case("diagonal",
                "diagonal tilts, the larger axis wins: right 32 + up 24 deg, left 22 + down 34 deg, "
                "then a quick flick left 28 + up 31 deg that passes 20 deg on both axes in the same sample",
                ["right", "down", "up"], samples, checks=[both_axes_past_trigger_when_the_flick_fires])


def hover():
    # Sines at multiples of 0.5 Hz are all zero at both ends of the 2 s hover, so the
    # wobble starts and ends at 20 deg; their sum stays within +-4.3 deg, so the tilt
    # hovers between about 15.7 and 24.3 deg, crossing the trigger again and again.
    def wobble(u):
        x = 2.5 * math.sin(2 * math.pi * 1.5 * u) + 1.5 * math.sin(2 * math.pi * 3.0 * u) \
            + 0.8 * math.sin(2 * math.pi * 5.0 * u)
        y = 1.5 * math.sin(2 * math.pi * 0.5 * u)
        return (-(20 + x), y)

    motion = Motion().hold(0.5).move((-20, 0), 0.4).add(2.0, wobble).move((0, 0), 0.4).hold(0.5)
    samples = render_samples("hover-near-trigger", motion, 0.05)

    def crosses_the_trigger_repeatedly():
        crossings, above = 0, False
        for t in times(motion.end):
            now = abs(motion.angles(t)[0]) >= 20
            crossings += now and not above
            above = now
        return crossings >= 3 or "the hover crosses 20 deg only %d times" % crossings

    def fires_again_without_hysteresis():
        fired = replay_with(samples, release=19.5)
        return len(fired) > 1 or "a detector without hysteresis fires only %s" % fired

    return Case("hover-near-trigger",
                "tilt right to 20 deg, hover 15-25 deg for 2 s with noise, back to flat: one fire",
                ["right"], samples, checks=[crosses_the_trigger_repeatedly, fires_again_without_hysteresis])


# A knock on the case: a 30 ms pulse (three samples) whose direction jumps about,
# then the case ringing at 28 Hz, dying away in a few tenths of a second.
KNOCK_AT = 0.8
KNOCK = [(7.5, -4.0, 4.5), (-8.5, 6.0, -2.5), (4.5, -5.5, 3.5)]


def knock_acceleration(t):
    k = int(round((t - KNOCK_AT) * RATE))  # by sample index: no float edge at the seams
    if k < 0:
        return (0.0, 0.0, 0.0)
    if k < len(KNOCK):
        return KNOCK[k]
    u = (k - len(KNOCK)) / RATE
    decay = math.exp(-u / 0.05)
    w = 2 * math.pi * 28
    return (2.2 * decay * math.sin(w * u + 0.4), 1.4 * decay * math.sin(w * u + 1.3),
            1.0 * decay * math.sin(w * u + 2.2))


def knock():
    motion = Motion().hold(1.8)
    samples = render_samples("knock-at-rest", motion, 0.04, extra=knock_acceleration)

    def pulse_is_mostly_over_1_3_g():
        spikes = [ts.length(v) / G for t, v in samples if 0 <= round((t - KNOCK_AT) * RATE) < len(KNOCK)]
        return sum(m > 1.3 for m in spikes) * 2 > len(spikes) or "pulse magnitudes %s g" % spikes

    return Case("knock-at-rest",
                "flat, a 30 ms knock of 5-9 m/s^2 sideways (|a| up to 1.7 g, direction jumping), "
                "ringing that dies away, flat again: no fire",
                [], samples, checks=[pulse_is_mostly_over_1_3_g, bites_without_bump_rejection(samples)])


def shake():
    start, cycles, hz = 0.6, 3, 6.0
    along = math.radians(25)  # shaken along a line 25 deg off the x axis

    def shaking(t):
        u = t - start
        if not 0 <= u <= cycles / hz:
            return (0.0, 0.0, 0.0)
        a = G * math.sin(2 * math.pi * hz * u)
        return (a * math.cos(along), a * math.sin(along), 0.0)

    motion = Motion((2.0, 5.0)).hold(start + cycles / hz + 0.7)
    samples = render_samples("shake", motion, 0.04, extra=shaking)
    return Case("shake",
                "held near flat, shaken side to side at 6 Hz with +-1 g for 0.5 s, held still: no fire",
                [], samples, checks=[bites_without_bump_rejection(samples)])


def slow_drift():
    def drift(u):
        f = math.sin(math.pi * u / 10) ** 2
        return (17 * f, -5 * f)

    motion = Motion().hold(0.5).add(10.0, drift).hold(0.5)
    return Case("slow-drift", "a slow drift to 17 deg left (5 deg up) and back over 10 s: no fire",
                [], render_samples("slow-drift", motion, 0.03))


# device = M . sensor: device x is sensor y, device y is minus sensor x.
MOUNT = (0, 1, 0, -1, 0, 0, 0, 0, 1)


def mount_matrix():
    steps = ["right", "up", "left", "down"]
    motion = Motion().hold(0.5)
    for direction in steps:
        motion.tilt(towards(direction, 30), ramp=0.3, hold=0.25, rest=0.35)
    # The sensor reads the device-frame vector through the inverse (the transpose).
    to_sensor = lambda v: ts.mat_vec(ts.transpose(MOUNT), v)  # noqa: E731
    samples = render_samples("mount-matrix", motion, 0.04, frame=to_sensor)
    config = [("mount-matrix", ",".join(str(v) for v in MOUNT))]
    return Case("mount-matrix",
                "sensor mounted turned: device = M . sensor; device-frame tilts right up left down",
                steps, samples, config=config, checks=[bites_without_config(samples, steps)])


def screen_rotation():
    steps = ["up", "right", "down", "left"]  # as the player sees them
    motion = Motion().hold(0.5)
    for direction in steps:
        motion.tilt(towards(direction, 30), ramp=0.3, hold=0.25, rest=0.35)
    # The motion is in the screen frame; screen = (-y, x, z) of device, so device = (y, -x, z).
    to_device = lambda v: (v[1], -v[0], v[2])  # noqa: E731
    samples = render_samples("screen-rotation-90", motion, 0.04, frame=to_device)
    return Case("screen-rotation-90",
                "picture turned a quarter counter-clockwise; "
                "tilts up right down left as the player sees them",
                steps, samples, config=[("rotation", "90")], checks=[bites_without_config(samples, steps)])


CALIBRATE_AT = 1.0


def calibrated():
    held = ts.pose(0, 30)  # top edge raised 30 deg: y = sin 30, z = cos 30
    from_neutral = ts.rotation_between((0.0, 0.0, 1.0), held)
    steps = ["up", "right", "down", "left"]
    motion = Motion().hold(CALIBRATE_AT + 0.3)
    for direction in steps:
        motion.tilt(towards(direction, 25), ramp=0.3, hold=0.25, rest=0.35)
    motion.hold(0.2)
    # Angles are relative to the held pose; turn them into the device frame.
    samples = render_samples("calibrated-30", motion, 0.04, frame=lambda v: ts.mat_vec(from_neutral, v))

    def fires_otherwise_without_calibrating():
        fired = [d for _, d in ts.replay(samples, {"auto-neutral": False})]
        return fired != steps or "fires the expected directions without calibrating"

    def nothing_fires_before_calibration():
        early = [d for t, d in ts.replay(samples, {"calibrate-at": CALIBRATE_AT}) if t <= CALIBRATE_AT]
        return not early or "fired %s before calibrating" % early

    return Case("calibrated-30",
                "held 30 deg top edge raised from the start, calibrated at t=1.0, "
                "then 25 deg tilts from that pose: up right down left",
                steps, samples, config=[("calibrate-at", "%.1f" % CALIBRATE_AT), ("auto-neutral", "off")],
                checks=[nothing_fires_before_calibration, fires_otherwise_without_calibrating])


# Auto-neutral (docs/tilt-detection.md): a still starting pose becomes neutral.
HELD = 35  # degrees, top edge raised: how people hold a tablet


def from_pose(angles):
    """The frame map for a motion measured from the pose `angles` rather than flat."""
    rotation = ts.rotation_between((0.0, 0.0, 1.0), ts.pose(*angles))
    return lambda v: ts.mat_vec(rotation, v)


def auto_calibrations(samples, **settings):
    detector = ts.Detector(**settings)
    for t, v in samples:
        detector.process(t, v)
    return detector.auto_calibrations


def auto_neutral_35():
    steps = ["up", "right", "down", "left"]
    motion = Motion().hold(1.5)
    for direction in steps:
        motion.tilt(towards(direction, 25), ramp=0.3, hold=0.25, rest=0.35)
    motion.hold(0.2)
    samples = render_samples("auto-neutral-35", motion, 0.04, frame=from_pose((0, HELD)))

    def calibrates_once_after_a_second():
        times = auto_calibrations(samples)
        return (len(times) == 1 and 1.0 <= times[0] <= 1.05) or "auto-neutral at %s" % times

    def fires_otherwise_without_auto_neutral():
        fired = replay_with(samples, auto_neutral=False)
        return fired != steps or "fires %s even without auto-neutral" % fired

    return Case("auto-neutral-35",
                "held still 35 deg top edge raised from the start (never near flat): after 1 s that pose "
                "is neutral; then 25 deg tilts from it: up right down left",
                steps, samples, checks=[calibrates_once_after_a_second, fires_otherwise_without_auto_neutral])


def auto_neutral_settling():
    # The hand settles from 42 deg (and 5 deg sideways) to 35 deg over 1.2 s, a few
    # degrees a second, then holds with a 4 Hz tremor of 0.8 deg and a noisy sensor.
    def tremor(u):
        return (0.8 * math.sin(2 * math.pi * 4 * u), HELD + 0.5 * math.sin(2 * math.pi * 4 * u + 1))

    steps = ["right", "down"]
    motion = Motion((-5, 42)).move((0, HELD), 1.2).add(1.6, tremor)
    for direction in steps:
        dx, dy = towards(direction, 25)
        motion.tilt((dx, HELD + dy), ramp=0.3, hold=0.25, rest=0.35)
    motion.hold(0.2)
    samples = render_samples("auto-neutral-settling", motion, 0.06)
    settled = 1.2

    def calibrates_once_near_the_held_pose():
        detector = ts.Detector()
        for t, v in samples:
            detector.process(t, v)
            if detector.auto_calibrations:
                break
        times = detector.auto_calibrations
        x, y = ts.tilt_angles(detector.neutral)
        near = abs(x) < 2 and abs(y - HELD) < 2
        return (len(times) == 1 and times[0] > settled and near) or \
            "auto-neutral at %s, pose %.1f, %.1f deg" % (times, x, y)

    return Case("auto-neutral-settling",
                "starts at 42 deg and settles to 35 deg over 1.2 s, then held with tremor and noise: "
                "neutral is taken only once still; then tilts right, down from it",
                steps, samples, checks=[calibrates_once_near_the_held_pose])


def auto_neutral_drift():
    # A steady drift from 35 to 50 deg at 6 deg/s is not a still hold (5 deg in 0.83 s).
    steps = ["left", "up"]
    motion = Motion((0, HELD)).add(2.5, lambda u: (0, HELD + 6 * u)).hold(1.5)
    for direction in steps:
        dx, dy = towards(direction, 25)
        motion.tilt((dx, 50 + dy), ramp=0.3, hold=0.25, rest=0.35)
    motion.hold(0.2)
    samples = render_samples("auto-neutral-drift", motion, 0.04)

    def calibrates_after_the_drift():
        times = auto_calibrations(samples)
        return (len(times) == 1 and times[0] >= 2.5 + 0.9) or "auto-neutral at %s" % times

    return Case("auto-neutral-drift",
                "starts at 35 deg and drifts to 50 deg at 6 deg/s, then held: neutral is taken at 50 deg "
                "once still, not during the drift; then tilts left, up from it",
                steps, samples, checks=[calibrates_after_the_drift])


def hold_after_move():
    motion = Motion().hold(0.5).move(towards("right", 30), 0.3).hold(5.0).move((0, 0), 0.3).hold(0.6)
    samples = render_samples("hold-after-move", motion, 0.04)

    def a_held_tilt_would_become_neutral_otherwise():
        fired = replay_with(samples, auto_forever=True)
        return fired == ["right", "left"] or "a detector that never stops auto-neutral fires %s" % fired

    def never_auto_calibrates():
        times = auto_calibrations(samples)
        return not times or "auto-neutral at %s" % times

    return Case("hold-after-move",
                "flat, tilt right 30 deg and hold it still for 5 s, back to flat: one move, "
                "the held tilt never becomes neutral",
                ["right"], samples, checks=[a_held_tilt_would_become_neutral_otherwise, never_auto_calibrates])


# --- Checks that a fixture tests what it claims ----------------------------------

def replay_with(samples, **settings):
    detector = ts.Detector(**settings)
    return [d for d in (detector.process(t, v) for t, v in samples) if d]


def bites_without_bump_rejection(samples):
    def check():
        fired = replay_with(samples, tolerance=0.99, max_rate=1e9, settle=0)
        return bool(fired) or "fires nothing even without bump rejection"
    check.__name__ = "bites_without_bump_rejection"
    return check


def bites_without_config(samples, expected):
    def check():
        fired = [d for _, d in ts.replay(samples)]
        return fired != expected or "fires the expected directions even without its config"
    check.__name__ = "bites_without_config"
    return check


def all_cases():
    return ([clean(d) for d in ("right", "left", "up", "down")]
            + [sequence(), diagonal(), hover(), knock(), shake(), slow_drift(),
               mount_matrix(), screen_rotation(), calibrated(),
               auto_neutral_35(), auto_neutral_settling(), auto_neutral_drift(), hold_after_move()])


def verify(case):
    """Problems with a case, replaying the text that will be written (4 decimals)."""
    csv, _ = case.files()
    comments, samples = ts.parse_trace(csv)
    fired = [d for _, d in ts.replay(samples, ts.parse_config(comments))]
    problems = []
    if fired != case.expected:
        problems.append("fires [%s], expected [%s]" % (" ".join(fired), " ".join(case.expected)))
    for check in case.checks:
        result = check()
        if result is not True:
            problems.append("%s: %s" % (check.__name__, result))
    return problems


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if the written files differ")
    args = parser.parse_args()

    cases = all_cases()
    failures = []
    for case in cases:
        failures += ["%s: %s" % (case.name, p) for p in verify(case)]
    if failures:
        sys.exit("fixtures rejected:\n  " + "\n  ".join(failures))

    outputs = [(os.path.join(OUT_DIR, case.name + suffix), text)
               for case in cases for suffix, text in zip((".csv", ".expected"), case.files())]
    stale = ts.write_or_check(outputs, args.check, ROOT)
    if not args.check:
        for case in cases:
            print("%-20s %s" % (case.name, " ".join(case.expected) or "(none)"))
    if stale:
        sys.exit("out of date (run Tests/Oracle/make-detector-fixtures.py): " + ", ".join(stale))


if __name__ == "__main__":
    main()
