"""Crunch Time at the table through the CLI and the service: `companion replay` of a two-coach game and
a solo game at every difficulty, `companion games`, the exports and the service's log, each showing
the one signed lead ("Red +4"), never a score per side."""

from __future__ import annotations

import csv
import io
import json
import sys
from pathlib import Path

import pytest

from companion.games.crunch_time import GAME
from companion.games.crunch_time.model import DIFFICULTY
from companion.service import TableService
from companion.store import Store
from table.cli import main

GAMES = Path(__file__).parent / "games"
TWO_COACHES = GAMES / "full_game_crunch_time.jsonl"
sys.path.insert(0, str(GAMES))

from make_crunch_time_games import seeded_game, write  # noqa: E402


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_a_two_coach_game_replays_through_the_cli_to_overtime(capsys, tmp_path: Path) -> None:
    db = str(tmp_path / "ct.db")
    code, out, err = run(capsys, "--db", db, "replay", "--game", "crunch-time", str(TWO_COACHES), "--json")
    assert code == 0, err
    final = json.loads(out)
    assert final["winner"] == 0 and final["reason"] == "by 4 after overtime 1"
    assert final["scoreboard"]["lead"] == {"side": 0, "value": 4}
    assert [s["score"] for s in final["scoreboard"]["sides"]] == [None, None]
    assert [p["period"] for p in final["possessions"]][-3:] == ["R5", "OT1", "OT1"]
    # The plain words say the lead too.
    code, out, _ = run(capsys, "--db", db, "replay", "--game", "ct", str(TWO_COACHES))
    assert code == 0 and out.startswith("game 2: Red +4, OT1")


@pytest.mark.parametrize("difficulty", list(DIFFICULTY))
def test_a_solo_game_at_every_difficulty_replays_through_the_cli(capsys, tmp_path: Path,
                                                                 difficulty: str) -> None:
    options = {"mode": "solo", "difficulty": difficulty}
    script = tmp_path / f"solo_{difficulty}.jsonl"
    write(script, options, seeded_game(options, seed=len(difficulty) + 3))
    code, out, err = run(capsys, "--db", str(tmp_path / "ct.db"), "replay", "--game", "crunch-time",
                         str(script), "--json")
    assert code == 0, err
    final = json.loads(out)
    assert final["phase"] == "final" and final["winner"] in (0, 1)
    assert final["difficulty"] is not None and final["sides"][1]["ai"] is True
    first = final["possessions"][0]
    assert first["offence"] == 0 and first["lead"] - first["net"] == DIFFICULTY[difficulty]


def test_companion_games_and_the_summary_show_the_lead(capsys, tmp_path: Path) -> None:
    db = str(tmp_path / "ct.db")
    run(capsys, "--db", db, "replay", "--game", "crunch-time", str(TWO_COACHES))
    code, out, _ = run(capsys, "--db", db, "games")
    assert code == 0 and "crunch-time" in out and "Red +4" in out and "None" not in out
    _, out, _ = run(capsys, "--db", db, "games", "--json")
    summary = json.loads(out)[0]["summary"]
    assert summary["lead"] == {"side": 0, "value": 4} and summary["lead_text"] == "Red +4"


def test_the_csv_export_is_a_box_score_per_possession(capsys, tmp_path: Path) -> None:
    db = str(tmp_path / "ct.db")
    run(capsys, "--db", db, "replay", "--game", "crunch-time", str(TWO_COACHES))
    code, out, _ = run(capsys, "--db", db, "export", "1", "--format", "csv")
    assert code == 0
    everything = list(csv.DictReader(io.StringIO(out)))
    rows = [r for r in everything if r["total"] != "True"]
    assert len(rows) == 12  # 10 possessions of regulation, 2 of overtime
    assert [r["offence_name"] for r in everything[12:]] == ["Red", "Blue"]  # each coach's total line
    assert rows[0]["period"] == "R1" and rows[-1]["period"] == "OT1"
    assert rows[-1]["lead_text"] == "Red +4" and rows[-1]["lead"] == "4"
    running = 0
    for row in rows:  # each possession's net moves the lead, toward its offence
        running += int(row["net"]) if row["offence"] == "0" else -int(row["net"])
        assert int(row["lead"]) == running or row is rows[-1]
    code, out, _ = run(capsys, "--db", db, "export", "1")
    assert json.loads(out)["summary"]["lead_text"] == "Red +4"


