"""The games the companion serves, found by name or alias (python-chess's ``VARIANTS``).

Every package under ``companion/games/`` that exposes ``GAME`` is a game: adding a folder is all
it takes. ``find_game`` imports only the folder that holds the game asked for (the one named after
it, or one whose ``__init__.py`` spells the name or alias in quotes), so ``companion calc vh`` does
not load the other games; listing them all (``all_games``) imports every folder. Tests add games
of their own with ``register(game)`` or, for a service started in a subprocess, by listing modules
in ``COMPANION_EXTRA_GAMES`` (``shootout_game``, comma-separated, importable on the service's path;
each module exposes ``GAME``).

A game package also says, in cheap constants, who it is (``NAME``, ``TITLE``, ``ALIASES``) and builds
``GAME`` only when asked (``lazy_exports``), so ``find_calculators`` can hand ``companion calc`` a
game's ``calculators`` module without loading its rules, rosters or front end.

>>> find_game("vh").name
'valley-hoopers'
>>> find_calculators("vh").names
('attack', 'foul')
"""

from __future__ import annotations

import importlib
import os
import sys
from collections.abc import Callable, Mapping
from importlib.util import find_spec

from companion.errors import CommandError

TYPE_CHECKING = False  # typing, dataclasses and the engine are imports `companion calc` can do without
if TYPE_CHECKING:
    from companion.dice import Die
    from companion.forms import Calculator
    from companion.game import Game

EXTRA_GAMES_ENV = "COMPANION_EXTRA_GAMES"
_registered: list[Game] = []
_found: tuple[Game, ...] | None = None
_loaded: dict[str, Game | None] = {}  # folder -> its GAME (None: the package declares no game)


def _folders() -> list[str]:
    """The packages under companion/games/, by name, without importing any of them (nor pkgutil,
    which costs ``companion calc`` more than the listing)."""
    folders = []
    for root in __path__:
        with os.scandir(root) as entries:
            folders += [e.name for e in entries if e.is_dir() and e.name.isidentifier()
                        and os.path.exists(os.path.join(e.path, "__init__.py"))]
    return sorted(folders)


def lazy_exports(package: str, exports: Mapping[str, str]) -> Callable[[str], object]:
    """A game package's module ``__getattr__``: each name in ``exports`` (name -> the submodule that
    defines it) is imported on first use, then kept, so ``from companion.games.x import GAME`` works
    while importing the package itself loads nothing of the game.
    """
    def __getattr__(name: str) -> object:
        if name not in exports:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(f"{package}.{exports[name]}"), name)
        setattr(sys.modules[package], name, value)
        return value

    return __getattr__


def _load(folder: str) -> Game | None:
    from companion.game import Game

    if folder not in _loaded:
        game = getattr(importlib.import_module(f"{__name__}.{folder}"), "GAME", None)
        _loaded[folder] = game if isinstance(game, Game) else None
    return _loaded[folder]


def builtin_games() -> tuple[Game, ...]:
    """The games shipped in companion/games/ (each folder exposing GAME), found once."""
    global _found
    if _found is None:
        _found = tuple(game for game in map(_load, _folders()) if game is not None)
    return _found


def _likely_folders(wanted: str) -> list[str]:
    """Folders that may hold the game called ``wanted``, read as text, not imported.

    Only a guess to import first: the game found is still checked by its declared name and aliases.
    """
    likely = []
    for folder in _folders():
        if folder == wanted.replace("-", "_"):
            likely.insert(0, folder)
            continue
        try:
            with open(os.path.join(__path__[0], folder, "__init__.py"), encoding="utf-8") as init:
                source = init.read()
        except OSError:
            continue
        if f'"{wanted}"' in source or f"'{wanted}'" in source:
            likely.append(folder)
    return likely


def _matches(game: Game, wanted: str) -> bool:
    return wanted == game.name or wanted in game.aliases


def _extra() -> list[Game]:
    from companion.game import Game

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
    """The game called ``name`` (or one of its aliases), importing as few game folders as it can."""
    wanted = name.strip().lower()
    for folder in _likely_folders(wanted):
        game = _load(folder)
        if game is not None and _matches(game, wanted):
            return game
    games = (*_registered, *_extra())
    for game in (*games, *all_games()):  # then everything: a name the guess could not see
        if _matches(game, wanted):
            return game
    known = ", ".join(g.name for g in all_games())
    raise CommandError(f"no game called {name!r}; the companion knows: {known}")


class GameCalculators:
    """What ``companion calc GAME`` needs of a game: its name, title and calculators, nothing more."""

    def __init__(self, name: str, title: str, calculators: tuple[Calculator, ...]) -> None:
        self.name, self.title, self.calculators = name, title, calculators

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(c.name for c in self.calculators)


def find_calculators(name: str) -> GameCalculators:
    """The calculators of the game called ``name``, loading only its ``calculators`` module when its
    package declares ``NAME`` and has one (the games shipped here); any other game (``register``,
    ``COMPANION_EXTRA_GAMES``, a package that builds ``GAME`` eagerly) is found by ``find_game``."""
    wanted = name.strip().lower()
    for folder in _likely_folders(wanted):
        package = importlib.import_module(f"{__name__}.{folder}")
        declared = vars(package)  # not getattr: a lazy package would build GAME to answer
        if "NAME" not in declared or wanted not in (declared["NAME"], *declared.get("ALIASES", ())):
            continue
        if find_spec(f"{package.__name__}.calculators") is None:
            break  # the game may still declare calculators in its front end: ask GAME
        module = importlib.import_module(f"{package.__name__}.calculators")
        return GameCalculators(declared["NAME"], declared["TITLE"], tuple(module.CALCULATORS))
    game = find_game(name)
    frontend = getattr(game, "frontend", None)
    return GameCalculators(game.name, game.title, tuple(getattr(frontend, "calculators", ())))


def known_dice() -> dict[str, Die]:
    """Every die a registered game declares, then the plain d20 and d6, by wire name.

    The dice tray and ``sim_tray`` check names against this; which die is awaited *now* comes
    from the prompt's ``die_info``.
    """
    from companion.dice import GENERIC_DICE

    dice: dict[str, Die] = {}
    for game in all_games():
        for die in game.dice:
            dice.setdefault(die.name, die)
    for die in GENERIC_DICE:
        dice.setdefault(die.name, die)
    return dice
