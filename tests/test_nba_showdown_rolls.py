"""NBA Showdown scoring rolls, shot checks, markers and assists, checked against the rulebook."""

from __future__ import annotations

import json
import pickle
from fractions import Fraction

import pytest
from games.nba_showdown_table import card, custom_options, five, play_quarter, roll_for, run, to_first_roll

from companion.dice import D20
from companion.errors import CompanionError, RuleError
from companion.games.nba_showdown import GAME, odds, shipped_roster
from companion.games.nba_showdown.cards import parse_card
from companion.success import RollInfo

QUICK = {"quick_play": True}
NO_STRATEGY = {"rules": {"strategy": False, "substitutions": False, "double_team": False}}


def _game(home: dict | None = None, away: dict | None = None, **extra: object):
    return to_first_roll(GAME.setup(custom_options(five("Home", **(home or {})), five("Away", **(away or {})),
                                                   **extra)))


def test_speed_17_against_14_adds_3_and_power_10_against_9_adds_1() -> None:
    state = _game({"PG": {"speed": 17, "power": 10}}, {"PG": {"speed": 14, "power": 9}}, **QUICK)
    choices = {c.command["stat"]: c.label for c in GAME.prompt(state).choices
               if c.command["position"] == "PG"}
    assert choices["speed"] == "PG Home PG Speed +3"
    assert choices["power"] == "PG Home PG Power +1"
    speed = run(state, {"type": "shoot", "position": "PG", "stat": "speed"})
    assert GAME.prompt(speed).target.value == 3 and GAME.prompt(speed).target.stat_label == "Speed 17 vs 14"
    power = run(state, {"type": "shoot", "position": "PG", "stat": "power"})
    assert GAME.prompt(power).target.value == 1


def test_speed_14_against_17_adds_nothing_never_subtracts() -> None:
    assert odds.matchup_bonus(14, 17) == 0
    state = _game({"PG": {"speed": 14}}, {"PG": {"speed": 17}}, **QUICK)
    state = run(state, {"type": "shoot", "position": "PG", "stat": "speed"})
    assert GAME.prompt(state).target.value == 0


def test_the_total_is_read_off_the_rollers_chart() -> None:
    state = _game({"PG": {"speed": 13}}, {"PG": {"speed": 10}}, **QUICK)
    state = roll_for(state, "PG", 14)  # 14 + 3 = 17: row 16-20, 3 PTS
    assert state.score == (3, 0) and "16-20" in state.message


def test_a_total_below_1_counts_as_1() -> None:
    chart = (("1", 5, 0, 0), ("2-20", 0, 0, 0), ("21+", 0, 0, 0))
    state = _game({"PG": {"chart": chart, "shot_line": 2}}, **NO_STRATEGY)
    state = state.with_team(0, state.teams[0].with_marker("Home PG", -3))  # three cold markers: -12
    state = roll_for(state, "PG", 5)  # 5 - 12 = -7, read as 1
    assert state.score == (5, 0) and "5 -> 1" in state.message
    assert odds.row_chances(parse_card(card("c", ["PG"], chart=chart, shot_line=2)), -30)[0].probability == 1


def test_a_speed_or_power_below_1_counts_as_1() -> None:
    assert odds.matchup_bonus(5, -3) == 4 and odds.matchup_bonus(-2, -9) == 0


def test_the_distribution_is_ready_for_the_engines_outcomes_field() -> None:
    dasher = shipped_roster("demo-comets").card("Demo Dasher")
    speed = odds.stat_odds(dasher, "speed", 3, 4)
    outcomes = RollInfo(D20, speed.lookup).outcomes()  # what the engine sends as the prompt's outcomes
    assert sum(o.probability for o in outcomes) == 1
    assert [o.probability for o in outcomes] == [c.probability for c in speed.rows if c.probability]
    assert (outcomes[-1].label, outcomes[-1].probability, outcomes[-1].gives) == (
        "18-20", Fraction(3, 20), "10P 5A 2R")  # 18 + 7 = 25: row 25+
    assert speed.label == "Speed +3: 6.0 pts expected"


