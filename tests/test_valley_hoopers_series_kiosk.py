"""The Series on the kiosk: between two games the reward checklist and the next game are the prompt's
buttons, tapped like any other (the kiosk holds no rule and names no game); and the recorded whole
series played to its end and export with the kiosk on it (docs/games/valley-hoopers.md, The Series).
"""

from __future__ import annotations

import dataclasses
import json
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import test_kiosk
from games.valley_hoopers_series import series_options
from kiosk_support import (
    ARTIFACTS,
    PYTHON,
    ROOT,
    kiosk_env,
    play_until,
    request,
    run_kiosk,
    start_service,
    stop,
)
from long_runs import long_runs

from companion.game import Prompt
from companion.games.valley_hoopers import GAME
from companion.games.valley_hoopers.series_game import CONDITIONS, MARKER_NAMES
from companion.session import Session
from companion.store import Store
from kiosk import parts

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
    # The opening d20 roll decides who attacks first: a button for each winner, per marker.
    for name in ("Lucy", "Karl"):
        assert sum(label.startswith(f"Game 2: {name} attacks first, marker: ")
                   for label in report["next_game_choices"]) == len(CONDITIONS)
    assert report["next_game_tapped"].startswith("Game 2: Karl attacks first")
    assert report["game_2_score"] == "Lucy 0 - 0 Karl"
    # The card just taken is sleeved by a button before game 2 (no next_game typed by hand).
    assert report["sleeve_choices"] and "; planned: " in report["planned_prompt"]
    snapshot = request(table["socket"], {"op": "state"})["snapshot"]
    assert snapshot["view"]["series"]["game"] == 2 and snapshot["view"]["series"]["wins"] in ([1, 0], [0, 1])
    assert snapshot["view"]["turn"]["attacker"] == 1  # Karl, away, won the roll
    assert any(h["milestone_upgrade"] for side in snapshot["view"]["sides"] for h in side["hoopers"])
    test_kiosk.assert_laid_out(report)


# make test: the kiosk joins at the reward phase after game 4 (games 1-4 already in the table's log);
# the long run (COURTSIDE_LONG_RUNS=1, tests/long_runs.py): from the setup, game 1's plays by touch.
JOIN_AFTER_GAME = None if long_runs() else 4


def _row(rows: list[list[str]], name: str) -> list[str] | None:
    return next((row for row in rows if row[1] == name), None)


def _recorded() -> tuple[dict[str, Any], list[dict[str, Any]]]:
    lines = SERIES_LOG.read_text(encoding="utf-8").splitlines()
    return {k: v for k, v in json.loads(lines[0]).items() if k != "type"}, [json.loads(x) for x in lines[1:]]


def _write_games_played(db: Path, options: dict[str, Any], commands: list[dict[str, Any]]) -> int:
    """The series and ``commands`` in the table's store, as ``companion replay`` writes them (one log
    entry a command, through the rules), without drawing a prompt and a view for every state: that
    is what a front end needs, not the log, and it is most of the time a replay takes."""
    quiet = dataclasses.replace(GAME, prompt=lambda _state: Prompt(side=None, text="", commands=()),
                                view=lambda _state: {})
    store = Store.open(db)
    try:
        session = Session.new(store, quiet, options)
        for command in commands:
            session.handle(command)
        return session.game_id
    finally:
        store.close()


@pytest.fixture()
def series_table(tmp_path: Path, display: str) -> Iterator[dict]:
    """A simulated table service whose store holds the recorded series, from its setup or, in make
    test, with games 1-4 played (the service resumes it)."""
    options, recorded = _recorded()
    cut = 0
    if JOIN_AFTER_GAME is not None:  # the first command after that game's plays: its reward phase
        cut = next(i for i, c in enumerate(recorded) if c["type"] == "reward"
                   and sum(1 for d in recorded[:i] if d["type"] == "next_game") == JOIN_AFTER_GAME - 1)
    yield from _served(tmp_path, display, options, recorded, cut)


