"""Dice in general: a die is a tuple of faces, and every chance is counted from them, never simulated.

A game declares its own dice (``Game.dice``: name, title, faces and how each face reads); this
module keeps only what every game shares: the ``Die`` value, the plain d20 and d6, and the
counting functions.

>>> D6.faces
(1, 2, 3, 4, 5, 6)
>>> chance_at_most(D20, 11), chance_at_least(D20, 12)
(Fraction(11, 20), Fraction(9, 20))
>>> Die("d3", "d3", (1, 2, 3), {1: "one"}).face_label(1), Die("d3", "d3", (1, 2, 3)).face_label(2)
('one', '2')
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction

from companion.errors import RuleError

Face = int | str


@dataclass(frozen=True)
class Die:
    """A physical die: its wire name (as the dice tray sends it), what the table calls it, its faces.

    ``faces`` keeps repeats (three blank faces count three times); ``labels`` says how a face reads
    to a player (``{"jumpball": "Jump ball"}``), a face without one reads as itself.
    """

    name: str
    title: str
    faces: tuple[Face, ...]
    labels: Mapping[Face, str] = field(default_factory=dict, compare=False, hash=False)

    def __repr__(self) -> str:
        return f"Die({self.name!r})"

    @functools.cached_property
    def distinct_faces(self) -> tuple[Face, ...]:
        """Each face once, in dial order (the order the faces are declared); counted once per die."""
        return tuple(dict.fromkeys(self.faces))

    def face_label(self, face: Face) -> str:
        return self.labels.get(face, str(face))

    def chance_of(self, faces: object) -> Fraction:
        """The chance that one roll shows one of ``faces`` (repeated faces count each time)."""
        wanted = set(faces)  # type: ignore[call-overload]
        return Fraction(sum(1 for f in self.faces if f in wanted), len(self.faces))

    def parse_face(self, raw: object) -> Face:
        """Turn what a player or the tray reported into a face of this die, or refuse it by name."""
        if isinstance(raw, str) and raw.strip().lstrip("-").isdigit():
            raw = int(raw.strip())
        if isinstance(raw, bool):
            raw = str(raw)
        if isinstance(raw, str):
            raw = raw.strip().lower()
        if raw in self.faces:
            return raw  # type: ignore[return-value]
        shown = describe_faces(self.faces)
        raise RuleError(f"the {self.title} shows {shown}, not {raw!r}" if isinstance(raw, str)
                        else f"the {self.title} shows {shown}, not {raw}")

    def to_json(self) -> dict[str, object]:
        return {"name": self.name, "title": self.title, "faces": list(self.distinct_faces),
                "labels": {str(f): self.face_label(f) for f in self.distinct_faces}}


def describe_faces(faces: tuple[Face, ...]) -> str:
    """``5 to 100 in steps of 5`` or a list of the distinct faces."""
    distinct = list(dict.fromkeys(faces))
    if all(isinstance(f, int) for f in distinct) and len(distinct) > 2:
        ints = [int(f) for f in distinct]
        step = ints[1] - ints[0]
        if all(b - a == step for a, b in zip(ints, ints[1:], strict=False)):
            return f"{ints[0]} to {ints[-1]}" + (f" in steps of {step}" if step != 1 else "")
    return ", ".join(str(f) for f in distinct)


D20 = Die("d20", "d20", tuple(range(1, 21)))
D6 = Die("d6", "d6", tuple(range(1, 7)))
GENERIC_DICE = (D20, D6)


# The prompts ask for the same few targets on every command; a die's chances never change.
@functools.lru_cache(maxsize=1024)
def chance_at_most(die: Die, target: int) -> Fraction:
    """Chance that a numeric die shows ``target`` or less."""
    return die.chance_of(f for f in die.faces if isinstance(f, int) and f <= target)


@functools.lru_cache(maxsize=1024)
def chance_at_least(die: Die, target: int) -> Fraction:
    """Chance that a numeric die shows ``target`` or more."""
    return die.chance_of(f for f in die.faces if isinstance(f, int) and f >= target)
