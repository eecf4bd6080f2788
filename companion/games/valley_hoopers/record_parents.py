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

from companion.frozen import replace

if TYPE_CHECKING:  # the model imports this module
    from companion.games.valley_hoopers.model import Hooper, Side

R = TypeVar("R")

# id of the new record -> the new record, the one it was made from (the entry holds both, so an id is
# never reused while remembered).
_PARENTS: dict[int, tuple[Hooper, Hooper]] = {}


def with_energy(hooper: Hooper, energy: int) -> Hooper:
    """``replace(hooper, energy=energy)``, remembered as made from ``hooper``."""
    changed = replace(hooper, energy=energy)
    if len(_PARENTS) >= 256:
        _PARENTS.clear()  # a bound, not a policy: a view needs the records of the last command
    _PARENTS[id(changed)] = (changed, hooper)
    return changed


def energy_parent(hooper: Hooper) -> Hooper | None:
    """The record ``hooper`` was made from by ``with_energy`` (every field the same but ``energy``), or
    ``None`` when that is not remembered."""
    hit = _PARENTS.get(id(hooper))
    return hit[1] if hit is not None and hit[0] is hooper else None


# id of a side made by ``Side.with_hooper`` from another where one record of the name stood -> that
# side, the one it was made from, the index of the record changed (the entry holds both sides, so an id
# is never reused while remembered).
_SIDES: dict[int, tuple[Side, Side, int]] = {}


def remember_side_parent(changed: Side, side: Side, at: int) -> None:
    """``changed`` is ``side`` with its record at ``at`` replaced, every other field the same."""
    if len(_SIDES) >= 256:
        _SIDES.clear()  # a bound, not a policy: a view needs the sides of the last command
    _SIDES[id(changed)] = (changed, side, at)


def side_parent(side: Side) -> tuple[Side, int] | None:
    """The side ``side`` was made from (``remember_side_parent``) and the index of the record changed,
    or ``None`` when that is not remembered."""
    hit = _SIDES.get(id(side))
    return None if hit is None or hit[0] is not side else (hit[1], hit[2])


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
