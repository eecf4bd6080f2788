"""The command form's words and the roster files behind it, without a window: which commands get a
form, what it sends, and an imported roster file's strategy deck reaching the game."""

from __future__ import annotations

import json
import shutil
import tempfile
from pathlib import Path

import pytest

from companion.frontend import game_info
from companion.games import find_game
from companion.service import TableService
from companion.store import Store
from kiosk import cards, command_form

GAME = "nba-showdown"
ROSTERS = Path(__file__).resolve().parents[1] / "companion" / "games" / "nba_showdown" / "rosters"


@pytest.fixture()
def config_home(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    return tmp_path / "courtside-companion"


def _info() -> dict:
    return json.loads(json.dumps(game_info(find_game(GAME))))  # what the socket carries


def test_game_info_declares_every_command_with_its_typed_fields_and_their_bounds() -> None:
    specs = {s["type"]: s for s in _info()["commands"]}
    fields = {f["name"]: f for f in specs["play_card"]["fields"]}
    assert fields["card"]["options"] == "/sides/{side}/strategy_cards"
    assert (fields["roll_bonus"]["min"], fields["roll_bonus"]["max"]) == (-20, 20)
    parts = {p["name"]: p for p in fields["requires"]["parts"]}
    assert parts["position"]["multiple"] and parts["more"]["choices"] == ["speed", "power"]


def test_the_form_sends_one_command_the_game_accepts_and_its_bounds_refuse_the_rest() -> None:
    spec = next(s for s in _info()["commands"] if s["type"] == "play_card")
    command = command_form.form_command(spec, {"side": 0, "card": "Demo Drive", "roll_bonus": 2,
                                                "requires.more": "speed", "adjust.reb": 1})
    assert command == {"type": "play_card", "side": 0, "card": "Demo Drive", "roll_bonus": 2,
                       "requires": {"more": "speed"}, "adjust": {"reb": 1}}
    game = find_game(GAME)
    assert game.command_spec("play_card").from_json(command) == command
    with pytest.raises(ValueError, match="roll_bonus must be a whole number from -20 to 20, not 21"):
        game.command_spec("play_card").from_json({**command, "roll_bonus": 21})


def test_only_the_scoring_roll_offers_the_card_form_and_the_deck_gives_its_buttons(tmp_path: Path) -> None:
    info = _info()
    service = TableService(Store.open(tmp_path / "t.db"))
    snapshot = service.execute({"op": "new_game", "game": GAME,
                                "options": info["setup_form"]["presets"][0]["options"]})["snapshot"]
    offered = []
    while not snapshot["prompt"].get("die"):
        offered.append([s["type"] for s in command_form.open_commands(snapshot["prompt"], info)])
        snapshot = service.execute({"op": "command",
                                    "command": snapshot["prompt"]["choices"][0]["command"]})["snapshot"]
    assert "play_card" not in {t for found in offered for t in found}
    [spec] = command_form.open_commands(snapshot["prompt"], info)
    card = next(f for f in spec["fields"] if f["name"] == "card")
    names = command_form.field_options(card, snapshot["view"], {"side": 1})
    assert len(names) == 10 and all(name.startswith("Mock") or name.startswith("Demo") for name in names)


def test_an_imported_roster_file_brings_its_strategy_deck_to_the_game(config_home: Path) -> None:
    folder = config_home / "rosters" / GAME
    folder.mkdir(parents=True)
    shutil.copy(ROSTERS / "demo-comets.toml", folder / "my-team.toml")
    info = _info()
    rosters = {**cards.shipped_rosters(info), **cards.imported_rosters(info)}
    assert sum(rosters["import:my-team"]["file_fields"]["deck"].values()) == 40
    setup = cards.load_last_setup(info)
    side = setup["sides"][0]
    side["roster"] = "import:my-team"
    side["picked"] = {c["name"]: "bench" for c in rosters["import:my-team"]["cards"]}
    options = cards.game_options(info, setup, rosters, {})
    assert options["teams"][0]["deck"] == rosters["import:my-team"]["file_fields"]["deck"]
    service = TableService(Store.open(Path(tempfile.mkdtemp()) / "t.db"))
    reply = service.execute({"op": "new_game", "game": GAME, "options": options})
    assert reply["ok"], reply.get("error")
    assert len(reply["snapshot"]["view"]["sides"][0]["strategy_cards"]) == 10


@pytest.mark.parametrize("name", ["command_form", "undo_bar", "density", "banner"])
def test_the_play_screen_modules_examples_run(name: str) -> None:
    import doctest
    import importlib

    module = importlib.import_module(f"kiosk.{name}")
    result = doctest.testmod(module)
    assert result.attempted > 0 and result.failed == 0
