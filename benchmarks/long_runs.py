"""The long versions of the tests: every kiosk size, and whole games by touch and on the encoder.

    .venv/bin/python -m benchmarks.long_runs [-k EXPRESSION] [pytest options...]

``make test`` runs a short version of each: every game's kiosk walk at one size (each size walked
by some game), every screen shot once with the sizes taken in turn, the made-up game at the smallest
and the portrait size, one short solo Crunch Time game to its end by touch (24 taps, every kind of
command), Crunch Time on the encoder at the first and last difficulty, NBA Showdown by touch past its
first quarter break, BasketBoss's first season by touch (its sealed bids included), every game's demo
from Home to its first score at 800x480 and 720x1280 with two of Valley Hoopers' tap paths at 800x480,
the Valley Hoopers series on the kiosk from game 4's reward phase, the last 100 commands of the whole
Valley Hoopers game on the encoder (each one before checked to be on the dial), and of two games the
command forms that between them have every kind of field. This runs the same tests with
``COURTSIDE_LONG_RUNS=1`` (``tests/long_runs.py``), which gives them their whole case lists: every game
and screen at all the kiosk sizes, Crunch Time's two-coach game and a solo game at every difficulty by
touch and on the encoder, NBA Showdown to the final buzzer, BasketBoss's six seasons by touch, every
game's walk to its first score and all three Valley Hoopers paths at all four sizes, the whole series
on the kiosk from its setup (game 1's plays by touch), all 388 Valley Hoopers commands on the encoder,
CONFIRM and tray, every command form of every game. Needs Xvfb, like the tests; 12.5 minutes (51 cases) on 2
cores shared with other work, before the walks to a first score (about 4 minutes more) and the whole
series (about 3) joined. Prints pytest's slowest cases; exits with its status.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from long_runs import LONG_RUNS_ENV  # noqa: E402

TESTS = ("tests/test_kiosk_conformance.py", "tests/test_kiosk.py", "tests/test_crunch_time_kiosk.py",
         "tests/test_crunch_time_e2e.py", "tests/test_nba_showdown_kiosk.py", "tests/test_kiosk_play.py",
         "tests/test_kiosk_taps.py", "tests/test_valley_hoopers_series_kiosk.py", "tests/test_table_e2e.py",
         "tests/test_basketboss_table.py")


def main(argv: list[str] | None = None) -> int:
    extra = sys.argv[1:] if argv is None else argv
    env = dict(os.environ, **{LONG_RUNS_ENV: "1"})
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    started = time.perf_counter()
    # A whole game by touch may take longer than make test's per-test limit.
    result = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                             "--timeout", "1800", "--durations", "15", *TESTS, *extra], cwd=ROOT, env=env)
    print(f"long runs: pytest exit {result.returncode}, {time.perf_counter() - started:.0f} s", flush=True)
    return result.returncode


if __name__ == "__main__":
    sys.exit(main())
