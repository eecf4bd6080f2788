"""NBA Showdown quarters, overtime, tracks, strategy cards, substitutions and double-teams."""

from __future__ import annotations

import json

import pytest
from games.nba_showdown_table import (
    POSITIONS,
    custom_options,
    five,
    play_quarter,
    roll_for,
    run,
    to_first_roll,
)

from companion.errors import RuleError
from companion.games.nba_showdown import GAME

QUICK = {"quick_play": True}


def _setup(home: dict | None = None, away: dict | None = None, **extra: object):
    return GAME.setup(custom_options(five("Home", **(home or {})), five("Away", **(away or {})), **extra))


def _rollers(state) -> list[int]:
    """Who makes each scoring roll of the quarter, playing it out with 10s."""
    state = to_first_roll(state)
    quarter, seen = state.quarter, []
    while state.quarter == quarter and not state.final:
        seen.append(state.acting)
        team = state.team(state.acting)
        state = roll_for(state, next(p for p in POSITIONS if team.at(p).name not in team.used), 10)
    return seen


def test_a_quarter_is_10_alternating_scoring_rolls_each_player_once() -> None:
    state = to_first_roll(_setup(**QUICK))
    assert _rollers(state) == [0, 1] * 5
    after = play_quarter(state)
    assert after.quarter == 2 and len(after.flow) == 10
    assert after.teams[0].used == () and after.quarter_scores == ((10, 10),)


def test_whoever_went_second_goes_first_next_quarter_and_overtime_continues_the_alternation() -> None:
    state = _setup(**QUICK)
    firsts = []
    for _ in range(6):
        state = to_first_roll(state)
        firsts.append((GAME.scoreboard(state).period, state.acting))
        state = play_quarter(state)
    assert firsts == [("Q1", 0), ("Q2", 1), ("Q3", 0), ("Q4", 1), ("OT1", 0), ("OT2", 1)]


def test_tied_after_q4_plays_ot1_of_10_rolls_and_tied_again_ot2() -> None:
    state = _setup(**QUICK)
    for _ in range(4):
        state = play_quarter(state)
    assert state.score == (40, 40) and not state.final and GAME.scoreboard(state).period == "OT1"
    assert _rollers(state) == [0, 1] * 5
    state = play_quarter(state)
    assert GAME.scoreboard(state).period == "OT2" and not state.final
    state = roll_for(to_first_roll(state), "PG", 10)  # Away rolls first in OT2
    state = roll_for(state, "PG", 20)  # Home: 20 reads 16-20, 3 PTS
    state = play_quarter(state)
    assert state.final and GAME.outcome(state).winner == 0
    assert GAME.outcome(state).reason == "61-60 after OT2" and len(state.quarter_scores) == 6
    assert GAME.outcome(state).places == ((0,), (1,))


def test_the_game_ends_after_q4_when_not_tied() -> None:
    state = _setup(**QUICK)
    for _ in range(3):
        state = play_quarter(state)
    state = roll_for(to_first_roll(state), "PG", 20)
    state = play_quarter(state)
    assert state.final and state.quarter == 4 and GAME.outcome(state).winner == 1
    with pytest.raises(RuleError, match="the game is over"):
        GAME.decide(state, {"type": "shoot", "position": "PG", "stat": "speed"})


def _strategy_only() -> dict:
    return {"rules": {"substitutions": False, "double_team": False}}


def test_strategy_hand_is_7_then_10_13_16_minus_cards_played_and_no_draw_after_q4_or_overtime() -> None:
    state = to_first_roll(_setup(**_strategy_only()))
    assert [t.hand for t in state.teams] == [7, 7] and state.teams[0].deck_left == 33
    state = run(state, {"type": "shoot", "position": "PG", "stat": "speed"},
                {"type": "play_card", "side": 0, "card": "Home card 3", "roll_bonus": 1},
                {"type": "play_card", "side": 1, "card": "Away card 3", "roll_bonus": -1},
                {"type": "roll", "face": 10})
    if state.stage == "assist":
        state = run(state, {"type": "assist", "count": 0})
    hands = []
    for _ in range(6):
        state = play_quarter(state)
        hands.append([t.hand for t in state.teams])
        if state.final:
            break
    assert hands[:4] == [[9, 9], [12, 12], [15, 15], [15, 15]]
    if len(hands) > 4:
        assert all(h == [15, 15] for h in hands[4:])  # no draw after overtime either


