"""Basketball Highlights: Crunch Time as a game declaration: two coaches or solo against the AI.

No dice. The table enters each offensive possession (Shot cards, their highlighted zones and who
stands there, Star cards); the companion scores it, moves the one signed lead, and runs rounds,
the mercy rule, unplayed Stars, overtime and the solo AI's turns (docs/games/crunch-time.md).

>>> GAME.name, GAME.aliases
('crunch-time', ('ct', 'crunch', 'basketball-highlights'))
"""

from __future__ import annotations

from companion.game import CommandSpec, Game
from companion.games.crunch_time.rules import apply, decide, setup
from companion.games.crunch_time.views import outcome, prompt, scoreboard, view

COMMANDS = (
    CommandSpec("tip_off", "who has the first offensive possession of every round: the two Shot card "
                "numbers (higher wins), or the winner", {"type": "tip_off", "cards": [40, 12]},
                {"cards": "[int, int], 1-69, side 0's card first", "winner": "0 or 1 (instead of cards)"}),
    CommandSpec("shot_card", "the offence plays a Shot card (a 2nd one once in rounds 1-4 and in round 5)",
                {"type": "shot_card", "number": 22}, {"number": "optional, 1-69"}),
    CommandSpec("zone", "one highlighted zone of the last Shot card: its points and who stands there "
                "after movement", {"type": "zone", "points": 3, "stand": "offence"},
                {"points": "2 (yellow) or 3 (violet)", "stand": "offence, defence, both or empty"}),
    CommandSpec("star", "a Star card on a highlighted zone of a current Shot card",
                {"type": "star", "role": "offence", "shot": 1, "zone": 3},
                {"role": "offence or defence", "shot": "Shot card, from 1", "zone": "zone on it, from 1"}),
    CommandSpec("ai_star", "solo: the zone an AI display Star shows on this Shot card (null: none)",
                {"type": "ai_star", "shot": 1, "zone": 2},
                {"shot": "from 1, or null", "zone": "from 1, or null"}),
    CommandSpec("ai_reach", "solo: can an AI defender reach the zone the AI asks about in one space",
                {"type": "ai_reach", "shot": 1, "zone": 2, "answer": "free"},
                {"shot": "from 1", "zone": "from 1", "answer": "free, uncovers or no",
                 "from_shot": "with uncovers: the zone it would leave (optional)", "from_zone": "likewise"}),
    CommandSpec("score", "score the possession: Shot cards zone by zone, then every Star card",
                {"type": "score"}),
)

GAME = Game(
    name="crunch-time",
    title="Basketball Highlights: Crunch Time",
    aliases=("ct", "crunch", "basketball-highlights"),
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
