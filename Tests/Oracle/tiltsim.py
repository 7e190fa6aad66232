# SPDX-License-Identifier: GPL-3.0-or-later
"""An independent model of TiltCore for the trace and fixture generators (Python 3,
stdlib only; Tests/Oracle/README.md says why it exists).

A model of the pieces of TiltCore the generated files depend on:

- SplitMix64 and the seeded shuffle (SeededRandom.swift, Shuffler.swift), so a
  seed gives the same board here as `Puzzle.newGame(side:seed:)`;
- the tilt detector (TiltDetector.swift, docs/tilt-detection.md), so every generated trace
  is checked against the detector's semantics before it is written;
- trace reading and writing (docs/traces.md).

A change to the Swift sources that this file does not follow fails OracleTests, which
asks this file (`python3 tiltsim.py random|shuffle|replay ...`) and TiltCore the same
questions on random seeds, and the golden tests, which replay the generated files.

    python3 tiltsim.py random SEED COUNT   # SplitMix64's first COUNT numbers
    python3 tiltsim.py shuffle SIDE SEED   # the board Puzzle.newGame(side:seed:) deals
    python3 tiltsim.py replay TRACE        # the directions the detector fires, one a line
"""

import math
import os
import sys

MASK64 = (1 << 64) - 1
STANDARD_GRAVITY = 9.80665
DIRECTIONS = ("up", "down", "left", "right")  # Direction.allCases order
OPPOSITE = {"up": "down", "down": "up", "left": "right", "right": "left"}
TRACE_MAGIC = "# tiltpuzzle trace v1"
TRACE_HEADER = "t,x,y,z"


# --- Seeded random numbers -------------------------------------------------------

class SplitMix64:
    """SeededRandom.swift, bit for bit (wrapping 64-bit arithmetic)."""

    def __init__(self, seed):
        self.state = seed & MASK64

    def next(self):
        self.state = (self.state + 0x9E3779B97F4A7C15) & MASK64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        return z ^ (z >> 31)

    def below(self, bound):
        """A uniform integer in 0..<bound, rejecting the biased low values as Swift does."""
        assert bound > 0
        threshold = ((0 - bound) & MASK64) % bound
        while True:
            value = self.next()
            if value >= threshold:
                return value % bound

    def uniform(self):
        """A float in [0, 1) from the top 53 bits."""
        return (self.next() >> 11) * (1.0 / (1 << 53))


class Noise:
    """Gaussian sensor noise from SplitMix64 (Box-Muller).

    Python's `random.gauss` is not promised to give the same numbers in every Python
    version; this is, so `--check` works wherever the scripts run.
    """

    def __init__(self, seed):
        self.random = SplitMix64(seed)
        self.spare = None

    def gauss(self, sigma):
        if self.spare is not None:
            value, self.spare = self.spare, None
            return value * sigma
        u1 = 1.0 - self.random.uniform()  # (0, 1]: log is finite
        u2 = self.random.uniform()
        radius = math.sqrt(-2.0 * math.log(u1))
        self.spare = radius * math.sin(2 * math.pi * u2)
        return radius * math.cos(2 * math.pi * u2) * sigma

    def uniform(self, low, high):
        return low + (high - low) * self.random.uniform()


# --- The puzzle ------------------------------------------------------------------

def tile_index(cells, side, direction):
    """Board.tileIndex(tilting:): the tile that slides into the empty cell, or None."""
    count = side * side
    e = cells.index(count - 1)
    if direction == "up":
        return e + side if e + side < count else None
    if direction == "down":
        return e - side if e - side >= 0 else None
    if direction == "left":
        return e + 1 if (e + 1) % side != 0 else None
    if direction == "right":
        return e - 1 if e % side != 0 else None
    raise ValueError(direction)


def tilt(cells, side, direction):
    """A new board after the tilt, or None if the tilt is illegal."""
    source = tile_index(cells, side, direction)
    if source is None:
        return None
    target = cells.index(side * side - 1)
    board = list(cells)
    board[source], board[target] = board[target], board[source]
    return tuple(board)


def solved(side):
    return tuple(range(side * side))


def solves(board, side, solution):
    """Whether the tilts, all legal, take the board to solved."""
    for d in solution:
        board = tilt(board, side, d)
        if board is None:
            return False
    return board == solved(side)


