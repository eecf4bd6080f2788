"""The log shows the score and the period on each line: the service's ``log`` op sends both for every
entry (from the states it replays), and the kiosk's History leads each line with them."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.games import all_games
from companion.service import TableService
from companion.store import Store
from kiosk import present

GAMES = list(all_games())


@pytest.mark.parametrize("game", GAMES, ids=[g.name for g in GAMES])
def test_every_log_line_carries_the_score_and_period_at_that_point(game, tmp_path: Path) -> None:
    options, commands = game.demo_script()
    service = TableService(Store.open(tmp_path / "t.db"))
    assert service.execute({"op": "new_game", "game": game.name, "options": options})["ok"]
    for command in commands:
        assert service.execute({"op": "command", "command": command})["ok"], command
    snapshot = service.execute({"op": "state"})["snapshot"]
    log = service.execute({"op": "log"})["log"]
    assert len(log) == len(commands) + 1
    for line in log:
        assert isinstance(line["period"], str) and line["period"], line
        assert len(line["score"]) == len(snapshot["scoreboard"]["sides"]), line
    board = snapshot["scoreboard"]
    last = log[-1]
    assert last["period"] == board["period"]
    assert last["score"] == [side["score"] for side in board["sides"]]
    assert last["lead"] == board["lead"]
    shown = present.log_mark(last, [s["name"] for s in board["sides"]])
    assert shown.startswith(f"{board['period']} ") and len(shown) > len(board["period"]) + 1


def test_a_history_mark_reads_period_then_score() -> None:
    assert present.log_mark({"text": "Lucy scores 2", "period": "P2", "score": [12, 9]}) == "P2 12-9"
    assert present.log_mark({"text": "bid", "period": "R1", "score": [3, 0, 5]}) == "R1 3-0-5"
    lead = {"text": "Ann plays", "period": "Q1", "score": [None, None], "lead": {"side": 0, "value": 0}}
    assert present.log_mark(lead, ["Ann", "Bo"]) == "Q1 level"
    ahead = {"text": "Ann plays", "period": "Q1", "score": [None, None], "lead": {"side": 1, "value": 4}}
    assert present.log_mark(ahead, ["Ann", "Bo"]) == "Q1 Bo +4"
