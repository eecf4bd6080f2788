"""A team's strength, its strongest player, its income, and aging: pure functions on a manager.

>>> from companion.games.basketboss.model import Manager, starter, POSITIONS
>>> board = Manager("Blue", 11, tuple(starter(p) for p in POSITIONS))
>>> strength(board)
10
"""

from __future__ import annotations

from companion.frozen import replace
from companion.games.basketboss.model import POSITIONS, Card, Manager, starter


def active_slots(manager: Manager) -> list[int]:
    """The slots whose player counts: an injured player "provides no strength, income, or position"."""
    return [i for i in range(len(manager.slots)) if i not in manager.injured]


def strength(manager: Manager) -> int:
    """Top-row stars, plus one per unique position (max 5), plus the season card's change."""
    slots = active_slots(manager)
    stars = sum(manager.slots[i].stars for i in slots)
    positions = len({manager.slots[i].position for i in slots})
    return stars + min(positions, len(POSITIONS)) + manager.adjust


def income(manager: Manager) -> int:
    """ "$1 for each income symbol on their Player Cards"."""
    return sum(manager.slots[i].income for i in active_slots(manager))


def strongest(manager: Manager) -> list[int]:
    """The slots holding the player(s) with the highest strength this season (not yet injured)."""
    slots = active_slots(manager)
    best = max(manager.slots[i].stars for i in slots)
    return [i for i in slots if manager.slots[i].stars == best]


def age(manager: Manager) -> tuple[Manager, list[str]]:
    """Injuries are discarded, every card slides up one row, and a card with no stars left retires.

    A retired card leaves its slot, so the starting player printed underneath shows again.
    """
    slots: list[Card] = []
    retired: list[str] = []
    for i, card in enumerate(manager.slots):
        older = card.aged()
        if older.retired:
            retired.append(card.name)
            older = starter(POSITIONS[i])
        slots.append(older)
    return replace(manager, slots=tuple(slots), injured=(), adjust=0, signed=()), retired
