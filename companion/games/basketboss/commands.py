"""The BasketBoss commands, each declared once: its fields, what it does, an example.

``sealed_bid``'s amount is secret: the session masks it in the log, exports and every client
until the last bid of the round reveals them all at once.
"""

from __future__ import annotations

from companion.commands import CommandSpec, Field, side_index
from companion.errors import CommandError


def _card(name: str, raw: object) -> object:
    if isinstance(raw, str) and raw.strip():
        return raw.strip()
    if isinstance(raw, dict):
        return raw
    raise CommandError(
        f"{name} is a player card's name in the deck, or the card itself "
        f"(name, position, income, rows), not {raw!r}"
    )


SIDE = Field("side", "side", required=True, summary="the manager's seat, 0 first", check=side_index(5))

COMMANDS = (
    CommandSpec(
        "reveal",
        "fill the market: the player card flipped (by name, or the card itself), or an injury",
        {"type": "reveal", "card": "Demo Ace"},
        (
            Field(
                "card", "card", summary="a deck card's name or {name, position, income, rows}", check=_card
            ),
            Field("injury", "bool", summary="true: an injury card came up"),
        ),
    ),
    CommandSpec(
        "market_done", "the market is full (or the deck ran out): contracts begin", {"type": "market_done"}
    ),
    CommandSpec(
        "bid",
        "offer more than the last bid for the player up for contract",
        {"type": "bid", "side": 0, "amount": 3},
        (SIDE, Field("amount", "int", required=True, summary="dollars")),
    ),
    CommandSpec(
        "pass",
        "pass on the player up for contract (final for this player)",
        {"type": "pass", "side": 1},
        (SIDE,),
    ),
    CommandSpec(
        "place",
        "put the signed player on the team board over a starting player or a card",
        {"type": "place", "side": 0, "slot": 1},
        (SIDE, Field("slot", "int", required=True, summary="1 to 5")),
    ),
    CommandSpec(
        "sealed_bid",
        "a secret bid: a trophy tie, or an injury's medical bills",
        {"type": "sealed_bid", "side": 2, "amount": 5},
        (SIDE, Field("amount", "int", required=True, summary="dollars")),
        sealed=("amount",),
    ),
    CommandSpec(
        "injure",
        "which of the team's equally strongest players the injury covers",
        {"type": "injure", "side": 1, "slot": 4},
        (SIDE, Field("slot", "int", required=True, summary="1 to 5")),
    ),
    CommandSpec(
        "adjust",
        "the season card changes a team's strength this season",
        {"type": "adjust", "side": 0, "strength": 2, "note": "Inaugural Season"},
        (
            SIDE,
            Field("strength", "int", required=True, summary="the change, -20 to 20"),
            Field("note", "text", summary="which card"),
        ),
    ),
    CommandSpec(
        "ribbon", "a one-point ribbon for a manager (5 in the game)", {"type": "ribbon", "side": 0}, (SIDE,)
    ),
    CommandSpec("award", "strengths are set: rank the teams and award the trophies", {"type": "award"}),
    CommandSpec(
        "hire",
        "take an advisor card (reverse strength order)",
        {"type": "hire", "side": 2, "advisor": 4},
        (SIDE, Field("advisor", "int", required=True, summary="the advisor's number")),
    ),
)
