#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Generates traces/demo.csv: a sample trace of a 3x3 game solved by tilting a
hand-held tablet, for `tiltpuzzled --source replay:traces/demo.csv` and the golden
tests. (`tiltpuzzle demo` makes its own trace for any game, in Swift.)

    python3 Tests/Oracle/make-demo-trace.py           # write traces/demo.csv
    python3 Tests/Oracle/make-demo-trace.py --check   # exit 1 if the written files are stale
    python3 Tests/Oracle/make-demo-trace.py --verify  # replay traces/demo.csv through the detector model

The board is the one `Puzzle.newGame(side: 3, seed:)` deals for the chosen seed (the
shuffle is modelled bit for bit in tiltsim.py); the seed is the first one from 1 up whose
optimal solution is 16 to 22 moves long, so the demo is long enough to watch and short
enough to replay in about 20 seconds. The trace is a tablet held a little off flat, each
solution move one smooth tilt out and back, with sensor noise. Everything is seeded, so
running this again gives the same bytes.
"""

import argparse
import os
import sys
from collections import deque

sys.dont_write_bytecode = True  # keep Tests/Oracle free of __pycache__
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import check_trace  # noqa: E402
import tiltsim as ts  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CSV_PATH = os.path.join(ROOT, "traces", "demo.csv")

SIDE = 3
SOLUTION_LENGTHS = range(16, 23)
RATE = 100  # Hz
NOISE_SIGMA = 0.04  # m/s^2 per axis, a typical tablet accelerometer at rest
NOISE_SEED = 20240601

# The hold pose: players hold a tablet with the top edge raised a little (y > 0) and
# rarely quite level side to side. The detector is not calibrated in the demo, so the
# hold must stay under the release angle (10 degrees) on both axes.
HOLD_TOP_RAISED = 8.0
HOLD_RIGHT_LOWERED = 2.5

# Each move: a tilt of TILT_ANGLE (+- jitter) from the hold pose, eased in and out.
TILT_ANGLE = (30.0, 35.0)
RAMP = (0.22, 0.28)
HOLD = (0.17, 0.23)
REST = (0.22, 0.30)
LEAD_IN = 0.5
LEAD_OUT = 0.5

# Safety margins checked on the noise-free motion (degrees, relative to flat).
TRIGGER_MARGIN = 2.0
RELEASE_MARGIN = 1.0


# --- Choosing the game -----------------------------------------------------------

def distances_from_solved(side):
    """Breadth-first search from the solved board over legal tilts.

    Every tilt is undone by the opposite tilt, so the distance to solved equals the
    distance from it; one search serves every seed. 3x3 has 181,440 boards.
    """
    start = ts.solved(side)
    distance = {start: 0}
    queue = deque([start])
    while queue:
        board = queue.popleft()
        for d in ts.DIRECTIONS:
            nxt = ts.tilt(board, side, d)
            if nxt is not None and nxt not in distance:
                distance[nxt] = distance[board] + 1
                queue.append(nxt)
    return distance


def optimal_solution(board, side, distance):
    """Shortest tilt sequence to solved; ties go to the first direction in up, down, left, right."""
    path = []
    while distance[board] > 0:
        for d in ts.DIRECTIONS:
            nxt = ts.tilt(board, side, d)
            if nxt is not None and distance[nxt] == distance[board] - 1:
                path.append(d)
                board = nxt
                break
    return path


def choose_game():
    distance = distances_from_solved(SIDE)
    seed = 1
    while True:
        board = ts.shuffled(SIDE, seed)
        if distance[board] in SOLUTION_LENGTHS:
            return seed, board, optimal_solution(board, SIDE, distance)
        seed += 1


# --- The motion ------------------------------------------------------------------

def hold_pose():
    """Flat turned top edge up (the reading's y > 0), then right edge a little down (x < 0)."""
    v = ts.rotate((0.0, 0.0, 1.0), ts.axis_towards(ts.DIRECTION_XY["down"]), HOLD_TOP_RAISED)
    return ts.rotate(v, ts.axis_towards(ts.DIRECTION_XY["right"]), HOLD_RIGHT_LOWERED)


def plan_moves(solution, jitter):
    """(direction, start, ramp, hold, angle) for each move, and the trace's end time.

    Durations and angles vary a little, as a hand's do.
    """
    moves = []
    t = LEAD_IN
    for d in solution:
        ramp = jitter.uniform(*RAMP)
        hold = jitter.uniform(*HOLD)
        angle = jitter.uniform(*TILT_ANGLE)
        moves.append((d, t, ramp, hold, angle))
        t += 2 * ramp + hold
        if len(moves) < len(solution):
            t += jitter.uniform(*REST)
    return moves, t + LEAD_OUT


def tilt_at(t, move):
    """How far (degrees) the move has turned the tablet from the hold pose at time t."""
    _, start, ramp, hold, angle = move
    u = t - start
    if u <= 0 or u >= 2 * ramp + hold:
        return 0.0
    if u < ramp:
        return angle * ts.ease(u / ramp)
    if u < ramp + hold:
        return angle
    return angle * (1 - ts.ease((u - ramp - hold) / ramp))


def unit_reading(t, moves, hold):
    """The noise-free reading direction at t: the hold pose, turned by the active move."""
    for move in moves:
        angle = tilt_at(t, move)
        if angle:
            return ts.rotate(hold, ts.axis_towards(ts.DIRECTION_XY[move[0]]), angle)
    return hold


def sample_times(end):
    return [k / RATE for k in range(int(round(end * RATE)) + 1)]


def synthesize(solution):
    jitter = ts.Noise(NOISE_SEED + 1)
    noise = ts.Noise(NOISE_SEED)
    moves, end = plan_moves(solution, jitter)
    hold = hold_pose()
    samples = []
    for t in sample_times(end):
        v = ts.scale(unit_reading(t, moves, hold), ts.STANDARD_GRAVITY)
        samples.append((t, tuple(c + noise.gauss(NOISE_SIGMA) for c in v)))
    return moves, end, samples


# --- Checks ----------------------------------------------------------------------

def check_margins(moves, end):
    """Without noise: each move passes the trigger on its own axis with room to spare,
    the other axis stays clearly smaller, and between moves both axes are well under the
    release angle. Returns a list of problems."""
    problems = []
    hold = hold_pose()
    axis = {"left": 0, "right": 0, "up": 1, "down": 1}
    for i, move in enumerate(moves):
        d, start, ramp, hold_time, _ = move
        x, y = ts.tilt_angles(unit_reading(start + ramp + hold_time / 2, moves, hold))
        main, other = (abs(x), abs(y)) if axis[d] == 0 else (abs(y), abs(x))
        if main < 20 + TRIGGER_MARGIN:
            problems.append("move %d (%s) peaks at %.1f degrees" % (i + 1, d, main))
        if other > main - 5:
            problems.append("move %d (%s) is too diagonal: %.1f vs %.1f" % (i + 1, d, main, other))
    for t in sample_times(end):
        if any(tilt_at(t, m) for m in moves):
            continue
        x, y = ts.tilt_angles(unit_reading(t, moves, hold))
        if max(abs(x), abs(y)) > 10 - RELEASE_MARGIN:
            problems.append("rest at t=%.2f is %.1f, %.1f degrees" % (t, x, y))
    return problems


def check_replay(samples, solution, moves=None):
    """The detector model fires exactly the solution, each inside its own move."""
    fired = ts.replay(samples)
    problems = []
    words = [d for _, d in fired]
    if words != list(solution):
        problems.append("detector fired %s, expected %s" % (" ".join(words), " ".join(solution)))
    elif moves is not None:
        for (t, d), (_, start, ramp, hold, _) in zip(fired, moves):
            if not start < t < start + ramp + hold:
                problems.append("%s fired at t=%.2f, outside its tilt" % (d, t))
    return problems


# --- Output ----------------------------------------------------------------------

def render(seed, board, solution, samples):
    comments = [
        "demo: size %d, seed %d, solution: %s" % (SIDE, seed, " ".join(solution)),
        "board: " + ",".join(str(v) for v in board),
        "a tablet held about %g deg top edge raised and %g deg right edge lowered, not calibrated;"
        % (HOLD_TOP_RAISED, HOLD_RIGHT_LOWERED),
        "each move is a tilt of %g-%g deg from that pose and back; %d Hz, noise sigma %g m/s^2"
        % (TILT_ANGLE[0], TILT_ANGLE[1], RATE, NOISE_SIGMA),
        "generated by Tests/Oracle/make-demo-trace.py; do not edit",
    ]
    return ts.format_trace(comments, samples)


def generate():
    seed, board, solution = choose_game()
    assert ts.solves(board, SIDE, solution)
    moves, end, samples = synthesize(solution)
    problems = check_margins(moves, end)
    # Replay what will be written (rounded to 4 decimals), not the exact floats.
    csv = render(seed, board, solution, samples)
    problems += check_replay(ts.parse_trace(csv)[1], solution, moves)
    if problems:
        sys.exit("demo trace rejected:\n  " + "\n  ".join(problems))
    return seed, board, solution, csv


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if the written files differ")
    parser.add_argument("--verify", action="store_true",
                        help="replay traces/demo.csv through the detector model")
    args = parser.parse_args()

    if args.verify:
        fired, problems = check_trace.check(CSV_PATH)
        if problems:
            sys.exit("traces/demo.csv: " + "; ".join(problems))
        print("traces/demo.csv: fires %d tilts that solve its board" % len(fired))
        return

    seed, board, solution, csv = generate()
    outputs = [(CSV_PATH, csv)]
    stale = ts.write_or_check(outputs, args.check, ROOT)
    if stale:
        sys.exit("out of date (run Tests/Oracle/make-demo-trace.py): " + ", ".join(stale))
    if args.check:
        return
    print("seed %d, %d moves: %s" % (seed, len(solution), " ".join(solution)))
    print("%s: %d bytes" % (os.path.relpath(CSV_PATH, ROOT), len(csv.encode())))


if __name__ == "__main__":
    main()
