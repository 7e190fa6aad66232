#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Replays trace files through the detector model and prints what fires.

    python3 Tests/Oracle/check_trace.py traces/demo.csv Tests/Fixtures/detector/*.csv

Honours the `# config:` lines of detector fixtures (see Tests/Fixtures/detector/README.md).
Exits 1 if a trace disagrees with what it claims:
- a fixture NAME.csv must fire exactly the directions in NAME.expected next to it;
- a demo trace (a `# demo: ... solution: ...` line) must fire its solution, and the
  solution must solve its `# board:` line.

The model (tiltsim.py) follows TiltDetector.swift; it is a check on the generated
files, not a substitute for the Swift tests that replay them.
"""

import os
import sys

sys.dont_write_bytecode = True  # keep Tests/Oracle free of __pycache__
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tiltsim as ts  # noqa: E402


def check(path):
    """(fired directions, list of problems) for one trace file."""
    with open(path, encoding="utf-8") as f:
        comments, samples = ts.parse_trace(f.read())
    fired = [d for _, d in ts.replay(samples, ts.parse_config(comments))]
    problems = []

    expected_path = os.path.splitext(path)[0] + ".expected"
    if os.path.exists(expected_path):
        with open(expected_path, encoding="utf-8") as f:
            expected = f.read().split()
        if fired != expected:
            problems.append("expected %s" % (" ".join(expected) or "nothing"))

    demo = [c for c in comments if c.startswith("demo:")]
    if demo:
        side = int(demo[0].split("size")[1].split(",")[0])
        solution = demo[0].split("solution:")[1].split()
        board_line = [c for c in comments if c.startswith("board:")][0]
        board = tuple(int(v) for v in board_line[len("board:"):].split(","))
        if fired != solution:
            problems.append("expected the solution %s" % " ".join(solution))
        if not ts.solves(board, side, solution):
            problems.append("the solution does not solve the board")
    return fired, problems


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__.strip())
    failed = False
    for path in sys.argv[1:]:
        fired, problems = check(path)
        status = "FAIL (%s)" % "; ".join(problems) if problems else "ok"
        print("%s: %s  %s" % (path, " ".join(fired) or "(nothing)", status))
        failed = failed or bool(problems)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
