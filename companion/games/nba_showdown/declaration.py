"""NBA Showdown's ``GAME``: the declaration the engine plays, built from the rules modules.

Imported when something asks the package for ``GAME`` (``find_game``, a test), never by
``companion calc``, which reads only the package's ``NAME`` and ``calculators``.

>>> GAME.name, GAME.aliases
('nba-showdown', ('nba', 'showdown'))
"""

from __future__ import annotations

from companion.dice import D20
from companion.game import Game
from companion.games.nba_showdown import ALIASES, NAME, TITLE
from companion.games.nba_showdown.commands import COMMANDS
from companion.games.nba_showdown.demo import demo_script
from companion.games.nba_showdown.frontend import FRONTEND
from companion.games.nba_showdown.rules import apply, decide, play
from companion.games.nba_showdown.setup_options import setup
from companion.games.nba_showdown.views import outcome, prompt, scoreboard, view

GAME = Game(
    name=NAME,
    title=TITLE,
    aliases=ALIASES,
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
