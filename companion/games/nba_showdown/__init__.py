"""NBA Showdown as a game declaration: quick play, the playmat's added rules and the advanced rules.

The players roll the real d20 and tell the companion; it keeps the Scoring, Assist and Rebound
Tracks, the markers, who has rolled, the strategy cards counted, the box score per quarter, and
before every roll shows the exact chance of every row of the roller's chart.

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

from companion.dice import D20
from companion.game import Game
from companion.games.nba_showdown.cards import Card, ChartRow, parse_card
from companion.games.nba_showdown.commands import COMMANDS
from companion.games.nba_showdown.demo import demo_script
from companion.games.nba_showdown.frontend import FRONTEND
from companion.games.nba_showdown.rosters import Roster, check_team, load_roster, parse_roster, shipped_roster
from companion.games.nba_showdown.rules import apply, decide, play
from companion.games.nba_showdown.setup_options import example_options, setup
from companion.games.nba_showdown.views import outcome, prompt, scoreboard, view

GAME = Game(
    name="nba-showdown",
    title="NBA Showdown",
    aliases=("nba", "showdown"),
    setup=setup,
    decide=decide,
    apply=apply,
    outcome=outcome,
    scoreboard=scoreboard,
    prompt=prompt,
    view=view,
    commands=COMMANDS,
    dice=(D20,),
    sides=(2, 2),
    demo_script=demo_script,
    frontend=FRONTEND,
    play=play,
)

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