def test_no_draw_from_an_empty_deck() -> None:
    options = custom_options(five("Home"), five("Away"), team_check=False, **_strategy_only())
    options["teams"][0]["deck"] = {"Only card": 8}
    state = GAME.setup(options)
    assert (state.teams[0].hand, state.teams[0].deck_left) == (7, 1)
    state = play_quarter(state)
    assert (state.teams[0].hand, state.teams[0].deck_left) == (8, 0)
    state = play_quarter(state)
    assert (state.teams[0].hand, state.teams[0].deck_left) == (8, 0)


def test_a_requirement_met_when_the_card_was_played_stays_met_after_a_later_plus_4_to_the_opponent() -> None:
    state = to_first_roll(_setup({"PG": {"power": 15}}, {"PG": {"power": 14}}, **_strategy_only()))
    state = run(state, {"type": "shoot", "position": "PG", "stat": "power"},
                {"type": "play_card", "side": 0, "card": "Home card 1", "roll_bonus": 3,
                 "requires": {"more": "power"}},
                {"type": "play_card", "side": 1, "card": "Away card 1", "power": 4})
    target = GAME.prompt(state).target
    assert target.stat_label == "Power 15 vs 18" and target.value == 3  # matchup 0, card +3 still counts


def test_a_requirement_not_met_when_played_is_refused_and_changes_nothing() -> None:
    state = to_first_roll(_setup({"PG": {"power": 14}}, {"PG": {"power": 14}}, **_strategy_only()))
    state = run(state, {"type": "shoot", "position": "PG", "stat": "power"})
    before = json.dumps(GAME.view(state), sort_keys=True)
    with pytest.raises(RuleError, match="Power 14 is not more than the opposing player's 14"):
        GAME.decide(state, {"type": "play_card", "side": 0, "card": "Home card 1",
                            "requires": {"more": "power"}})
    assert json.dumps(GAME.view(state), sort_keys=True) == before


def test_one_offensive_card_then_one_defensive_card() -> None:
    state = to_first_roll(_setup(**_strategy_only()))
    state = run(state, {"type": "shoot", "position": "PG", "stat": "speed"})
    defended = run(state, {"type": "play_card", "side": 1, "card": "Away card 1", "speed": 2})
    with pytest.raises(RuleError, match="the offensive card comes first"):
        GAME.decide(defended, {"type": "play_card", "side": 0, "card": "Home card 1"})
    with pytest.raises(RuleError, match="already played a defense card"):
        GAME.decide(defended, {"type": "play_card", "side": 1, "card": "Away card 2"})
    with pytest.raises(RuleError, match="not in Home's strategy deck"):
        GAME.decide(state, {"type": "play_card", "side": 0, "card": "Surprise"})


def test_a_card_adjusting_the_result_is_applied_after_reading_the_chart() -> None:
    state = to_first_roll(_setup(**_strategy_only()))
    state = run(state, {"type": "shoot", "position": "PG", "stat": "speed"},
                {"type": "play_card", "side": 0, "card": "Home card 1", "adjust": {"reb": 1}},
                {"type": "roll", "face": 10})
    assert state.rebound == 2 and state.box[0].reb == 2  # 10-15 gives 1 REB, the card +1


