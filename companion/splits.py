"""Shooting splits for a box score: field goals (3-pointers among them) and free throws, made and
attempted. Each game decides from its own rules what an attempt is and folds its events into these
values; this module only adds them up and writes them the way a box score reads ("FG 5-9").

>>> line = Splits().shot(points=2, made=True).shot(points=3, made=False).free_throw(made=True)
>>> line
Splits(fgm=1, fga=2, tpm=0, tpa=1, ftm=1, fta=1)
>>> line.points
3
>>> (line + Splits(fga=1)).to_json()["fg"], line.to_json(free_throws=False).get("ft")
('1-3', None)
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any


@dataclass(frozen=True)
class Splits:
    """Made/attempted field goals (``fg*``, 3-pointers included), 3-pointers (``tp*``), free throws
    (``ft*``)."""

    fgm: int = 0
    fga: int = 0
    tpm: int = 0
    tpa: int = 0
    ftm: int = 0
    fta: int = 0

    def shot(self, points: int, made: bool, three: bool | None = None) -> Splits:
        """One more field-goal attempt worth ``points``: a 3-pointer too when ``three`` (by default
        when it is worth 3)."""
        three = points == 3 if three is None else three
        return replace(self, fga=self.fga + 1, fgm=self.fgm + made,
                       tpa=self.tpa + three, tpm=self.tpm + (three and made))

    def free_throw(self, made: bool) -> Splits:
        return replace(self, fta=self.fta + 1, ftm=self.ftm + made)

    def __add__(self, other: Splits) -> Splits:
        return Splits(self.fgm + other.fgm, self.fga + other.fga, self.tpm + other.tpm,
                      self.tpa + other.tpa, self.ftm + other.ftm, self.fta + other.fta)

    @property
    def points(self) -> int:
        """What the made shots are worth when a field goal is 2 or 3 and a free throw 1."""
        return 2 * (self.fgm - self.tpm) + 3 * self.tpm + self.ftm

    def to_json(self, threes: bool = True, free_throws: bool = True) -> dict[str, Any]:
        """The box score's cells ("fg": "5-9") and the plain counts (for the CSV)."""
        out: dict[str, Any] = {"fg": f"{self.fgm}-{self.fga}", "fgm": self.fgm, "fga": self.fga}
        if threes:
            out |= {"3p": f"{self.tpm}-{self.tpa}", "tpm": self.tpm, "tpa": self.tpa}
        if free_throws:
            out |= {"ft": f"{self.ftm}-{self.fta}", "ftm": self.ftm, "fta": self.fta}
        return out


def total(lines: Any) -> Splits:
    """The sum of many players' splits (a team's line).

    >>> total([Splits(fgm=1, fga=2), Splits(ftm=2, fta=2)])
    Splits(fgm=1, fga=2, tpm=0, tpa=0, ftm=2, fta=2)
    """
    # The counts added as numbers and one record built (adding records built one per player: a team's
    # line is written after every shot).
    fgm = fga = tpm = tpa = ftm = fta = 0
    for line in lines:
        fgm += line.fgm
        fga += line.fga
        tpm += line.tpm
        tpa += line.tpa
        ftm += line.ftm
        fta += line.fta
    return Splits(fgm, fga, tpm, tpa, ftm, fta)
