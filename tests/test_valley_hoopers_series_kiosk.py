"""The Series on the kiosk: between two games the reward checklist and the next game are the prompt's
buttons, tapped like any other (the kiosk holds no rule and names no game)."""

from __future__ import annotations

import json
from pathlib import Path

import test_kiosk
from games.valley_hoopers_series import series_options
from kiosk_support import ARTIFACTS, PYTHON, ROOT, play_until, request, run_kiosk

SERIES_LOG = ROOT / "tests" / "games" / "series_valley_hoopers.jsonl"
# The kiosk tests' simulated table service per test (on conftest's private Xvfb).
table = test_kiosk.table


def test_the_reward_checklist_and_the_next_game_by_touch(table: dict) -> None:
    request(table["socket"], {"op": "new_game", "game": "valley-hoopers", "options": series_options()})
    play_until(table["socket"], lambda snap: snap["view"]["series"]["phase"] == "reward")
    argv = [PYTHON, str(ROOT / "tests" / "series_kiosk_driver.py"), "series_rewards", "--socket",
            str(table["socket"]), "--out", str(ARTIFACTS / "series_rewards"), "--size", "800x480", "--sim"]
    report = run_kiosk(argv, table["env"], timeout=120)
    assert report["ok"], report.get("error")
    # The gameplan milestones are counted from the log (gameplans.py): the checklist comes at once.
    assert "how many of its two milestones" not in report["reward_prompt"]
    assert all(label.startswith("done: ") for label in report["tapped"])
    # The game's winner names the hooper upgrade card taken from the deck: one button per card.
    assert any(" takes stellar + 2 energy" in label for label in report["reward_choices"])
    assert any("+3 energy" in label for label in report["reward_choices"])
    # The action upgrade cards under the strength marker and the Series track are named too.
    assert any("(under the Series track)" in label for label in report["reward_choices"])
    assert any(text.startswith("Reward phase: ") for text in report["reward_texts"])
    assert report["next_game_prompt"].startswith("Game 2: Lucy at Home")
    assert report["game_2_score"] == "Lucy 0 - 0 Karl"
    # The card just taken is sleeved by a button before game 2 (no next_game typed by hand).
    assert report["sleeve_choices"] and "; planned: " in report["planned_prompt"]
    snapshot = request(table["socket"], {"op": "state"})["snapshot"]
    assert snapshot["view"]["series"]["game"] == 2 and snapshot["view"]["series"]["wins"] in ([1, 0], [0, 1])
    assert any(h["milestone_upgrade"] for side in snapshot["view"]["sides"] for h in side["hoopers"])
    test_kiosk.assert_laid_out(report)


def _row(rows: list[list[str]], name: str) -> list[str] | None:
    return next((row for row in rows if row[1] == name), None)


def test_a_whole_recorded_series_with_the_kiosk_on_it_from_game_1_to_the_export(table: dict) -> None:
    """The recorded series (five games, ejections and injuries carried over) on a served table with
    the kiosk attached throughout: plays over the socket, every command between games a tap."""
    lines = SERIES_LOG.read_text(encoding="utf-8").splitlines()
    options = {k: v for k, v in json.loads(lines[0]).items() if k != "type"}
    recorded = [json.loads(line) for line in lines[1:]]
    assert request(table["socket"], {"op": "new_game", "game": "valley-hoopers", "options": options})["ok"]
    argv = [PYTHON, str(ROOT / "tests" / "series_kiosk_driver.py"), "whole_series", "--socket",
            str(table["socket"]), "--out", str(ARTIFACTS / "whole_series"), "--size", "800x480", "--sim",
            "--step-timeout", "120"]
    report = run_kiosk(argv, table["env"], timeout=900)
    assert report["ok"], report.get("error")
    between = [c for c in recorded if c["type"] in ("gameplan_result", "reward", "next_game", "sleeve",
                                                     "susan_peg")]
    assert report["tapped_commands"] >= len(between) and report["sent_commands"] + report["tapped_commands"] \
        == len(recorded)
    # The table played exactly the recorded series: its log holds the same commands in order.
    log = request(table["socket"], {"op": "log"})["log"]
    assert [line["command"] for line in log[1:]] == recorded
    series = request(table["socket"], {"op": "state"})["snapshot"]["view"]["series"]
    results = series["results"]
    assert series["phase"] == "over" and len(results) >= 5 and max(series["wins"]) == 4
    # The carry-over, as the kiosk's Table screen showed the line-ups at the start of the next game.
    names = [s["name"] for s in options["sides"]]
    seen_ejected = seen_injured = 0
    for result in results[:-1]:
        rows = report["line_ups"][str(result["game"] + 1)]
        for side in (0, 1):
            for name in result["ejected"][side]:
                assert _row(rows, name) is None, f"{name} was ejected in game {result['game']}"
                seen_ejected += 1
            for name in result["injured"][side]:
                row = _row(rows, name)
                if row is not None:  # an injured hooper may also have been ejected, or left the seven
                    assert "2 white" in row[3], (name, row)
                    seen_injured += 1
    assert seen_ejected >= 2 and seen_injured >= 2
    # Every game opened with a clean line-up on the kiosk apart from the carried cubes.
    assert all("white" not in row[3] for row in report["line_ups"]["1"])
    # The series result on the game end screen and in the kiosk's JSON export.
    winner = names[series["wins"].index(4)]
    assert any(winner in text for text in report["gameend_texts"])
    exported = json.loads(Path(report["export_path"]).read_text(encoding="utf-8"))
    assert exported["view"]["series"]["results"] == results and exported["outcome"]["winner"] == \
        series["wins"].index(4)
    test_kiosk.assert_laid_out(report)
