"""The Series: a best of seven in one log; Home/Away, refills, chip stocks, milestone markers, the reward
phase, the carry-over between games and the Series track (chapter "The Series" of the rulebook)."""

from __future__ import annotations

import json
import random
import re
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from games.valley_hoopers_series import play_series, series_command, series_options

from companion.errors import CommandError, RuleError
from companion.games.valley_hoopers import GAME
from companion.games.valley_hoopers.model import FLAT, LV1_SPACE
from companion.games.valley_hoopers.series import RewardPhase, home_side, series_winner, susan_peg_side
from companion.games.valley_hoopers.series_game import CONDITIONS, track_move
from companion.games.valley_hoopers.series_rewards import (
    game_rewards,
    gameplan_reward,
    position_upgrades,
    side_reward,
    strength_card,
)
from companion.games.valley_hoopers.turn_track import refilled_playbooks
from companion.session import Session
from companion.store import Store
from table.cli import main

SERIES_LOG = Path(__file__).parent / "games" / "series_valley_hoopers.jsonl"


class SeriesTable:
    """Commands through decide/apply on a series, as the session does."""

    def __init__(self, **extra: Any) -> None:
        self.state = GAME.setup(series_options(**extra))

    def do(self, command_type: str, **fields: Any) -> SeriesTable:
        for event in GAME.decide(self.state, {"type": command_type, **fields}):
            self.state = GAME.apply(self.state, event)
        return self

    def roll(self, face: int | str) -> SeriesTable:
        return self.do("roll", face=face)

    def hooper(self, name: str) -> Any:
        game = self.state.game
        return game.sides[game.owner(name)].hooper(name)

    def end_turns(self, count: int) -> SeriesTable:
        for _ in range(count):
            self.do("end_turn")
        return self


# --- the series: court pattern, first to four -------------------------------------------------------


def test_the_court_pattern_is_home_home_away_away_home_away_home() -> None:
    assert [home_side(n, 0) for n in range(1, 8)] == [0, 0, 1, 1, 0, 1, 0]
    assert [home_side(n, 1) for n in range(1, 8)] == [1, 1, 0, 0, 1, 0, 1]
    view = GAME.view(SeriesTable(home=1).state)["series"]
    assert view["court_pattern"] == ["Karl", "Karl", "Lucy", "Lucy", "Karl", "Lucy", "Karl"]
    assert view["home"] == 1 and view["wins"] == [0, 0] and view["phase"] == "game"


def test_the_first_to_four_wins_the_series() -> None:
    assert series_winner((4, 0)) == 0 and series_winner((2, 4)) == 1 and series_winner((3, 3)) is None


def _one_sided_command(state: Any, rng: random.Random, favoured: int) -> dict[str, Any]:
    """Lucy's d20 rolls always succeed, Karl's always fail; the foul die shows blanks."""
    if state.phase != "game":
        return series_command(state, rng)
    prompt = GAME.prompt(state)
    if prompt.die == "d8foul":
        return {"type": "roll", "die": "d8foul", "face": "blank"}
    if prompt.die == "d20x5" and prompt.commands[0] == "roll":
        return {"type": "roll", "die": "d20x5", "face": 5 if prompt.side == favoured else 100}
    attacks = [c.command for c in prompt.choices if c.command["type"] == "attack"]
    if prompt.side == favoured and attacks:
        return dict(attacks[0])
    if prompt.side != favoured and any(c.command["type"] == "end_turn" for c in prompt.choices):
        return {"type": "end_turn"}
    letting_go = ("no_defense", "no_counter", "no_rebound")
    passes = [c.command for c in prompt.choices if c.command["type"] in letting_go]
    if prompt.side != favoured and passes:
        return dict(passes[0])
    return series_command(state, rng)


def test_a_four_nil_series_ends_after_game_4() -> None:
    rng = random.Random(1)
    state = GAME.setup(series_options())
    for _ in range(20000):
        if GAME.outcome(state) is not None:
            break
        state, _ = GAME.run(state, _one_sided_command(state, rng, favoured=0))
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.winner == 0 and outcome.reason == "4-0 in games"
    assert len(state.results) == 4 and state.phase == "over" and state.wins == (4, 0)
    assert GAME.prompt(state).commands == () and "Lucy wins the series 4-0" in GAME.prompt(state).text
    with pytest.raises(RuleError, match="the series is over"):
        GAME.decide(state, {"type": "next_game", "condition": "playbook"})
    assert GAME.scoreboard(state).final and GAME.view(state)["final"]


# --- Home and Away ------------------------------------------------------------------------------------


def test_home_has_nine_coach_tokens_away_eight_one_of_each_locked_on_the_playbook() -> None:
    state = SeriesTable(home=0).state.game
    assert (state.sides[0].coach_tokens, state.sides[1].coach_tokens) == (8, 7)
    state = SeriesTable(home=1).state.game
    assert (state.sides[0].coach_tokens, state.sides[1].coach_tokens) == (7, 8)


