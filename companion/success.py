"""Success rules: what a roll must show, and the exact spread of results it gives.

A game attaches one rule to each awaited roll: ``AtMost`` (55 or less succeeds), ``AtLeast``
(12 or more) or ``Lookup`` (a card's chart: ranges of faces to results). ``RollInfo`` turns die +
rule into what every front end reads from the prompt: ``die_info``, ``face_marks`` and
``outcomes`` (exact ``Fraction`` here, floats in JSON; they always sum to 1).

>>> from companion.dice import D20
>>> rule = AtLeast(12, gives="scores")
>>> rule.words, rule.chance(D20)
('>=12', Fraction(9, 20))
>>> [(o.label, o.probability) for o in RollInfo(D20, rule).outcomes()]
[('12 or more', Fraction(9, 20)), ('11 or less', Fraction(11, 20))]
>>> chart = Lookup((Row(1, 10, "miss"), Row(11, 18, "2 points"), Row(19, 20, "3 points")))
>>> [str(o.probability) for o in RollInfo(D20, chart).outcomes()]
['1/2', '2/5', '1/10']
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from typing import Any, ClassVar

from companion.dice import Die, Face

JSON = dict[str, Any]


def _ints(die: Die) -> list[int]:
    return [f for f in die.distinct_faces if isinstance(f, int)]


def fraction_float(value: Fraction | int) -> float:
    """``float(value)``, as ``numbers.Rational`` counts it (whole numbers divided, correctly rounded),
    without its detour through the ``numerator`` and ``denominator`` properties (a call each) over
    these two fields: a prompt converts two per choice, a new roll's odds a dozen."""
    try:
        return value._numerator / value._denominator  # type: ignore[union-attr]
    except AttributeError:  # a whole number: the long way
        return float(value)


@dataclass(frozen=True)
class _Threshold:
    """A roll on one side of ``target`` succeeds; the subclasses say which side."""

    target: int
    gives: str = "success"
    misses: str = "miss"
    kind: ClassVar[str] = ""
    sign: ClassVar[str] = ""

    def _ok(self, face: int) -> bool:
        raise NotImplementedError

    def _miss_label(self, die: Die) -> str:
        raise NotImplementedError

    @property
    def words(self) -> str:
        """Short words for a small screen: ``<=55``, ``>=12``."""
        return f"{self.sign}{self.target}"

    def succeeds(self, face: Face) -> bool | None:
        return self._ok(face) if isinstance(face, int) else None

    def chance(self, die: Die) -> Fraction:
        return die.chance_of(f for f in _ints(die) if self._ok(f))

    def outcomes(self, die: Die) -> list[RollOutcome]:
        good = tuple(f for f in die.distinct_faces if self.succeeds(f))
        bad = tuple(f for f in die.distinct_faces if f not in good)
        return _two(die, (self.hint(), self.gives, good), (self._miss_label(die), self.misses, bad))

    def hint(self) -> str:
        raise NotImplementedError


class AtMost(_Threshold):
    """A roll of ``target`` or less succeeds (lower is better)."""

    kind = "at_most"
    sign = "<="

    def _ok(self, face: int) -> bool:
        return face <= self.target

    def hint(self) -> str:
        return f"{self.target} or less"

    def _miss_label(self, die: Die) -> str:
        higher = [f for f in _ints(die) if f > self.target]
        return f"{min(higher) if higher else self.target + 1} or more"


class AtLeast(_Threshold):
    """A roll of ``target`` or more succeeds (higher is better)."""

    kind = "at_least"
    sign = ">="

    def _ok(self, face: int) -> bool:
        return face >= self.target

    def hint(self) -> str:
        return f"{self.target} or more"

    def _miss_label(self, die: Die) -> str:
        lower = [f for f in _ints(die) if f < self.target]
        return f"{max(lower) if lower else self.target - 1} or less"


def _two(die: Die, good: tuple[str, str, tuple[Face, ...]], bad: tuple[str, str, tuple[Face, ...]]
         ) -> list[RollOutcome]:
    out = []
    for label, gives, faces in (good, bad):
        if faces:
            out.append(RollOutcome(label, die.chance_of(faces), gives, faces))
    return out


@dataclass(frozen=True)
class Row:
    """One chart row: faces ``low`` to ``high`` (inclusive) give ``result``; ``success`` colours it."""

    low: int
    high: int
    result: str
    success: bool | None = None

    @property
    def label(self) -> str:
        return str(self.low) if self.low == self.high else f"{self.low}-{self.high}"


