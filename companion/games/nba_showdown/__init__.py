"""NBA Showdown as a game declaration: quick play, the playmat's added rules and the advanced rules.

The players roll the real d20 and tell the companion; it keeps the Scoring, Assist and Rebound
Tracks, the markers, who has rolled, the strategy cards counted, the box score per quarter, and
before every roll shows the exact chance of every row of the roller's chart.

Importing the package loads nothing of the game: ``GAME`` (``declaration.py``) and the helpers below
are imported on first use, so ``companion calc nba`` reads ``NAME`` and ``calculators.py`` alone.

>>> from companion.games.nba_showdown import GAME
>>> GAME.name, GAME.aliases
('nba-showdown', ('nba', 'showdown'))
>>> state = GAME.setup({"teams": [{"roster": "demo-comets"}, {"roster": "demo-lanterns"}],
...                     "quick_play": True})
>>> GAME.prompt(state).choices[0].label
'PG Demo Dasher Speed +1'
>>> GAME.prompt(state).choices[0].hint
'3.6 pts, scores 85%'
"""

from __future__ import annotations

from companion.games import lazy_exports

NAME = "nba-showdown"
TITLE = "NBA Showdown"
ALIASES = ("nba", "showdown")

__all__ = [
    "GAME",
    "Card",
    "ChartRow",
    "Roster",
    "check_team",
    "example_options",
    "load_roster",
    "parse_card",
    "parse_roster",
    "shipped_roster",
]

__getattr__ = lazy_exports(__name__, {
    "GAME": "declaration",
    "Card": "cards",
    "ChartRow": "cards",
    "parse_card": "cards",
    "Roster": "rosters",
    "check_team": "rosters",
    "load_roster": "rosters",
    "parse_roster": "rosters",
    "shipped_roster": "rosters",
    "example_options": "setup_options",
})
