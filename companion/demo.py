"""Demo scripts: a game's setup options and commands that play part of it, for tests and fuzzers.

``autoplay`` writes such a script from the game's own prompts, deterministically: a roll takes the
next face of a fixed cycle among the faces the awaited die has, a sealed value a fixed cycle
within its bounds, any other step the ``pick``-th offered choice. A game declares ``demo_script``
(``Game.demo_script``) with it or by hand.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from companion.errors import CompanionError
from companion.game import JSON, Game


def autoplay(game: Game, options: Mapping[str, Any], steps: int, pick: Sequence[int] = (0, 1, 2),
             faces: Sequence[int] = (7, 3, 11, 0, 5)) -> tuple[JSON, list[JSON]]:
    state = game.setup(options)
    commands: list[JSON] = []
    for n in range(steps * 3):
        if len(commands) >= steps or game.outcome(state) is not None:
            break
        prompt = game.prompt(state)
        if prompt.roll is not None and (n % 2 == 0 or not prompt.choices):
            distinct = prompt.roll.die.distinct_faces
            command: JSON = {"type": "roll", "die": prompt.roll.die.name,
                             "face": distinct[faces[len(commands) % len(faces)] % len(distinct)]}
        elif prompt.sealed is not None:
            sealed = prompt.sealed
            side = next(s for s in sealed.sides if s not in sealed.entered)
            top = sealed.max_by_side.get(side, sealed.min + 5)
            command = {"type": sealed.command, "side": side,
                       sealed.field: sealed.min + (len(commands) * 3) % (top - sealed.min + 1)}
        elif prompt.choices:
            command = dict(prompt.choices[pick[len(commands) % len(pick)] % len(prompt.choices)].command)
        else:
            break
        try:
            state, _ = game.run(state, command)
        except CompanionError:
            continue  # a choice the rules refuse now (they are offered only when legal; a roll may not be)
        commands.append(command)
    return dict(options), commands
