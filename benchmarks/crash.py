"""Long crash run: SIGKILL the table service at random moments many times (default 1,000).

    .venv/bin/python benchmarks/crash.py [--cycles 1000] [--seed 1]

Prints cycles, acknowledged commands, lost commands (the goal is 0) and the problems found.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

import tally_game  # noqa: E402
from crash_harness import run_crash_cycles  # noqa: E402
from test_crash import tally_next  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cycles", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        started = time.perf_counter()
        report = run_crash_cycles(Path(tmp), args.cycles, tally_game.find, "tally", {}, tally_next,
                                  seed=args.seed)
        elapsed = time.perf_counter() - started
    print(f"cycles: {report.cycles}  acknowledged: {report.acknowledged}  lost: {report.lost}  "
          f"problems: {len(report.problems)}  time: {elapsed:.1f} s")
    for problem in report.problems[:20]:
        print("  ", problem)
    return 0 if report.lost == 0 and not report.problems else 1


if __name__ == "__main__":
    sys.exit(main())
