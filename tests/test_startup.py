"""Start-up imports only what a subcommand needs: ``companion --help`` loads no store and no game, and
finding one game by name or alias loads no other game (each check runs in a fresh interpreter)."""

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
