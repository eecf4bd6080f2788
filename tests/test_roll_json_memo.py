"""A roll's ``die_info``, face marks and outcomes are counted once per die and rule in a game.

``RollInfo.json_parts`` remembers them by the die's identity: a game that built a new die for every
prompt (the same faces, another object) would recount them on every roll it awaits, and the memo
would fill with dice nobody asks for again. Each game's full-game script must count each (die,
rule) it awaits once.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from benchmarks.measures import GAME_SCRIPTS
from companion import success
from companion.session import Session, parse_command
from companion.store import Store

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize(("name", "script"), GAME_SCRIPTS)
def test_each_die_and_rule_a_game_awaits_is_counted_once(name: str, script: str, tmp_path: Path,
                                                         monkeypatch) -> None:
    counted: list[tuple[str, str, tuple]] = []
    count = success._count_json_parts

    def counting(roll: success.RollInfo):
        counted.append((roll.die.name, repr(roll.rule), tuple(roll.gives.items())))
        return count(roll)

    monkeypatch.setattr(success, "_count_json_parts", counting)
    success._json_parts.cache_clear()
    lines = [json.loads(line) for line in (ROOT / "tests" / "games" / script).read_text().splitlines()
             if line.strip()]
    store = Store.open(tmp_path / "games.db")
    try:
        session = Session.new(store, name, {k: v for k, v in lines[0].items() if k != "type"})
        for line in lines[1:]:
            session.handle(parse_command(json.dumps(line)))
    finally:
        store.close()
    again = sorted({key for key in counted if counted.count(key) > 1})
    assert not again, f"{name} counted these again: {again[:3]}"
