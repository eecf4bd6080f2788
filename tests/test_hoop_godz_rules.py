"""Hoop Godz, checked against the rulebook (../shared/rulebooks/hoop-godz.txt) to the number."""

from __future__ import annotations

import json
from dataclasses import replace
from fractions import Fraction

import pytest
from hoop_godz_table import table_inputs
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.errors import CommandError, CompanionError, RuleError
from companion.games.hoop_godz import GAME
from companion.games.hoop_godz.dice import shot_chance
from companion.games.hoop_godz.model import State
from companion.games.hoop_godz.rules import decide, run, setup
from companion.timeline import Timeline

DRAFT = ("Demo Tower", "Demo Zip", "Demo Flash", "Demo Swing", "Demo Arc", "Demo Wall")


def play(state: State, *commands: dict) -> State:
    for command in commands:
        state = run(state, command)
    return state


def drafted(**options: object) -> State:
    return play(setup(dict(options)), *({"type": "pick", "baller": name} for name in DRAFT))


def home_active(**options: object) -> State:
    """Home won the tip-off and is active; Away (Zip, Flash, Wall) holds the TIE BREAKER."""
    return play(
        drafted(**options),
        {"type": "tip_off", "nearest": ["Demo Tower", "Demo Zip"]},
        {"type": "battle", "winner": 0},
    )


def test_setup_gives_six_available_four_yellow_ten_clock_tokens_seven_to_win() -> None:
    state = setup({})
    assert [(p.ledger.available, p.ledger.yellow, p.ledger.red) for p in state.players] == [(6, 4, 0)] * 2
    assert (state.clock, state.win_at) == (10, 7)
    pro = setup({"mode": "pro"})
    assert (pro.clock, pro.win_at) == (15, 10)


def test_the_first_picker_takes_picks_one_four_and_five() -> None:
    state = drafted()
    assert [b.name for b in state.player(0).squad] == ["Demo Tower", "Demo Swing", "Demo Arc"]
    assert [b.name for b in state.player(1).squad] == ["Demo Zip", "Demo Flash", "Demo Wall"]
    second = play(setup({"first_pick": 1}), {"type": "pick", "baller": "Demo Tower"})
    assert [b.name for b in second.player(1).squad] == ["Demo Tower"]


def test_tip_off_dice_are_three_or_four_when_the_baller_next_to_the_ball_is_big() -> None:
    state = play(drafted(), {"type": "tip_off", "nearest": ["Demo Tower", "Demo Zip"]})
    assert state.battle is not None and state.battle.dice == (4, 3)
    state = play(drafted(), {"type": "tip_off", "nearest": ["Demo Swing", "Demo Wall"]})
    assert state.battle is not None and state.battle.dice == (3, 4)


def test_tip_off_winner_is_active_and_moves_one_juice_to_yellow_the_loser_takes_the_tie_breaker() -> None:
    state = home_active()
    assert state.active == 0 and state.tie_breaker == 1
    assert (state.player(0).ledger.available, state.player(0).ledger.yellow) == (5, 5)


def test_a_tie_at_the_tip_off_is_rolled_again_because_nobody_holds_the_tie_breaker() -> None:
    tip = play(drafted(), {"type": "tip_off", "nearest": ["Demo Tower", "Demo Zip"]})
    again = play(tip, {"type": "battle", "tie": True})
    assert again.phase == "battle" and again.tie_breaker is None and again.rerolls == 1
    assert again.players == tip.players
    tied_race = {"type": "race", "order": [1, 0], "presses": [{"side": 1, "ms": 0}, {"side": 0, "ms": 12}],
                 "tie": True}
    events = decide(tip, tied_race)
    assert [e["type"] for e in events] == ["battle_tied"] and "roll again" in events[0]["text"]
    assert "roll again" in GAME.prompt(again).text and GAME.prompt(again).race.tie_breaker is None


