"""Commit times with SQLite's checkpoint inside a commit against a checkpoint between commands.

    .venv/bin/python -m benchmarks.idle_checkpoint [COMMITS] [ROUNDS] [GAP_MS]

Each round appends ``COMMITS`` entries of a full-game command's size (with a game summary, as
``Session.handle`` does) into a new store, ``GAP_MS`` apart as presses come at a table, twice,
alternating: once as before (SQLite's automatic checkpoint at 1,000 WAL pages runs inside the
commit that fills the WAL) and once as the table service does now (``Store.checkpoint_wal`` in
the gap after a command whenever ``Store.wal_checkpoint_due``: ``TableService._while_idle``,
tested in ``tests/test_service.py``). Prints each mode's commit times (p50, p99, p99.9, max, how
many took over 10 ms) and the idle checkpoints' own times.
"""

from __future__ import annotations

import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

from companion.store import Store

ROOT = Path(__file__).resolve().parents[1]
# About a full-game command's entry (293 bytes; Valley Hoopers' median is 229), in no game's words.
ENTRY = {"kind": "command", "command": {"type": "roll", "value": 12, "die": "d20"},
         "events": [{"type": "roll", "text": "Player One rolls 12 against 55: scores 2 points"},
                    {"type": "energy", "player": "Player One", "value": -1},
                    {"type": "score", "side": 0, "points": 2, "text": "Lucy 12 - 10 Karl"}]}


def _percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def one_round(db: Path, commits: int, gap_s: float, idle: bool) -> tuple[list[float], list[float]]:
    """Commit times, and the idle checkpoints' times (seconds)."""
    store = Store.open(db)
    times: list[float] = []
    checkpoints: list[float] = []
    try:
        game_id = store.create_game("some-game", {"kind": "setup", "options": {}}, {"score": [0, 0]})
        for seq in range(1, commits + 1):
            summary = {"sides": ["Lucy", "Karl"], "score": [seq // 7, seq // 9], "clock": f"{seq % 8}/8"}
            started = time.perf_counter()
            store.append(game_id, seq, ENTRY, summary, "playing")
            times.append(time.perf_counter() - started)
            if idle and store.wal_checkpoint_due:
                started = time.perf_counter()
                store.checkpoint_wal()
                checkpoints.append(time.perf_counter() - started)
            time.sleep(gap_s)  # the next press comes later
    finally:
        store.close()
    return times, checkpoints


def _summary(seconds: list[float]) -> dict[str, float]:
    ms = [t * 1000 for t in seconds]
    return {"commits": len(ms), "p50_ms": round(statistics.median(ms), 3),
            "p99_ms": round(_percentile(ms, 0.99), 3), "p999_ms": round(_percentile(ms, 0.999), 3),
            "max_ms": round(max(ms), 3), "over_10_ms": sum(t > 10 for t in ms)}


def measure(commits: int, rounds: int, gap_s: float) -> dict[str, dict[str, float]]:
    inline: list[float] = []
    idle: list[float] = []
    checkpoints: list[float] = []
    with tempfile.TemporaryDirectory(dir=ROOT) as tmp:
        for n in range(rounds):
            inline += one_round(Path(tmp) / f"inline-{n}.db", commits, gap_s, idle=False)[0]
            times, took = one_round(Path(tmp) / f"idle-{n}.db", commits, gap_s, idle=True)
            idle += times
            checkpoints += took
    return {"checkpoint inside a commit": _summary(inline), "checkpoint between commands": _summary(idle),
            "the idle checkpoints": {"count": len(checkpoints),
                                     "p50_ms": round(statistics.median(checkpoints) * 1000, 3),
                                     "max_ms": round(max(checkpoints) * 1000, 3)}}


if __name__ == "__main__":
    print(json.dumps(measure(int(sys.argv[1]) if len(sys.argv) > 1 else 2000,
                             int(sys.argv[2]) if len(sys.argv) > 2 else 2,
                             float(sys.argv[3]) / 1000 if len(sys.argv) > 3 else 0.01), indent=2))
