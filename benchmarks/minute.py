"""Issue 16's "playable in a minute", timed: ``make run`` to each game's first scored roll.

    python -m benchmarks.minute [--rounds 3] [--pace 2.0] [--games TITLE,...]

For every shipped game, a fresh ``companion run --sim`` (``benchmarks/minute_walk.py``: the launcher
itself, its own simulated service, the 800x480 window, a fresh table that opens on Home) under a
private Xvfb, timed from just before the process starts:

- window up: to the first frame showing the table (Home with its games);
- the taps: Home -> "New game: TITLE" -> "Quick start" -> what a player going for points taps, until
  the score changes (tests/test_kiosk_taps.py's walk), each tap made as soon as its button is on
  screen (the JSON line's ``tap_gaps_s``: each tap's wait for its screen).

The machine's time is measured (median of ``--rounds`` fresh starts); a person's is not: each tap is
counted at ``--pace`` seconds (default 2 s, an assumption: finding the button, reading the prompt and
the odds, tapping). The figure is "machine X s + N taps x 2 s = Y s". One unmeasured start comes
first, so the bytecode and font caches a first run writes are warm, as on every start after the
first; ``make run``'s first-time cost (creating .venv, pip) is apart and not timed here.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))  # the private display and the kiosk's environment

PACE_S = 2.0
# The Quick start walk's plans (tests/test_kiosk_taps.py's PLANS): BasketBoss bids $1, then passes.
PLANS = {"BasketBoss": [r"bids \$1$", r"passes$"]}


def one_start(title: str, display: str, work: Path) -> dict[str, Any]:
    """A fresh ``companion run --sim`` walked to ``title``'s first score: the times from the start."""
    from kiosk_support import kiosk_env

    if work.exists():
        shutil.rmtree(work)
    env = kiosk_env(work, display)
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # cached bytecode, as after a first `make run`
    argv = [sys.executable, "-m", "benchmarks.minute_walk", "--game", title, "--plans", json.dumps(PLANS)]
    started = time.time()
    result = subprocess.run(argv, env=env, cwd=ROOT, capture_output=True, text=True, timeout=300)
    lines = [line for line in result.stdout.splitlines() if line.startswith("{")]
    if not lines:
        raise RuntimeError(f"{title}: exited {result.returncode}: {result.stderr[-3000:]}")
    report = json.loads(lines[-1])
    if report["error"] or not report.get("scored"):
        raise RuntimeError(f"{title}: {report['error'] or 'no score'} {result.stderr[-2000:]}")
    return {"window_s": report["ready_wall"] - started,
            "quick_start_s": report["first_prompt_wall"] - report["ready_wall"],
            "play_s": report["first_score_wall"] - report["first_prompt_wall"],
            "taps": report["taps"], "quick_start_taps": report["to_first_prompt_taps"],
            "steps": report["steps"],
            # Each tap's wait for the screen it needs: from the window (or the tap before) to the tap.
            "tap_gaps_s": [b - a for a, b in zip([report["ready_wall"], *report["tap_walls"]],
                                                 report["tap_walls"], strict=False)]}


def measure(titles: list[str], rounds: int, display: str, work: Path) -> dict[str, dict[str, Any]]:
    one_start(titles[0], display, work / "warm-up")
    runs: dict[str, list[dict[str, Any]]] = {title: [] for title in titles}
    for n in range(rounds):  # interleaved: a slow moment of the machine spreads over every game
        for title in titles:
            runs[title].append(one_start(title, display, work / f"{n}"))
            print(f"  {title}: {runs[title][-1]['window_s'] + runs[title][-1]['quick_start_s']:.1f} s "
                  f"+ {runs[title][-1]['play_s']:.1f} s", file=sys.stderr, flush=True)
    figures = {}
    for title, done in runs.items():
        taps = {r["taps"] for r in done}
        assert len(taps) == 1, f"{title}: the walk took {taps} taps in different rounds"
        figures[title] = {key: statistics.median(r[key] for r in done)
                          for key in ("window_s", "quick_start_s", "play_s")}
        figures[title].update(taps=done[0]["taps"], quick_start_taps=done[0]["quick_start_taps"],
                              steps=done[0]["steps"],
                              tap_gaps_s=[round(statistics.median(gaps), 2)
                                          for gaps in zip(*(r["tap_gaps_s"] for r in done), strict=True)])
    return figures


def render(figures: dict[str, dict[str, Any]], pace: float) -> str:
    lines = [f"{'game':36} {'window':>7} {'to prompt':>9} {'to score':>8} {'machine':>8} {'taps':>4}  "
             f"total at {pace:g} s a tap"]
    for title, f in figures.items():
        machine = f["window_s"] + f["quick_start_s"] + f["play_s"]
        human = f["taps"] * pace
        lines.append(f"{title[:36]:36} {f['window_s']:6.1f}s {f['quick_start_s']:8.1f}s {f['play_s']:7.1f}s "
                     f"{machine:7.1f}s {f['taps']:>4}  machine {machine:.1f} s + {f['taps']} taps "
                     f"x {pace:g} s = {machine + human:.1f} s")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.minute", description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3, help="fresh starts per game (the median is shown)")
    parser.add_argument("--pace", type=float, default=PACE_S,
                        help="a person's seconds a tap, reading included")
    parser.add_argument("--games", default="", help="titles, comma-separated (default: every shipped game)")
    args = parser.parse_args(argv)
    from service_rig import private_display

    from companion.games import all_games

    titles = [t for t in args.games.split(",") if t] or [g.title for g in all_games()]
    load = " / ".join(f"{x:.1f}" for x in os.getloadavg())
    work = Path(tempfile.mkdtemp(prefix="minute-"))
    try:
        with private_display("1280x800x24") as display:
            figures = measure(titles, max(1, args.rounds), display, work)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print(f"make run -> first scored roll at 800x480, median of {max(1, args.rounds)} fresh starts "
          f"(load {load}, {len(os.sched_getaffinity(0))} CPUs)")
    print(render(figures, args.pace))
    print(json.dumps(figures))
    return 0


if __name__ == "__main__":
    sys.exit(main())