def test_rebound_tug_of_war_gives_the_closer_side_the_spaces_points_and_resets_each_quarter() -> None:
    state = to_first_roll(_setup({p: {"chart": (("1-9", 0, 0, 0), ("10+", 1, 0, 2))} | {"shot_line": 10}
                                  for p in POSITIONS}, rebound_points=[1, 2, 3, 4, 5, 6, 7],
                                 rules={"strategy": False, "substitutions": False, "double_team": False}))
    state = roll_for(state, "PG", 10)  # Home +2 rebounds
    assert state.rebound == 2
    state = roll_for(state, "PG", 12)  # Away's 12 on EVEN_CHART: 1 REB back towards Away
    assert state.rebound == 1
    state = play_quarter(state, face=3)  # the rest: Home 0 REB, Away 1-9 row has 0 REB
    # Home 1 PT + 1 on the Rebound Track (space 1); Away 2 + 4 x 1 PT
    assert state.quarter_scores == ((1 + 1, 6),) and state.rebound_awards == ((1, 0),)
    assert state.rebound == 0 and state.score == (2, 6)


def test_the_rebound_marker_stops_at_the_end_of_the_track() -> None:
    state = to_first_roll(_setup({p: {"chart": (("1-9", 0, 0, 5), ("10+", 1, 0, 5))} | {"shot_line": 10}
                                  for p in POSITIONS}, rebound_points=[1, 2, 3],
                                 rules={"strategy": False, "substitutions": False, "double_team": False}))
    state = roll_for(state, "PG", 10)
    assert state.rebound == 3
    state = play_quarter(state, face=1)
    assert state.rebound_awards == ((3, 0),)


def test_the_box_score_keeps_pts_ast_reb_per_player_per_quarter() -> None:
    state = _setup(rules={"strategy": False, "substitutions": False, "double_team": False})
    state = play_quarter(play_quarter(state, face=12), face=17)
    lines = {(b["player"], b["quarter"]): (b["pts"], b["ast"], b["reb"]) for b in GAME.view(state)["box"]}
    assert lines[("Home PG", 1)] == (2, 1, 1) and lines[("Away C", 2)] == (3, 1, 1)
    assert len(lines) == 20
    totals = {(t["side"], t["player"]): (t["pts"], t["ast"], t["reb"])
              for t in GAME.view(state)["box_totals"]}
    assert totals[(0, "Home PG")] == (5, 2, 2) and len(totals) == 10
    assert [f[2:] for f in GAME.view(state)["flow"]][:2] == [[2, 0], [2, 2]]


def test_quick_play_has_no_markers_assists_rebounds_or_cards() -> None:
    state = _setup(**QUICK)
    assert state.stage == "choose" and state.teams[0].hand == 0
    state = play_quarter(state, face=20)
    assert state.teams[0].markers == () and state.teams[0].assists == 0 and state.rebound_awards == ((0, 0),)


# Substitutions


def test_substitutions_are_placed_alternately_first_roller_first_and_benched_players_lose_markers() -> None:
    home = [*five("Home"), {**five("Bench")[0], "name": "Home sub PG"}]
    state = GAME.setup(custom_options(home, five("Away"), first=1,
                                      rules={"strategy": False, "double_team": False}))
    assert state.stage == "placement" and state.acting == 1
    state = run(state, {"type": "keep"})
    assert state.acting == 0  # Away kept their five: Home places the rest
    state = run(state, {"type": "keep"})
    state = roll_for(state, "PG", 10)
    state = roll_for(state, "PG", 20)  # Home PG hot
    state = play_quarter(state)
    assert state.teams[0].marker("Home PG") == 1 and state.stage == "placement" and state.acting == 0
    state = run(state, {"type": "place", "position": "PG", "player": "Home sub PG"})
    assert state.acting == 1
    with pytest.raises(RuleError, match="Away's turn"):
        GAME.decide(state, {"type": "place", "side": 0, "position": "SG", "player": "Home SG"})
    state = run(state, {"type": "place", "position": "C", "player": "Away C"})
    assert state.acting == 0
    state = run(state, {"type": "keep"}, {"type": "keep"})
    assert state.stage == "choose" and state.teams[0].at("PG").name == "Home sub PG"
    assert state.teams[0].markers == ()  # Home PG went to the bench: his hot marker is gone


