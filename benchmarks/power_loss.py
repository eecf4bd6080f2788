"""Long power-loss run: rebuild the store at many random points of a write trace (default 1,500).

    .venv/bin/python benchmarks/power_loss.py [--cuts 1500] [--seed 1] [--dir PATH]

Full Valley Hoopers games run through the real Session and Store under the trace_io shim
(tests/powerloss/); the files are then rebuilt as a power cut leaves them at random points of the
trace (unsynced writes dropped, each file's last one torn at a sector; or a random subset kept, some
torn; half the tears leave a garbage sector; half the cuts keep only the folder entries the last
folder fsync saw) and each rebuilt store is opened and checked. Three workloads share the cuts:
SQLite's default checkpoints; restarts every 100 commands with a checkpoint every 100 pages (two
games); a checkpoint every 20 pages. A control run then makes each file's last fsync lie, to show
that the checker catches loss.

Prints, per workload and in total: cuts, torn writes, opened ok, integrity ok, acknowledged lost.
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from powerloss.harness import Cut, Summary, build_shim, choose_cuts, record, run_cuts  # noqa: E402
from powerloss.rebuild import Mode  # noqa: E402

WORKLOADS = {
    "default checkpoints, 1 game": {"games": 1, "restart_every": 0, "wal_autocheckpoint": 1000},
    "restart every 100, checkpoint every 100 pages, 2 games":
        {"games": 2, "restart_every": 100, "wal_autocheckpoint": 100},
    "checkpoint every 20 pages, 1 game": {"games": 1, "restart_every": 0, "wal_autocheckpoint": 20},
}
CONTROL_CUTS = 100


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cuts", type=int, default=1500, help="cut points in all (shared by the workloads)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--dir", default=None, help="folder for traces and rebuilt stores (default: /tmp)")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    total = Summary()
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
        work = Path(tmp)
        shim = build_shim(work / "shim")
        recordings = []
        for n, (name, settings) in enumerate(WORKLOADS.items()):
            recording = record(shim, work / f"trace{n}", **settings)
            recordings.append(recording)
            cuts = choose_cuts(recording.ops, args.cuts // len(WORKLOADS), rng)
            summary = run_cuts(recording, cuts, work / f"cuts{n}", rng)
            print(f"{name}: {len(recording.ops)} traced operations, "
                  f"{sum(len(log) for log in recording.final_logs.values())} entries")
            print(f"  {summary.line()}")
            for mode in (Mode.TORN, Mode.SUBSET):
                for strict in (False, True):
                    results = [r for r in summary.results
                               if r.cut.mode is mode and r.cut.strict_dirs is strict]
                    clean = sum(r.opened and r.integrity == "ok" and not r.problems for r in results)
                    print(f"    {mode.value}{', strict folder' if strict else ''}: {len(results)} cuts, "
                          f"{clean} clean")
            _add(total, summary)
        elapsed = time.perf_counter() - started
        print(f"total: {total.line()}  problems: {len(total.problems)}  time: {elapsed:.1f} s")
        for problem in total.problems[:20]:
            print("  ", problem)

        # Controls: the same checker must see loss where there is some.
        ops = recordings[0].ops
        first_ack = next(i for i, op in enumerate(ops) if op.name == "acks")
        lying = run_cuts(recordings[0], [Cut(rng.randint(first_ack + 1, len(ops)), Mode.LYING_SYNC)
                                         for _ in range(CONTROL_CUTS)], work / "lying", rng)
        careless_recording = record(shim, work / "normal", games=1, restart_every=100, wal_autocheckpoint=100,
                                    synchronous="NORMAL")
        careless = run_cuts(careless_recording, choose_cuts(careless_recording.ops, CONTROL_CUTS, rng),
                            work / "careless", rng)
    caught = {}
    for name, control in (("each file's last fsync lies", lying),
                          ("the store run with synchronous=NORMAL", careless)):
        caught[name] = sum(bool(r.problems) for r in control.results)
        print(f"control ({name}): {control.cuts} cuts, {caught[name]} caught, "
              f"{control.lost} acknowledged entries lost, integrity ok {control.integrity_ok}")
    return 0 if not total.problems and total.lost == 0 and all(caught.values()) else 1


def _add(total: Summary, summary: Summary) -> None:
    total.cuts += summary.cuts
    total.in_checkpoint += summary.in_checkpoint
    total.torn.torn += summary.torn.torn
    total.torn.noise += summary.torn.noise
    total.torn.whole += summary.torn.whole
    total.torn.dropped += summary.torn.dropped
    total.opened += summary.opened
    total.integrity_ok += summary.integrity_ok
    total.acknowledged += summary.acknowledged
    total.lost += summary.lost
    total.problems += summary.problems


if __name__ == "__main__":
    sys.exit(main())