def test_home_sets_three_position_tokens_on_the_hot_zone_and_away_two_on_the_cold_zone() -> None:
    table = SeriesTable(home=0, hot=["SG", "SF", "C"], cold=["PG", "SG"])
    lucy, karl = table.state.game.sides
    assert {h.court: h.onfire for h in lucy.on_court()} == {"PG": FLAT, "SG": FLAT + 1, "SF": FLAT + 1,
                                                           "PF": FLAT, "C": FLAT + 1}
    assert {h.court: h.onfire for h in karl.on_court()} == {"PG": FLAT - 1, "SG": FLAT - 1, "SF": FLAT,
                                                           "PF": FLAT, "C": FLAT}
    with pytest.raises(CommandError, match="3 different positions"):
        SeriesTable(hot=["PG", "PG", "SF"])


def test_away_shoots_free_throws_with_the_basic_2ps_and_home_with_2ps_plus_15() -> None:
    table = SeriesTable(home=0, first_attacker=1)  # Karl is Away and attacks
    table.do("attack", shot="2PS", position="SG").do("defend", hooper="Muy Schillato").roll("whistle")
    table.roll(100)
    target = GAME.prompt(table.state).target
    assert table.state.game.pending.kind == "free_throw" and target is not None
    assert target.value == 55 and "free throw" not in target.text  # Chus Kinder's 2PS, nothing added
    table = SeriesTable(home=0, first_attacker=0)  # Lucy is Home
    table.do("attack", shot="2PS", position="SG").do("defend", hooper="May Friend").roll("whistle").roll(100)
    assert GAME.prompt(table.state).target.value == 50 + 15


def test_home_keepers_move_on_the_onfire_track_when_the_face_down_defense_matches() -> None:
    table = SeriesTable(home=1, first_attacker=0, hot=["SG", "SF", "C"])  # Karl's May Friend (PG): flat
    table.do("attack", shot="2PS", position="SG").do("defend", hooper="May Friend", block="tribe")
    assert table.hooper("May Friend").onfire == FLAT + 1
    table.roll("whistle")  # "even if a foul is committed": the step stays
    assert table.hooper("May Friend").onfire == FLAT + 1
    away = SeriesTable(home=0)
    away.do("attack", shot="2PS", position="SG").do("defend", hooper="May Friend", block="tribe")
    assert away.hooper("May Friend").onfire == FLAT


def test_home_unleashed_move_on_the_onfire_track_when_the_tribe_power_is_used() -> None:
    table = SeriesTable(home=0, first_attacker=1, hot=["PG", "SF", "C"])
    table.do("fundamental", action="dribble", position="SG").do("counter", hooper="Muy Schillato")
    table.roll("blank").roll(5)
    assert table.hooper("Muy Schillato").onfire == FLAT
    table.do("tribe_power")
    assert table.hooper("Muy Schillato").onfire == FLAT + 1


# --- periods: playbooks, chips, milestone markers -----------------------------------------------------


def test_playbook_refills_are_up_to_three_two_and_one_before_periods_2_3_and_4() -> None:
    assert [refilled_playbooks(0, p) for p in (2, 3, 4, 5)] == [3, 2, 1, 0]
    assert refilled_playbooks(2, 2) == 4 and refilled_playbooks(3, 3) == 4
    table = SeriesTable()
    table.do("fundamental", action="dribble", position="SG").do("no_counter")
    table.do("playbook", name="ISO", common=True)
    assert table.state.game.series.common_playbooks == 3
    for period, expected in ((2, 3), (3, 2), (4, 1)):
        table.state = replace(table.state, game=table.state.game.with_series(common_playbooks=0))
        game = table.state.game
        turn = replace(game.turn, slots=(), playbook=None)
        pending = replace(game.pending, kind="play")
        table.state = replace(table.state, game=replace(game, turn=turn, pending=pending))
        while table.state.game.period < period:
            table.do("end_turn")
        assert table.state.game.series.common_playbooks == expected
        assert any("refill the common playbooks" in r for r in table.state.game.reminders)
    table.state = replace(table.state, game=table.state.game.with_series(common_playbooks=0))
    table.do("fundamental", action="dribble", position="SG").do("no_counter")
    with pytest.raises(RuleError, match="no common playbook is left"):
        table.do("playbook", name="ISO", common=True)


def test_an_empty_chip_stock_stays_empty() -> None:
    table = SeriesTable(chips_lv1=0, chips_lv2=0)
    muy = table.hooper("Muy Schillato")
    game = table.state.game.with_hooper(0, replace(muy, onfire=LV1_SPACE))
    table.state = replace(table.state, game=game)
    with pytest.raises(RuleError, match="run out"):
        table.do("redeem", hooper="Muy Schillato")
    table.do("fundamental", action="dribble", position="SG").do("no_counter")
    table.do("attack", shot="3PS", position="SG").do("no_defense").roll(5)
    assert table.hooper("Muy Schillato").onfire == LV1_SPACE and table.hooper("Muy Schillato").chips_lv2 == 0
    table = SeriesTable(chips_lv1=1)
    game = table.state.game.with_hooper(0, replace(table.hooper("Muy Schillato"), onfire=LV1_SPACE))
    table.state = replace(table.state, game=game)
    table.do("redeem", hooper="Muy Schillato")
    assert table.hooper("Muy Schillato").chips_lv1 == 1 and table.state.game.series.chips_lv1 == 0


