"""Whole Hoop Godz games (standard and PRO) through ``companion replay``, the store, resume and export."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

from companion.games.hoop_godz import GAME
from companion.session import Session
from companion.store import Store
from table.cli import main

GAMES = Path(__file__).parent / "games"


def cli(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def replay(capsys, tmp_path: Path, name: str) -> tuple[str, dict]:
    db = str(tmp_path / "hg.db")
    code, out, err = cli(capsys, "--db", db, "replay", "--game", "hoop-godz", str(GAMES / name), "--json")
    assert code == 0, err
    final = json.loads(out)
    store = Store.open(Path(db))
    try:
        resumed = Session.resume(store, final["game_id"], lambda _name: GAME).snapshot()
    finally:
        store.close()
    assert {k: final[k] for k in resumed["view"]} == resumed["view"]
    return db, final


def test_a_standard_game_through_companion_replay_is_won_on_points(capsys, tmp_path: Path) -> None:
    db, final = replay(capsys, tmp_path, "full_game_hoop_godz.jsonl")
    assert final["winner"] == 0 and final["reason"] == "Home reaches 8 points" and final["win_at"] == 7
    assert [s["juice_total"] for s in final["sides"]] == [10, 10]
    lines = (GAMES / "full_game_hoop_godz.jsonl").read_text().splitlines()
    assert any('"type": "race"' in line for line in lines), "the replay file plays its battles as races"
    assert final["scoreboard"]["final"] and final["prompt"]["text"].startswith("game over")

    code, out, _ = cli(capsys, "--db", db, "export", str(final["game_id"]), "--format", "csv")
    everything = list(csv.DictReader(io.StringIO(out)))
    rows = [r for r in everything if r["total"] == "True"]  # each player's total line, after its ballers
    away = final["sides"][1]["score"]
    assert [(r["side"], int(r["points"])) for r in rows] == [("Home", 8), ("Away", away)]
    assert len(everything) == 8 and all(r["fg"] for r in everything)  # three ballers a player
    assert [int(r["battles_won"]) for r in rows] == [s["battles_won"] for s in final["sides"]]
    assert [int(r["juice_spent"]) for r in rows] == [s["juice_spent"] for s in final["sides"]]
    assert sum(int(r["battles_won"]) for r in rows) > 0 and all(int(r["juice_spent"]) > 0 for r in rows)


def test_a_pro_game_through_companion_replay_runs_out_its_fifteen_clock_tokens(capsys,
                                                                                tmp_path: Path) -> None:
    _, final = replay(capsys, tmp_path, "pro_game_hoop_godz.jsonl")
    assert final["win_at"] == 10 and final["clock"] == 0 and final["mode"] == "pro"
    assert final["reason"] == "the clock ran out with Away ahead 9-7" and final["winner"] == 1
    assert [s["juice_total"] for s in final["sides"]] == [10, 10]


def test_the_shot_calculator_gives_the_exact_chance_and_refuses_a_seventh_die(capsys) -> None:
    code, out, _ = cli(capsys, "calc", "hoop-godz", "shot", "--dice", "4", "--difficulty", "3",
                       "--ball-faces", "2", "--json")
    assert code == 0 and json.loads(out)["exact"] == "1/9"
    code, _, err = cli(capsys, "calc", "hoop-godz", "shot", "--dice", "7", "--difficulty", "3",
                       "--ball-faces", "2")
    assert code == 2 and "dice is 1 to 6, not 7" in err