def shuffled(side, seed):
    """Shuffler.shuffled(Board(side:), seed:): a seeded walk of legal moves, no backtracking."""
    board = solved(side)
    random = SplitMix64(seed)
    previous = None
    count = side * side
    steps = 50 * count + random.below(2 * count)
    while steps > 0 or board == solved(side):
        choices = [d for d in DIRECTIONS
                   if (previous is None or d != OPPOSITE[previous])
                   and tile_index(board, side, d) is not None]
        direction = choices[random.below(len(choices))]
        board = tilt(board, side, direction)
        previous = direction
        steps -= 1
    return board


# --- Vectors and rotations -------------------------------------------------------

def length(v):
    return math.sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2])


def scale(v, s):
    return (v[0] * s, v[1] * s, v[2] * s)


def add(a, b):
    return (a[0] + b[0], a[1] + b[1], a[2] + b[2])


def sub(a, b):
    return (a[0] - b[0], a[1] - b[1], a[2] - b[2])


def dot(a, b):
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]


def cross(a, b):
    return (a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0])


def rows(m):
    """A matrix as three rows, from three rows or nine numbers row by row."""
    return tuple(m) if len(m) == 3 else (tuple(m[0:3]), tuple(m[3:6]), tuple(m[6:9]))


def mat_vec(m, v):
    return tuple(dot(row, v) for row in rows(m))


def mat_mul(a, b):
    columns = [(b[0][j], b[1][j], b[2][j]) for j in range(3)]
    return tuple(tuple(dot(row, c) for c in columns) for row in a)


def transpose(m):
    r = rows(m)
    return tuple(tuple(r[i][j] for i in range(3)) for j in range(3))


def rotate(v, axis, degrees):
    """Rodrigues: v turned by `degrees` about the unit vector `axis` (right-handed)."""
    a = math.radians(degrees)
    c, s = math.cos(a), math.sin(a)
    k = axis
    kv = cross(k, v)
    kd = dot(k, v)
    return tuple(v[i] * c + kv[i] * s + k[i] * kd * (1 - c) for i in range(3))


def axis_towards(direction_xy):
    """The rotation axis that turns +z towards the unit xy-vector `direction_xy`."""
    wx, wy = direction_xy
    return (-wy, wx, 0.0)


# Where each direction lowers the reading (docs/tilt-detection.md): right edge lowered is x < 0,
# left x > 0, top edge lowered y < 0, bottom y > 0.
DIRECTION_XY = {"right": (-1.0, 0.0), "left": (1.0, 0.0), "up": (0.0, -1.0), "down": (0.0, 1.0)}


def pose(x_degrees=0.0, y_degrees=0.0):
    """A unit reading whose x and y components are the sines of the given tilts.

    The detector's axes: positive x is the left edge lowered, positive y the bottom
    edge lowered. Same parametrisation as `reading(x:y:)` in the Swift tests.
    """
    sx = math.sin(math.radians(x_degrees))
    sy = math.sin(math.radians(y_degrees))
    return (sx, sy, math.sqrt(max(0.0, 1 - sx * sx - sy * sy)))


def tilt_angles(v):
    """(x, y) tilt in degrees of a reading, as the detector sees it with a flat neutral."""
    n = length(v)
    return (math.degrees(math.asin(max(-1.0, min(1.0, v[0] / n)))),
            math.degrees(math.asin(max(-1.0, min(1.0, v[1] / n)))))


def ease(u):
    """Cosine ease in/out from 0 to 1: a hand starts and stops a tilt gently."""
    u = max(0.0, min(1.0, u))
    return 0.5 - 0.5 * math.cos(math.pi * u)


# --- The detector ----------------------------------------------------------------

SCREEN_ROTATIONS = {
    0: lambda v: v,
    90: lambda v: (-v[1], v[0], v[2]),
    180: lambda v: (-v[0], -v[1], v[2]),
    270: lambda v: (v[1], -v[0], v[2]),
}
IDENTITY = ((1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0))


def taylor_sine(degrees):
    """TiltDetector.sine(degrees:), term for term."""
    x = degrees * math.pi / 180
    term = x
    total = x
    for n in range(1, 13):
        term *= -x * x / float((2 * n) * (2 * n + 1))
        total += term
    return total


