"""A game's front-end parts over the socket (``game_info``): what the kiosk draws its screens from."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

from companion.frontend import game_info
from companion.games.valley_hoopers import GAME
from companion.service import TableService
from companion.store import Store


def _service(tmp_path: Path) -> TableService:
    return TableService(Store.open(tmp_path / "t.db"))


def test_game_info_serves_the_forms_rosters_panels_and_box_score_as_json(tmp_path: Path) -> None:
    reply = _service(tmp_path).execute({"op": "game_info", "game": "vh"})
    info = reply["info"]
    assert reply["ok"] and json.loads(json.dumps(info)) == info
    assert info["name"] == "valley-hoopers"
    assert info["sides"] == {"min": 2, "max": 2, "names": ["Lucy", "Karl"]}
    keys = [f["key"] for f in info["setup_form"]["fields"]]
    assert keys == ["variant", "first_attacker", "home", "condition"]
    assert info["setup_form"]["presets"][0]["options"]["sides"][0]["lineup"]["SG"] == "Muy Schillato"
    assert {r["name"] for r in info["rosters"]} == {"unleashed", "keepers"}
    cards = {c["name"]: c for r in info["rosters"] for c in r["cards"]}
    assert cards["Edd Trapp"]["stats"]["D3"] == 30 and "2PS" not in cards["Edd Trapp"]["stats"]
    assert "stats.2PS" in [f["key"] for f in info["card_form"]["fields"]]
    assert info["box_score"]["source"] == "/box_score" and info["box_score"]["total_key"] == "total"
    assert {d["name"] for d in info["dice"]} >= {"d20x5", "d8foul"}


def test_game_info_defaults_to_the_game_on_the_table_and_refuses_an_unknown_one(tmp_path: Path) -> None:
    service = _service(tmp_path)
    assert not service.execute({"op": "game_info"})["ok"], "no game on the table, none named"
    assert service.execute({"op": "game_info", "game": "chess"})["error_kind"] == "command"
    from companion.games.valley_hoopers.setup_options import example_options

    service.new_game("valley-hoopers", example_options())
    assert service.execute({"op": "game_info"})["info"]["name"] == "valley-hoopers"


def test_a_game_without_front_end_parts_still_answers_with_empty_ones() -> None:
    info = game_info(replace(GAME, frontend=None))
    assert info["setup_form"] == {"fields": [], "side_fields": [], "sides_key": "sides", "presets": []}
    assert (info["card_form"], info["rosters"], info["panels"], info["box_score"]) == (None, [], [], None)
    assert info["sides"]["names"] == ["Side 1", "Side 2"]


def test_the_preset_is_a_setup_the_game_accepts() -> None:
    preset = GAME.frontend.setup_form.presets[0]
    assert GAME.setup(preset.options).sides[1].name == "Karl"


def test_sides_and_dice_declared_by_the_game_itself_are_served_too() -> None:
    from types import SimpleNamespace

    d10 = SimpleNamespace(name="d10", title="ten-sided die", faces=(1, 2, 2, 3), labels={3: "three"})
    game = SimpleNamespace(name="three-way", title="Three-way", sides=(3, 5), dice=(d10,), frontend=None)
    info = game_info(game)
    assert info["sides"] == {"min": 3, "max": 5, "names": ["Side 1", "Side 2", "Side 3", "Side 4", "Side 5"]}
    assert info["dice"] == [{"name": "d10", "title": "ten-sided die", "faces": [1, 2, 3],
                             "face_labels": {"3": "three"}, "success": None}]
    assert info["calculators"] == []


def test_a_calculator_is_declared_once_for_the_cli_and_the_kiosk() -> None:
    attack = next(c for c in GAME.frontend.calculators if c.name == "attack")
    assert [f["key"] for f in game_info(GAME)["calculators"][0]["fields"]][:2] == ["stat", "bonus"]
    assert attack.compute({"stat": 70, "bonus": [15], "defense": 30, "foul_bonus": 0})["target"] == 55
