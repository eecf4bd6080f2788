"""Hoop Godz as a game declaration: the juice ledger, the clock tokens, and dice battles as races.

>>> GAME.name, GAME.aliases
('hoop-godz', ('hg', 'godz'))
"""

from __future__ import annotations

from companion.game import CommandSpec, Game
from companion.games.hoop_godz.rules import apply, decide, setup
from companion.games.hoop_godz.views import outcome, prompt, scoreboard, view

COMMANDS = (
    CommandSpec(
        "pick",
        "draft a baller (picks 1-2-2-1)",
        {"type": "pick", "baller": "Demo Tower"},
        {"baller": "a name from the nine dealt"},
    ),
    CommandSpec(
        "tip_off",
        "each player's baller next to the ball starts the tip-off battle",
        {"type": "tip_off", "nearest": ["Demo Tower", "Demo Zip"]},
        {"nearest": "[side 0's, side 1's]"},
    ),
    CommandSpec(
        "battle",
        "who matched the card's three icons first (or a tie, won by the TIE BREAKER holder)",
        {"type": "battle", "winner": 0},
        {
            "winner": "0 or 1",
            "tie": "true instead of winner",
            "times_ms": "optional press times, side 0 first",
        },
    ),
    CommandSpec("move", "MOVE all the acting player's ballers one space (1 juice)", {"type": "move"}),
    CommandSpec(
        "pass",
        "PASS the ball (1 juice; only at the start of a turn)",
        {"type": "pass"},
        {"allowed_by": "skill or goat, for a PASS mid-turn"},
    ),
    CommandSpec(
        "boost",
        "add one die to a battle you play a card in (1 juice, at most 6 dice)",
        {"type": "boost", "side": 0},
        {"side": "0 or 1"},
    ),
    CommandSpec(
        "play",
        "the active player plays an ACTIVE action card with a baller",
        {"type": "play", "card": "SHOOT", "baller": "Demo Zip", "difficulty": 3, "points": 2},
        {
            "card": "a card name",
            "baller": "a squad baller",
            "difficulty": "SHOOT: the space's number",
            "points": "SHOOT: 2 (grey) or 3 (black)",
        },
    ),
    CommandSpec(
        "respond",
        "the other player answers with a RESPONSE card: a dice battle",
        {"type": "respond", "card": "BLOCK", "baller": "Demo Wall"},
    ),
    CommandSpec("no_response", "the other player lets the ACTIVE card through", {"type": "no_response"}),
    CommandSpec(
        "shot_roll",
        "the final SHOOT roll: how many BALL icons",
        {"type": "shot_roll", "balls": 3},
        {"balls": "0 to the dice rolled"},
    ),
    CommandSpec("goat", "play a GOAT card (no response)", {"type": "goat", "name": "Mad Boards", "juice": 1}),
    CommandSpec("rest", "REST: end the turn with no juice right of the Rest line", {"type": "rest"}),
    CommandSpec("end_turn", "end the turn", {"type": "end_turn"}),
)

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
)

__all__ = ["GAME"]
