"""The Crunch Time demo script: Red against Blue, 70 commands chosen from the game's own prompts
(``companion.demo.autoplay``): tip-off, possessions with one and two Shot cards, Star cards, scores."""

from __future__ import annotations

from companion.demo import autoplay
from companion.game import JSON


def demo_script() -> tuple[JSON, list[JSON]]:
    from companion.games.crunch_time import GAME

    return autoplay(GAME, {"names": ["Red", "Blue"]}, steps=70, pick=(0, 3, 1, 5, 2))
