"""Hooper records that differ from the one they were made from by their energy alone.

Most commands change one hooper's energy and nothing else on the card (a card played, a recovery).
``with_energy`` makes such a record and remembers which one it came from: the view and the box score
then write the new record's JSON as a copy of the old one's with the energy changed, not cell by cell.

>>> from companion.games.valley_hoopers.model import Hooper
>>> lucy = Hooper("Lucy", energy=3, base_energy=5)
>>> tired = with_energy(lucy, 2)
>>> tired.energy, energy_parent(tired) is lucy, energy_parent(lucy)
(2, True, None)
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.frozen import replace

if TYPE_CHECKING:  # the model imports modules that import this one
    from companion.games.valley_hoopers.model import Hooper

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