def _served(tmp_path: Path, display: str, options: dict[str, Any], recorded: list[dict[str, Any]],
            cut: int) -> Iterator[dict]:
    """The service on a store holding the series' first ``cut`` recorded commands. The store is in
    memory (/dev/shm): every entry is still committed with ``synchronous=FULL``, but a thousand
    entries' fsyncs on a busy disk would be most of this test's time, and the test is about the kiosk."""
    folder = Path(tempfile.mkdtemp(prefix="series-kiosk-", dir="/dev/shm" if Path("/dev/shm").is_dir()
                                   else tmp_path))
    try:
        game_id = _write_games_played(folder / "table.db", options, recorded[:cut])
        env = kiosk_env(tmp_path, display)
        socket_path = tmp_path / "run" / "table.sock"
        service = start_service(socket_path, folder / "table.db", env)
        try:
            assert request(socket_path, {"op": "resume", "game_id": game_id})["ok"]
            yield {"env": env, "socket": socket_path, "options": options, "recorded": recorded, "cut": cut}
        finally:
            stop(service)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def test_a_whole_recorded_series_on_the_kiosk_to_the_end_and_the_export(series_table: dict) -> None:
    """The recorded series (five games, ejections and injuries carried over) on a served table with
    the kiosk on it: the plays over the socket, every command between games a tap (see
    ``whole_series`` in tests/series_kiosk_driver.py)."""
    options, recorded, cut = series_table["options"], series_table["recorded"], series_table["cut"]
    argv = [PYTHON, str(ROOT / "tests" / "series_kiosk_driver.py"), "whole_series", "--socket",
            str(series_table["socket"]), "--out", str(ARTIFACTS / "whole_series"), "--size", "800x480",
            "--sim", "--step-timeout", "120"]
    report = run_kiosk(argv, series_table["env"], timeout=900)
    assert report["ok"], report.get("error")
    assert report["joined_at"]["seq"] == cut
    if JOIN_AFTER_GAME is not None:
        assert report["joined_at"] == {"seq": cut, "game": JOIN_AFTER_GAME, "phase": "reward"}
    between = [c for c in recorded[cut:] if c["type"] in ("gameplan_result", "reward", "next_game", "sleeve",
                                                           "susan_peg")]
    assert len(between) > 0
    assert report["sent_commands"] + report["tapped_commands"] == len(recorded) - cut
    assert report["tapped_commands"] == len(between) + report["plays_by_touch"]
    if JOIN_AFTER_GAME is None:  # the long run: most of game 1's plays are a button or a die face
        plays = next(i for i, c in enumerate(recorded) if c["type"] in ("reward", "gameplan_result"))
        assert report["plays_by_touch"] > plays // 2, (report["plays_by_touch"], plays)
    print(f"series on the kiosk: {report['tapped_commands']} taps ({report['plays_by_touch']} plays), "
          f"{report['sent_commands']} plays over the socket; seconds {report['seconds']}")
    # The table played exactly the recorded series: its log holds the same commands in order.
    log = request(series_table["socket"], {"op": "log"})["log"]
    assert [line["command"] for line in log[1:]] == recorded
    series = request(series_table["socket"], {"op": "state"})["snapshot"]["view"]["series"]
    results = series["results"]
    assert series["phase"] == "over" and len(results) >= 5 and max(series["wins"]) == 4
    # The carry-over, as the kiosk's Table screen showed the line-ups at the start of the next game.
    seen_ejected = seen_injured = 0
    for result in results[:-1]:
        rows = report["line_ups"].get(str(result["game"] + 1))
        if rows is None:
            continue  # that game began before the kiosk joined
        for side in (0, 1):
            for name in result["ejected"][side]:
                assert _row(rows, name) is None, f"{name} was ejected in game {result['game']}"
                seen_ejected += 1
            for name in result["injured"][side]:
                row = _row(rows, name)
                if row is not None:  # an injured hooper may also have been ejected
                    assert "2 white" in row[3], (name, row)
                    seen_injured += 1
    assert seen_ejected >= 1 and seen_injured >= 1
    # Susan Peg joined the side facing elimination by two taps, and started (tests/games/make_series_...).
    at = next(i for i, c in enumerate(recorded) if c["type"] == "susan_peg" and c.get("start"))
    start = recorded[at]
    game = 2 + sum(1 for c in recorded[:at] if c["type"] == "next_game")
    side_rows = report["line_ups"][str(game)][7 * start["side"]:7 * start["side"] + 7]
    assert [row[1] for row in side_rows if row[0] == start["start"]] == ["Susan Peg"]
    assert _row(side_rows, start["instead_of"]) is None and len(side_rows) == 7
    if "1" in report["line_ups"]:
        assert all("white" not in row[3] for row in report["line_ups"]["1"])
    # The series result on the game end screen and in the kiosk's JSON export.
    winner = series["wins"].index(4)
    assert any(options["sides"][winner]["name"] in text and "4-1" in text for text in report["gameend_texts"])
    exported = json.loads(Path(report["export_path"]).read_text(encoding="utf-8"))
    assert exported["view"]["series"]["results"] == results and exported["outcome"]["winner"] == winner
    test_kiosk.assert_laid_out(report)