def test_pass_move_move_move_uses_four_juice() -> None:
    state = home_active()
    available = state.player(0).ledger.available
    state = play(state, {"type": "pass"}, {"type": "move"}, {"type": "move"}, {"type": "move"})
    assert available - state.player(0).ledger.available == 4 and state.player(0).ledger.on_bar == 4
    assert state.player(0).ledger.bar[0] == "PASS"  # the blue PASS space, then the leftmost empty ones


def test_a_pass_in_the_middle_of_a_turn_is_refused_naming_the_rule() -> None:
    state = play(home_active(), {"type": "move"})
    with pytest.raises(RuleError, match="a PASS must be at the start of your turn"):
        decide(state, {"type": "pass"})
    assert play(state, {"type": "pass", "allowed_by": "skill"}).player(0).ledger.on_bar == 2


def test_a_move_with_no_juice_is_refused_and_changes_nothing() -> None:
    state = home_active()
    ledger = replace(state.player(0).ledger, available=0, yellow=state.player(0).ledger.yellow + 5)
    state = state.with_player(0, ledger=ledger)
    before = repr(state)
    with pytest.raises(RuleError, match="MOVE needs 1 juice and no juice is Available"):
        decide(state, {"type": "move"})
    assert repr(state) == before


def test_a_seventh_die_is_refused() -> None:
    state = play(
        home_active(),
        {"type": "play", "card": "DUNK", "baller": "Demo Tower"},
        {"type": "respond", "card": "BLOCK", "baller": "Demo Wall"},
    )
    assert state.battle is not None and state.battle.dice == (4, 4)
    state = play(state, {"type": "boost", "side": 0}, {"type": "boost", "side": 0})
    with pytest.raises(RuleError, match="at most 6 dice in a dice battle"):
        decide(state, {"type": "boost", "side": 0})


def test_a_rest_with_juice_right_of_the_rest_line_is_refused() -> None:
    state = play(home_active(), {"type": "pass"}, {"type": "move"}, {"type": "move"})
    rested = play(state, {"type": "rest"})  # three spaces, all left of the default Rest line
    assert rested.clock == 9 and rested.active == 1
    state = play(state, {"type": "move"})
    with pytest.raises(RuleError, match="without putting any juice to the right of the Rest line"):
        decide(state, {"type": "rest"})


def test_rest_recovers_up_to_four_yellow_then_both_bars_empty() -> None:
    state = play(home_active(), {"type": "move"}, {"type": "rest"})
    ledger = state.player(0).ledger
    # Before: Available 4, Yellow 5, bar 1. REST: 4 Yellow -> Available, then the bar drains to Yellow.
    assert (ledger.available, ledger.yellow, ledger.red, ledger.on_bar) == (8, 2, 0, 0)


def test_difficulty_three_three_balls_score_two_balls_start_a_rebound_battle() -> None:
    state = play(
        home_active(),
        {"type": "play", "card": "SHOOT", "baller": "Demo Arc", "difficulty": 3, "points": 2},
        {"type": "no_response"},
    )
    assert state.phase == "final_roll" and state.shot == (3, 3, 2)
    scored = play(state, {"type": "roll", "die": "balls", "face": 3})
    assert scored.player(0).score == 2 and scored.active == 1
    missed = play(state, {"type": "roll", "die": "balls", "face": 2})
    assert missed.phase == "battle" and missed.battle is not None and missed.battle.kind == "rebound"


def test_five_plus_three_is_eight_and_ends_the_game_for_the_scorer() -> None:
    state = home_active().with_player(0, score=5)
    state = play(
        state,
        {"type": "play", "card": "SHOOT", "baller": "Demo Arc", "difficulty": 2, "points": 3},
        {"type": "no_response"},
        {"type": "roll", "die": "balls", "face": 2},
    )
    assert state.final and state.winner == 0 and state.player(0).score == 8
    assert GAME.outcome(state) is not None and "reaches 8 points" in state.reason