def test_the_prompt_shows_every_rows_chance_for_speed_and_for_power_before_the_roll() -> None:
    state = to_first_roll(GAME.setup({"teams": [{"roster": "demo-comets"}, {"roster": "demo-lanterns"}]}))
    view = GAME.view(state)
    dasher = [o for o in view["choices_odds"] if o["position"] == "PG"]
    assert [o["stat"] for o in dasher] == ["speed", "power"]
    for stat in dasher:
        assert sum(Fraction(r["fraction"]) for r in stat["rows"]) == 1
        assert stat["hot"] == stat["cold"] == 0.1
    comets = shipped_roster("demo-comets")
    speed = odds.stat_odds(comets.card("Demo Dasher"), "speed", 1, 0)  # Speed 17 against Mock Blaze's 16
    assert dasher[0]["expected_pts"] == float(speed.expected_pts)
    offered = next(c for c in GAME.prompt(state).choices if c.label == "PG Demo Dasher Speed +1")
    assert (offered.expected_points, offered.p_success) == (speed.expected_pts, speed.p_score)
    assert offered.hint == f"{float(speed.expected_pts):.1f} pts, scores {float(speed.p_score):.0%}"


def test_after_the_roll_the_prompt_says_the_fewest_assists_to_the_next_row() -> None:
    state = _game({"PG": {"speed": 10}}, {"PG": {"speed": 10}}, **NO_STRATEGY)
    state = roll_for(state, "PG", 20)  # 20: row 16-20, 1 AST
    state = roll_for(state, "PG", 9)
    high = run(state, {"type": "shoot", "position": "SG", "stat": "speed"}, {"type": "roll", "face": 13})
    assert high.stage == "choose"  # 13 needs 3 assists for 16-20, the track has 1: nothing to decide
    state = run(state, {"type": "shoot", "position": "SG", "stat": "speed"}, {"type": "roll", "face": 15})
    assert state.stage == "assist"
    prompt = GAME.prompt(state)
    assert "1 assist reaches the next row" in prompt.text
    assert [(c.label, c.command["count"]) for c in prompt.choices] == [
        ("no assist: 10-15 2 PTS", 0), ("+1 assist: 16-20 3 PTS", 1)]
    assert GAME.view(state)["roll"]["assists_to_next_row"] == 1


@pytest.mark.parametrize("spent", [0, 1, 2])
def test_spending_k_assists_adds_k_to_the_total_and_takes_k_off_the_track(spent: int) -> None:
    chart = (("1-9", 0, 3, 0), ("10-11", 1, 0, 0), ("12", 2, 0, 0), ("13+", 3, 0, 0))
    state = _game({"PG": {"chart": chart, "shot_line": 12}, "SG": {"chart": chart, "shot_line": 12}},
                  **NO_STRATEGY)
    state = roll_for(state, "PG", 3)  # 0 PTS, 3 AST: track at 3
    state = roll_for(state, "PG", 3)
    assert state.teams[0].assists == 3
    state = run(state, {"type": "shoot", "position": "SG", "stat": "speed"}, {"type": "roll", "face": 11})
    state = run(state, {"type": "assist", "count": spent})
    assert state.teams[0].assists == 3 - spent
    assert state.score[0] == {0: 1, 1: 2, 2: 3}[spent]


def test_an_assist_the_side_does_not_have_is_refused_and_changes_nothing() -> None:
    chart = (("1-9", 0, 1, 0), ("10-19", 1, 0, 0), ("20+", 3, 0, 0))
    state = _game({"PG": {"chart": chart, "shot_line": 10}}, **NO_STRATEGY)
    state = roll_for(state, "PG", 5)
    state = roll_for(state, "PG", 5)
    state = run(state, {"type": "shoot", "position": "SG", "stat": "speed"}, {"type": "roll", "face": 9})
    before = json.dumps(GAME.view(state), sort_keys=True)
    with pytest.raises(RuleError, match="have 1 assist on the Assist Track, not 2"):
        GAME.decide(state, {"type": "assist", "count": 2})
    assert json.dumps(GAME.view(state), sort_keys=True) == before


def test_a_roll_of_21_is_refused_and_changes_nothing() -> None:
    state = run(_game(**QUICK), {"type": "shoot", "position": "PG", "stat": "speed"})
    before = json.dumps(GAME.view(state), sort_keys=True)
    with pytest.raises(RuleError, match="the d20 shows 1 to 20, not 21"):
        GAME.decide(state, {"type": "roll", "face": 21})
    assert json.dumps(GAME.view(state), sort_keys=True) == before