def test_the_service_log_lines_carry_the_lead_after_each_command(tmp_path: Path) -> None:
    service = TableService(Store.open(tmp_path / "ct.db"))
    assert service.execute({"op": "new_game", "game": "crunch-time",
                            "options": {"names": ["Red", "Blue"]}})["ok"]
    for command in ({"type": "tip_off", "cards": [40, 12]}, {"type": "shot_card"},
                    {"type": "zone", "points": 3, "stand": "offence"},
                    {"type": "zone", "points": 2, "stand": "both"},
                    {"type": "star", "role": "offence", "shot": 1, "zone": 1}, {"type": "score"}):
        reply = service.execute({"op": "command", "command": command})
        assert reply["ok"], reply
    lines = service.execute({"op": "log"})["log"]
    assert lines[0]["lead"] == {"side": None, "value": 0}
    assert lines[-1]["lead"] == {"side": 0, "value": 6}
    assert lines[-1]["text"] == ("Red nets +6 (3 from the Shot card, +3 offensive Star): Red +6; "
                                 "Red drew 1 Star card")  # both zones hold a Red player
    assert all(line["score"] == [None, None] for line in lines)


def test_the_possession_grid_of_the_front_end_covers_the_zone_choices() -> None:
    """Every zone entry the prompt offers lands in the grid the kiosk draws (rows 3/2, four columns)."""
    state, _ = GAME.run(GAME.setup({}), {"type": "tip_off", "winner": 0})
    state, _ = GAME.run(state, {"type": "shot_card"})
    grid = GAME.frontend.choice_grid
    zones = [c.command for c in GAME.prompt(state).choices if c.command["type"] == "zone"]
    assert len(zones) == 8
    assert {(c[grid.row_keys[0]], c[grid.column_key]) for c in zones} == {
        (p, s) for p in (3, 2) for s in grid.columns}


@pytest.mark.parametrize("name", ["", ".commands", ".frontend", ".model", ".rules"])
def test_the_docstring_examples_of_the_game_run(name: str) -> None:
    import doctest
    import importlib

    module = importlib.import_module(f"companion.games.crunch_time{name}")
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0


def _refused(service: TableService, command: dict, reason: str) -> None:
    """The service refuses ``command`` with ``reason`` and nothing changes: snapshot, log, store."""
    before = (service.execute({"op": "state"})["snapshot"], service.execute({"op": "log"})["log"],
              service.execute({"op": "games"})["games"])
    reply = service.execute({"op": "command", "command": command})
    assert not reply["ok"] and reason in reply["error"], reply
    after = (service.execute({"op": "state"})["snapshot"], service.execute({"op": "log"})["log"],
             service.execute({"op": "games"})["games"])
    assert after == before


def _play(service: TableService, *commands: dict) -> None:
    for command in commands:
        reply = service.execute({"op": "command", "command": command})
        assert reply["ok"], reply


def test_bad_input_at_the_table_gets_a_clear_error_and_changes_nothing(tmp_path: Path) -> None:
    service = TableService(Store.open(tmp_path / "ct.db"))
    service.execute({"op": "new_game", "game": "crunch-time", "options": {"names": ["Red", "Blue"]}})
    empty = ({"type": "zone", "points": 2, "stand": "empty"},)
    _play(service, {"type": "tip_off", "winner": 0}, {"type": "shot_card"}, *empty)
    # A Star on a zone no Shot card shows.
    _refused(service, {"type": "star", "role": "offence", "shot": 1, "zone": 3},
             "a Star card's zone must match a highlighted zone on a current Shot card")
    _refused(service, {"type": "star", "role": "offence", "shot": 2, "zone": 1}, "no Shot card 2")
    _refused(service, {"type": "zone", "points": 4, "stand": "offence"}, "2 (yellow) or 3 (violet)")
    # A second double in rounds 1-4: Red played its double in round 1.
    _play(service, {"type": "shot_card"}, *empty, {"type": "score"},
          {"type": "shot_card"}, *empty, {"type": "score"}, {"type": "shot_card"}, *empty)
    _refused(service, {"type": "shot_card"}, "a 2nd Shot card is played once during rounds 1-4")
    # A third player in a zone (a coach's second player there), with the demo court's positions.
    service.execute({"op": "new_game", "game": "crunch-time", "options": {"court": "demo"}})
    _play(service, {"type": "tip_off", "winner": 0}, {"type": "shot_card", "zones": ["V1"]})
    _refused(service, {"type": "move", "role": "offence", "player": 1, "to": "Y2"},
             "each coach may have at most 1 player per zone")
    _refused(service, {"type": "star", "role": "offence", "zone": "V3"}, "no current Shot card highlights V3")
