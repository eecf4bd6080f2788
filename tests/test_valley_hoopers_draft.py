"""Draft: hoopers 1-2-2-...-1 (the unequal-stellar discard first), hooper upgrades 1-2-2-1, deck upgrades
from two piles of nine, the line-ups, then a Classic game without milestones."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import pytest
from games.valley_hoopers_series import karl_ten, lucy_ten

from companion.errors import RuleError
from companion.games.valley_hoopers import GAME
from companion.games.valley_hoopers.draft import ORDER, DraftState

POOL = lucy_ten() + karl_ten()  # TEST DATA cards; one stellar hooper (Muy Schillato): an odd count


def _options(**extra: Any) -> dict[str, Any]:
    return {"variant": "draft", "first_picker": 0, "pool": POOL, **extra,
            "sides": [{"name": "Lucy", "tribe": "unleashed"}, {"name": "Karl", "tribe": "keepers"}]}


def _sensible(state: DraftState) -> str:
    """The picker's card: a hooper for a position the side lacks (else the first offered)."""
    offered = state.offered()
    if state.stage != "hoopers":
        return offered[0]
    side = state.picker()
    have = {h["first_position"] for h in state.hoopers[side]}
    cards = {c["name"]: c for c in POOL}
    return next((n for n in offered if cards[n]["first_position"] not in have), offered[0])


def _draft(state: Any) -> tuple[Any, list[str]]:
    log = []
    while isinstance(state, DraftState):
        prompt = GAME.prompt(state)
        assert json.loads(json.dumps(prompt.to_json())) == prompt.to_json()
        assert json.loads(json.dumps(GAME.view(state))) == GAME.view(state)
        command = (dict(prompt.choices[0].command) if state.stage == "lineup"
                   else {"type": "draft_pick", "card": _sensible(state)})
        if state.stage != "lineup":
            log.append(f"{state.stage}:{state.picker()}")
        state, _ = GAME.run(state, command)
    return state, log


def test_the_pick_orders_are_the_rulebooks() -> None:
    assert "".join("FS"[s] for s in ORDER["hoopers"]) == "FSSFFSSFFSSFFS"  # 1-2-2-2-2-2-2-1
    assert "".join("FS"[s] for s in ORDER["upgrades"]) == "SFFSSF"  # who ended the hooper draft begins
    assert "".join("FS"[s] for s in ORDER["deck_1"]) == "FSSFFSSF"  # the starting player changes
    assert "".join("FS"[s] for s in ORDER["deck_2"]) == "SFFSSFFS"


def test_a_whole_draft_then_a_classic_game_without_milestones() -> None:
    state = GAME.setup(_options())
    assert state.stage == "discard" and state.picker() == 1  # unequal stellar hoopers: Karl discards
    with pytest.raises(RuleError, match="not on the draft table"):
        GAME.decide(state, {"type": "draft_pick", "card": "Michael Jordan"})
    with pytest.raises(RuleError, match="the draft comes first"):
        GAME.decide(state, {"type": "end_turn"})
    game, log = _draft(state)
    assert log[0] == "discard:1" and log[1:15] == [f"hoopers:{s}" for s in ORDER["hoopers"]]
    assert log[15:21] == [f"upgrades:{s}" for s in ORDER["upgrades"]] and len(log) == 1 + 14 + 6 + 16
    assert game.variant == "draft" and len(game.sides[0].hoopers) == len(game.sides[1].hoopers) == 7
    assert game.sides[0].tribe == "unleashed" and game.sides[1].tribe == "keepers"
    state = GAME.setup(_options())
    while isinstance(state, DraftState) and state.stage != "lineup":
        state, _ = GAME.run(state, {"type": "draft_pick", "card": _sensible(state)})
    assert [len(u) for u in state.upgrades] == [3, 3] and [len(d) for d in state.deck] == [8, 8]
    assert len(state.discarded) == 1 + 2  # the discarded hooper and each pile's last card
    # A Classic game follows, without milestones: a won period asks for no upgrade.
    state = game
    state, _ = GAME.run(state, {"type": "attack", "shot": "LUP", "position": "PG"})
    state, _ = GAME.run(state, {"type": "no_defense"})
    state, _ = GAME.run(state, {"type": "roll", "face": 5})
    while state.period == 1:
        state, _ = GAME.run(state, {"type": "end_turn"})
    assert state.partial_scores[0] == (2, 0) and state.decisions == ()
    assert GAME.prompt(state).commands[0] != "upgrade"


