"""Crunch Time's commands, each declared once: typed fields, a summary and an example.

``COMMANDS`` checks every command in ``decide`` (``spec.from_json``: the canonical command, or a
``CommandError`` naming the field) and writes Crunch Time's table in docs/commands.md
(``companion.commands.markdown_table``; a test keeps the two equal). Whether the rules allow a
command *now* is ``decide``'s question.

>>> check({"type": "zone", "points": 3, "stand": "Offence"})
{'type': 'zone', 'points': 3, 'stand': 'offence'}
>>> check({"type": "zone", "points": 4, "stand": "offence"})
Traceback (most recent call last):
...
companion.errors.CommandError: a highlighted zone is worth 2 (yellow) or 3 (violet) points, not 4
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.commands import JSON, CommandSpec, Field, check_int, check_text, spec_for
from companion.errors import CommandError
from companion.games.crunch_time.model import ROLES, SHOT_DECK, STANDS


def _card_number(name: str, raw: object) -> int:
    number = check_int(name, raw)
    if not 1 <= number <= SHOT_DECK:
        raise CommandError(f"a Shot card's number is 1 to {SHOT_DECK}, not {raw!r}")
    return number


def _tip_cards(name: str, raw: object) -> list[int]:
    if not (isinstance(raw, list) and len(raw) == 2):
        raise CommandError("tip_off cards are the two Shot card numbers, e.g. [40, 12]")
    return [_card_number(name, card) for card in raw]


def _points(name: str, raw: object) -> int:
    if isinstance(raw, bool) or raw not in (2, 3):
        raise CommandError(f"a highlighted zone is worth 2 (yellow) or 3 (violet) points, not {raw!r}")
    return int(raw)  # type: ignore[call-overload]


def _stand(name: str, raw: object) -> str:
    value = raw.strip().lower() if isinstance(raw, str) else raw
    if value not in STANDS:
        raise CommandError(f"stand says who is in the zone after movement: {', '.join(STANDS)}; not {raw!r}")
    return str(value)


def _role(name: str, raw: object) -> str:
    value = raw.strip().lower() if isinstance(raw, str) else raw
    if value not in ROLES:
        raise CommandError(f"{name} is offence or defence, not {raw!r}")
    return str(value)


def _from_one(name: str, raw: object) -> int:
    number = check_int(name, raw)
    if number < 1:
        raise CommandError(f"{name} counts from 1, as a player reads it, not {raw!r}")
    return number


def _zone_ref(name: str, raw: object) -> int | str:
    """A zone by its number on the Shot card (from 1), or by its id on a court file."""
    if isinstance(raw, str):
        return check_text(name, raw)
    return _from_one(name, raw)


def _zone_ids(name: str, raw: object) -> list[str]:
    if not isinstance(raw, list):
        raise CommandError(f"{name} is a list of the court's zone ids, e.g. [\"L3\", \"C2\"]")
    return [check_text(name, zone) for zone in raw]


def _answer(name: str, raw: object) -> str:
    if raw not in ("free", "uncovers", "no"):
        raise CommandError("answer is free (an AI player reaches it in one space), uncovers (only by "
                           "leaving a player it guards) or no")
    return str(raw)


def _cards_or_winner(command: JSON) -> None:
    if ("cards" in command) == ("winner" in command):
        raise CommandError("tip_off needs cards (the two Shot card numbers) or winner (0 or 1), one of them")


SHOT = Field("shot", "card", summary="the Shot card, from 1", check=_from_one, nullable=True)
ZONE = Field("zone", "zone", summary="the zone on it, from 1 (with a court file: the zone id)",
             check=_zone_ref, nullable=True)

COMMANDS = (
    CommandSpec("tip_off", "who has the first offensive possession of every round: `cards`, the two Shot "
                "card numbers (1-69, side 0's first; higher wins), or `winner` (0 or 1)",
                {"type": "tip_off", "cards": [40, 12]},
                (Field("cards", "cards", summary="[side 0's, side 1's]", check=_tip_cards),
                 Field("winner", "side", summary="instead of cards")),
                extra_check=_cards_or_winner),
    CommandSpec("shot_card", "the offence plays a Shot card (solo: the card the AI drew); a 2nd once in "
                "rounds 1-4 and in round 5; `number` optional; with a court file `zones` may list its "
                "zone ids", {"type": "shot_card", "number": 22},
                (Field("number", "int", summary="1-69", check=_card_number),
                 Field("zones", "zone ids", summary="court file only", check=_zone_ids))),
    CommandSpec("zone", "one highlighted zone of the last Shot card: `points` 2 (yellow) or 3 (violet) and "
                "who `stand`s there after movement (offence, defence, both, empty); with a court file "
                "just its `zone` id", {"type": "zone", "points": 3, "stand": "offence"},
                (Field("points", "points", summary="2 or 3", check=_points),
                 Field("stand", "stand", summary=", ".join(STANDS), check=_stand),
                 Field("zone", "zone id", summary="court file only", check=check_text))),
    CommandSpec("star", "a Star card by the offence or the defence (`role`) on a highlighted zone of a "
                "current Shot card (`shot`, `zone` from 1; with a court file the zone id)",
                {"type": "star", "role": "offence", "shot": 1, "zone": 1},
                (Field("role", "role", required=True, summary="offence or defence", check=_role),
                 SHOT, ZONE)),
    CommandSpec("ai_star", "solo: the zone an AI display Star shows on this possession's Shot cards "
                "(`shot` and `zone` null: none of them)", {"type": "ai_star", "shot": 1, "zone": 2},
                (SHOT, ZONE)),
    CommandSpec("ai_reach", "solo: can an AI defender reach the zone the AI asks about in one space: "
                "`answer` free, uncovers (only by leaving a player it guards; `from_shot`/`from_zone` "
                "that zone) or no", {"type": "ai_reach", "shot": 1, "zone": 2, "answer": "free"},
                (Field("shot", "card", required=True, check=_from_one),
                 Field("zone", "zone", required=True, check=_from_one),
                 Field("answer", "answer", required=True, check=_answer),
                 Field("from_shot", "card", check=_from_one), Field("from_zone", "zone", check=_from_one))),
    CommandSpec("move", "court file: a player (`player` 1-5, by start zone) of the offence or the defence "
                "(`role`) moves along the lines `to` a zone id",
                {"type": "move", "role": "offence", "player": 1, "to": "C2"},
                (Field("role", "role", required=True, check=_role),
                 Field("player", "int", required=True, check=_from_one),
                 Field("to", "zone id", required=True, check=check_text))),
    CommandSpec("ai_place", "solo with a court file: the zone of a Star card drawn to place an AI player",
                {"type": "ai_place", "zone": "C2"},
                (Field("zone", "zone id", required=True, check=check_text),)),
    CommandSpec("ai_move", "solo with a court file: the AI's defensive move, worked out from the court",
                {"type": "ai_move"}),
    CommandSpec("score", "score the possession: Shot cards zone by zone, then every Star card; the lead "
                "moves and the next possession (or the round's end, overtime, the mercy rule) follows",
                {"type": "score"}),
)


def check(command: Mapping[str, Any]) -> JSON:
    """The checked, canonical command, or a ``CommandError`` naming the field."""
    return spec_for(COMMANDS, command.get("type"), "Crunch Time").from_json(command)