def test_the_winner_of_a_period_takes_its_milestone_marker_and_no_upgrade_is_asked() -> None:
    table = SeriesTable()
    table.do("fundamental", action="dribble", position="SG").do("no_counter")
    table.do("playbook", name="Pick 'N' Stay", common=False)
    table.do("fundamental", action="dribble", position="SG").do("attack", shot="3PS", position="SG")
    table.do("playbook_reward", reward="draw2")
    while table.state.game.period == 1:
        table.do("end_turn")
    game = table.state.game
    assert game.series.milestones == (0,) and game.decisions == ()
    while table.state.game.period == 2:
        table.do("end_turn")
    assert table.state.game.series.milestones == (0, None)  # a tied period: nobody takes it


# --- the reward phase ----------------------------------------------------------------------------------


def test_the_strength_marker_goes_to_the_winner_from_7_to_the_loser_up_to_3_else_nobody() -> None:
    assert [strength_card(m) for m in (7, 3, 5)] == ["winner", "loser", None]
    assert [strength_card(m) for m in (4, 6, 12, 1)] == [None, None, "winner", "loser"]
    winner, loser = game_rewards((50, 43), 0, ((0, 0), (0, 0)), (0, 0), (), None)
    assert winner.strength_card and not loser.strength_card
    winner, loser = game_rewards((46, 43), 0, ((0, 0), (0, 0)), (0, 0), (), None)
    assert loser.strength_card and not winner.strength_card
    assert not any(r.strength_card for r in game_rewards((48, 43), 0, ((0, 0), (0, 0)), (0, 0), (), None))


def test_the_rulebooks_reward_example_to_the_number() -> None:
    # 3 Lv.1 and 1 Lv.2 left, milestone markers I and III, both gameplan milestones.
    reward = side_reward(won=False, margin=5, track_card=False, chips_left=(3, 1), gameplan_met=2,
                         markers=2, fourth_period=False)
    assert (reward.lv1_total, reward.lv2_total) == (7, 1)
    assert (reward.position_upgrades, reward.discarded_lv1, reward.hooper_upgrades) == (4, 1, 1)
    _, side = game_rewards((60, 55), 1, ((0, 0), (3, 1)), (0, 2), (1, 0, 1), 0)
    assert (side.lv1_total, side.position_upgrades, side.discarded_lv1, side.hooper_upgrades) == (7, 4, 1, 1)


def test_gameplan_chips_markers_and_the_fourth_period_chip() -> None:
    assert [gameplan_reward(m) for m in (0, 1, 2)] == [(0, 0), (1, 0), (2, 1)]
    assert position_upgrades(2, 0) == (1, 0) and position_upgrades(1, 2) == (2, 1)
    winner, loser = game_rewards((40, 30), 1, ((1, 0), (0, 0)), (1, 0), (0, 0, None), 0)
    assert (winner.gameplan_chips, winner.marker_chips, winner.fourth_period_chip) == (1, 2, 1)
    assert winner.lv1_total == 5 and winner.position_upgrades == 2 and winner.discarded_lv1 == 1
    assert winner.hooper_upgrades == 1 and loser.track_card and not winner.track_card


def _finish_game_one(state: Any, seed: int = 4) -> Any:
    rng = random.Random(seed)
    while state.phase == "game":
        state, _ = GAME.run(state, series_command(state, rng))
    return state