def test_assists_carry_over_from_quarter_to_quarter() -> None:
    chart = (("1-9", 0, 1, 0), ("10-19", 1, 1, 0), ("20+", 3, 1, 0))
    state = _game({p: {"chart": chart, "shot_line": 10} for p in ("PG", "SG", "SF", "PF", "C")},
                  **NO_STRATEGY)
    state = play_quarter(state, face=5)  # five rolls of 1 AST, no assist spent
    assert state.quarter == 2 and state.teams[0].assists == 5


def test_a_natural_19_or_20_gives_a_hot_marker_and_1_or_2_a_cold_one() -> None:
    state = _game(**NO_STRATEGY)
    state = roll_for(state, "PG", 19)
    state = roll_for(state, "PG", 2)
    assert state.teams[0].marker("Home PG") == 1 and state.teams[1].marker("Away PG") == -1
    state = run(state, {"type": "shoot", "position": "SG", "stat": "speed"})
    assert GAME.prompt(state).target.value == 0  # the marker is on PG, not SG


def test_a_15_with_a_bonus_of_5_gives_no_hot_marker() -> None:
    state = _game({"PG": {"speed": 15}}, {"PG": {"speed": 10}}, **NO_STRATEGY)
    state = roll_for(state, "PG", 15)
    assert state.teams[0].markers == ()


def test_each_hot_marker_adds_4_and_each_cold_marker_takes_4() -> None:
    state = _game(**NO_STRATEGY)
    hot = state.with_team(0, state.teams[0].with_marker("Home PG", 1).with_marker("Home PG", 1))
    hot = run(hot, {"type": "shoot", "position": "PG", "stat": "speed"})
    assert GAME.prompt(hot).target.value == 8 and "2 hot markers" in GAME.prompt(hot).target.text
    cold = state.with_team(0, state.teams[0].with_marker("Home PG", -1))
    cold = run(cold, {"type": "shoot", "position": "PG", "stat": "speed"})
    assert GAME.prompt(cold).target.value == -4 and "cold marker" in GAME.prompt(cold).target.text


def test_markers_of_the_same_kind_stack_from_natural_rolls() -> None:
    state = _game(**NO_STRATEGY)
    state = roll_for(state, "PG", 20)
    state = roll_for(state, "PG", 10)
    state = roll_for(state, "SG", 19)
    assert state.teams[0].markers == (("Home PG", 1), ("Home SG", 1))


def test_a_cold_marker_removes_a_hot_one_instead_of_sitting_beside_it() -> None:
    state = roll_for(_game(**NO_STRATEGY), "PG", 20)
    assert state.teams[0].marker("Home PG") == 1
    state = play_quarter(state)  # Q2: Away rolls first
    state = roll_for(roll_for(to_first_roll(state), "PG", 10), "PG", 1)
    assert state.teams[0].markers == ()
    state = play_quarter(state)
    state = roll_for(to_first_roll(state), "PG", 2)  # Q3: a cold marker on a bare player stays
    assert state.teams[0].markers == (("Home PG", -1),)


def test_markers_are_ignored_when_hot_cold_is_switched_off() -> None:
    state = _game(rules={"hot_cold": False, "strategy": False, "substitutions": False, "double_team": False})
    state = roll_for(state, "PG", 20)
    assert state.teams[0].markers == ()


def _shot_line_game(chart: tuple, shot_line: int):
    return _game({"PG": {"chart": chart, "shot_line": shot_line}}, rules={"substitutions": False,
                                                                         "double_team": False})


MCGRADY_LIKE = (("1-9", 0, 0, 0), ("10-15", 2, 0, 0), ("16-20", 3, 0, 0), ("21+", 4, 0, 0))
HIGH_LINE = (("1-11", 0, 0, 0), ("12-17", 2, 0, 0), ("18-23", 3, 0, 0), ("24+", 4, 0, 0))