@pytest.fixture()
def before_game_2(tmp_path: Path, display: str) -> Iterator[dict]:
    """The recorded series served up to its first ``next_game`` (game 1 played, rewards taken)."""
    options, recorded = _recorded()
    cut = next(i for i, c in enumerate(recorded) if c["type"] == "next_game")
    yield from _served(tmp_path, display, options, recorded, cut)


@pytest.mark.parametrize("size", ["800x480", "720x1280"])
def test_the_next_game_is_one_tap_on_a_screen_that_holds_them_all(before_game_2: dict, size: str) -> None:
    """Between two games the table has drawn a condition marker and rolled the d20s: every next game
    (marker by who won the roll) is on screen at once, named short, and the one drawn is one tap."""
    cut, recorded = before_game_2["cut"], before_game_2["recorded"]
    argv = [PYTHON, str(ROOT / "tests" / "series_kiosk_driver.py"), "next_game_taps", "--socket",
            str(before_game_2["socket"]), "--out", str(ARTIFACTS / "series_next_game" / size), "--size", size,
            "--sim"]
    report = run_kiosk(argv, before_game_2["env"], timeout=120)
    assert report["ok"], report.get("error")
    assert report["next_game_seq"] == cut
    assert report["next_game_buttons"] == 2 * len(CONDITIONS)
    # All of them seen and tappable as the prompt opens: no scrolling, one tap for the one drawn.
    assert report["next_game_found"] == report["next_game_in_view"] == report["next_game_buttons"]
    assert report["next_game_scroll_y"] == 1
    assert report["next_game_taps"] == 1
    # A cell says who won the roll (the row says the marker); nothing is clipped, nothing tiny.
    assert report["next_game_cells"] == ["Karl", "Lucy"]
    assert report["next_game_clipped"] == [] and report["next_game_font_px"] >= 16
    assert len(report["next_game_label"]) <= len("Game 2: Lucy attacks first, marker: Score after dribble")
    # The table started the recorded game 2 from that tap.
    log = request(before_game_2["socket"], {"op": "log"})["log"]
    assert log[-1]["command"] == recorded[cut]
    # The Table screen's "Series track" line names the marker the tap chose, short and in full.
    view = request(before_game_2["socket"], {"op": "state"})["snapshot"]["view"]
    panel = next(p for p in GAME.frontend.to_json()["panels"] if p["title"] == "Series track")
    condition = recorded[cut]["condition"]
    words = f"{MARKER_NAMES[condition]} marker: {CONDITIONS[condition]}"
    assert parts.panel_line(panel, view).startswith(words), parts.panel_line(panel, view)
    test_kiosk.assert_laid_out(report)