def test_the_reward_phase_is_a_checklist_the_table_confirms_through_prompt_choices() -> None:
    state = _finish_game_one(SeriesTable().state)
    assert state.phase == "reward"
    counted = replace(state, reward=RewardPhase(gameplan_met=(2, 0)))  # counted from the log
    assert GAME.prompt(counted).commands == ("reward",)
    state = replace(state, reward=RewardPhase(gameplan_met=(None, None)))  # without the gameplans module
    prompt = GAME.prompt(state)
    assert prompt.commands == ("gameplan_result",) and prompt.side == 0
    assert [c.command["met"] for c in prompt.choices] == [0, 1, 2]
    with pytest.raises(RuleError, match="gameplan milestones Lucy and Karl met"):
        GAME.decide(state, {"type": "reward", "all": True})
    state, _ = GAME.run(state, {"type": "gameplan_result", "side": 0, "met": 2})
    assert GAME.prompt(state).side == 1
    state, _ = GAME.run(state, {"type": "gameplan_result", "side": 1, "met": 0})
    state, _ = GAME.run(state, {"type": "gameplan_result", "side": 1, "met": 1})  # corrected before ticking
    rewards = GAME.view(state)["series"]["reward"]["sides"]
    assert rewards[0]["gameplan_chips"] == 2 and rewards[0]["hooper_upgrades"] >= 1
    assert rewards[1]["gameplan_chips"] == 1
    prompt = GAME.prompt(state)
    assert prompt.text.startswith("Reward phase: ")
    # The hooper upgrade cards are named first (one button per hand the deck allows): no "all" yet.
    assert all(not c.command.get("all") for c in prompt.choices)
    with pytest.raises(RuleError, match="first name Lucy's hooper upgrade cards"):
        GAME.decide(state, {"type": "reward", "all": True})
    hands = [c.command["cards"] for c in prompt.choices if c.command.get("item") == "0:hooper_upgrades"]
    assert all(len(hand) == rewards[0]["hooper_upgrades"] for hand in hands)
    assert all(hand.count("stellar_energy") <= 1 for hand in hands)  # the deck holds one such card
    while state.phase == "reward":
        state, events = GAME.run(state, dict(GAME.prompt(state).choices[0].command))
        assert events[0]["game"] == 1
        if state.phase == "reward":
            with pytest.raises(RuleError, match="checklist has begun"):
                GAME.decide(state, {"type": "gameplan_result", "side": 0, "met": 0})
    assert len(state.upgrades[0]) == rewards[0]["hooper_upgrades"]
    assert state.phase == "next_game" and GAME.prompt(state).commands == ("next_game", "sleeve", "susan_peg")
    with pytest.raises(RuleError, match="game 1 is over"):
        GAME.decide(state, {"type": "end_turn"})


# --- carry-over and Susan Peg ------------------------------------------------------------------------------


def _game_one_with(ejected: bool, injured: bool) -> Any:
    for seed in range(40):
        state, _ = play_series(series_options(), seed, until_games=1)
        last = state.last()
        if (not ejected or any(last.ejected)) and (not injured or any(last.injured)):
            return state
    raise AssertionError("no seed gives that game")


def test_an_ejected_hooper_misses_the_next_game_and_an_injured_one_starts_with_two_cubes() -> None:
    state = _game_one_with(ejected=True, injured=True)
    last = state.last()
    side = 0 if last.ejected[0] else 1
    out = last.ejected[side][0]
    with pytest.raises(RuleError, match=f"{out} was ejected in game 1"):
        GAME.decide(state, {"type": "next_game", "condition": "playbook"})
    prompt = GAME.prompt(state)
    games = [c for c in prompt.choices if c.command["type"] == "next_game"]
    assert f"for {out}" in prompt.text and games and all(c.command["sides"][side] for c in games)
    state, _ = GAME.run(state, prompt.choices[0].command)  # a reserve takes the ejected hooper's place
    game = state.game
    assert game.series.number == 2 and game.series.home == 0 and game.series.condition == "stellar"
    assert out not in [h.name for h in game.sides[side].hoopers] and len(game.sides[side].hoopers) == 7
    for index in (0, 1):
        for name in last.injured[index]:
            in_seven = [h for h in game.sides[index].hoopers if h.name == name]
            assert all(h.white == 2 and not h.injuries for h in in_seven)
    assert not any(h.white for s in game.sides for h in s.hoopers
                   if h.name not in last.injured[0] + last.injured[1])


def test_who_attacks_first_in_the_next_game_is_the_winner_of_the_opening_d20_roll() -> None:
    """"Each player rolls the d20 die. The one who gets the highest value starts his/her first
    attacking turn!" (Player Boards Setup, kept by The Series): a ready-made choice per winner."""
    state = _finish_game_one(SeriesTable().state)
    played = replace(state.last(), number=2, ejected=((), ()), injured=((), ()))
    state = replace(state, phase="next_game", reward=None, results=(*state.results, played))
    assert home_side(3, state.first_home) == 1  # game 3 is at Karl's Home
    prompt = GAME.prompt(state)
    assert "Each player rolls the d20 (the highest attacks first)" in prompt.text
    games = [c for c in prompt.choices if c.command["type"] == "next_game"]
    assert len(games) == 2 * len(CONDITIONS)
    steal = {c.command["first_attacker"]: c for c in games if c.command["condition"] == "steal"}
    # Short names a standing player finds at a glance (the kiosk lays them out marker by winner).
    assert steal[1].label == "Game 3: Karl attacks first, marker: Steal"
    assert steal[0].label == "Game 3: Lucy attacks first, marker: Steal"
    assert max(len(c.label) for c in games) <= len("Game 3: Lucy attacks first, marker: Score after dribble")
    for side, name in ((0, "Lucy"), (1, "Karl")):
        after, _ = GAME.run(state, steal[side].command)
        game = after.game
        assert game.first_attacker == side and game.turn.attacker == side and game.pending.side == side
        assert after.message == f"Game 3: Karl at Home, {name} attacks first"
        assert game.series.home == 1 and game.series.condition == "steal"
        # The marker the tap chose, short and in full, for the Table screen's "Series track" line.
        shown = GAME.view(after)["series"]
        assert (shown["condition_name"], shown["condition_text"]) == ("Steal", CONDITIONS["steal"])
    # Typed without it, the Home side attacks first (the default the docs give).
    after, _ = GAME.run(state, {"type": "next_game", "condition": "steal"})
    assert after.game.turn.attacker == 1
    for wrong in (2, -1, "Karl", True):
        with pytest.raises(CommandError, match=(r"first_attacker must be 0 or 1 \(the winner of the "
                                                rf"opening d20 roll\), not {re.escape(repr(wrong))}")):
            GAME.decide(state, {"type": "next_game", "condition": "steal", "first_attacker": wrong})
    # The same words as the Classic setup's, where the table also says who won the roll.
    from companion.games.valley_hoopers.setup_options import example_options, setup
    with pytest.raises(CommandError, match=r"1 \(the winner of the opening d20 roll\), not 'Karl'"):
        setup({**example_options(), "first_attacker": "Karl"})


