"""Action upgrade and position upgrade cards: which cards a side sleeves, and their labelled terms.

The rulebook names the eight action upgrade cards and their condition icons but prints only one
former action ("'From the Elbow' upgrades just a Two Point Shot action") and no improvement: the
shipped contents are DEMO data, labelled "demo card" in every term, until the table enters its own.
"""

from __future__ import annotations

import doctest
import importlib
import random
from dataclasses import replace
from typing import Any

import pytest
from games.valley_hoopers_series import series_command, series_options
from games.valley_hoopers_table import Table, options

from companion.errors import CommandError, RuleError
from companion.games.valley_hoopers import GAME
from companion.games.valley_hoopers.series import RewardPhase, reward_items
from companion.games.valley_hoopers.series_upgrades import take_positions
from companion.games.valley_hoopers.upgrade_cards import demo_cards, tribe_cards


def test_the_eight_printed_cards_with_their_condition_icons() -> None:
    cards = demo_cards()
    assert tribe_cards("keepers") == ("No-Look", "From the Corner", "Hook Shot", "Backdoor Cut")
    assert tribe_cards("unleashed") == ("Wall of Death", "Rainbow Shot", "From the Elbow", "Curl")
    # "Q) 8 Action upgrade cards: a) 2 [one-star] Actions, b) 6 [exclamation mark] Actions"
    assert sorted(c.condition for c in cards.values()).count("star") == 2 and len(cards) == 8
    assert cards["from the elbow"].action == "2PS" and all(c.demo for c in cards.values())


def test_a_classic_side_sleeves_its_tribes_four_cards_and_the_improvement_is_a_labelled_term() -> None:
    table = Table()
    assert [c.name for c in table.state.sides[0].action_upgrades] == list(tribe_cards("unleashed"))
    table.do("attack", shot="2PS", position="SG", upgrade="From the Elbow").do("no_defense")
    assert table.prompt.target is not None
    assert "+ 10 (From the Elbow, demo card)" in table.prompt.target.text


def test_an_upgrade_goes_only_on_its_former_action_and_only_if_sleeved() -> None:
    table = Table()
    with pytest.raises(RuleError, match="upgrades a 2PS action, not a 3PS"):
        table.do("attack", shot="3PS", position="SG", upgrade="From the Elbow")
    with pytest.raises(RuleError, match="no 'Hook Shot' action upgrade sleeved"):
        table.do("attack", shot="2PS", position="SG", upgrade="Hook Shot")


def test_a_counter_takes_no_action_upgrade_the_counter_is_itself_the_cards_one_upgrade() -> None:
    # "b) All your six counter action cards: these upgrades will add a third (counter) action" and
    # "Every card can gain only one upgrade": a card that counters wears no action upgrade card, and
    # no action upgrade card needs a counter as its "Former action needed".
    table = Table()
    table.do("fundamental", action="dribble", position="SG")
    assert "counter" in table.prompt.commands
    with pytest.raises(CommandError, match="counter has no field 'upgrade'"):
        table.do("counter", hooper="Chus Kinder", upgrade="Hook Shot")
    with pytest.raises(CommandError, match="former action needed"):
        Table(options(action_upgrade_cards=[{"name": "Curl", "action": "steal", "bonus": 5}]))
    table.do("counter", hooper="Chus Kinder")  # the same counter without an upgrade is played


def test_a_star_card_improves_only_a_hooper_on_a_stellar_position() -> None:
    # Wall of Death is a [star] card (printed); its screen and +10 are demo contents.
    table = Table()
    table.do("fundamental", action="screen", position="PF", upgrade="Wall of Death").roll("blank")
    assert [t.label for t in table.state.turn.bonuses] == ["screen"]


def test_the_tables_entered_cards_replace_the_demo_contents() -> None:
    entered = [{"name": "From the Elbow", "condition": "exclamation", "action": "2PS", "bonus": 15},
               {"name": "Hook Shot", "condition": "exclamation", "action": "D2", "bonus": 5}]
    table = Table(options(action_upgrade_cards=entered))
    table.do("attack", shot="2PS", position="SG", upgrade="From the Elbow")
    table.do("defend", hooper="Chus Kinder", upgrade="Hook Shot").roll("blank")
    text = table.prompt.target.text
    assert "+ 15 (From the Elbow)" in text and "- 5 (Hook Shot)" in text and "demo" not in text


def test_an_entered_card_needs_its_action_and_improvement() -> None:
    with pytest.raises(CommandError, match="bonus"):
        Table(options(action_upgrade_cards=[{"name": "Curl", "action": "dribble"}]))


def test_position_upgrades_come_from_a_kit_of_two_per_position() -> None:
    opts = options()
    opts["sides"][0]["position_upgrades"] = ["PG", "PG", "PG"]
    with pytest.raises(RuleError, match="2 PG position upgrades"):
        Table(opts)


# --- The Series: which cards a side takes in the reward phase, and sleeves for the next game -------------


