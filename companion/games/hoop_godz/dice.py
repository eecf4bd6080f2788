"""Hoop Godz's dice as the table enters them: the final SHOOT roll is a count of BALL icons.

The rulebook never prints the battle die's faces, only that some show a BALL icon; the setup option
``ball_faces`` says how many of the six do. The table does not enter each die: it counts the BALL
icons the battle's dice show, so the awaited "die" is that count, 0 to the dice rolled (a ``Pool``
of the battle dice), and its chance is the binomial one, counted exactly.

>>> count = ball_count(dice=4, ball_faces=2)
>>> count.faces, count.chance_of([3, 4])
((0, 1, 2, 3, 4), Fraction(1, 9))
>>> sum(count.chance_of([k]) for k in count.faces)
Fraction(1, 1)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from math import comb

from companion.dice import Die

SIDES = 6
# The die the dice tray and the encoder enter: a count of BALL icons (any count a battle can show).
BALLS = Die("balls", "BALL icons", tuple(range(7)),
            {k: f"{k} BALL icon{'s' * (k != 1)}" for k in range(7)})


def count_chance(dice: int, count: int, ball_faces: int) -> Fraction:
    """The exact chance that ``dice`` dice show exactly ``count`` BALL icons."""
    p = Fraction(ball_faces, SIDES)
    return comb(dice, count) * p**count * (1 - p) ** (dice - count)


@dataclass(frozen=True, repr=False)
class BallCount(Die):
    """The count of BALL icons on ``dice`` dice: faces 0..dice, each weighed by its binomial chance
    (a plain ``Die`` weighs its faces evenly, which a count is not)."""

    weights: Mapping[int | str, Fraction] = field(default_factory=dict, compare=False, hash=False)

    def chance_of(self, faces: Iterable[object]) -> Fraction:  # type: ignore[override]
        wanted = set(faces)
        return sum((w for face, w in self.weights.items() if face in wanted), Fraction(0))


@lru_cache(maxsize=256)  # a prompt asks for the same few counts again and again (one per SHOOT offered)
def ball_count(dice: int, ball_faces: int) -> BallCount:
    """The awaited count for a final roll of ``dice`` dice when ``ball_faces`` faces show a BALL.

    Shared between callers (cached): nobody changes a ``BallCount``'s weights."""
    faces = tuple(range(dice + 1))
    return BallCount(BALLS.name, BALLS.title, faces, {k: BALLS.face_label(k) for k in faces},
                     {k: count_chance(dice, k, ball_faces) for k in faces})


@lru_cache(maxsize=1024)
def shot_chance(dice: int, difficulty: int, ball_faces: int) -> Fraction:
    """Exact chance that ``dice`` dice show at least ``difficulty`` BALL icons.

    >>> shot_chance(dice=4, difficulty=3, ball_faces=2)
    Fraction(1, 9)
    """
    return ball_count(dice, ball_faces).chance_of(range(difficulty, dice + 1))