def test_no_ready_made_seven_when_the_tribe_has_nobody_left_for_the_position() -> None:
    from companion.games.valley_hoopers.series_lineups import side_without

    side = series_options()["sides"][0]
    assert side_without({**side, "reserves": []}, ("Wally Block",)) is None
    new, words = side_without(side, ("Wally Block",))
    # Reley Baton (C, second position PF) moves up from the bench; a reserve completes the seven.
    assert new["lineup"]["PF"] == "Reley Baton" and words == "Faust Exit for Wally Block"


def test_susan_peg_joins_the_side_facing_elimination_before_game_7() -> None:
    assert susan_peg_side((3, 1), 5) == 1 and susan_peg_side((0, 3), 4) == 0
    assert susan_peg_side((3, 3), 7) is None and susan_peg_side((2, 2), 5) is None
    opts = series_options()
    opts["sides"][0] = {"name": "Lucy", "roster": "unleashed",
                        "hoopers": ["Serge Ceptor", "Muy Schillato", "Dime N'Shons", "Wally Block",
                                    "Never Tired", "Reley Baton", "Susan Peg"],
                        "lineup": {"PG": "Serge Ceptor", "SG": "Muy Schillato", "SF": "Dime N'Shons",
                                   "PF": "Wally Block", "C": "Never Tired"}}
    with pytest.raises(RuleError, match="Susan Peg can't play game 1"):
        GAME.setup(opts)


# --- the Series track ------------------------------------------------------------------------------------


def test_the_tribe_marker_flips_at_the_centre_and_leaves_the_track_for_good() -> None:
    game = SeriesTable(home=0).state.game.series
    assert (game.track, game.track_face) == (0, 0)
    moved = track_move(game, 1)
    assert (moved.track, moved.track_face) == (0, 1)  # flipped, stays in the centre
    moved = track_move(track_move(moved, 1), 1)
    assert moved.track == -2 and not moved.track_off
    off = track_move(moved, 1)
    assert off.track_off and off.track_face == 1 and track_move(off, 0) == off
    back = track_move(track_move(game, 0), 1)
    assert (back.track, back.track_face) == (0, 0)  # stepping back to the centre flips nothing


def test_the_condition_marker_is_read_from_the_events() -> None:
    table = SeriesTable(condition="playbook")
    table.do("fundamental", action="dribble", position="SG").do("no_counter")
    table.do("playbook", name="Pick 'N' Stay", common=False)
    table.do("fundamental", action="dribble", position="SG").do("attack", shot="3PS", position="SG")
    assert table.state.game.series.track == 0
    table.do("playbook_reward", reward="draw2")
    assert table.state.game.series.track == 1
    table = SeriesTable(condition="after_pass")
    table.do("fundamental", action="pass", position="PG").do("no_counter")
    table.do("attack", shot="3PS", position="SG").do("no_defense").roll(5)
    assert table.state.game.series.track == 1
    table = SeriesTable(condition="after_dribble")
    table.do("fundamental", action="pass", position="PG").do("no_counter")
    table.do("attack", shot="3PS", position="SG").do("no_defense").roll(5)
    assert table.state.game.series.track == 0  # a pass, not the dribble on the marker
    table = SeriesTable(condition="steal", first_attacker=1)
    table.do("fundamental", action="dribble", position="SG").do("counter", hooper="Muy Schillato")
    table.roll("blank").roll(5)
    assert table.state.game.series.track == 1
    table = SeriesTable(condition="over_100")
    table.do("fundamental", action="dribble", position="SG").do("no_counter")
    table.do("playbook", name="Pick 'N' Stay", common=False)
    table.do("fundamental", action="dribble", position="SG").do("attack", shot="3PS", position="SG")
    assert table.state.game.score == (3, 0) and table.state.game.series.track == 0  # 100 is not over 100
    table = SeriesTable(condition="over_100")
    table.do("fundamental", action="pass", position="PG").do("no_counter")
    table.do("playbook", name="Pick 'N' Stay", common=False)
    table.do("fundamental", action="dribble", position="SG").do("attack", shot="3PS", position="SG")
    assert table.state.game.score == (3, 0) and table.state.game.series.track == 1  # 70 + 25 + 15 = 110


