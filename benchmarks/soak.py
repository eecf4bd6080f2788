"""Soak: 100,000 presses, detents and rolls through the real adapters; RSS, fds and threads before/after.

    .venv/bin/python benchmarks/soak.py [--inputs 100000]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from soak_rig import soak  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--inputs", type=int, default=100_000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        started = time.perf_counter()
        report = soak(Path(tmp) / "soak.db", args.inputs)
        elapsed = time.perf_counter() - started
    print(f"inputs: {report.inputs}  commands: {report.commands}  games: {report.games}  "
          f"time: {elapsed:.1f} s")
    for key in ("rss_kib", "fds", "threads"):
        print(f"{key:8s} before {report.before[key]:8d}  after {report.after[key]:8d}  "
              f"growth {report.after[key] - report.before[key]:+d}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