def test_a_tie_goes_to_the_tie_breaker_holder_who_hands_it_over() -> None:
    state = play(
        home_active(),
        {"type": "play", "card": "DRIVE", "baller": "Demo Swing"},
        {"type": "respond", "card": "STEAL", "baller": "Demo Zip"},
        {"type": "battle", "tie": True},
    )
    assert state.tie_breaker == 0 and state.player(1).battles_won == 1
    assert state.active == 1  # Away's STEAL won, and the demo STEAL ends the turn


def test_dunk_scores_two_on_a_won_battle_and_scoring_recovers_juice() -> None:
    state = play(
        home_active(),
        {"type": "play", "card": "DUNK", "baller": "Demo Tower"},
        {"type": "respond", "card": "BLOCK", "baller": "Demo Wall"},
        {"type": "battle", "winner": 0},
    )
    home = state.player(0)
    assert home.score == 2 and state.active == 1
    # DUNK by a big baller: 2 juice. Score: 1 Yellow -> Available, then the bar drains to Yellow.
    assert (home.ledger.available, home.ledger.yellow, home.ledger.red) == (4, 6, 0)


def test_juice_landing_in_red_reminds_to_draw_a_goat_card() -> None:
    state = home_active()
    for _ in range(5):
        state = play(state, {"type": "move"})  # the fifth lands on the first red space of the default bar
    assert state.active == 0 and state.player(0).ledger.on_bar == 5
    state = play(state, {"type": "end_turn"})
    assert state.player(0).goat_draws == 1 and state.player(0).ledger.red == 1


def test_the_clock_running_out_tied_means_the_next_score_wins() -> None:
    state = replace(home_active(), clock=1)
    state = play(state, {"type": "rest"})
    assert state.overtime and not state.final and state.clock == 0
    state = play(state, {"type": "play", "card": "DUNK", "baller": "Demo Zip"}, {"type": "no_response"})
    assert state.final and state.winner == 1 and "scored next" in state.reason


def test_the_clock_running_out_gives_the_game_to_the_leader() -> None:
    state = replace(home_active(), clock=1).with_player(1, score=3)
    state = play(state, {"type": "rest"})
    assert state.final and state.winner == 1


def test_shot_chance_is_exact() -> None:
    assert shot_chance(3, 3, 6) == 1
    assert shot_chance(3, 3, 3) == Fraction(1, 8)
    prompt = GAME.prompt(
        play(
            home_active(ball_faces=3),
            {"type": "play", "card": "SHOOT", "baller": "Demo Arc", "difficulty": 3, "points": 2},
            {"type": "no_response"},
        )
    )
    assert prompt.p_success == Fraction(1, 8) and prompt.expected_points == Fraction(1, 4)


def test_bad_setup_is_refused_clearly() -> None:
    with pytest.raises(CommandError, match="ball_faces"):
        setup({"ball_faces": 7})
    with pytest.raises(CommandError, match="cards must include REBOUND"):
        setup({"cards": [{"name": "SHOOT", "juice": 2, "effect": "shoot"}]})
    with pytest.raises(CommandError, match="nine ballers"):
        setup({"ballers": [{"name": "A", "size": "big"}]})


@settings(max_examples=40, deadline=None)
@given(
    st.lists(st.integers(min_value=0, max_value=10_000), max_size=120), st.sampled_from(["standard", "pro"])
)
def test_any_game_keeps_ten_tokens_each_and_replays_to_the_same_state(picks: list[int], mode: str) -> None:
    timeline = Timeline(GAME)
    timeline.commit(*timeline.plan_setup({"mode": mode, "ball_faces": 2}))
    for pick in picks:
        if GAME.outcome(timeline.state) is not None:
            break
        prompt = GAME.prompt(timeline.state)
        inputs = table_inputs(prompt)
        assert inputs, f"nothing to enter at {prompt.text!r}"
        timeline.commit(*timeline.plan_command(inputs[pick % len(inputs)]))
        assert [p.ledger.total for p in timeline.state.players] == [10, 10]
        json.dumps(GAME.view(timeline.state))
    replayed = Timeline.replay(
        GAME, [{"kind": "setup", "options": {"mode": mode, "ball_faces": 2}}, *timeline.history()]
    )
    assert replayed.state == timeline.state


