"""Basketball Highlights: Crunch Time as a game declaration: two coaches or solo against the AI.

No dice. The table enters each offensive possession (Shot cards, their highlighted zones and who
stands there, Star cards); the companion scores it, moves the one signed lead, and runs rounds,
the mercy rule, unplayed Stars, overtime and the solo AI's turns (docs/games/crunch-time.md).

>>> GAME.name, GAME.aliases
('crunch-time', ('ct', 'crunch', 'basketball-highlights'))
"""

from __future__ import annotations

from companion.game import Game
from companion.games.crunch_time.commands import COMMANDS
from companion.games.crunch_time.demo import demo_script
from companion.games.crunch_time.frontend import FRONTEND
from companion.games.crunch_time.rules import apply, decide, setup
from companion.games.crunch_time.views import outcome, prompt, scoreboard, view

GAME = Game(
    name="crunch-time",
    title="Basketball Highlights: Crunch Time",
    aliases=("ct", "crunch", "basketball-highlights"),
    setup=setup,
    decide=decide,
    apply=apply,
    outcome=outcome,
    scoreboard=scoreboard,
    prompt=prompt,
    view=view,
    commands=COMMANDS,
    dice=(),  # no dice: the table enters each possession
    sides=(2, 2),
    demo_script=demo_script,
    frontend=FRONTEND,
)

__all__ = ["GAME"]
