"""Player cards and advisors as the table enters them, with a clearly labelled demo deck.

The rulebook describes a player card (rows of stars by season, a position, income symbols) but
prints none, and numbers the advisors without listing them. So the deck and the advisors are
setup options; the shipped ones are DEMO values, invented so a new table can play at once.

>>> parse_card({"name": "Demo Ace", "position": "pg", "income": 1, "rows": [3, 4, 2]})
Card(name='Demo Ace', position='PG', income=1, rows=(3, 4, 2), age=0, starter=False)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.errors import CommandError
from companion.games.basketboss.model import POSITIONS, Advisor, Card

# DEMO deck: invented cards, never the printed ones (enter your own with the setup option "deck").
_DEMO = (
    ("Demo Ace", "PG", 1, (3, 4, 2)),
    ("Demo Blur", "PG", 0, (2, 3, 3, 1)),
    ("Demo Chef", "PG", 2, (4, 2)),
    ("Demo Dart", "SG", 1, (2, 3, 4)),
    ("Demo Echo", "SG", 0, (3, 3, 2, 1)),
    ("Demo Flint", "SG", 2, (4, 3)),
    ("Demo Grit", "SF", 1, (3, 4, 3)),
    ("Demo Halo", "SF", 0, (2, 2, 3, 2, 1)),
    ("Demo Iris", "SF", 1, (4, 3, 1)),
    ("Demo Jolt", "PF", 1, (3, 3, 2)),
    ("Demo Knox", "PF", 2, (2, 4)),
    ("Demo Lark", "PF", 0, (3, 2, 2, 2)),
    ("Demo Moss", "C", 1, (4, 4, 2)),
    ("Demo Nash", "C", 0, (2, 3, 3)),
    ("Demo Onyx", "C", 2, (5, 2)),
    ("Demo Pike", "PG", 1, (1, 2, 4, 3)),
    ("Demo Quill", "SG", 1, (1, 3, 4)),
    ("Demo Rook", "SF", 2, (3, 1)),
    ("Demo Sage", "PF", 1, (1, 2, 3, 4)),
    ("Demo Tusk", "C", 1, (3, 3, 3)),
)
DEMO_DECK = tuple(Card(name, position, income, rows) for name, position, income, rows in _DEMO)
# Advisors by number: the rulebook names only the Referee (the lowest number: it starts the first
# season's contracts) and the Physical Therapist; the others are placeholders to rename.
DEMO_ADVISORS = (
    Advisor(1, "Referee"),
    Advisor(2, "Physical Therapist"),
    Advisor(3, "Advisor 3"),
    Advisor(4, "Advisor 4"),
    Advisor(5, "Advisor 5"),
    Advisor(6, "Advisor 6"),
)


def parse_card(raw: object) -> Card:
    """One player card, checked field by field."""
    if not isinstance(raw, Mapping):
        raise CommandError("a player card is an object with name, position, income and rows")
    name = raw.get("name")
    if not isinstance(name, str) or not name.strip() or len(name) > 30:
        raise CommandError(f"a player card needs a name of 1 to 30 characters, not {name!r}")
    who = name.strip()
    position = raw.get("position")
    if not isinstance(position, str) or position.strip().upper() not in POSITIONS:
        raise CommandError(f"{who}: position is one of {', '.join(POSITIONS)}, not {position!r}")
    income = raw.get("income", 0)
    if isinstance(income, bool) or not isinstance(income, int) or not 0 <= income <= 5:
        raise CommandError(f"{who}: income is 0 to 5 symbols, not {income!r}")
    rows = raw.get("rows")
    if not (
        isinstance(rows, list)
        and 1 <= len(rows) <= 8
        and all(isinstance(r, int) and not isinstance(r, bool) and 0 <= r <= 9 for r in rows)
    ):
        raise CommandError(
            f"{who}: rows are the stars of each row from the top, e.g. [3, 4, 2] "
            f"(1 to 8 rows of 0 to 9 stars), not {rows!r}"
        )
    if not rows[0]:
        raise CommandError(f"{who}: a player starts with its top row of stars showing, and it has none")
    return Card(who, position.strip().upper(), income, tuple(rows))


def parse_deck(raw: object) -> tuple[Card, ...]:
    if raw is None:
        return DEMO_DECK
    if not isinstance(raw, list) or not raw:
        raise CommandError("deck is the list of the player cards, each with name, position, income and rows")
    cards = tuple(parse_card(item) for item in raw)
    names = [c.name.lower() for c in cards]
    if len(set(names)) != len(names):
        raise CommandError("two player cards in the deck share a name")
    return cards


def parse_advisors(raw: object) -> tuple[Advisor, ...]:
    if raw is None:
        return DEMO_ADVISORS
    if not isinstance(raw, list) or not 2 <= len(raw) <= 9:
        raise CommandError("advisors is the list of advisor cards, each with number and name")
    advisors = []
    for item in raw:
        number = item.get("number") if isinstance(item, Mapping) else None
        name = item.get("name") if isinstance(item, Mapping) else None
        if isinstance(number, bool) or not isinstance(number, int) or not 1 <= number <= 99:
            raise CommandError(f"an advisor's number is 1 to 99, not {number!r}")
        if not isinstance(name, str) or not name.strip():
            raise CommandError(f"advisor {number} needs a name")
        advisors.append(Advisor(number, name.strip()))
    if len({a.number for a in advisors}) != len(advisors):
        raise CommandError("two advisors share a number")
    return tuple(sorted(advisors, key=lambda a: a.number))


def card_json(card: Card) -> dict[str, Any]:
    return {
        "name": card.name,
        "position": card.position,
        "income": card.income,
        "stars": card.stars,
        "rows": list(card.rows[card.age :]),
        "starter": card.starter,
    }