@dataclass(frozen=True)
class Lookup:
    """A chart: each face falls in one row (NBA Showdown's card rows). Rows must cover every face."""

    rows: tuple[Row, ...]
    kind = "lookup"
    words = "chart"

    def row_for(self, face: Face) -> Row | None:
        if not isinstance(face, int):
            return None
        return next((r for r in self.rows if r.low <= face <= r.high), None)

    def succeeds(self, face: Face) -> bool | None:
        row = self.row_for(face)
        return None if row is None else row.success

    def chance(self, die: Die) -> Fraction | None:
        wins = [f for f in die.distinct_faces if self.succeeds(f)]
        return die.chance_of(wins) if any(r.success is not None for r in self.rows) else None

    def hint(self) -> str:
        return "chart"

    def outcomes(self, die: Die) -> list[RollOutcome]:
        out = []
        row_of = {f: self.row_for(f) for f in die.distinct_faces}  # each face looked up once
        for row in self.rows:
            faces = tuple(f for f, found in row_of.items() if found is row)
            if faces:
                out.append(RollOutcome(row.label, die.chance_of(faces), row.result, faces))
        missing = tuple(f for f, found in row_of.items() if found is None)
        if missing:
            out.append(RollOutcome("other", die.chance_of(missing), "no effect", missing))
        return out


SuccessRule = AtMost | AtLeast | Lookup


@dataclass(frozen=True)
class RollOutcome:
    """One possible result of the awaited roll, with its exact probability."""

    label: str
    probability: Fraction
    gives: str
    faces: tuple[Face, ...]

    def to_json(self) -> JSON:
        return {"label": self.label, "probability": float(self.probability), "gives": self.gives,
                "faces": list(self.faces)}


@dataclass(frozen=True)
class Pool:
    """A roll of several dice at once (``count`` faces entered together) or a count of icons."""

    die: str
    count: int

    def to_json(self) -> JSON:
        return {"die": self.die, "count": self.count}


@dataclass(frozen=True)
class RollInfo:
    """The awaited die and how its result reads: the source of ``die_info``, ``face_marks``, ``outcomes``.

    ``gives`` overrides the short text a face gives (a game that knows each face's effect now).
    """

    die: Die
    rule: SuccessRule | None = None
    gives: Mapping[Face, str] = field(default_factory=dict)
    pool: Pool | None = None

    def chance(self) -> Fraction | None:
        if self.rule is None:
            return None
        try:
            return _chance(self.die, self.rule)
        except TypeError:  # an unhashable rule: count it afresh
            return self.rule.chance(self.die)

    def outcomes(self) -> list[RollOutcome]:
        if self.rule is not None:
            return self.rule.outcomes(self.die)
        # No rule: every distinct face is its own result.
        return [RollOutcome(self.die.face_label(f), self.die.chance_of([f]),
                            self.gives.get(f, self.die.face_label(f)), (f,))
                for f in self.die.distinct_faces]

    def face_marks(self) -> list[JSON]:
        marks = []
        for face in self.die.distinct_faces:
            success = None if self.rule is None else self.rule.succeeds(face)
            label = self.gives.get(face)
            if label is None and isinstance(self.rule, Lookup):
                row = self.rule.row_for(face)
                label = row.result if row else ""
            if label is None:
                label = self.die.face_label(face) if success is None else (
                    self.rule.gives if success else self.rule.misses)  # type: ignore[union-attr]
            marks.append({"face": face, "label": label, "success": success})
        return marks

    def die_info(self) -> JSON:
        return {"name": self.die.name, "title": self.die.title, "faces": list(self.die.distinct_faces),
                "labels": [self.die.face_label(f) for f in self.die.distinct_faces],
                "success": None if self.rule is None else self.rule.kind,
                "words": None if self.rule is None else self.rule.words}

    def json_parts(self) -> tuple[JSON, list[JSON], list[JSON]]:
        """``die_info``, ``face_marks`` and the outcomes as JSON, counted once per die and rule.

        A prompt shows them after every command, and a game awaits the same few rolls again and
        again (a d20 against one of a few dozen targets). The values are shared: read-only, like
        every rendered snapshot."""
        try:
            return _json_parts(id(self.die), self.die, self.rule, tuple(self.gives.items()))
        except TypeError:  # an unhashable face or rule: count them afresh
            return _count_json_parts(self)


def _count_json_parts(roll: RollInfo) -> tuple[JSON, list[JSON], list[JSON]]:
    return roll.die_info(), roll.face_marks(), [o.to_json() for o in roll.outcomes()]


@lru_cache(maxsize=512)
def _chance(die: Die, rule: SuccessRule) -> Fraction | None:
    # A chance reads only the faces, which a die's equality covers (its labels it leaves out).
    return rule.chance(die)


@lru_cache(maxsize=256)  # a d20's marks and outcomes are some 40 small dicts: a few MB at most
def _json_parts(die_id: int, die: Die, rule: SuccessRule | None,
                gives: tuple[tuple[Face, str], ...]) -> tuple[JSON, list[JSON], list[JSON]]:
    # The die's identity is in the key: two dice that compare equal may read their faces apart
    # (``Die.labels`` is left out of its equality); the cache holds the die, so the id stays its own.
    return _count_json_parts(RollInfo(die, rule, dict(gives)))