def test_a_line_up_must_follow_the_cards_positions() -> None:
    state = GAME.setup(_options(first_picker=1))
    while state.stage != "lineup":
        state, _ = GAME.run(state, {"type": "draft_pick", "card": _sensible(state)})
    seven = [h["name"] for h in state.hoopers[0]]
    cards = {c["name"]: c for c in POOL}
    right = GAME.prompt(state).choices[0].command["lineup"]
    assert set(right.values()) <= set(seven)

    def fits(name: str, position: str) -> bool:
        return position in (cards[name]["first_position"], cards[name]["second_position"])

    a, b = next((a, b) for a in right for b in right if a != b and not fits(right[a], b))
    wrong = {**right, a: right[b], b: right[a]}  # two starters swapped: one can't start there
    with pytest.raises(RuleError, match="can't start at"):
        GAME.decide(state, {"type": "draft_lineup", "side": 0, "lineup": wrong})


def _at_lineups(**extra: Any) -> DraftState:
    state = GAME.setup(_options(**extra))
    while state.stage != "lineup":
        state, _ = GAME.run(state, {"type": "draft_pick", "card": _sensible(state)})
    return state


def test_the_drafted_upgrades_are_applied_to_the_game() -> None:
    state = _at_lineups()
    # Each side drafted eight deck upgrades: action upgrade cards are sleeved, position upgrades counted.
    assert state.deck[0][:4] == ("No-Look", "Backdoor Cut", "Wall of Death", "Curl")
    state = replace(state, upgrades=(("star hooper upgrade SF", "stat +10 + 1 energy", "+3 energy"),
                                     state.upgrades[1]))
    cards = {h["name"]: h for h in state.hoopers[0]}
    lineup = next(c.command["lineup"] for c in GAME.prompt(state).choices
                  if c.command["side"] == 0 and not c.command.get("upgrades"))
    where = {n: p for p, n in lineup.items()}
    # The star upgrade's second position replaces the card's: its hooper starts on his first position.
    seven = sorted((n for n, c in cards.items() if c.get("stellar") is False),
                   key=lambda n: where.get(n, cards[n]["first_position"]) != cards[n]["first_position"])
    star, stat, energy = seven[:3]
    twice = {star: "+3 energy", stat: "+3 energy"}
    with pytest.raises(RuleError, match="did not draft"):
        GAME.decide(state, {"type": "draft_lineup", "side": 0, "lineup": lineup, "upgrades": twice})
    upgrades = {star: "star hooper upgrade SF", stat: {"card": "stat +10 + 1 energy", "stat": "2PS"},
                energy: "+3 energy"}
    state, _ = GAME.run(state, {"type": "draft_lineup", "side": 0, "lineup": lineup, "upgrades": upgrades})
    karl = next(c.command for c in GAME.prompt(state).choices if c.command["side"] == 1)
    game, _ = GAME.run(state, karl)
    lucy = game.sides[0]
    starred = lucy.hooper(star)
    assert starred.upgraded and starred.stellar and starred.second_position == "SF"
    assert starred.energy == cards[star]["energy"] + 1
    assert dict(lucy.hooper(stat).stat_bonus) == {"2PS": 10}
    assert lucy.hooper(stat).energy == cards[stat]["energy"] + 1
    assert lucy.hooper(energy).energy == cards[energy]["energy"] + 3
    assert [c.name for c in lucy.action_upgrades] == ["No-Look", "Backdoor Cut", "Wall of Death", "Curl"]
    assert len(lucy.position_upgrades) == 4 and len(game.sides[1].action_upgrades) == 4


def test_the_lineup_prompt_offers_the_drafted_hooper_upgrades_sleeved() -> None:
    state = _at_lineups()
    labels = [c.label for c in GAME.prompt(state).choices if c.command["side"] == 0]
    assert any("; upgrades: " in label for label in labels)
    assert any(label.endswith("; no hooper upgrade sleeved") for label in labels)
    with_upgrades = next(c.command for c in GAME.prompt(state).choices if c.command.get("upgrades"))
    state, _ = GAME.run(state, with_upgrades)
    assert state.sleeves[with_upgrades["side"]] == with_upgrades["upgrades"]
