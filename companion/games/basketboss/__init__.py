"""BasketBoss as a game declaration: 2-5 managers, contract auctions, sealed bids, six seasons.

>>> GAME.name, GAME.sides
('basketboss', (2, 5))
"""

from __future__ import annotations

from companion.game import JSON, Game
from companion.games.basketboss.commands import COMMANDS
from companion.games.basketboss.frontend import FRONTEND
from companion.games.basketboss.rules import apply, decide, setup
from companion.games.basketboss.views import outcome, prompt, scoreboard, view


def demo_script() -> tuple[JSON, list[JSON]]:
    """Three managers through a season with a trophy tie, then an injury auction (the demo deck)."""
    options: JSON = {"names": ["Blue", "Yellow", "Purple"], "tallest": 0}
    season_one: list[JSON] = [
        {"type": "reveal", "card": "Demo Ace"},
        {"type": "reveal", "card": "Demo Moss"},
        {"type": "market_done"},
        {"type": "bid", "side": 0, "amount": 3}, {"type": "pass", "side": 1}, {"type": "pass", "side": 2},
        {"type": "place", "side": 0, "slot": 1},
        {"type": "pass", "side": 0}, {"type": "pass", "side": 1}, {"type": "pass", "side": 2},
        {"type": "award"},  # Blue is strongest; Yellow and Purple tie at 10: sealed bids
        {"type": "sealed_bid", "side": 1, "amount": 2}, {"type": "sealed_bid", "side": 2, "amount": 1},
        {"type": "hire", "side": 2, "advisor": 2}, {"type": "hire", "side": 1, "advisor": 1},
        {"type": "hire", "side": 0, "advisor": 3},
        {"type": "reveal", "injury": True}, {"type": "reveal", "card": "Demo Grit"}, {"type": "market_done"},
        {"type": "sealed_bid", "side": 0, "amount": 0}, {"type": "sealed_bid", "side": 1, "amount": 1},
    ]
    return options, season_one


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
    frontend=FRONTEND,
)

__all__ = ["GAME"]
