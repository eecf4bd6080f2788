"""Crunch Time with a court file never leaves the table stuck: zones named in the order the table
meets them (reading 15), a refused step names what to enter first, and a seeded random walk over the
prompt's choices always finds a next step besides undo, to the end of the game."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from companion.errors import RuleError
from companion.games.crunch_time import GAME
from companion.games.crunch_time.rules import decide, run, setup
from companion.session import Session
from companion.store import Store


def move(role: str, player: int, to: str) -> dict:
    return {"type": "move", "role": role, "player": player, "to": to}


def offered(session: Session) -> list[dict]:
    return [choice["command"] for choice in session.snapshot()["prompt"]["choices"]]


def refused_unchanged(session: Session, command: dict, message: str) -> None:
    """A refusal names what was wrong and leaves everything recorded as it was."""
    before = session.snapshot()
    with pytest.raises(RuleError, match=message):
        session.handle(command)
    assert session.snapshot() == before


def new_session(tmp_path: Path, options: dict) -> Session:
    return Session.new(Store.open(tmp_path / "ct.db"), GAME, options)


def test_a_second_shot_card_after_a_move_takes_its_zones_and_the_possession_is_scored(tmp_path: Path) -> None:
    # The reported dead end: tip-off, a Shot card on V2, offence player 2 to V2, a 2nd Shot card.
    session = new_session(tmp_path, {"court": "demo"})
    for command in ({"type": "tip_off", "winner": 0}, {"type": "shot_card", "zones": ["V2"]},
                    move("offence", 2, "V2"), {"type": "shot_card"}):
        session.handle(command)
    assert "name the highlighted zones of Shot card 2" in session.snapshot()["prompt"]["text"]
    assert {"type": "zone", "zone": "V4"} in offered(session)
    refused_unchanged(session, {"type": "score"}, "enter the highlighted zones of Shot card 2 first")
    session.handle({"type": "zone", "zone": "V4"})
    assert session.state.current.zone_ids == (("V2",), ("V4",))
    # The 2nd card added no move: Red's two moves are still 1 (player 2 has moved once).
    session.handle(move("offence", 4, "V4"))
    refused_unchanged(session, move("offence", 1, "V1"), "may move 0 to 2 players")
    session.handle({"type": "score"})
    record = session.state.records[-1]
    assert (record.shots, record.shot_points) == (2, 6)


def test_a_zone_after_a_star_card_is_refused_saying_to_undo_the_stars(tmp_path: Path) -> None:
    # Star draws count the zones a coach covers: a zone named after a Star card could take one back.
    session = new_session(tmp_path, {"court": "demo"})
    for command in ({"type": "tip_off", "winner": 0}, {"type": "shot_card", "zones": ["Y2"]},
                    {"type": "star", "role": "offence", "zone": "Y2"}):
        session.handle(command)
    refused_unchanged(session, {"type": "zone", "zone": "V1"},
                      "name every highlighted zone before the Star cards: undo them to add a zone")
    refused_unchanged(session, {"type": "shot_card"}, "Shot cards come first")
    assert {"type": "score"} in offered(session)


def solo_at_the_ais_offence(tmp_path: Path) -> Session:
    session = new_session(tmp_path, {"court": "demo", "mode": "solo", "difficulty": "goat"})
    for command in ({"type": "ai_star", "zone": "V5"}, {"type": "shot_card", "zones": ["V1"]},
                    {"type": "ai_move"}, {"type": "score"}):
        session.handle(command)
    assert session.state.offence == 1 and session.state.ai_display == ("V5", None)
    return session


def test_the_ais_display_star_entered_before_its_cards_zones_leaves_them_nameable(tmp_path: Path) -> None:
    # The reported dead end: the AI's display Star and placements entered before its card's zones.
    session = solo_at_the_ais_offence(tmp_path)
    session.handle({"type": "shot_card"})
    session.handle({"type": "ai_star", "zone": "B2"})
    assert {"type": "zone", "zone": "V2"} in offered(session)
    assert session.snapshot()["prompt"]["text"] == "the AI: name the highlighted zones of Shot card 1"
    refused_unchanged(session, {"type": "ai_place", "zone": "B1"},
                      "name the AI's Shot card's highlighted zones first: its players stand there")
    session.handle({"type": "zone", "zone": "V2"})
    session.handle({"type": "zone", "zone": "V5"})
    assert session.state.positions[1] == ("V2", "V5", "", "", "")
    for zone in ("Y1", "Y2", "Y3"):
        session.handle({"type": "ai_place", "zone": zone})
    # A zone an AI player holds from a Star draw may still be named: the AI stood there either way.
    session.handle({"type": "zone", "zone": "Y3"})
    refused_unchanged(session, {"type": "zone", "zone": "B1"},
                      "every one is placed, none on B1: undo a Star draw's placement")
    session.handle({"type": "score"})
    record = session.state.records[-1]
    # V2 and V5 are open threes, Y3 is defended by your player 3; the display Star on V5 scores 3.
    assert (record.shot_points, record.offence_stars) == (3 + 3, 3)


def test_the_ais_defence_waits_for_your_cards_zones_and_then_fixes_them(tmp_path: Path) -> None:
    session = new_session(tmp_path, {"court": "demo", "mode": "solo", "difficulty": "goat"})
    session.handle({"type": "shot_card"})
    session.handle({"type": "ai_star", "zone": "Y5"})
    refused_unchanged(session, {"type": "ai_move"}, "name your Shot card's highlighted zones first")
    assert {"type": "ai_move"} not in offered(session)
    session.handle({"type": "zone", "zone": "V2"})
    session.handle(move("offence", 2, "V2"))
    session.handle({"type": "zone", "zone": "V4"})  # named after your move: still before the AI's
    session.handle({"type": "ai_move"})
    refused_unchanged(session, {"type": "zone", "zone": "V3"},
                      "the AI moved its defender from the zones named so far: undo its move")
    session.handle({"type": "score"})
    assert session.state.records[-1].shot_points == 0  # V2 defended by the AI, V4 empty


def test_the_rules_still_order_the_possession_on_a_court() -> None:
    state = run(setup({"court": "demo"}), {"type": "tip_off", "winner": 0})
    state = run(state, {"type": "shot_card"})
    with pytest.raises(RuleError, match="names their zones first, then moves"):
        decide(state, move("offence", 2, "V2"))
    with pytest.raises(RuleError, match="after the Shot cards' highlighted zones"):
        decide(state, {"type": "star", "role": "offence", "shot": 1, "zone": 1})


def walk(options: dict[str, Any], seed: int, limit: int = 600) -> list[dict]:
    """A seeded game over the prompt's choices (moves less often, so possessions end): every state
    before the end offers a choice besides undo, and every choice taken is accepted and records
    something. The commands taken, to the end of the game."""
    rng = random.Random(seed)
    state = GAME.setup(options)
    taken: list[dict] = []
    while GAME.outcome(state) is None:
        assert len(taken) < limit, f"seed {seed}: no end after {limit} choices"
        choices = GAME.prompt(state).choices
        assert choices, f"seed {seed}: stuck with only undo after {taken[-6:]}"
        others = [c for c in choices if c.command["type"] != "move"]
        choice = rng.choice(others if others and rng.random() < 0.7 else choices)
        events = decide(state, choice.command)
        assert events, f"seed {seed}: {choice.command} is offered but records nothing"
        for event in events:
            state = GAME.apply(state, event)
        taken.append(dict(choice.command))
    return taken


@pytest.mark.parametrize("options", [{"court": "demo"}, {"court": "demo", "mode": "solo"},
                                     {}, {"mode": "solo"}], ids=["court", "court-solo", "two", "solo"])
def test_seeded_random_games_over_the_offered_choices_never_get_stuck(options: dict) -> None:
    seeds = range(12) if "court" in options else range(4)
    for seed in seeds:
        taken = walk(options, seed)
        assert taken[-1] == {"type": "score"}
