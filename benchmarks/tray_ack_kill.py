"""Long dice-tray crash run: SIGKILL the service the moment the tray receives $ACK (default 120 times).

    .venv/bin/python benchmarks/tray_ack_kill.py [--cycles 120] [--seed 1] [--max-acks 3] [--random-kill-ms N]

Each cycle starts the service (store, owner thread, controls, ``DiceTray`` on a real pty), plays
rolls from the tray's side and kills the service with SIGKILL as the n-th ``$ACK`` (n from 1 to
``--max-acks``) arrives. Prints cycles, acknowledged rolls, lost ones (the goal is 0), rolls
stored beyond the acknowledged ones, and the problems found. With ``--random-kill-ms N`` each kill
comes instead at a random moment up to N ms after the run's first ACK: that measures the other
window, a roll committed whose ACK had not left yet (resent after the restart, applied again).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from tray_kill_harness import run_tray_kill_cycles  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cycles", type=int, default=120)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--max-acks", type=int, default=3)
    parser.add_argument("--random-kill-ms", type=float, default=None)
    args = parser.parse_args()
    random_kill_s = None if args.random_kill_ms is None else args.random_kill_ms / 1000
    with tempfile.TemporaryDirectory() as tmp:
        started = time.perf_counter()
        report = run_tray_kill_cycles(Path(tmp), args.cycles, seed=args.seed, max_acks=args.max_acks,
                                      random_kill_s=random_kill_s)
        elapsed = time.perf_counter() - started
    print(f"cycles: {report.cycles}  acknowledged: {report.acknowledged}  lost: {report.lost}  "
          f"stored beyond the acknowledged: {report.extra}  refused: {report.refused}  "
          f"problems: {len(report.problems)}  time: {elapsed:.1f} s")
    for problem in report.problems[:20]:
        print("  ", problem)
    return 0 if report.lost == 0 and not report.problems else 1


if __name__ == "__main__":
    sys.exit(main())
