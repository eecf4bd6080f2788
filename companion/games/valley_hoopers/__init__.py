"""Valley Hoopers as a game declaration: Classic, Fast and Friendly Play, and The Series (best of seven).

The players roll the real dice and tell the companion; it keeps the score, the turn and period
tracks, energy, cubes, the Onfire track, and shows the target and the chance before each roll.

>>> GAME.name, GAME.aliases
('valley-hoopers', ('vh', 'valley', 'hoopers'))
>>> foul_outcome("D3", "whistle").to_json()["defense_bonus"]
25
>>> attack_target(55, [("pass", 25)], [("D2 Dime N'Shons", 30)], 20).value
30
"""

from __future__ import annotations

from companion.game import Game
from companion.games.valley_hoopers.commands import COMMANDS
from companion.games.valley_hoopers.demo import demo_script
from companion.games.valley_hoopers.dice import DICE
from companion.games.valley_hoopers.fouls import FoulOutcome, foul_outcome
from companion.games.valley_hoopers.frontend import FRONTEND
from companion.games.valley_hoopers.modes import apply, decide, outcome, play, prompt, scoreboard, setup, view
from companion.games.valley_hoopers.rosters import Roster, load_roster, parse_roster, shipped_roster
from companion.games.valley_hoopers.targets import attack_target

GAME = Game(
    name="valley-hoopers",
    title="Valley Hoopers: The Series",
    aliases=("vh", "valley", "hoopers"),
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
