"""The games the companion serves, found by name or alias (python-chess's ``VARIANTS``).

>>> find_game("vh").name
'valley-hoopers'
"""

from __future__ import annotations

from companion.errors import CommandError
from companion.game import Game


def _load() -> tuple[Game, ...]:
    from companion.games.valley_hoopers import GAME as valley_hoopers

    return (valley_hoopers,)


def all_games() -> tuple[Game, ...]:
    return _load()


def find_game(name: str) -> Game:
    wanted = name.strip().lower()
    for game in _load():
        if wanted == game.name or wanted in game.aliases:
            return game
    known = ", ".join(g.name for g in _load())
    raise CommandError(f"no game called {name!r}; the companion knows: {known}")
