"""Run issue 15's measures and write docs/performance.md: ``python -m benchmarks`` (or ``make bench``).

    python -m benchmarks [--rounds 3] [--dir PATH] [--no-write] [--only latency,idle,kiosk]

Each figure is a ratio against a bare-library baseline timed in the same run, the median of
``--rounds`` interleaved rounds. Nothing here passes or fails: the figures go to the table.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import tempfile
from datetime import UTC, datetime
from pathlib import Path

from benchmarks import measures
from benchmarks.report import GROUPS, carried_rows, render_markdown, render_text

ROOT = Path(__file__).resolve().parents[1]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks", description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3, help="interleaved rounds per measure (>= 3)")
    parser.add_argument("--dir", default=None, help="folder for the temporary databases")
    parser.add_argument("--no-write", action="store_true", help="print only; leave docs/performance.md")
    parser.add_argument("--only", default=",".join(GROUPS),
                        help=f"measures to run, comma-separated ({','.join(GROUPS)}); the other rows of "
                             "docs/performance.md are kept from its previous run")
    args = parser.parse_args(argv)
    rounds = max(3, args.rounds)
    only = [name.strip() for name in args.only.split(",") if name.strip()]
    unknown = sorted(set(only) - set(GROUPS))
    if unknown:
        parser.error(f"unknown measure(s) {', '.join(unknown)}; known: {', '.join(GROUPS)}")
    load = " / ".join(f"{x:.1f}" for x in os.getloadavg())
    figures: list[measures.Figure] = []
    with tempfile.TemporaryDirectory(dir=args.dir or ROOT) as tmp:
        runs = {"restore": lambda: measures.restore(Path(tmp), rounds),
                "command": lambda: measures.command(Path(tmp), rounds),
                "oled": lambda: measures.oled(rounds),
                "startup": lambda: measures.startup(rounds),
                "latency": lambda: measures.latency(rounds),
                "idle": lambda: measures.idle(rounds),
                "kiosk": lambda: measures.kiosk(rounds)}
        for name in GROUPS:
            if name in only:
                print(f"measuring {name}...", file=sys.stderr, flush=True)
                figures.extend(runs[name]())
    machine = f"{platform.machine()}, {_cpus()} CPUs, Python {platform.python_version()}"
    print(render_text(figures))
    if not args.no_write:
        stamp = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
        doc = ROOT / "docs" / "performance.md"
        previous = doc.read_text() if doc.exists() else ""  # its hand-written part is kept
        carried = carried_rows(previous, only) if previous and set(only) != set(GROUPS) else []
        doc.write_text(render_markdown(figures, machine, stamp, rounds, load, carried, previous, only))
        print("wrote docs/performance.md", file=sys.stderr)
    return 0


def _cpus() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


if __name__ == "__main__":
    sys.exit(main())
