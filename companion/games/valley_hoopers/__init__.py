"""Valley Hoopers as a game declaration: Classic, Fast and Friendly Play, and The Series (best of seven).

The players roll the real dice and tell the companion; it keeps the score, the turn and period
tracks, energy, cubes, the Onfire track, and shows the target and the chance before each roll.

Importing the package loads nothing of the game: ``GAME`` (``declaration.py``) and the helpers below
are imported on first use, so ``companion calc vh`` reads ``NAME`` and ``calculators.py`` alone.

>>> from companion.games.valley_hoopers import GAME, attack_target, foul_outcome
>>> GAME.name, GAME.aliases
('valley-hoopers', ('vh', 'valley', 'hoopers'))
>>> foul_outcome("D3", "whistle").to_json()["defense_bonus"]
25
>>> attack_target(55, [("pass", 25)], [("D2 Dime N'Shons", 30)], 20).value
30
"""

from __future__ import annotations

from companion.games import lazy_exports

NAME = "valley-hoopers"
TITLE = "Valley Hoopers: The Series"
ALIASES = ("vh", "valley", "hoopers")

__all__ = [
    "GAME",
    "FoulOutcome",
    "Roster",
    "attack_target",
    "foul_outcome",
    "load_roster",
    "parse_roster",
    "shipped_roster",
]

__getattr__ = lazy_exports(__name__, {
    "GAME": "declaration",
    "FoulOutcome": "fouls",
    "foul_outcome": "fouls",
    "attack_target": "targets",
    "Roster": "rosters",
    "load_roster": "rosters",
    "parse_roster": "rosters",
    "shipped_roster": "rosters",
})
