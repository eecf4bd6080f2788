"""Whole Hoop Godz games (standard and PRO) through the store, the session and its resume."""

from __future__ import annotations

import json
from pathlib import Path

from companion.games.hoop_godz import GAME
from companion.session import Session
from companion.store import Store

GAMES = Path(__file__).parent / "games"


def replay(tmp_path: Path, name: str) -> dict:
    rows = [json.loads(line) for line in (GAMES / name).read_text().splitlines()]
    store = Store.open(tmp_path / "hg.db")
    session = Session.new(store, GAME, {k: v for k, v in rows[0].items() if k != "type"})
    for command in rows[1:]:
        session.handle(command)
    resumed = Session.resume(store, session.game_id, lambda _name: GAME)
    assert resumed.snapshot()["view"] == session.snapshot()["view"]
    return session.snapshot()


def test_a_standard_game_is_won_on_points(tmp_path: Path) -> None:
    snap = replay(tmp_path, "full_game_hoop_godz.jsonl")
    assert snap["outcome"] == {"winner": 0, "reason": "Home reaches 8 points"}
    assert [s["juice_total"] for s in snap["view"]["sides"]] == [10, 10]
    assert sum(s["battles_won"] for s in snap["view"]["sides"]) > 0


def test_a_pro_game_runs_out_its_fifteen_clock_tokens(tmp_path: Path) -> None:
    snap = replay(tmp_path, "pro_game_hoop_godz.jsonl")
    assert snap["view"]["win_at"] == 10 and snap["view"]["clock"] == 0
    assert snap["outcome"]["reason"] == "the clock ran out with Away ahead 6-5"
