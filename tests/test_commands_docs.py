"""docs/commands.md lists each game's commands exactly as the game declares them (no drift)."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.commands import markdown_table
from companion.games import all_games, builtin_games

DOCS = Path(__file__).resolve().parents[1] / "docs" / "commands.md"


@pytest.mark.parametrize("game", list(builtin_games()),
                         ids=lambda g: g.name)
def test_the_commands_table_in_the_docs_is_the_one_the_game_declares(game):
    table = markdown_table(game.commands)
    assert table in DOCS.read_text(), (
        f"docs/commands.md's {game.title} table differs from its CommandSpecs; paste this:\n{table}")


def test_every_declared_example_is_accepted_by_its_own_spec():
    for game in all_games():
        for spec in game.commands:
            assert spec.from_json(spec.example) == spec.from_json(spec.from_json(spec.example)), spec.type
