"""Valley Hoopers' ``GAME``: the declaration the engine plays, built from the rules modules.

Imported when something asks the package for ``GAME`` (``find_game``, a test), never by
``companion calc``, which reads only the package's ``NAME`` and ``calculators``.

>>> GAME.name, GAME.aliases
('valley-hoopers', ('vh', 'valley', 'hoopers'))
"""

from __future__ import annotations

from companion.game import Game
from companion.games.valley_hoopers import ALIASES, NAME, TITLE
from companion.games.valley_hoopers.commands import COMMANDS
from companion.games.valley_hoopers.demo import demo_script
from companion.games.valley_hoopers.dice import DICE
from companion.games.valley_hoopers.frontend import FRONTEND
from companion.games.valley_hoopers.modes import apply, decide, outcome, play, prompt, scoreboard, setup, view

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
    dice=DICE,
    sides=(2, 2),
    demo_script=demo_script,
    frontend=FRONTEND,
    play=play,
)
