"""Crash: kill -9 the table service at random points, 200 times; nothing acknowledged is lost."""

from __future__ import annotations

from pathlib import Path

import tally_game
from crash_harness import run_crash_cycles


def tally_next(snapshot: dict) -> dict:
    # score / undo keeps the game going forever while the log grows
    score = snapshot["view"]["score"]
    if sum(score) >= 15:
        return {"type": "undo"}
    return {"type": "score", "side": snapshot["seq"] % 2, "points": 1 + snapshot["seq"] % 3}


def test_two_hundred_kill_9s_lose_no_acknowledged_command(tmp_path: Path) -> None:
    report = run_crash_cycles(tmp_path, 200, tally_game.find, "tally", {}, tally_next, seed=7)
    assert report.problems == []
    assert report.lost == 0
    assert report.cycles == 200
    assert report.acknowledged > 200