def test_a_player_can_only_be_placed_in_a_position_his_card_shows() -> None:
    state = _setup(rules={"strategy": False, "double_team": False})
    before = json.dumps(GAME.view(state), sort_keys=True)
    with pytest.raises(RuleError, match="Home PG can't play C"):
        GAME.decide(state, {"type": "place", "position": "C", "player": "Home PG"})
    assert json.dumps(GAME.view(state), sort_keys=True) == before


def test_no_substitution_once_the_quarters_rolls_have_begun() -> None:
    state = roll_for(to_first_roll(_setup(rules={"strategy": False, "double_team": False})), "PG", 10)
    with pytest.raises(RuleError, match="only at the start of a quarter"):
        GAME.decide(state, {"type": "place", "position": "PG", "player": "Home PG"})


# Double-teaming


def _double_team_game(**rules: bool):
    state = _setup({"SG": {"speed": 12}, "PG": {"speed": 12}}, {"SG": {"speed": 16}, "PG": {"speed": 16}},
                   rules={"strategy": False, "substitutions": False, **rules})
    assert state.stage == "double_team" and state.acting == 0
    return state


def _matchup(state, position: str) -> str:
    """The matchup the roller would see choosing Speed with the player at ``position``."""
    return GAME.prompt(run(state, {"type": "shoot", "position": position, "stat": "speed"})).target.stat_label


def test_double_team_helped_gets_plus_2_and_the_helper_minus_4_on_defence_only() -> None:
    state = _double_team_game()
    state = run(state, {"type": "double_team", "helped": "SG", "helper": "PG"}, {"type": "no_double_team"})
    assert state.stage == "choose" and state.acting == 0
    assert _matchup(state, "PG") == "Speed 12 vs 16"  # Home on offense: no change
    state = roll_for(state, "PG", 3)
    assert _matchup(state, "PG") == "Speed 16 vs 8"  # Home PG 12 - 4 while he helps out
    assert _matchup(state, "SF") == "Speed 10 vs 10"  # the others defend as usual
    state = roll_for(roll_for(state, "PG", 3), "SG", 3)
    assert _matchup(state, "SG") == "Speed 16 vs 14"  # Home SG 12 + 2 on defence


def test_a_double_team_by_a_player_not_next_to_him_is_refused_and_changes_nothing() -> None:
    state = _double_team_game()
    before = json.dumps(GAME.view(state), sort_keys=True)
    with pytest.raises(RuleError, match="Home: C is not next to SG .Double-Teaming: .* PG and SF"):
        GAME.decide(state, {"type": "double_team", "helped": "SG", "helper": "C"})
    assert json.dumps(GAME.view(state), sort_keys=True) == before


def test_one_double_team_per_team_each_quarter_decided_first_by_the_first_roller() -> None:
    state = _double_team_game()
    state = run(state, {"type": "double_team", "helped": "C", "helper": "PF"})
    assert state.acting == 1
    with pytest.raises(RuleError, match="Away's turn"):
        GAME.decide(state, {"type": "double_team", "side": 0, "helped": "SG", "helper": "PG"})
    state = run(state, {"type": "no_double_team"})
    with pytest.raises(RuleError, match="only at the start of a quarter"):
        GAME.decide(state, {"type": "double_team", "helped": "SG", "helper": "PG"})
    state = play_quarter(state)
    assert state.teams[0].double_team is None and state.stage == "double_team" and state.acting == 1


def test_a_placement_that_leaves_a_position_nobody_can_fill_is_refused() -> None:
    home = five("Home")
    home[0] = {**home[0], "name": "Swing", "positions": ["PG", "SG"]}
    state = GAME.setup(custom_options(home, five("Away"), rules={"strategy": False, "double_team": False}))
    with pytest.raises(RuleError, match="with Swing at SG, Home could not fill PG, SF, PF, C"):
        GAME.decide(state, {"type": "place", "position": "SG", "player": "Swing"})
