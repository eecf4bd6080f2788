"""NBA Showdown on the kiosk by touch: from Home through Setup (a card edited once) to a scored
roll, with real touches on the real Kivy app against a real ``companion serve --sim`` (Xvfb)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from kiosk_support import ARTIFACTS, PYTHON, ROOT, run_kiosk, served_table
from long_runs import long_runs


@pytest.fixture()
def table(tmp_path: Path, display: str) -> Iterator[dict]:
    with served_table(tmp_path, display) as info:
        yield info


def test_from_setup_to_a_scored_roll_and_on_to_the_end_by_touch(table: dict) -> None:
    out = ARTIFACTS / "nba_showdown"
    argv = [
        PYTHON,
        str(ROOT / "tests" / "nba_showdown_kiosk_driver.py"),
        "--socket",
        str(table["socket"]),
        "--out",
        str(out),
        "--sim",
        "--whole-game",
        *([] if long_runs() else ["--until-break"]),
    ]
    report = run_kiosk(argv, table["env"], timeout=900)
    assert report["ok"], report.get("error")
    for name, shot in report["shots"].items():
        assert shot["problems"] == [], f"{name}: {shot['problems']}"
    # The card editor's +1 on Demo Dasher's Speed (17 printed) is what the game plays with.
    assert (report["speed_before"], report["speed_after"]) == ("17", "18")
    assert report["first_prompt"] == "Q1: DEMO Comets put a player in"
    # Speed 18 against Mock Blaze's 16: +2, with its odds on the button.
    assert report["choose_buttons"][0].startswith("PG Demo Dasher Speed +2 · ")
    assert "pts, scores" in report["choose_buttons"][0]
    assert report["roll_prompt"].startswith("DEMO Comets: roll the d20 for Demo Dasher (Speed +2)")
    # Each face of the pad says what it gives off Demo Dasher's chart: 14 + 2 = 16, row 16-20.
    assert "14 6P 3A 1R" in [t.replace("\n", " ") for t in report["die_pad"]]
    assert report["view_score"] == [6, 0] and report["score"] == "Comets 6 - 0 Lanterns"
    assert "Demo Dasher" in " ".join(report["history_texts"])
    assert "Demo Dasher" in report["table_texts"]
    # Then the game with every rule on, by touch alone: faces on the pad, placements and
    # double-teams (on the Between screen at each quarter), Speed/Power, assists. make test plays
    # on past the first quarter break; the long run (benchmarks/long_runs.py) to the final buzzer.
    taps = report["whole_game_taps"]
    assert any(key.startswith("between:") for key in taps), taps
    if not long_runs():
        assert taps["resolve:face"] > 5 and taps["resolve:choose"] > 5
        assert report["after_break"]["quarter"] == 2 and not report["after_break"]["final"]
        return
    assert taps["resolve:face"] > 30 and taps["resolve:choose"] > 30
    final = report["final"]
    assert final["final"] and final["quarter"] >= 4 and report["outcome"]["places"]
    assert sum(final["score"]) > 0
