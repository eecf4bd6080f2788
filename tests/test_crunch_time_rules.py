"""Crunch Time, checked against the rulebook (../shared/rulebooks/crunch-time.txt) to the number."""

from __future__ import annotations

from dataclasses import replace

import pytest
from crunch_time_support import empty_possession, play_out_regulation

from companion.errors import CompanionError, RuleError
from companion.games.crunch_time import GAME
from companion.games.crunch_time.model import DIFFICULTY, State
from companion.games.crunch_time.rules import decide, run, setup
from companion.timeline import Timeline


def play(state: State, *commands: dict) -> State:
    for command in commands:
        state = run(state, command)
    return state


def zones(*spec: tuple[int, str]) -> list[dict]:
    return [{"type": "zone", "points": p, "stand": s} for p, s in spec]


def possession(shots: int = 1, *spec: tuple[int, str], stars: tuple[dict, ...] = ()) -> list[dict]:
    """One possession: ``shots`` Shot cards with the same zones each, Stars, then score."""
    commands: list[dict] = []
    for _ in range(shots):
        commands += [{"type": "shot_card"}, *zones(*(spec or ((2, "empty"),)))]
    return [*commands, *stars, {"type": "score"}]


def test_the_scoring_example_nets_red_three() -> None:
    # Two defended yellow zones, an open violet zone; Red's Star and Blue's defensive Star on yellow.
    state = play(setup({}), {"type": "tip_off", "cards": [50, 20]})
    state = play(state, *possession(1, (2, "both"), (2, "both"), (3, "offence"), stars=(
        {"type": "star", "role": "offence", "shot": 1, "zone": 1},
        {"type": "star", "role": "defence", "shot": 1, "zone": 1})))
    record = state.records[-1]
    assert (record.shot_points, record.offence_stars, record.defence_stars, record.net) == (3, 2, 2, 3)
    assert state.lead == 3


def test_example_two_two_fully_covered_shot_cards_give_two_star_draws() -> None:
    state = play(setup({}), {"type": "tip_off", "winner": 0})
    state = play(state, {"type": "shot_card", "number": 24}, *zones((2, "offence"), (3, "both")),
                 {"type": "shot_card", "number": 7}, *zones((2, "offence"), (2, "offence")))
    events = decide(state, {"type": "score"})
    assert events[0]["draws"] == 2
    assert play(state, {"type": "score"}).coach(0).stars == 1 + 2


def test_drawn_stars_can_be_played_in_the_same_possession() -> None:
    state = play(setup({}), {"type": "tip_off", "winner": 0}, {"type": "shot_card"},
                 *zones((3, "offence"), (2, "offence"), (2, "both")))
    star = {"type": "star", "role": "offence", "shot": 1, "zone": 1}
    state = play(state, star, {**star, "zone": 2})  # one held, one drawn for covering the card
    with pytest.raises(RuleError, match="Red has no Star card left to play \\(holds 1, draws 1\\)"):
        decide(state, {**star, "zone": 3})
    with pytest.raises(RuleError, match="no more than 1 Star card for each highlighted zone"):
        decide(state, {**star, "zone": 2})


def test_unplayed_stars_decide_the_game_after_regulation() -> None:
    # "Red +1 at the end with Red holding 0 and Blue 2 unplayed Stars": Blue wins by 1.
    state = play_out_regulation(play(setup({}), {"type": "tip_off", "winner": 0}), 9)
    state = replace(state, lead=1).with_coach(0, stars=0).with_coach(1, stars=2)
    after = play(state, *empty_possession(state))
    assert after.final and after.winner == 1 and after.lead == -1
    assert after.reason == "by 1 after regulation" and after.winner == 1


def test_a_tie_after_regulation_goes_to_overtime_with_a_new_tip_off() -> None:
    state = play(setup({}), {"type": "tip_off", "winner": 1})
    state = play_out_regulation(state)
    assert not state.final and state.overtime == 1 and state.phase == "tip_off"
    assert [c.shots for c in state.coaches] == [3, 3] and [c.stars for c in state.coaches] == [1, 1]
    with pytest.raises(RuleError, match="tip-off comes first"):
        decide(state, {"type": "shot_card"})


def test_possession_order_is_the_same_every_round_and_the_tip_off_loser_closes_regulation() -> None:
    state = play(setup({}), {"type": "tip_off", "cards": [12, 40]})  # Blue wins the tip-off
    order = []
    for _ in range(10):
        order.append(state.offence)
        state = play(state, *empty_possession(state))
    assert order == [1, 0] * 5
    assert state.records[-1].offence == 0


