"""Hoop Godz's ``GAME``: the declaration the engine plays, built from the rules modules.

Imported when something asks the package for ``GAME`` (``find_game``, a test), never by
``companion calc``, which reads only the package's ``NAME`` and ``calculators``.

>>> GAME.name, GAME.sides
('hoop-godz', (2, 2))
"""

from __future__ import annotations

from companion.game import Game
from companion.games.hoop_godz import ALIASES, NAME, TITLE
from companion.games.hoop_godz.commands import COMMANDS
from companion.games.hoop_godz.demo import demo_script
from companion.games.hoop_godz.dice import BALLS
from companion.games.hoop_godz.frontend import FRONTEND
from companion.games.hoop_godz.rules import apply, decide, play, setup
from companion.games.hoop_godz.views import outcome, prompt, scoreboard, view

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
    dice=(BALLS,),
    sides=(2, 2),
    demo_script=demo_script,
    frontend=FRONTEND,
    play=play,
)