def _reward_phase_with_cards() -> Any:
    """Game 1 played out, then its result set so that Lucy takes the Series track's card and two
    position upgrades (3 Lv.1 + 1 Lv.2 chips left) and Karl the strength marker's card (a 2-point loss)."""
    state = GAME.setup(series_options())
    rng = random.Random(4)
    while state.phase == "game":
        state, _ = GAME.run(state, series_command(state, rng))
    last = replace(state.last(), score=(50, 48), winner=0, track_face=0, chips_left=((3, 1), (0, 0)),
                   milestones=(), fourth_period_winner=None)
    return replace(state, results=(last,), reward=RewardPhase(gameplan_met=(0, 0)), phase="reward")


def _run(state: Any, **command: Any) -> Any:
    state, _ = GAME.run(state, {"type": "reward", **command})
    return state


def test_the_reward_phase_names_the_action_and_position_upgrade_cards_taken() -> None:
    state = _reward_phase_with_cards()
    labels = [c.label for c in GAME.prompt(state).choices]
    assert "done: Lucy takes From the Elbow (under the Series track)" in labels
    assert "done: Karl takes Hook Shot (under the strength marker)" in labels
    assert "done: Lucy takes a PG position upgrade" in labels
    state = _run(state, item="0:track", cards=["From the Elbow"])
    with pytest.raises(RuleError, match="'From the Elbow' is not in the action upgrade deck"):
        GAME.decide(state, {"type": "reward", "item": "1:strength", "cards": ["From the Elbow"]})
    state = _run(state, item="1:strength", cards=["Hook Shot"])
    state = _run(state, item="0:positions", cards=["PG"])
    assert "0:positions" in dict(reward_items(state)) and "taken: PG" in GAME.prompt(state).text
    state = _run(state, item="0:positions", cards=["PG"])
    assert "0:positions" not in dict(reward_items(state))  # both named: the item is done
    with pytest.raises(RuleError, match="no PG position upgrade left"):  # "2 PG" in a kit
        take_positions(["PG"], state.positions_held[0], 1, "Lucy")
    state = _run(state, item="0:hooper_upgrades", cards=["stat_energy"])
    state = _run(state, all=True)
    assert state.action_held == (("From the Elbow",), ("Hook Shot",))
    assert state.positions_held == (("PG", "PG"), ())
    assert GAME.view(state)["series"]["action_upgrades"]["deck_left"] == [
        "No-Look", "From the Corner", "Backdoor Cut", "Wall of Death", "Rainbow Shot", "Curl"]


def test_the_next_game_sleeves_the_held_cards_and_their_improvement_shows_in_the_target() -> None:
    state = _reward_phase_with_cards()
    for command in ({"item": "0:track", "cards": ["From the Elbow"]},
                    {"item": "0:positions", "cards": ["SG"]},
                    {"item": "0:hooper_upgrades", "cards": ["energy"]}, {"all": True}):
        state = _run(state, **command)
    next_game = dict(GAME.prompt(state).choices[0].command)
    with pytest.raises(RuleError, match="Lucy holds no 'Curl' to sleeve"):
        GAME.decide(state, {**next_game, "action_upgrades": [["Curl"], None]})
    state, _ = GAME.run(state, next_game)
    lucy, karl = state.game.sides
    assert [c.name for c in lucy.action_upgrades] == ["From the Elbow"] and lucy.position_upgrades == ("SG",)
    assert karl.action_upgrades == ()  # "sleeving onto it only your six counter action cards"
    attacker = state.game.turn.attacker
    assert attacker == 0  # game 2 is at Lucy's Home: she attacks first
    attack = {"type": "attack", "shot": "2PS", "position": "SG", "upgrade": "From the Elbow"}
    state, _ = GAME.run(state, attack)
    state, _ = GAME.run(state, {"type": "no_defense"})
    assert "+ 10 (From the Elbow, demo card)" in GAME.prompt(state).target.text


def test_a_star_upgrade_cards_improvement_moves_the_series_track_as_a_stellar_action() -> None:
    # "Play a successful stellar action (by Onfire chips or upgraded action card)".
    state = _reward_phase_with_cards()
    for command in ({"item": "0:track", "cards": ["Wall of Death"]},
                    {"item": "0:hooper_upgrades", "cards": ["energy"]}, {"all": True}):
        state = _run(state, **command)
    next_game = next(c.command for c in GAME.prompt(state).choices if c.command["type"] == "next_game")
    state, _ = GAME.run(state, {**next_game, "condition": "stellar"})
    assert state.game.series.track == 0 and state.game.turn.attacker == 0
    # Muy Schillato (stellar, on his first position SG) screens with Wall of Death (a [star] card).
    for command in ({"type": "fundamental", "action": "screen", "position": "SG", "upgrade": "Wall of Death"},
                    {"type": "roll", "face": "blank"}, {"type": "attack", "shot": "2PS", "position": "PG"},
                    {"type": "no_defense"}, {"type": "roll", "face": 5}):
        state, _ = GAME.run(state, command)
    assert state.game.score[0] == 2 and state.game.series.track == 1


@pytest.mark.parametrize("name", ["upgrade_cards", "draft_upgrades", "exhaustion", "series_plan", "fouls"])
def test_the_new_modules_examples_run(name: str) -> None:
    module = importlib.import_module(f"companion.games.valley_hoopers.{name}")
    result = doctest.testmod(module)
    assert result.attempted and not result.failed