def test_a_second_double_in_rounds_one_to_four_is_refused() -> None:
    state = play(setup({}), {"type": "tip_off", "winner": 0})
    state = play(state, *possession(2, (2, "empty")))  # Red's double in round 1
    state = play(state, *possession(1, (2, "empty")))  # Blue
    state = play(state, {"type": "shot_card"}, *zones((2, "empty")))
    with pytest.raises(RuleError, match="2nd Shot card is played once during rounds 1-4"):
        decide(state, {"type": "shot_card"})


def test_round_four_must_be_a_double_when_none_was_played() -> None:
    state = play(setup({}), {"type": "tip_off", "winner": 0})
    for _ in range(6):
        state = play(state, *possession(1, (2, "empty")))
    assert state.round == 4
    state = play(state, {"type": "shot_card"}, *zones((2, "empty")))
    with pytest.raises(RuleError, match="round 4 takes two Shot cards"):
        decide(state, {"type": "score"})
    assert "last chance" in str(pytest.raises(RuleError, decide, state, {"type": "score"}).value)


def test_a_single_shot_card_in_round_five_is_refused() -> None:
    state = play(setup({}), {"type": "tip_off", "winner": 0})
    for _ in range(8):
        state = play(state, *empty_possession(state))
    assert state.round == 5
    state = play(state, {"type": "shot_card"}, *zones((3, "offence")))
    with pytest.raises(RuleError, match="2 Shot cards must also be played in round 5"):
        decide(state, {"type": "score"})


def test_seven_shot_cards_are_all_played_in_regulation() -> None:
    state = play_out_regulation(play(setup({}), {"type": "tip_off", "winner": 0}))
    assert state.overtime == 1  # tied: the hands were refilled for overtime, after every card went


def test_mercy_rule_ends_the_game_at_the_start_of_the_leaders_own_possession() -> None:
    state = play(setup({}), {"type": "tip_off", "winner": 0})
    big = [(3, "offence")] * 5
    state = play(state, *possession(2, *big))  # Red +30 in round 1 (two cards, five open threes each)
    assert not state.final  # Blue has the ball: the mercy rule waits for Red's own possession
    state = play(state, *possession(1, (2, "empty")))
    assert state.final and state.winner == 0 and "mercy rule" in state.reason


def test_a_star_on_a_zone_no_shot_card_shows_is_refused_and_changes_nothing() -> None:
    state = play(setup({}), {"type": "tip_off", "winner": 0}, {"type": "shot_card"},
                 *zones((2, "offence")))
    timeline = Timeline(GAME)
    before = repr(state)
    with pytest.raises(RuleError, match="must match a highlighted zone on a current Shot card"):
        decide(state, {"type": "star", "role": "offence", "shot": 1, "zone": 2})
    with pytest.raises(RuleError, match="both an offensive and a defensive player"):
        decide(state, {"type": "star", "role": "defence", "shot": 1, "zone": 1})
    assert repr(state) == before and timeline.states == []


def test_solo_starts_toward_the_human_by_difficulty() -> None:
    leads = {name: setup({"mode": "solo", "difficulty": name}).lead for name in DIFFICULTY}
    assert leads == {"rookie": 10, "veteran": 8, "starter": 6, "all-star": 4, "hall-of-fame": 2, "goat": 0}
    solo = setup({"mode": "solo", "difficulty": "Hall of Fame"})
    assert solo.offence == 0 and solo.phase == "play" and solo.coach(0).shots == 5


def test_solo_has_no_two_shot_card_possessions() -> None:
    state = play(setup({"mode": "solo"}), {"type": "shot_card"}, *zones((2, "offence")))
    with pytest.raises(RuleError, match="no 2-Shot card possessions in the solo game"):
        decide(state, {"type": "shot_card"})


def test_bad_setup_and_commands_get_clear_errors() -> None:
    with pytest.raises(CompanionError, match="difficulty"):
        setup({"mode": "solo", "difficulty": "legend"})
    with pytest.raises(CompanionError, match="sides is a list of the two coaches"):
        setup({"sides": 3})
    with pytest.raises(CompanionError, match="no setup option 'players'"):
        setup({"players": 3})
    state = play(setup({}), {"type": "tip_off", "winner": 0}, {"type": "shot_card"})
    with pytest.raises(CompanionError, match="2 \\(yellow\\) or 3 \\(violet\\)"):
        decide(state, {"type": "zone", "points": 4, "stand": "offence"})
    with pytest.raises(CompanionError, match="can't both be number 7"):
        decide(setup({}), {"type": "tip_off", "cards": [7, 7]})
