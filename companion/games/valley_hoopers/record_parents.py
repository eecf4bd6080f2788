"""Records made from another by one change, remembered with the one they came from.

Most commands change one hooper's energy and nothing else on the card (a card played, a recovery),
and so one record of one side. ``with_energy`` makes such a hooper record and ``Side.with_hooper``
such a side, and both remember which one they came from (``energy_parent``, ``side_parent``): the
view and the box score then copy the old one's JSON and change what changed, not write it cell by
cell.

>>> from companion.games.valley_hoopers.model import Hooper
>>> lucy = Hooper("Lucy", energy=3, base_energy=5)
>>> tired = with_energy(lucy, 2)
>>> tired.energy, energy_parent(tired) is lucy, energy_parent(lucy)
(2, True, None)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, TypeVar

from companion.frozen import Lineage, replace

if TYPE_CHECKING:  # the model imports this module
    from companion.games.valley_hoopers.model import Hooper, Side

R = TypeVar("R")

# A hooper record made by ``with_energy``, with the one it was made from.
_PARENTS: Lineage[Hooper, None] = Lineage(size=256)


def with_energy(hooper: Hooper, energy: int) -> Hooper:
    """``replace(hooper, energy=energy)``, remembered as made from ``hooper``."""
    changed = replace(hooper, energy=energy)
    _PARENTS.remember(changed, hooper, None)
    return changed


def energy_parent(hooper: Hooper) -> Hooper | None:
    """The record ``hooper`` was made from by ``with_energy`` (every field the same but ``energy``), or
    ``None`` when that is not remembered."""
    hit = _PARENTS.parent(hooper)
    return None if hit is None else hit[0]


# A side made by ``Side.with_hooper`` from another where one record of the name stood, with that side
# and the index of the record changed.
_SIDES: Lineage[Side, int] = Lineage(size=256)
remember_side_parent = _SIDES.remember  # (changed, side, at): ``side`` with its record at ``at`` replaced
side_parent = _SIDES.parent  # (the side made from, the index of the record changed) or None


def stepped_by_side(count: Callable[[Side], R], step: Callable[[Side, Side, R, int], R | None],
                    size: int) -> Callable[[Side], R]:
    """``count(side)``, remembered by the side's identity; for a side made from a remembered one by
    one changed record (``side_parent``), ``step(side, parent, the parent's value, index)`` when it
    gives a value (``None``: count afresh). The memo holds each side it names, so an id is never
    reused while remembered."""
    memo: dict[int, tuple[Side, R]] = {}

    def remembered(side: Side) -> R:
        hit = memo.get(id(side))
        if hit is not None and hit[0] is side:
            return hit[1]
        value = None
        made = side_parent(side)
        if made is not None:
            old = memo.get(id(made[0]))
            if old is not None and old[0] is made[0]:
                value = step(side, made[0], old[1], made[1])
        if value is None:
            value = count(side)
        if len(memo) >= size:
            memo.clear()  # a bound, not a policy: a view needs the sides of the last command
        memo[id(side)] = (side, value)
        return value

    return remembered