def test_and_one_counts_the_made_additional_free_throw_after_a_fouled_basket() -> None:
    table = SeriesTable(condition="and_one")
    table.do("attack", shot="2PS", position="SG").do("defend", hooper="May Friend").roll("whistle")
    table.roll(5)
    assert table.state.game.series.track == 0 and table.state.game.pending.after_score
    table.roll(5)
    assert table.state.game.series.track == 1
    table = SeriesTable(condition="and_one")
    table.do("attack", shot="2PS", position="SG").do("defend", hooper="May Friend").roll("whistle")
    table.roll(100).roll(5).roll(5)  # missed basket, two free throws made: no "and one"
    assert table.state.game.score == (2, 0) and table.state.game.series.track == 0


def test_the_table_moves_the_marker_for_what_the_companion_cant_see() -> None:
    table = SeriesTable(home=0)
    table.do("track", side=1)
    assert (table.state.game.series.track, table.state.game.series.track_face) == (0, 1)
    assert GAME.view(table.state)["series"]["track"]["text"] == "in the centre, showing Karl"


# --- one log: replay, export, resume ---------------------------------------------------------------------


def test_a_whole_series_plays_through_companion_replay_and_exports_as_one_log(capsys, tmp_path: Path) -> None:
    db = str(tmp_path / "g.db")
    assert main(["--db", db, "replay", "--game", "valley-hoopers", str(SERIES_LOG), "--json"]) == 0
    final = json.loads(capsys.readouterr().out)
    series = final["series"]
    assert series["phase"] == "over" and final["final"] and max(series["wins"]) == 4
    assert len(series["results"]) >= 5 and sum(series["wins"]) == len(series["results"])
    played = range(1, len(series["results"]) + 1)
    assert [r["home"] for r in series["results"]] == [home_side(n, 0) for n in played]
    assert any(any(r["ejected"]) for r in series["results"][:-1])  # a hooper missed the next game
    assert any(any(r["injured"]) for r in series["results"][:-1])
    commands = [json.loads(line) for line in SERIES_LOG.read_text().splitlines()[1:]]
    assert any(c["type"] == "next_game" and c.get("sides") for c in commands)
    assert main(["--db", db, "export", str(final["game_id"]), "--format", "json"]) == 0
    exported = json.loads(capsys.readouterr().out)
    events = [e for entry in exported["log"] for e in entry.get("events", [])]
    assert {e["game"] for e in events} == set(range(1, len(series["results"]) + 1))
    assert main(["--db", db, "games", "--json"]) == 0
    listed = json.loads(capsys.readouterr().out)
    assert listed[0]["status"] == "finished"


def test_a_series_resumes_after_a_restart_in_the_middle_of_game_3(tmp_path: Path) -> None:
    lines = SERIES_LOG.read_text().splitlines()
    options = {k: v for k, v in json.loads(lines[0]).items() if k != "type"}
    commands = [json.loads(line) for line in lines[1:]]
    store = Store.open(tmp_path / "g.db")
    session = Session.new(store, "valley-hoopers", options)
    done = 0
    for command in commands:
        session.handle(command)
        done += 1
        state = session.state
        if state.phase == "game" and state.number == 3 and state.game.period == 2:
            break
    before = session.snapshot()
    game_id = session.game_id
    store.close()
    store = Store.open(tmp_path / "g.db")
    resumed = Session.resume(store, game_id)
    assert resumed.snapshot()["view"] == before["view"] and resumed.snapshot()["prompt"] == before["prompt"]
    assert resumed.state.number == 3 and len(resumed.state.results) == 2
    for command in commands[done:]:
        resumed.handle(command)
    assert GAME.outcome(resumed.state) is not None
    store.close()


def _series_states(games: int = 2, seed: int = 3) -> list[Any]:
    rng = random.Random(seed)
    state = GAME.setup(series_options())
    states = [state]
    while len(state.results) < games or state.phase != "next_game":
        state, _ = GAME.run(state, series_command(state, rng))
        states.append(state)
    return states


