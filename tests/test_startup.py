"""Start-up imports only what a subcommand needs: ``companion --help`` loads no store and no game,
finding one game by name or alias loads no other game, and ``companion calc`` loads of its game only the
calculators, never its rules (each check runs in a fresh interpreter)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _modules_after(code: str, env: dict[str, str] | None = None) -> list[str]:
    probe = code + "\nimport json, sys\nprint(json.dumps(sorted(sys.modules)))"
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True,
                            env={**os.environ, "PYTHONPATH": str(ROOT), **(env or {})})
    return json.loads(result.stdout.splitlines()[-1])


def test_companion_help_imports_no_store_no_game_and_no_hardware() -> None:
    loaded = _modules_after("import contextlib, io\nfrom table.cli import main\n"
                            "with contextlib.redirect_stdout(io.StringIO()):\n"
                            "    try:\n        main(['--help'])\n    except SystemExit:\n        pass")
    heavy = [m for m in loaded if m.startswith(("companion.store", "companion.games", "companion.session",
                                                "hardware", "kiosk", "sqlite3"))]
    assert heavy == []


@pytest.mark.parametrize("name, folder", [("vh", "valley_hoopers"), ("crunch-time", "crunch_time"),
                                          ("Basketball-Highlights", "crunch_time")])
def test_finding_a_game_by_name_or_alias_imports_that_game_alone(name: str, folder: str) -> None:
    loaded = _modules_after(f"from companion.games import find_game\nassert find_game({name!r})")
    games = {m.split(".")[2] for m in loaded if m.startswith("companion.games.") and m.count(".") >= 2}
    assert games == {folder}


def test_a_game_from_companion_extra_games_is_still_found() -> None:
    loaded = _modules_after("from companion.games import find_game\nassert find_game('shootout').name",
                            env={"COMPANION_EXTRA_GAMES": "shootout_game",
                                 "PYTHONPATH": f"{ROOT}{os.pathsep}{ROOT / 'tests'}"})
    assert "shootout_game" in loaded


def test_an_unknown_game_lists_every_game_the_companion_knows() -> None:
    from companion.errors import CommandError
    from companion.games import all_games, find_game

    with pytest.raises(CommandError) as refused:
        find_game("no-such-game")
    assert all(game.name in str(refused.value) for game in all_games())


# What `companion calc` must not load: the store, the engine and, of the game asked for, anything
# beyond its calculators (the declaration, its rules, commands, views, demo and front end).
ENGINE = ("sqlite3", "companion.store", "companion.session", "companion.game", "companion.frontend")
GAME_PARTS = ("declaration", "rules", "modes", "commands", "views", "demo", "frontend", "setup_options")
# Valley Hoopers' calculators need the target arithmetic and the card check, not the hooper model.
ALSO_NOT = {"valley_hoopers": ("model", "targets", "rosters")}
CALCS = [("valley_hoopers", ["vh", "attack", "--stat", "50", "--bonus", "15"]),
         ("valley_hoopers", ["valley-hoopers", "foul", "--action", "D3", "--face", "whistle", "--json"]),
         ("nba_showdown", ["nba", "roll", "--player", "Demo Dasher", "--mine", "17", "--theirs", "14"]),
         ("nba_showdown", ["nba-showdown", "shot", "--shot-line", "16"]),
         ("hoop_godz", ["hg", "shot", "--dice", "4", "--difficulty", "3", "--ball-faces", "2"])]
SHIPPED_CALCULATORS = {"valley_hoopers": ("valley-hoopers", ["attack", "foul"]),
                       "nba_showdown": ("nba-showdown", ["roll", "shot"]),
                       "hoop_godz": ("hoop-godz", ["shot"])}


def _within(loaded: list[str], modules: tuple[str, ...]) -> list[str]:
    """The loaded modules that are one of ``modules`` or inside one (``companion.game`` is not ``.games``)."""
    return [m for m in loaded if m in modules or m.startswith(tuple(f"{n}." for n in modules))]


def _calc_imports(argv: list[str]) -> list[str]:
    return _modules_after("import contextlib, io\nfrom table.cli import main\n"
                          "with contextlib.redirect_stdout(io.StringIO()):\n"
                          f"    assert main(['calc', *{argv!r}]) == 0")


@pytest.mark.parametrize("folder, argv", CALCS, ids=[" ".join(argv[:2]) for _, argv in CALCS])
def test_companion_calc_imports_no_store_no_engine_and_none_of_the_games_rules(
        folder: str, argv: list[str]) -> None:
    loaded = _calc_imports(argv)
    package = f"companion.games.{folder}"
    assert f"{package}.calculators" in loaded
    assert _within(loaded, ENGINE) == []
    parts = GAME_PARTS + ALSO_NOT.get(folder, ())
    assert _within(loaded, tuple(f"{package}.{part}" for part in parts)) == []
    games = {m.split(".")[2] for m in loaded if m.startswith("companion.games.") and m.count(".") >= 2}
    assert games == {folder}


@pytest.mark.parametrize("folder", sorted(SHIPPED_CALCULATORS))
def test_the_calculators_module_is_the_one_the_game_declares(folder: str) -> None:
    from companion.games import find_calculators, find_game

    name, calculators = SHIPPED_CALCULATORS[folder]
    found = find_calculators(name)
    assert (found.name, found.title, list(found.names)) == (name, find_game(name).title, calculators)
    assert found.calculators == find_game(name).frontend.calculators
    assert all(a.compute is b.compute for a, b in zip(found.calculators, find_game(name).frontend.calculators,
                                                      strict=True))


@pytest.mark.parametrize("folder", sorted(SHIPPED_CALCULATORS))
def test_every_name_the_package_exports_is_still_there(folder: str) -> None:
    import importlib

    from companion.game import Game

    package = importlib.import_module(f"companion.games.{folder}")
    assert isinstance(package.GAME, Game)
    assert (package.GAME.name, package.GAME.title, package.GAME.aliases) == (
        package.NAME, package.TITLE, package.ALIASES)
    assert all(getattr(package, name) is not None for name in package.__all__)
    with pytest.raises(AttributeError):
        package.no_such_name  # noqa: B018


def test_a_registered_game_offers_its_calculators_to_companion_calc(capsys) -> None:
    import dataclasses

    from shootout_game import GAME as SHOOTOUT

    from companion.forms import Calculator, FormField
    from companion.frontend import Frontend
    from companion.games import register, unregister
    from table.cli import main

    double = Calculator("double", "twice a number", (FormField("n", "the number", "int"),),
                        compute=lambda values: {"twice": 2 * values["n"]})
    game = dataclasses.replace(SHOOTOUT, name="doubles", aliases=("dbl",),
                               frontend=Frontend(calculators=(double,)))
    register(game)
    try:
        assert main(["calc", "dbl", "double", "--n", "21"]) == 0
    finally:
        unregister(game)
    assert capsys.readouterr().out == "twice: 42\n"


def test_companion_calc_finds_a_game_from_companion_extra_games() -> None:
    result = subprocess.run([sys.executable, "-m", "table.cli", "calc", "shoot", "x"], capture_output=True,
                            text=True, env={**os.environ, "COMPANION_EXTRA_GAMES": "shootout_game",
                                            "PYTHONPATH": f"{ROOT}{os.pathsep}{ROOT / 'tests'}"})
    assert result.returncode == 2
    assert result.stderr == "companion: Shootout (test game) offers no calculators\n"


@pytest.mark.parametrize("name", ["companion.forms", "companion.target", "companion.games",
                                  *(f"companion.games.{f}{m}" for f in SHIPPED_CALCULATORS
                                    for m in ("", ".calculators", ".declaration")),
                                  "companion.games.valley_hoopers.card_values",
                                  "companion.games.valley_hoopers.target_numbers"])
def test_docstring_examples_of_the_calc_path_run(name: str) -> None:
    import doctest
    import importlib

    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0, f"{name} has no examples"
    assert result.failed == 0
