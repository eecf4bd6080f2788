"""Hoop Godz as a game declaration: the juice ledger, the clock tokens, and dice battles as races.

Importing the package loads nothing of the game: ``GAME`` (``declaration.py``) is imported on first
use, so ``companion calc hoop-godz`` reads ``NAME`` and ``calculators.py`` alone.

>>> from companion.games.hoop_godz import GAME
>>> GAME.name, GAME.aliases, GAME.sides
('hoop-godz', ('hg', 'godz'), (2, 2))
"""

from __future__ import annotations

from companion.games import lazy_exports

NAME = "hoop-godz"
TITLE = "Hoop Godz"
ALIASES = ("hg", "godz")

__all__ = ["GAME"]

__getattr__ = lazy_exports(__name__, {"GAME": "declaration"})