def rotation_between(a, b):
    """Matrix3.rotation(from:to:): the smallest rotation taking unit a to unit b."""
    v = cross(a, b)
    c = dot(a, b)
    if c < -1 + 1e-9:
        axis = (1.0, 0.0, 0.0) if abs(a[0]) < 0.9 else (0.0, 1.0, 0.0)
        u = scale(cross(a, axis), 1 / length(cross(a, axis)))
        return tuple(tuple(2 * u[i] * u[j] - (1 if i == j else 0) for j in range(3)) for i in range(3))
    k = 1 / (1 + c)
    return ((c + v[0] * v[0] * k, v[0] * v[1] * k - v[2], v[0] * v[2] * k + v[1]),
            (v[1] * v[0] * k + v[2], c + v[1] * v[1] * k, v[1] * v[2] * k - v[0]),
            (v[2] * v[0] * k - v[1], v[2] * v[1] * k + v[0], c + v[2] * v[2] * k))


class Detector:
    """TiltDetector.process(_:) with the default configuration unless told otherwise."""

    RATE_WINDOW = 0.02
    STILLNESS = 5.0  # degrees a still hold may wander (TiltDetector.stillness)

    def __init__(self, trigger=20.0, release=10.0, tolerance=0.25, max_rate=720.0, settle=0.1,
                 mount_matrix=IDENTITY, rotation=0, neutral=(0.0, 0.0, 1.0),
                 auto_neutral=True, hold=1.0, auto_forever=False):
        self.trigger, self.release, self.tolerance = trigger, release, tolerance
        self.max_rate, self.settle = max_rate, settle
        self.mount = rows(mount_matrix)
        self.rotation = rotation
        self.neutral = neutral
        self.armed = False  # starts waiting for neutral
        self.last_gravity = None
        self.previous = None
        self.settle_until = None
        # Auto-neutral: open until the stream first comes near neutral, fires or is
        # calibrated. `auto_forever` never closes it: a broken detector the fixtures'
        # checks use to show that the closing matters.
        self.auto_neutral, self.hold, self.auto_forever = auto_neutral, hold, auto_forever
        self.auto_open = True
        self.hold_start = None
        self.auto_calibrations = []
        self.derive()

    def derive(self):
        screen = SCREEN_ROTATIONS[self.rotation]
        columns = [screen(e) for e in IDENTITY]
        screen_matrix = tuple(tuple(columns[j][i] for j in range(3)) for i in range(3))
        self.to_neutral = mat_mul(rotation_between(screen(self.neutral), (0.0, 0.0, 1.0)), screen_matrix)
        self.sin_trigger = taylor_sine(self.trigger)
        self.sin_release = taylor_sine(self.release)
        self.low = (1 - self.tolerance) * STANDARD_GRAVITY
        self.high = (1 + self.tolerance) * STANDARD_GRAVITY
        self.max_chord_rate = self.max_rate * math.pi / 180
        self.hold_chord = 2 * taylor_sine(self.STILLNESS / 2)

    def calibrate(self):
        if self.last_gravity is None:
            return False
        n = length(self.last_gravity)
        self.neutral = scale(self.last_gravity, 1 / n)
        self.derive()
        self.close_auto()
        return True

    def close_auto(self):
        if not self.auto_forever:
            self.auto_open = False
        self.hold_start = None

    def process(self, t, reading):
        a = mat_vec(self.mount, reading)
        magnitude = length(a)
        if not (self.low <= magnitude <= self.high):
            self.bump(t)
            return None
        if self.settle_until is not None:
            if t < self.settle_until:
                return None
            self.settle_until = None
        direction = scale(a, 1 / magnitude)
        if self.previous is not None:
            interval = max(t - self.previous[0], self.RATE_WINDOW)
            if length(sub(direction, self.previous[1])) > self.max_chord_rate * interval:
                self.bump(t)
                return None
        self.previous = (t, direction)
        self.last_gravity = direction
        tilt = mat_vec(self.to_neutral, direction)
        fired = self.classify(tilt)
        if fired is not None or self.armed:
            self.close_auto()
            return fired
        if self.auto_open and self.auto_neutral:
            self.hold_still(t, direction, tilt)
        return None

    def hold_still(self, t, direction, tilt):
        if tilt[2] <= 0:
            self.hold_start = None
            return
        start = self.hold_start
        if start is None or length(sub(direction, start[1])) > self.hold_chord:
            self.hold_start = (t, direction)
            return
        if t - start[0] >= self.hold:
            self.neutral = direction
            self.derive()
            self.auto_calibrations.append(t)
            self.close_auto()

    def classify(self, v):
        if v[2] <= 0:
            return None
        sx, sy = abs(v[0]), abs(v[1])
        if self.armed:
            if max(sx, sy) < self.sin_trigger:
                return None
            self.armed = False
            if sx >= sy:
                return "right" if v[0] < 0 else "left"
            return "up" if v[1] < 0 else "down"
        if sx < self.sin_release and sy < self.sin_release:
            self.armed = True
        return None

    def bump(self, t):
        self.previous = None
        self.hold_start = None
        self.settle_until = t + self.settle


