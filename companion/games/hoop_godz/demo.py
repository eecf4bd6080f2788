"""The Hoop Godz demo script: a draft, a tied tip-off rolled again, races won clean and on the TIE
BREAKER, a SHOOT with its final roll (BALL icons counted), then 40 more steps from the game's own
prompts (the conformance suite and the fuzzers play it)."""

from __future__ import annotations

from companion.errors import CompanionError
from companion.game import JSON

OPTIONS: JSON = {"sides": [{"name": "Hana"}, {"name": "Ravi"}], "ball_faces": 2}
OPENING: tuple[JSON, ...] = (
    {"type": "pick", "baller": "Demo Tower"},
    {"type": "pick", "baller": "Demo Zip"},
    {"type": "pick", "baller": "Demo Flash"},
    {"type": "pick", "baller": "Demo Swing"},
    {"type": "pick", "baller": "Demo Arc"},
    {"type": "pick", "baller": "Demo Wall"},
    {"type": "tip_off", "nearest": ["Demo Tower", "Demo Zip"]},
    # Both pressed 10 ms apart: a tie, and nobody holds the TIE BREAKER yet: roll again.
    {"type": "race", "order": [0, 1], "presses": [{"side": 0, "ms": 0}, {"side": 1, "ms": 10}], "tie": True},
    {"type": "race", "order": [0, 1], "presses": [{"side": 0, "ms": 0}, {"side": 1, "ms": 240}],
     "tie": False},
    {"type": "play", "card": "SHOOT", "baller": "Demo Swing", "difficulty": 2, "points": 2},
    {"type": "respond", "card": "BLOCK", "baller": "Demo Wall"},
    {"type": "boost", "side": 0},
    # Hana pressed first but within the window: Ravi holds the TIE BREAKER, wins, hands it over.
    {"type": "race", "order": [1, 0], "presses": [{"side": 0, "ms": 0}, {"side": 1, "ms": 30}], "tie": True},
    {"type": "play", "card": "SHOOT", "baller": "Demo Arc", "difficulty": 2, "points": 3},
    {"type": "no_response"},
    {"type": "roll", "die": "balls", "face": 2},
)


def demo_script() -> tuple[JSON, list[JSON]]:
    from companion.games.hoop_godz import GAME

    state = GAME.setup(OPTIONS)
    commands: list[JSON] = []
    for command in OPENING:
        state, _ = GAME.run(state, command)
        commands.append(dict(command))
    for n in range(120):
        if len(commands) >= len(OPENING) + 40 or GAME.outcome(state) is not None:
            break
        prompt = GAME.prompt(state)
        if prompt.roll is not None:
            faces = prompt.roll.die.distinct_faces
            command: JSON = {"type": "roll", "die": prompt.roll.die.name, "face": faces[n % len(faces)]}
        elif prompt.choices:
            command = dict(prompt.choices[(n * 7) % len(prompt.choices)].command)
        else:
            break
        try:
            state, _ = GAME.run(state, command)
        except CompanionError:
            continue
        commands.append(command)
    return dict(OPTIONS), commands
