"""The games the companion serves, found by name or alias (python-chess's ``VARIANTS``).

Every package under ``companion/games/`` that exposes ``GAME`` is a game: adding a folder is all
it takes. Tests add games of their own with ``register(game)`` or, for a service started in a
subprocess, by listing modules in ``COMPANION_EXTRA_GAMES`` (``shootout_game``, comma-separated,
importable on the service's path; each module exposes ``GAME``).

>>> find_game("vh").name
'valley-hoopers'
"""

from __future__ import annotations

import importlib
import os
import pkgutil

from companion.dice import GENERIC_DICE, Die
from companion.errors import CommandError
from companion.game import Game

EXTRA_GAMES_ENV = "COMPANION_EXTRA_GAMES"
_registered: list[Game] = []
_found: tuple[Game, ...] | None = None


def builtin_games() -> tuple[Game, ...]:
    """The games shipped in companion/games/ (each folder exposing GAME), found once."""
    global _found
    if _found is None:
        games = []
        for module in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
            if not module.ispkg:
                continue
            game = getattr(importlib.import_module(f"{__name__}.{module.name}"), "GAME", None)
            if isinstance(game, Game):
                games.append(game)
        _found = tuple(games)
    return _found


def _extra() -> list[Game]:
    games = []
    for name in filter(None, (n.strip() for n in os.environ.get(EXTRA_GAMES_ENV, "").split(","))):
        game = getattr(importlib.import_module(name), "GAME", None)
        if not isinstance(game, Game):
            raise CommandError(f"{EXTRA_GAMES_ENV}: module {name} has no GAME")
        games.append(game)
    return games


def register(game: Game) -> Game:
    """Add a game that lives outside ``companion/games/`` (tests); registering twice is harmless."""
    if all(g.name != game.name for g in _registered):
        _registered.append(game)
    return game


def unregister(game: Game) -> None:
    """Forget a game added by ``register`` (a test's clean-up)."""
    _registered[:] = [g for g in _registered if g.name != game.name]


def all_games() -> tuple[Game, ...]:
    games: list[Game] = []
    for game in (*builtin_games(), *_registered, *_extra()):
        if all(g.name != game.name for g in games):
            games.append(game)
    return tuple(games)


def find_game(name: str) -> Game:
    wanted = name.strip().lower()
    games = all_games()
    for game in games:
        if wanted == game.name or wanted in game.aliases:
            return game
    known = ", ".join(g.name for g in games)
    raise CommandError(f"no game called {name!r}; the companion knows: {known}")


def known_dice() -> dict[str, Die]:
    """Every die a registered game declares, then the plain d20 and d6, by wire name.

    The dice tray and ``sim_tray`` check names against this; which die is awaited *now* comes
    from the prompt's ``die_info``.
    """
    dice: dict[str, Die] = {}
    for game in all_games():
        for die in game.dice:
            dice.setdefault(die.name, die)
    for die in GENERIC_DICE:
        dice.setdefault(die.name, die)
    return dice