# --- Trace files -----------------------------------------------------------------

def number(value, places):
    """Fixed decimals, without the '-0.0000' that rounding a tiny negative gives."""
    text = "%.*f" % (places, value)
    if float(text) == 0:
        text = "%.*f" % (places, 0.0)
    return text


def format_trace(comments, samples):
    """docs/traces.md text: magic line, `# ` comments, header, `t,x,y,z` lines."""
    lines = [TRACE_MAGIC]
    lines += ["# " + c for c in comments]
    lines.append(TRACE_HEADER)
    for t, (x, y, z) in samples:
        lines.append(",".join([number(t, 2), number(x, 4), number(y, 4), number(z, 4)]))
    return "\n".join(lines) + "\n"


def parse_trace(text):
    """(comments without '# ', samples as (t, (x, y, z))) from trace text."""
    comments, samples, saw_header = [], [], False
    for raw in text.splitlines():
        line = raw.strip()
        if not line:
            continue
        if line.startswith("#"):
            comments.append(line[1:].strip())
            continue
        if not saw_header:
            if line.replace(" ", "") != TRACE_HEADER:
                raise ValueError("expected the header %r, found %r" % (TRACE_HEADER, line))
            saw_header = True
            continue
        t, x, y, z = (float(f) for f in line.split(","))
        samples.append((t, (x, y, z)))
    return comments, samples


def parse_config(comments):
    """The `config: KEY VALUE` comments of a fixture, as a dict (see the fixtures README)."""
    config = {}
    for comment in comments:
        if not comment.startswith("config:"):
            continue
        key, value = comment[len("config:"):].split(None, 1)
        value = value.strip()
        if key == "mount-matrix":
            config[key] = tuple(float(f) for f in value.split(","))
            assert len(config[key]) == 9
        elif key == "rotation":
            config[key] = int(value)
        elif key == "calibrate-at":
            config[key] = float(value)
        elif key == "auto-neutral":
            assert value in ("on", "off")
            config[key] = value == "on"
        else:
            raise ValueError("unknown config key " + key)
    return config


def replay(samples, config=None):
    """Feeds samples to a detector set up from `config`; returns [(time, direction)]."""
    config = config or {}
    detector = Detector(mount_matrix=config.get("mount-matrix", IDENTITY),
                        rotation=config.get("rotation", 0), auto_neutral=config.get("auto-neutral", True))
    calibrate_at = config.get("calibrate-at")
    fired = []
    for t, reading in samples:
        direction = detector.process(t, reading)
        if direction is not None:
            fired.append((t, direction))
        if calibrate_at is not None and t >= calibrate_at:
            if not detector.calibrate():
                raise ValueError("calibrate-at %s: no sample accepted yet" % calibrate_at)
            calibrate_at = None
    return fired


# ----------------------------------------------------------------------------
# Generated files

def write_or_check(outputs, check, root):
    """Writes (path, text) pairs, or with `check` returns the paths (relative to root)
    whose content differs from `text` (missing files included), writing nothing."""
    stale = []
    for path, text in outputs:
        if check:
            try:
                with open(path, encoding="utf-8") as f:
                    if f.read() == text:
                        continue
            except FileNotFoundError:
                pass
            stale.append(os.path.relpath(path, root))
        else:
            with open(path, "w", encoding="utf-8", newline="\n") as f:
                f.write(text)
    return stale


# ----------------------------------------------------------------------------
# Questions OracleTests asks, answered on standard output

def main(arguments):
    command = arguments[0] if arguments else None
    if command == "random" and len(arguments) == 3:
        random = SplitMix64(int(arguments[1]))
        for _ in range(int(arguments[2])):
            print(random.next())
    elif command == "shuffle" and len(arguments) == 3:
        print(",".join(str(v) for v in shuffled(int(arguments[1]), int(arguments[2]))))
    elif command == "replay" and len(arguments) == 2:
        with open(arguments[1], encoding="utf-8") as f:
            comments, samples = parse_trace(f.read())
        for _, direction in replay(samples, parse_config(comments)):
            print(direction)
    else:
        sys.exit(__doc__.strip())


if __name__ == "__main__":
    main(sys.argv[1:])