def test_between_games_every_offered_choice_is_accepted_and_everything_is_json() -> None:
    from companion.game import ScoreboardView
    from hardware.oled_layout import render

    states = _series_states()
    between = [s for s in states if s.phase != "game"]
    assert {s.phase for s in between} == {"reward", "next_game"}
    for state in between + states[:: len(states) // 10]:
        prompt = GAME.prompt(state)
        for choice in prompt.choices if state.phase != "game" else ():
            GAME.decide(state, choice.command)
        shown = {"view": GAME.view(state), "prompt": prompt.to_json(),
                 "scoreboard": GAME.scoreboard(state).to_json()}
        assert json.loads(json.dumps(shown)) == shown
        board = ScoreboardView.from_json(shown["scoreboard"])
        assert board == GAME.scoreboard(state)
        for size in ((128, 64), (256, 64)):
            assert render(board, size, side=None).getbbox() is not None
    board = GAME.scoreboard(between[0])
    assert board.title == "Series G1 0-1" or board.title == "Series G1 1-0"
    assert board.sides[0].counters[-1].label == "W" and board.possession is None and not board.final


def test_undo_crosses_the_end_of_a_game_and_the_next_games_setup(tmp_path: Path) -> None:
    rng = random.Random(3)
    store = Store.open(tmp_path / "g.db")
    session = Session.new(store, "valley-hoopers", series_options())
    while session.state.phase == "game":
        session.handle(series_command(session.state, rng))
    last_roll_view = None
    session.handle({"type": "undo"})
    assert session.state.phase == "game" and not session.state.results
    last_roll_view = session.snapshot()["view"]
    session.handle({"type": "redo"})
    assert session.state.phase == "reward" and len(session.state.results) == 1
    while session.state.phase == "reward":
        session.handle(series_command(session.state, rng))
    session.handle(series_command(session.state, rng))
    assert session.state.phase == "game" and session.state.number == 2
    session.handle({"type": "undo"})
    assert session.state.phase == "next_game" and last_roll_view["series"]["game"] == 1
    store.close()


def test_the_series_modules_doctest_examples_run() -> None:
    import doctest

    from companion.games.valley_hoopers import (
        modes,
        series,
        series_game,
        series_lineups,
        series_plan,
        series_rewards,
        series_state,
        turn_track,
    )

    for module in (modes, series, series_game, series_lineups, series_plan, series_rewards, series_state,
                   turn_track):
        result = doctest.testmod(module)
        assert result.attempted > 0 and result.failed == 0, module.__name__


def test_susan_peg_may_join_the_side_facing_elimination_in_the_next_game() -> None:
    from companion.games.valley_hoopers.series import GameResult

    state = _finish_game_one(SeriesTable().state)
    won = [replace(state.last(), number=n, winner=0, injured=((), ()), ejected=((), ())) for n in (1, 2, 3)]
    state = replace(state, results=tuple(won), phase="next_game", reward=None)
    assert isinstance(state.results[0], GameResult) and state.wins == (3, 0)
    assert "Susan Peg may join Karl" in GAME.prompt(state).text
    susan = {"name": "Susan Peg", "first_position": "C", "second_position": "PF", "stellar": False,
             "energy": 5, "defense_positions": ["PF", "C"], "skill": "rebound_layup",
             "stats": {"2PS": 45, "3PS": 30, "LUP": 55, "D2": 25, "D3": 15, "DLU": 25, "O": 40, "V": 60}}
    karl = dict(state.side_options[1])
    karl["hoopers"] = [h for h in karl["hoopers"] if h["name"] != "Manny Gentle"] + [susan]
    lucy = dict(state.side_options[0])
    lucy["hoopers"] = [h for h in lucy["hoopers"] if h["name"] != "Joy Kill"] + [{**susan}]
    with pytest.raises(RuleError, match="Susan Peg can't play game 4 for side 0"):
        GAME.decide(state, {"type": "next_game", "condition": "playbook", "sides": [lucy, None]})
    state, _ = GAME.run(state, {"type": "next_game", "condition": "playbook", "sides": [None, karl]})
    assert "Susan Peg" in [h.name for h in state.game.sides[1].hoopers] and state.game.series.number == 4
    assert state.game.series.home == 1  # game 4 is Away for the side Home in game 1


SUSAN_CARD = {"name": "Susan Peg", "first_position": "C", "second_position": "PF", "stellar": False,
              "energy": 5, "defense_positions": ["PF", "C"], "skill": "rebound_layup",
              "stats": {"2PS": 45, "3PS": 30, "LUP": 55, "D2": 25, "D3": 15, "DLU": 25, "O": 40, "V": 60}}


def test_susan_peg_starts_the_next_game_by_two_of_the_prompts_choices() -> None:
    state = _finish_game_one(SeriesTable().state)
    won = [replace(state.last(), number=n, winner=0, injured=((), ()), ejected=((), ())) for n in (1, 2, 3)]
    karl = {**state.side_options[1], "reserves": [*state.side_options[1]["reserves"], SUSAN_CARD]}
    state = replace(state, results=tuple(won), phase="next_game", reward=None,
                    side_options=(state.side_options[0], karl))
    bench = [h["name"] for h in karl["hoopers"] if h["name"] not in karl["lineup"].values()]
    joins = [c for c in GAME.prompt(state).choices if c.command["type"] == "susan_peg"]
    assert [c.command["instead_of"] for c in joins] == bench and all("start" not in c.command for c in joins)
    state, _ = GAME.run(state, joins[0].command)  # first she joins the seven, on the bench
    prompt = GAME.prompt(state)
    starts = {c.command["start"]: c for c in prompt.choices if c.command["type"] == "susan_peg"}
    # Her card's first and second positions: "a hooper's first or second position must match".
    assert sorted(starts) == ["C", "PF"] and "Susan Peg for Karl instead of" in prompt.text
    centre = karl["lineup"]["C"]
    assert starts["C"].label == f"Susan Peg starts at C for Karl ({centre} to the bench)"
    state, _ = GAME.run(state, starts["C"].command)
    prompt = GAME.prompt(state)
    assert ", starting at C" in prompt.text
    assert not any(c.command["type"] == "susan_peg" for c in prompt.choices)
    with pytest.raises(CommandError, match="start"):
        GAME.decide(state, {"type": "susan_peg", "side": 1, "instead_of": bench[1], "start": "XX"})
    state, _ = GAME.run(state, next(c for c in prompt.choices if c.command["type"] == "next_game").command)
    karl_now = state.game.sides[1]
    assert karl_now.hooper("Susan Peg").court == "C" and karl_now.hooper(centre).court is None
    assert bench[0] not in [h.name for h in karl_now.hoopers] and len(karl_now.hoopers) == 7


def test_susan_peg_starts_only_where_the_line_up_names_a_starter() -> None:
    from companion.games.valley_hoopers.series_plan import with_susan

    side = series_options()["sides"][1]
    with pytest.raises(RuleError, match="only in a side whose line-up names its C"):
        with_susan({**side, "lineup": {}}, "Manny Gentle", start="C")
    with pytest.raises(RuleError, match="in the starting five"):
        with_susan({**side, "reserves": [SUSAN_CARD]}, side["lineup"]["C"], start="C")
    with pytest.raises(RuleError, match=r"can't start at PG: .* \(C/PF\)"):
        with_susan({**side, "reserves": [SUSAN_CARD]}, "Manny Gentle", start="PG")
    with pytest.raises(RuleError, match="not entered"):  # the shipped card: her skill only
        with_susan(side, "Manny Gentle", start="C")


def test_hooper_upgrade_cards_are_sleeved_before_a_game_within_the_limits_and_stay_on() -> None:
    from companion.games.valley_hoopers.series_upgrades import ENERGY, STAT, STELLAR, deck_left

    state = _finish_game_one(SeriesTable().state)
    state = replace(state, phase="next_game", reward=None, upgrades=((STAT, ENERGY), (STELLAR,)))
    assert deck_left(state.upgrades) == {STELLAR: 0, STAT: 7, ENERGY: 0}
    with pytest.raises(RuleError, match="former stellar hooper"):
        GAME.decide(state, {"type": "next_game", "condition": "playbook",
                            "upgrades": [{"Muy Schillato": ENERGY}, None]})
    with pytest.raises(RuleError, match="holds 0 stellar"):
        GAME.decide(state, {"type": "next_game", "condition": "playbook",
                            "upgrades": [{"Wally Block": STELLAR}, None]})
    with pytest.raises(RuleError, match="needs the stat"):
        GAME.decide(state, {"type": "next_game", "condition": "playbook",
                            "upgrades": [{"Wally Block": STAT}, None]})
    before = {h.name: h for h in state.game.sides[0].hoopers}
    state, _ = GAME.run(state, {"type": "next_game", "condition": "playbook", "upgrades": [
        {"Wally Block": {"card": STAT, "stat": "2PS"}, "Never Tired": ENERGY}, {"Edd Trapp": STELLAR}]})
    wally = state.game.sides[0].hooper("Wally Block")
    assert wally.stat("2PS") == before["Wally Block"].stat("2PS") + 10 and wally.max_energy == 6
    from companion.games.valley_hoopers.targets import free_throw_target
    printed = before["Wally Block"].stat("2PS")  # the card's stat, then the upgrade as its own term
    assert free_throw_target(wally).text == (f"{printed} (2PS Wally Block) + 15 (free throw) "
                                             f"+ 10 (upgrade Wally Block) = {printed + 25}")
    assert state.game.sides[0].hooper("Never Tired").energy == 4 + 3
    edd = state.game.sides[1].hooper("Edd Trapp")
    assert edd.stellar and edd.max_energy == 7
    # Game 3 keeps the cards where they were (game 2 taken as played, nobody ejected).
    played = replace(state.last(), number=2, ejected=((), ()), injured=((), ()))
    state = replace(state, phase="next_game", results=(*state.results, played))
    state, _ = GAME.run(state, {"type": "next_game", "condition": "steal"})
    assert state.game.series.number == 3
    assert state.game.sides[0].hooper("Never Tired").milestone == "+3 energy"
    assert state.game.sides[0].hooper("Wally Block").stat("2PS") == before["Wally Block"].stat("2PS") + 10
    assert state.game.sides[1].hooper("Edd Trapp").stellar