@settings(max_examples=40, deadline=None)
@given(
    st.fixed_dictionaries(
        {
            "type": st.sampled_from(
                ["pick", "move", "pass", "boost", "play", "respond", "battle", "rest", "roll", "race",
                 "dance"]
            )
        },
        optional={
            "card": st.sampled_from(["SHOOT", "DUNK", "BLOCK", "NOPE"]),
            "baller": st.sampled_from(["Demo Zip", "Demo Tower", "Nobody"]),
            "winner": st.integers(-1, 2),
            "balls": st.integers(-1, 9),
            "difficulty": st.integers(-1, 8),
            "side": st.integers(-1, 2),
        },
    )
)
def test_a_refused_command_changes_nothing(command: dict) -> None:
    state = home_active()
    before = repr(state)
    try:
        decide(state, command)
    except CompanionError as exc:
        assert str(exc)
    assert repr(state) == before


def battle_with_away_holding() -> State:
    """Home plays DRIVE, Away answers with BLOCK: a dice battle; Away holds the TIE BREAKER."""
    return play(home_active(), {"type": "play", "card": "DRIVE", "baller": "Demo Swing"},
                {"type": "respond", "card": "BLOCK", "baller": "Demo Wall"})


def race(order: list[int], presses: list[tuple[int, int]], tie: bool) -> dict:
    return {"type": "race", "order": order, "presses": [{"side": s, "ms": ms} for s, ms in presses],
            "tie": tie}


def test_a_race_is_won_by_the_first_press_and_a_tie_by_the_holder_who_hands_it_over() -> None:
    state = battle_with_away_holding()
    prompt = GAME.prompt(state)
    assert prompt.race is not None and prompt.race.tie_breaker == 1 and prompt.race.window_ms == 50
    clean = play(state, race([0, 1], [(0, 0), (1, 51 + 10)], False))
    assert clean.tie_breaker == 1 and clean.player(0).battles_won == state.player(0).battles_won + 1
    tied = play(state, race([1, 0], [(0, 0), (1, 20)], True))
    assert tied.tie_breaker == 0 and tied.player(1).battles_won == state.player(1).battles_won + 1


@pytest.mark.parametrize("command, words", [
    (race([1, 0], [(0, 0), (1, 200)], False), "the side that pressed first"),
    (race([0, 1], [(0, 0), (1, 20)], False), "within the 50 ms race window"),
    (race([1, 0], [(0, 0), (1, 200)], True), "no tie"),
    (race([0, 1], [(0, 0), (1, 20)], True), "TIE BREAKER holder"),
    (race([0, 1], [(0, 5), (1, 20)], False), "first is at 0 ms"),
])
def test_a_race_its_own_times_contradict_is_refused_and_changes_nothing(command: dict, words: str) -> None:
    state = battle_with_away_holding()
    before = repr(state)
    with pytest.raises(RuleError, match=words):
        decide(state, command)
    assert repr(state) == before


def test_b_ball_4_all_asks_the_front_ends_for_a_steady_beat() -> None:
    assert GAME.prompt(battle_with_away_holding()).race.tempo_ms is None
    tempo = play(setup({"b_ball_4_all": True}), *({"type": "pick", "baller": n} for n in DRAFT),
                 {"type": "tip_off", "nearest": ["Demo Tower", "Demo Zip"]})
    assert GAME.prompt(tempo).race.to_json()["tempo_ms"] == 1500


