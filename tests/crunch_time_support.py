"""Helpers shared by the Crunch Time tests: play possessions that score nothing."""

from __future__ import annotations

from companion.games.crunch_time.model import State
from companion.games.crunch_time.rules import run, shot_limits


def empty_possession(state: State) -> list[dict]:
    """A possession that scores nothing and takes as many Shot cards as the rules need now."""
    fewest, _, _ = shot_limits(state)
    return [c for _ in range(fewest) for c in ({"type": "shot_card"},
                                               {"type": "zone", "points": 2, "stand": "empty"})] \
        + [{"type": "score"}]


def play_out_regulation(state: State, possessions: int = 10) -> State:
    for _ in range(possessions):
        for command in empty_possession(state):
            state = run(state, command)
    return state
