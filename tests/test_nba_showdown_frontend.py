"""NBA Showdown's front-end parts: what the kiosk's forms send is what the game's setup accepts, a card
entered once reaches the game, and the calculators answer ``companion calc nba-showdown``."""

from __future__ import annotations

import json
from typing import Any

import pytest

from companion.errors import CommandError
from companion.frontend import game_info
from companion.games.nba_showdown import GAME
from companion.games.nba_showdown.frontend import FRONTEND
from kiosk import cards as kiosk_cards


def _info() -> dict[str, Any]:
    return json.loads(json.dumps(game_info(GAME)))


def test_every_preset_starts_a_game_and_quick_play_switches_every_rule_off() -> None:
    presets = {p.label: p.options for p in FRONTEND.setup_form.presets}
    assert GAME.setup(presets["DEMO teams, every rule"]).rules.any_on
    assert not GAME.setup(presets["DEMO teams, quick play"]).rules.any_on
    assert not GAME.setup(presets["DEMO teams, advanced rules without strategy cards"]).rules.strategy


def test_the_kiosks_setup_of_a_preset_with_a_card_entered_once_reaches_the_game() -> None:
    info = _info()
    setup = kiosk_cards.blank_setup(info)
    assert [s["name"] for s in setup["sides"]] == ["DEMO Comets", "DEMO Lanterns"]
    rosters = kiosk_cards.shipped_rosters(info)
    dasher = kiosk_cards.card_for("Demo Dasher", rosters, {})
    assert dasher["chart"]["row3"] == "10-15 4 2 1"
    dasher["speed"] = 19
    dasher["chart"] = {**dasher["chart"], "row6": "25+ 12 5 2"}
    entered = {"Demo Dasher": kiosk_cards.card_override(dasher, info["card_form"])}
    setup["fields"].update({"hot_cold": False, "quick_play": False, "rebound_points": "2 2 3"})
    options = kiosk_cards.game_options(info, setup, rosters, entered)
    state = GAME.setup(options)
    card = state.teams[0].card("Demo Dasher")
    assert (card.speed, card.chart[-1].pts, card.chart[2].pts) == (19, 12, 4)
    assert not state.rules.hot_cold and state.rules.strategy and state.rebound_points == (2, 2, 3)
    assert state.teams[1].name == "DEMO Lanterns"


def test_a_switch_left_unset_follows_quick_play() -> None:
    options = {
        **FRONTEND.setup_form.presets[0].options,
        "quick_play": True,
        "assists": None,
        "rebounds": True,
    }
    rules = GAME.setup(options).rules
    assert (rules.assists, rules.rebounds, rules.hot_cold) == (False, True, False)


def test_a_kiosk_card_with_overlapping_chart_lines_is_refused_naming_the_rows() -> None:
    options = json.loads(json.dumps(FRONTEND.setup_form.presets[0].options))
    options["teams"][0]["players"][0] = {"name": "Demo Dasher", "chart": {"row2": "4-9 2 1 0"}}
    with pytest.raises(CommandError, match="Demo Dasher: chart rows 1-4 and 4-9 overlap"):
        GAME.setup(options)
    options["teams"][0]["players"][0] = {"name": "Demo Dasher", "chart": {"row2": "five to nine"}}
    with pytest.raises(CommandError, match="a chart line is the range then PTS, AST, REB"):
        GAME.setup(options)


def test_companion_calc_gives_a_rolls_row_distribution_and_a_shot_checks_chance(capsys: Any) -> None:
    from table.cli import main

    assert (
        main(
            [
                "calc",
                "nba-showdown",
                "roll",
                "--player",
                "Demo Dasher",
                "--mine",
                "17",
                "--theirs",
                "14",
                "--json",
            ]
        )
        == 0
    )
    roll = json.loads(capsys.readouterr().out)
    assert (roll["matchup"], roll["expected_pts"]) == (3, 4.4)
    assert [(o["label"], o["probability"]) for o in roll["outcomes"]] == [
        ("1", 0.05),
        ("2-6", 0.25),
        ("7-12", 0.3),
        ("13-17", 0.25),
        ("18-20", 0.15),
    ]
    assert abs(sum(o["probability"] for o in roll["outcomes"]) - 1) < 1e-9
    assert main(["calc", "nba-showdown", "roll", "--chart", "1-11 0, 12-17 2 0 1, 18-23 3", "--json"]) == 0
    typed = json.loads(capsys.readouterr().out)
    assert [r["probability"] for r in typed["rows"]] == [0.55, 0.3, 0.15]
    assert main(["calc", "nba-showdown", "shot", "--shot-line", "18", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["p_success"] == 0.15
    assert main(["calc", "nba-showdown", "shot", "--shot-line", "16", "--foul-shot", "yes", "--json"]) == 0
    foul = json.loads(capsys.readouterr().out)
    assert (foul["p_success"], foul["expected_points"]) == (0.75, 0.75)
