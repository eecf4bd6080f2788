"""Crunch Time's solo AI against the rulebook's priority list, and overtime."""

from __future__ import annotations

import pytest
from crunch_time_support import play_out_regulation

from companion.errors import RuleError
from companion.games.crunch_time import GAME
from companion.games.crunch_time.model import State
from companion.games.crunch_time.rules import decide, run, setup


def play(state: State, *commands: dict) -> State:
    for command in commands:
        state = run(state, command)
    return state


def zone(points: int, stand: str) -> dict:
    return {"type": "zone", "points": points, "stand": stand}


def reach(shot: int, zone_: int, answer: str, **extra: int) -> dict:
    return {"type": "ai_reach", "shot": shot, "zone": zone_, "answer": answer, **extra}


def solo(*zones: dict) -> State:
    return play(setup({"mode": "solo", "difficulty": "goat"}), {"type": "shot_card"}, *zones)


def asked(state: State) -> str:
    return GAME.prompt(state).text


def test_priority_one_a_zone_where_an_ai_display_star_scores_comes_first_three_before_two() -> None:
    state = solo(zone(2, "offence"), zone(3, "offence"), zone(3, "offence"))
    # The AI's one display Star shows the 2-point zone: priority 1 beats the open threes.
    state = play(state, {"type": "ai_star", "shot": 1, "zone": 1})
    assert "2-point zone 1" in asked(state)
    state = play(state, reach(1, 1, "free"))
    possession = state.current
    assert possession is not None and possession.ai_done
    assert possession.shots[0].zones[0].stand == "both"
    after = play(state, {"type": "score"})
    record = after.records[-1]
    # Two open threes score 6; the AI's defensive Star on the defended two scores 2 for the AI.
    assert (record.shot_points, record.defence_stars, record.net) == (6, 2, 4)
    # Its Star was part of the play (discarded); its own possession then draws one to the display.
    assert after.coach(1).stars == 1 and after.offence == 1


def test_priority_two_an_uncovered_three_before_priority_three_a_two() -> None:
    state = play(solo(zone(2, "offence"), zone(3, "offence")), {"type": "ai_star", "shot": None,
                                                                 "zone": None})
    assert "3-point zone 2" in asked(state)
    state = play(state, reach(1, 2, "no"))
    assert "2-point zone 1" in asked(state)  # the three can't be reached: the two is next
    state = play(state, reach(1, 1, "free"))
    assert state.current is not None and state.current.shots[0].zones[0].stand == "both"


def test_within_a_priority_the_ai_prefers_a_move_that_leaves_nobody_undefended() -> None:
    state = play(solo(zone(3, "offence"), zone(3, "offence"), zone(2, "both")),
                 {"type": "ai_star", "shot": None, "zone": None})
    state = play(state, reach(1, 1, "uncovers", from_shot=1, from_zone=3))
    assert state.current is not None and not state.current.ai_done  # it asks about the other three
    state = play(state, reach(1, 2, "free"))
    zones = state.current.shots[0].zones
    assert [z.stand for z in zones] == ["offence", "both", "both"]


def test_the_ai_uncovers_a_player_only_when_nothing_else_of_that_priority_is_reachable() -> None:
    state = play(solo(zone(3, "offence"), zone(3, "offence"), zone(2, "both")),
                 {"type": "ai_star", "shot": None, "zone": None})
    state = play(state, reach(1, 1, "uncovers", from_shot=1, from_zone=3), reach(1, 2, "no"))
    assert [z.stand for z in state.current.shots[0].zones] == ["both", "offence", "offence"]


def test_with_nothing_uncovered_the_ai_does_not_move() -> None:
    state = play(solo(zone(3, "both"), zone(2, "empty")), {"type": "ai_star", "shot": None, "zone": None})
    assert state.current is not None and state.current.ai_done
    assert play(state, {"type": "score"}).records[-1].net == 0


def test_score_waits_for_the_ais_move_and_its_stars() -> None:
    state = solo(zone(3, "offence"))
    with pytest.raises(RuleError, match="which zone each AI display Star shows"):
        decide(state, {"type": "score"})
    state = play(state, {"type": "ai_star", "shot": None, "zone": None})
    with pytest.raises(RuleError, match="the AI must move first"):
        decide(state, {"type": "score"})
    with pytest.raises(RuleError, match="asking about the 3-point zone 1"):
        decide(state, reach(1, 2, "no"))


def test_the_ais_offence_draws_a_display_star_and_scores_its_stars_automatically() -> None:
    state = play(setup({"mode": "solo", "difficulty": "goat"}), {"type": "shot_card"}, zone(2, "offence"),
                 {"type": "ai_star", "shot": None, "zone": None}, reach(1, 1, "no"), {"type": "score"})
    assert state.offence == 1 and state.coach(1).stars == 2  # its first Star and the one it drew now
    with pytest.raises(RuleError, match="places a player on every highlighted zone"):
        decide(play(state, {"type": "shot_card"}), zone(3, "empty"))
    state = play(state, {"type": "shot_card"}, zone(3, "offence"), zone(2, "both"),
                 {"type": "ai_star", "shot": 1, "zone": 1}, {"type": "ai_star", "shot": 1, "zone": 2},
                 {"type": "star", "role": "defence", "shot": 1, "zone": 2})
    with pytest.raises(RuleError, match="the AI's Star cards are played by the app"):
        decide(state, {"type": "star", "role": "offence", "shot": 1, "zone": 1})
    after = play(state, {"type": "score"})
    record = after.records[-1]
    # The open three (3) and both AI Stars (3 + 2) for the AI; your defensive Star 2: AI nets +6.
    assert (record.shot_points, record.offence_stars, record.defence_stars, record.net) == (3, 5, 2, 6)
    assert after.lead == 2 - 6 and after.coach(1).stars == 0
    assert after.coach(0).stars == 1  # held 1, drew 1 for covering its first card, played 1


def test_overtime_rounds_are_single_card_and_stop_at_the_first_round_not_tied() -> None:
    state = play(setup({}), {"type": "tip_off", "winner": 0})
    state = play_out_regulation(state)
    state = play(state, {"type": "tip_off", "cards": [3, 60]})  # Blue wins the overtime tip-off
    assert state.offence == 1
    state = play(state, {"type": "shot_card"}, zone(2, "empty"))
    with pytest.raises(RuleError, match="may not play 2 Shot cards in 1 possession during overtime"):
        decide(state, {"type": "shot_card"})
    state = play(state, {"type": "score"}, {"type": "shot_card"}, zone(2, "empty"), {"type": "score"})
    # Both Stars unplayed at the round's end score 1 each: still tied, round 2 of overtime.
    assert not state.final and state.overtime == 2 and state.lead == 0
    state = play(state, {"type": "shot_card"}, zone(3, "offence"), {"type": "score"},
                 {"type": "shot_card"}, zone(2, "empty"), {"type": "score"})
    assert state.final and state.winner == 1 and "after overtime 2" in state.reason


def test_still_tied_after_three_overtime_rounds_each_coach_draws_back_up() -> None:
    state = play(play_out_regulation(play(setup({}), {"type": "tip_off", "winner": 0})),
                 {"type": "tip_off", "winner": 0})
    for _ in range(6):
        state = play(state, {"type": "shot_card"}, zone(2, "empty"), {"type": "score"})
    assert state.overtime == 4 and not state.final
    assert [(c.shots, c.stars) for c in state.coaches] == [(3, 1), (3, 1)]
