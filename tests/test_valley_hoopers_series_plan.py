"""The Series between games, by the prompt's ready-made choices only (what the kiosk shows as
buttons): sleeve a hooper upgrade card before the next game, and bring Susan Peg to the side facing
elimination before game 7."""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from games.valley_hoopers_series import series_command, series_options

from companion.errors import RuleError
from companion.games.valley_hoopers import GAME
from companion.service import TableService
from companion.store import Store


def _choose(service: TableService, starts: str) -> dict[str, Any]:
    """Send the prompt's first choice whose label starts with ``starts``; its command."""
    prompt = service.snapshot()["prompt"]
    choice = next((c for c in prompt["choices"] if c["label"].startswith(starts)), None)
    assert choice is not None, (starts, [c["label"] for c in prompt["choices"]])
    reply = service.execute({"op": "command", "command": choice["command"]})
    assert reply["ok"], reply
    return choice["command"]


def test_a_hooper_upgrade_card_is_sleeved_through_the_services_prompt(tmp_path: Path) -> None:
    service = TableService(Store.open(tmp_path / "series.db"))
    assert service.execute({"op": "new_game", "game": "valley-hoopers", "options": series_options()})["ok"]
    rng = random.Random(4)
    while service.session.state.phase == "game":
        command = series_command(service.session.state, rng)
        assert service.execute({"op": "command", "command": command})["ok"]
    while service.session.state.phase == "reward":  # the first button each time, as the kiosk test taps
        prompt = service.snapshot()["prompt"]
        assert service.execute({"op": "command", "command": prompt["choices"][0]["command"]})["ok"]
    series = service.session.state
    side = 0 if series.upgrades[0] else 1
    name = series.names[side]
    card = series.upgrades[side][0]
    words = {"stellar_energy": "stellar + 2 energy", "stat_energy": "stat +10 + 1 energy",
             "energy": "+3 energy"}
    sleeved = _choose(service, f"{name}: sleeve {words[card]} on ")
    hooper = sleeved["hooper"]
    if card == "stat_energy":  # the card's stat is asked next, one button per stat
        assert "which stat" in service.snapshot()["prompt"]["text"]
        _choose(service, f"{name}: +10 on {hooper}'s 3PS")
    assert f"planned: {name}: {card} on {hooper}" in service.snapshot()["prompt"]["text"]
    _choose(service, "Game 2: Lucy attacks first, marker: ")
    game = service.session.state.game
    upgraded = game.side(side).hooper(hooper)
    before = series.game.side(side).hooper(hooper)
    assert upgraded.milestone == words[card] and upgraded.energy_bonus > before.energy_bonus
    assert service.session.state.plan.sleeves == ((), ())  # the plan was for game 2 only


def _facing_elimination() -> Any:
    """A series between games with Lucy at 3 wins before game 5: Karl may call Susan Peg."""
    rng = random.Random(4)
    state = GAME.setup(series_options())
    while state.phase == "game":
        state, _ = GAME.run(state, series_command(state, rng))
    one = replace(state.last(), winner=0, score=(60, 50))
    lost = replace(one, number=4, winner=1, score=(50, 60))
    results = (*(replace(one, number=n) for n in (1, 2, 3)), lost)
    return replace(state, results=results, phase="next_game", reward=None)


def test_susan_peg_joins_the_side_facing_elimination_by_a_ready_made_choice() -> None:
    state = _facing_elimination()
    prompt = GAME.prompt(state)
    assert "Susan Peg may join Karl" in prompt.text
    offers = [c for c in prompt.choices if c.command["type"] == "susan_peg"]
    # She takes a benchwarmer's place in Karl's seven (the two who do not start).
    assert [c.label for c in offers] == ["Susan Peg joins Karl's seven instead of Linda Siempre",
                                         "Susan Peg joins Karl's seven instead of Manny Gentle"]
    with pytest.raises(RuleError, match="joins only the side whose opponent can win"):
        GAME.decide(state, {"type": "susan_peg", "side": 0, "instead_of": "Reley Baton"})
    with pytest.raises(RuleError, match="in the starting five"):
        GAME.decide(state, {"type": "susan_peg", "side": 1, "instead_of": "May Friend"})
    state, _ = GAME.run(state, dict(offers[0].command))
    assert not any(c.command["type"] == "susan_peg" for c in GAME.prompt(state).choices)
    next_game = next(c.command for c in GAME.prompt(state).choices if c.command["type"] == "next_game")
    state, _ = GAME.run(state, dict(next_game))
    karl = [h.name for h in state.game.side(1).hoopers]
    assert "Susan Peg" in karl and "Linda Siempre" not in karl and state.number == 5
    assert state.game.side(1).hooper("Susan Peg").skill == "rebound_layup"