def test_the_final_roll_awaits_the_ball_count_with_its_exact_chance_once_ball_faces_is_set() -> None:
    def shooting(**options: object) -> State:
        return play(home_active(**options),
                    {"type": "play", "card": "SHOOT", "baller": "Demo Swing", "difficulty": 2, "points": 3},
                    {"type": "no_response"})

    prompt = GAME.prompt(shooting(ball_faces=2))
    assert prompt.roll is not None and prompt.roll.die.distinct_faces == (0, 1, 2, 3)
    assert prompt.p_success == shot_chance(3, 2, 2) == Fraction(7, 27)
    assert prompt.expected_points == Fraction(7, 9)
    assert prompt.to_json()["pool"] is None  # one entry: the count, not three faces one by one
    assert [o.probability for o in prompt.roll.outcomes()] == [Fraction(7, 27), Fraction(20, 27)]
    with pytest.raises(RuleError, match="3 dice show at most 3 BALL icons"):
        decide(shooting(ball_faces=2), {"type": "roll", "die": "balls", "face": 4})
    unknown = GAME.prompt(shooting())
    assert unknown.roll is None and unknown.p_success is None
    assert [c.command["face"] for c in unknown.choices] == [0, 1, 2, 3]


def test_each_shoot_button_shows_its_chance_unanswered_once_ball_faces_is_set() -> None:
    """The turn's SHOOT choices carry the chance of the final roll if nobody responds (the card's own
    dice: 3 for Home's medium and big ballers), the odds the kiosk prints on each button."""
    shots = {c.label: c for c in GAME.prompt(home_active(ball_faces=2)).choices
             if c.command.get("card") == "SHOOT"}
    arc_three = shots["SHOOT by Demo Arc: 3 pts, difficulty 1"]
    assert arc_three.p_success == shot_chance(3, 1, 2) == Fraction(19, 27)
    assert arc_three.expected_points == Fraction(19, 9)
    swing_two = shots["SHOOT by Demo Swing: 2 pts, difficulty 2"]  # medium: 3 dice
    assert swing_two.p_success == Fraction(7, 27) and swing_two.expected_points == Fraction(14, 27)
    assert all(c.p_success is None for c in GAME.prompt(home_active()).choices)


def test_no_response_is_the_first_answer_offered_to_the_responder() -> None:
    """The usual answer first: below every response card by every baller it sat out of sight."""
    responding = play(home_active(), {"type": "play", "card": "DUNK", "baller": "Demo Tower"})
    choices = GAME.prompt(responding).choices
    assert choices[0].label == "no response" and choices[0].command == {"type": "no_response"}
    assert len(choices) > 10


def test_squads_drafted_before_the_app_start_the_game_at_the_tip_off() -> None:
    squads = [["Demo Tower", "Demo Swing", "Demo Arc"], ["demo zip", "Demo Flash", "Demo Wall"]]
    state = setup({"squads": squads})
    assert state.phase == "tip_off" and state.pool == () and state.picks == 6
    assert [b.name for b in state.player(1).squad] == ["Demo Zip", "Demo Flash", "Demo Wall"]
    # The same table as the six picks of DRAFT made one by one.
    assert state.players == drafted().players and state.phase == drafted().phase
    for bad, words in ((squads[:1], "three drafted ballers"),
                       ([squads[0], ["Demo Zip", "Demo Flash", "Demo Tower"]], "Demo Tower is drafted twice"),
                       ([squads[0], ["Demo Zip", "Demo Flash", "Zorro"]], "'Zorro' is not among")):
        with pytest.raises(CommandError, match=words):
            setup({"squads": bad})


def test_quick_start_is_the_demo_squads_drafted_and_start_game_still_drafts() -> None:
    presets = GAME.frontend.setup_form.presets
    assert GAME.setup(presets[0].options).phase == "draft" and not presets[0].demo
    (quick,) = [p for p in presets if p.demo]
    assert GAME.setup(quick.options).phase == "tip_off"
