"""Long kiosk runs: every game at every kiosk size, and whole games by touch, on the real Kivy app.

    .venv/bin/python -m benchmarks.kiosk_walks [-k EXPRESSION] [pytest options...]

``make test`` runs the short version of each (every game at one size and every size with some game;
one solo Crunch Time game to its end; NBA Showdown's touch game to its first break). This runs the
same tests with ``COURTSIDE_LONG_RUNS=1``, which gives them their whole case lists: the conformance
walk of every game at all four sizes, both made-up-game sizes, Crunch Time's two-coach game and a solo
game at every difficulty, NBA Showdown to the final buzzer. It needs Xvfb, like the tests; about
fifteen minutes on 2 cores. Exits with pytest's status.
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

TESTS = ("tests/test_kiosk_conformance.py", "tests/test_crunch_time_kiosk.py",
         "tests/test_nba_showdown_kiosk.py", "tests/test_kiosk.py")


def main(argv: list[str] | None = None) -> int:
    extra = sys.argv[1:] if argv is None else argv
    env = dict(os.environ, **{LONG_RUNS_ENV: "1"})
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    started = time.perf_counter()
    # A long walk may take longer than make test's per-test limit.
    result = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                             "--timeout", "1800", "--durations", "15", *TESTS, *extra], cwd=ROOT, env=env)
    print(f"kiosk walks: pytest exit {result.returncode}, {time.perf_counter() - started:.0f} s", flush=True)
    return result.returncode


if __name__ == "__main__":
    sys.exit(main())
