"""Hoop Godz as a game declaration: the juice ledger, the clock tokens, and dice battles as races.

>>> GAME.name, GAME.aliases, GAME.sides
('hoop-godz', ('hg', 'godz'), (2, 2))
"""

from __future__ import annotations

from companion.game import Game
from companion.games.hoop_godz.commands import COMMANDS
from companion.games.hoop_godz.demo import demo_script
from companion.games.hoop_godz.dice import BALLS
from companion.games.hoop_godz.frontend import FRONTEND
from companion.games.hoop_godz.rules import apply, decide, setup
from companion.games.hoop_godz.views import outcome, prompt, scoreboard, view

GAME = Game(
    name="hoop-godz",
    title="Hoop Godz",
    aliases=("hg", "godz"),
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
)

__all__ = ["GAME"]
