"""Crunch Time with a court file: movement checked, stands worked out, the solo AI's moves computed."""

from __future__ import annotations

import pytest

from companion.errors import CommandError, RuleError
from companion.games.crunch_time import GAME
from companion.games.crunch_time.court import parse_court, shipped_court
from companion.games.crunch_time.model import State
from companion.games.crunch_time.rules import decide, run, setup


def play(state: State, *commands: dict) -> State:
    for command in commands:
        state = run(state, command)
    return state


def move(role: str, player: int, to: str) -> dict:
    return {"type": "move", "role": role, "player": player, "to": to}


def two_coach() -> State:
    # Demo court: every player starts on Y1..Y5 (player n on Yn), both coaches alike.
    return play(setup({"court": "demo"}), {"type": "tip_off", "winner": 0})


def test_the_demo_court_is_labelled_as_invented() -> None:
    court = shipped_court("demo")
    assert court.demo and "invented" in court.name and "not the official" in court.name
    assert court.starts == ("Y1", "Y2", "Y3", "Y4", "Y5")


@pytest.mark.parametrize(("data", "message"), [
    ({"name": "x", "zones": [{"id": "A", "points": 4}]}, "2 \\(yellow\\) or 3 \\(violet\\)"),
    ({"name": "x", "zones": [{"id": "A", "points": 2, "start": True}] * 2}, "two zones are called 'A'"),
    ({"name": "x", "zones": [{"id": c, "points": 2, "start": True} for c in "ABCD"]}, "exactly 5 start"),
    ({"name": "x", "zones": [{"id": c, "points": 2, "start": True} for c in "ABCDE"],
      "lines": [{"between": ["A", "Z"]}]}, "line 1 must join two different zones"),
    ({"name": "x", "zones": [{"id": c, "points": 2, "start": True} for c in "ABCDE"]}, "no movement line"),
])
def test_a_bad_court_file_is_refused_naming_what_is_wrong(data: dict, message: str) -> None:
    with pytest.raises(CommandError, match=message):
        parse_court(data)


def test_stands_follow_from_where_the_players_are() -> None:
    state = play(two_coach(), {"type": "shot_card", "zones": ["V2", "Y3"]})
    # Red's player 2 steps out to V2 (1 space); Y3 holds a player of each coach from the start.
    state = play(state, move("offence", 2, "V2"))
    card = state.current.shots[0]
    assert [(z.points, z.stand) for z in card.zones] == [(3, "offence"), (2, "both")]
    state = play(state, {"type": "star", "role": "defence", "zone": "Y3"})
    after = play(state, {"type": "score"})
    assert after.records[-1].net == 3 - 2


def test_the_offence_moves_at_most_two_players_two_spaces_each() -> None:
    state = play(two_coach(), {"type": "shot_card", "zones": ["V1"]})
    with pytest.raises(RuleError, match="no more than 2 spaces: Y3 to V1 is 3"):
        decide(state, move("offence", 3, "V1"))
    state = play(state, move("offence", 1, "V1"), move("offence", 2, "B1"))
    with pytest.raises(RuleError, match="may move 0 to 2 players"):
        decide(state, move("offence", 4, "V4"))
    state = play(state, move("offence", 1, "V2"))  # the same player again, still 2 spaces from Y1


def test_the_defence_moves_one_player_one_space_and_one_player_per_zone() -> None:
    state = play(two_coach(), {"type": "shot_card", "zones": ["V3"]})
    with pytest.raises(RuleError, match="no more than 1 space: Y3 to B2 is 1|at most 1 player per zone"):
        decide(state, move("defence", 3, "Y4"))
    with pytest.raises(RuleError, match="no more than 1 space: Y1 to V2 is 2"):
        decide(state, move("defence", 1, "V2"))
    state = play(state, move("defence", 3, "V3"))
    with pytest.raises(RuleError, match="may move 0 to 1 player"):
        decide(state, move("defence", 2, "V2"))
    with pytest.raises(RuleError, match="offence moves before any Star card and before the defence"):
        decide(state, move("offence", 1, "V1"))


def test_the_solo_ai_defends_by_priority_from_the_court() -> None:
    state = play(setup({"court": "demo", "mode": "solo", "difficulty": "goat"}),
                 {"type": "ai_star", "zone": "Y5"})  # the AI's first display Star shows Y5
    state = play(state, {"type": "shot_card", "zones": ["V2", "V4"]},
                 move("offence", 2, "V2"), move("offence", 4, "V4"))
    # Two open threes; an AI player on Y2 or Y4 can step up, but it guards nobody there now: free.
    state = play(state, {"type": "ai_move"})
    stands = [z.stand for z in state.current.shots[0].zones]
    assert stands == ["both", "offence"]  # the first open three in card order
    assert state.positions[1][1] == "V2"
    with pytest.raises(RuleError, match="made its move"):
        decide(state, {"type": "ai_move"})


def test_the_solo_ai_prefers_a_defender_that_leaves_nobody_open() -> None:
    state = play(setup({"court": "demo", "mode": "solo", "difficulty": "goat"}),
                 {"type": "ai_star", "zone": "B1"})
    # You move player 2 away to V2: the AI's player 2 on Y2 guards nobody now, its player 1 on Y1
    # still guards your player 1. Either could reach... only Y2's player is one space from V2.
    state = play(state, {"type": "shot_card", "zones": ["V2"]}, move("offence", 2, "V2"),
                 {"type": "ai_move"})
    assert state.positions[1][1] == "V2" and state.positions[1][0] == "Y1"


def test_the_ais_offence_is_placed_on_its_card_and_star_draws_never_double_a_zone() -> None:
    state = play(setup({"court": "demo", "mode": "solo", "difficulty": "goat"}),
                 {"type": "ai_star", "zone": "V5"}, {"type": "shot_card", "zones": ["V1"]},
                 {"type": "ai_move"}, {"type": "score"})
    assert state.offence == 1 and state.ai_display == ("V5", None)
    state = play(state, {"type": "ai_star", "zone": "B2"}, {"type": "shot_card", "zones": ["V1", "V5"]})
    assert state.positions[1] == ("V1", "V5", "", "", "")
    with pytest.raises(RuleError, match="already has a player on V5: discard that Star card and draw"):
        decide(state, {"type": "ai_place", "zone": "V5"})
    with pytest.raises(RuleError, match="place every AI player first"):
        decide(state, {"type": "score"})
    state = play(state, *({"type": "ai_place", "zone": z} for z in ("Y1", "Y2", "Y3")))
    # Your defender on Y1 steps up to V1; the AI's display Star on V5 scores with its player there.
    state = play(state, move("defence", 1, "V1"), {"type": "score"})
    record = state.records[-1]
    assert (record.shot_points, record.offence_stars) == (3, 3)
    assert state.ai_display == ("B2",)


def test_choices_on_a_court_are_all_accepted() -> None:
    state = play(two_coach(), {"type": "shot_card"})
    choices = GAME.prompt(state).choices
    assert any(c.command == {"type": "zone", "zone": "V3"} for c in choices)
    for choice in choices:
        decide(state, choice.command)