def test_a_shot_line_between_10_15_and_16_20_needs_16_p_5_in_20() -> None:
    state = _shot_line_game(MCGRADY_LIKE, 16)
    state = run(state, {"type": "shoot", "position": "PG", "stat": "speed"},
                {"type": "play_card", "side": 0, "card": "Home card 1", "shot_check": {"points": 2}})
    prompt = GAME.prompt(state)
    assert prompt.p_success == Fraction(5, 20) and "needs 16 or more" in prompt.text
    assert odds.shot_check_chance(16, 0) == Fraction(5, 20)
    missed = run(state, {"type": "roll", "face": 15})
    made = run(state, {"type": "roll", "face": 16})
    assert missed.score == (0, 0) and made.score == (2, 0) and made.stage == "roll"


def test_a_shot_line_between_12_17_and_18_23_needs_18_p_3_in_20() -> None:
    state = _shot_line_game(HIGH_LINE, 18)
    state = run(state, {"type": "shoot", "position": "PG", "stat": "speed"},
                {"type": "play_card", "side": 0, "card": "Home card 1", "shot_check": {"points": 2}})
    assert GAME.prompt(state).p_success == Fraction(3, 20)


def test_a_shot_check_has_no_matchup_bonus_but_adds_the_3pt_bonus_on_a_three() -> None:
    state = _game({"PG": {"speed": 20, "three_point_bonus": 2}}, {"PG": {"speed": 5}},
                  rules={"substitutions": False, "double_team": False})
    state = run(state, {"type": "shoot", "position": "PG", "stat": "speed"},
                {"type": "play_card", "side": 0, "card": "Home card 1",
                 "shot_check": {"points": 3, "three_point": True}})
    assert GAME.prompt(state).p_success == Fraction(7, 20)  # 14 + 2 reaches 16


def test_a_foul_shot_is_1_point_with_plus_10() -> None:
    state = _shot_line_game(MCGRADY_LIKE, 16)
    state = run(state, {"type": "shoot", "position": "PG", "stat": "speed"},
                {"type": "play_card", "side": 0, "card": "Home card 1", "shot_check": {"foul_shot": True}})
    assert GAME.prompt(state).p_success == Fraction(15, 20)
    assert run(state, {"type": "roll", "face": 6}).score == (1, 0)
    assert run(state, {"type": "roll", "face": 5}).score == (0, 0)


def test_a_shot_check_gives_no_marker_unless_the_card_says_so() -> None:
    state = _shot_line_game(MCGRADY_LIKE, 16)
    state = run(state, {"type": "shoot", "position": "PG", "stat": "speed"},
                {"type": "play_card", "side": 0, "card": "Home card 1", "shot_check": {"points": 2}},
                {"type": "roll", "face": 20})
    assert state.teams[0].markers == ()


def test_odds_rows_sum_to_one_for_every_demo_card_and_modifier() -> None:
    for roster in ("demo-comets", "demo-lanterns"):
        for player in shipped_roster(roster).cards:
            for modifier in range(-12, 16):
                assert sum(c.probability for c in odds.row_chances(player, modifier)) == 1


def test_refused_commands_name_what_is_wrong() -> None:
    state = _game(**QUICK)
    with pytest.raises(CompanionError, match="strategy cards are switched off"):
        GAME.decide(run(state, {"type": "shoot", "position": "PG", "stat": "speed"}),
                    {"type": "play_card", "side": 0, "card": "Home card 1"})
    with pytest.raises(CompanionError, match="double-teaming is switched off"):
        GAME.decide(state, {"type": "double_team", "helped": "SG", "helper": "PG"})
    state = roll_for(roll_for(state, "PG", 10), "PG", 10)
    with pytest.raises(RuleError, match="Home PG already rolled this quarter"):
        GAME.decide(state, {"type": "shoot", "position": "PG", "stat": "speed"})
    with pytest.raises(RuleError, match="it is Home's scoring roll"):
        GAME.decide(state, {"type": "shoot", "side": 1, "position": "SG", "stat": "speed"})
    with pytest.raises(RuleError, match="can't roll the d20 now: Home choose a player"):
        GAME.decide(state, {"type": "roll", "face": 3})


