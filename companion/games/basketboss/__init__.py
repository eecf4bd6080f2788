"""BasketBoss as a game declaration: 2-5 managers, contract auctions, sealed bids, six seasons.

>>> GAME.name, GAME.sides
('basketboss', (2, 5))
"""

from __future__ import annotations

from companion.demo import autoplay
from companion.game import JSON, Game
from companion.games.basketboss.commands import COMMANDS
from companion.games.basketboss.rules import apply, decide, setup
from companion.games.basketboss.views import outcome, prompt, scoreboard, view


def demo_script() -> tuple[JSON, list[JSON]]:
    """Three managers through the first season and into the second (the demo deck)."""
    return autoplay(GAME, {"names": ["Blue", "Yellow", "Purple"], "tallest": 0}, steps=80)


GAME = Game(
    name="basketboss",
    title="BasketBoss",
    aliases=("bb", "boss"),
    setup=setup,
    decide=decide,
    apply=apply,
    outcome=outcome,
    scoreboard=scoreboard,
    prompt=prompt,
    view=view,
    commands=COMMANDS,
    sides=(2, 5),
    demo_script=demo_script,
)

__all__ = ["GAME"]