def test_a_hot_marker_counts_on_a_shot_check_unless_the_card_says_not() -> None:
    state = _shot_line_game(MCGRADY_LIKE, 16)
    state = state.with_team(0, state.teams[0].with_marker("Home PG", 1))
    state = run(state, {"type": "shoot", "position": "PG", "stat": "speed"})
    card_on = {"type": "play_card", "side": 0, "card": "Home card 1", "shot_check": {"points": 2}}
    with_marker = run(state, card_on)
    assert GAME.prompt(with_marker).p_success == Fraction(9, 20)  # 12 + 4 reaches 16
    without = run(state, {"type": "play_card", "side": 0, "card": "Home card 1",
                          "shot_check": {"points": 2, "markers": False}})
    assert GAME.prompt(without).p_success == Fraction(5, 20)


def test_assists_are_added_after_a_total_below_1_is_read_as_1() -> None:
    chart = (("1", 0, 2, 0), ("2", 1, 0, 0), ("3", 2, 0, 0), ("4+", 3, 0, 0))
    state = _game({p: {"chart": chart, "shot_line": 2} for p in ("PG", "SG")}, **NO_STRATEGY)
    state = roll_for(roll_for(state, "PG", 1), "PG", 10)  # Home: row 1, 2 AST (and a cold marker)
    state = state.with_team(0, state.teams[0].with_marker("Home SG", -2))  # -8
    state = run(state, {"type": "shoot", "position": "SG", "stat": "speed"}, {"type": "roll", "face": 3})
    assert GAME.view(state)["roll"]["total"] == 1
    state = run(state, {"type": "assist", "count": 2})  # 3 - 8 = -5 -> 1, then + 2 = 3
    assert state.score[0] == 2 and "= 3, 3:" in state.message


def test_a_card_taking_a_point_off_a_0_pts_row_leaves_0_pts() -> None:
    state = _game(rules={"substitutions": False, "double_team": False})
    state = run(state, {"type": "shoot", "position": "PG", "stat": "speed"},
                {"type": "play_card", "side": 1, "card": "Away card 1", "adjust": {"pts": -2}},
                {"type": "roll", "face": 12})  # 10-15: 2 PTS - 2
    assert state.score == (0, 0)
    state = run(state, {"type": "shoot", "position": "PG", "stat": "speed"},
                {"type": "play_card", "side": 0, "card": "Home card 1", "adjust": {"pts": -3}},
                {"type": "roll", "face": 3})  # 1-9: 1 PTS - 3
    assert state.score == (0, 0) and state.box[-1].pts == 0


def test_a_defensive_cards_shot_check_scores_for_the_defenders_team() -> None:
    state = _shot_line_game(MCGRADY_LIKE, 16)
    state = run(state, {"type": "shoot", "position": "PG", "stat": "speed"},
                {"type": "play_card", "side": 1, "card": "Away card 1", "shot_check": {"points": 2}},
                {"type": "roll", "face": 18})
    assert state.score == (0, 2) and state.stage == "roll"


def test_the_chart_rule_reads_every_face_as_the_engines_lookup_does() -> None:
    # ``odds.ChartLookup`` finds a face's row in one step and groups the outcomes in one pass: it
    # must answer what ``Lookup`` answers, on the d20 and on a die with repeated and blank faces.
    from companion.dice import Die
    from companion.success import Lookup, Row

    odd_die = Die("d8x", "d8x", (1, 2, 2, 5, "blank", 9, 9, 30))
    rules = [odds.chart_lookup(c, modifier).rows
             for name in ("demo-comets", "demo-lanterns") for c in shipped_roster(name).cards
             for modifier in range(-6, 16)]
    rules += [(Row(1, 4, "a", None), Row(5, 9, "b", None)), (Row(3, 6, "a", True), Row(5, 12, "b", False))]
    for rows in rules:
        fast, engine = odds.ChartLookup(rows), Lookup(rows)
        for die in (D20, odd_die):
            faces = (*die.faces, 0, 99, True, "x")
            assert [fast.row_for(f) for f in faces] == [engine.row_for(f) for f in faces]
            assert [fast.succeeds(f) for f in faces] == [engine.succeeds(f) for f in faces]
            assert fast.chance(die) == engine.chance(die)
            assert fast.outcomes(die) == engine.outcomes(die)
            assert RollInfo(die, fast).json_parts() == RollInfo(die, engine).json_parts()
        copy = pickle.loads(pickle.dumps(fast))
        assert copy == fast and hash(copy) == hash(fast) == hash(odds.ChartLookup(rows))
        assert copy.outcomes(D20) == engine.outcomes(D20)
