"""The exact chances of an NBA Showdown roll, counted over the d20's faces (never simulated).

A scoring roll reads the total (natural roll + modifier, below 1 counts as 1) off the roller's
chart; these functions give the chance of every row, the expected PTS / AST / REB, the chance of
a hot or cold marker from the natural roll, and after the roll the fewest assists that reach a
higher row. They take plain numbers and a ``Card`` so the prompt, ``calc`` and the engine's
future ``outcomes`` field can all use them.

>>> from companion.games.nba_showdown.rosters import shipped_roster
>>> dasher = shipped_roster("demo-comets").card("Demo Dasher")
>>> [(r.row.label, str(r.probability)) for r in row_chances(dasher, 3) if r.probability]
[('1-4', '1/20'), ('5-9', '1/4'), ('10-15', '3/10'), ('16-20', '1/4'), ('21-24', '3/20')]
>>> expected(dasher, 3, "pts"), matchup_bonus(17, 14), matchup_bonus(14, 17)
(Fraction(22, 5), 3, 0)
>>> shot_check_chance(16, 0), shot_check_chance(18, 0)
(Fraction(1, 4), Fraction(3, 20))
>>> assists_to_next_row(dasher, 14)
2
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property, lru_cache
from typing import Any

from companion.dice import D20, Die, Face
from companion.frozen import by_identity
from companion.games.nba_showdown.cards import Card, ChartRow
from companion.success import AtLeast, Lookup, RollOutcome, Row, fraction_float

HOT_FACES = (19, 20)
COLD_FACES = (1, 2)
MARKER_STEP = 4
FOUL_SHOT_BONUS = 10


def floor_one(value: int) -> int:
    """"If anything ... makes a number in the game less than 1, just treat that number as 1.\""""
    return max(1, value)


def matchup_bonus(attacker: int, defender: int) -> int:
    """+1 per point the roller's Speed (or Power) exceeds the defender's; never negative."""
    return max(0, floor_one(attacker) - floor_one(defender))


def roll_total(face: int, modifier: int) -> int:
    """The total a natural roll reads before assists (assists are added after seeing it)."""
    return floor_one(face + modifier)


_float = fraction_float


@dataclass(frozen=True)
class RowChance:
    """One chart row and the exact chance a roll with this modifier lands on it."""

    row: ChartRow
    probability: Fraction
    faces: tuple[int, ...]

    def to_json(self) -> dict[str, Any]:
        return {**self.row.to_json(), "probability": _float(self.probability),
                "fraction": str(self.probability), "faces": list(self.faces)}


# Speed and Power odds with the same modifier share their rows (``row_chances`` is cached): each
# row's JSON is built once (read-only, like every rendered snapshot).
_row_chance_json = by_identity(RowChance.to_json, size=1024)


def _count_faces(die: Die) -> tuple[int, ...]:
    return tuple(int(f) for f in die.faces)


# Every new roll's odds read the die's faces: once per die.
_faces = by_identity(_count_faces, size=8)


# The odds are counted in Fractions over every face: the prompt asks for the same few cards and
# modifiers before each roll, so they are counted once. Cards, dice and results are frozen values.
@lru_cache(maxsize=1024)
def row_chances(card: Card, modifier: int, die: Die = D20) -> tuple[RowChance, ...]:
    """Every row of ``card``'s chart with its chance for a roll of ``die`` + ``modifier``."""
    faces = _faces(die)
    hits: list[list[int]] = [[] for _ in card.chart]
    # The rows by position in the chart (no two rows of a checked chart are equal: they would overlap).
    table = _row_indices_by_total(card)
    last = len(table) - 1
    for face in faces:
        total = face + modifier
        hits[table[min(total if total > 1 else 1, last)]].append(face)  # roll_total, inlined
    count = len(faces)
    return tuple(RowChance(row, _chance(len(hit), count), tuple(hit))
                 for row, hit in zip(card.chart, hits, strict=True))


def _count_row_indices_by_total(card: Card) -> tuple[int, ...]:
    """``card.row_index(total)`` for every total from 0 to one past the highest bounded row: any
    higher total reads what that one reads (the open-ended row, or the top row)."""
    beyond = max((row.high for row in card.chart if row.high is not None), default=0) + 1
    return tuple(card.row_index(total) for total in range(beyond + 1))


# A card's chart is read for twenty faces per modifier counted: a table once per card record.
_row_indices_by_total = by_identity(_count_row_indices_by_total, size=64)


@lru_cache(maxsize=256)
def _chance(hits: int, faces: int) -> Fraction:
    """``Fraction(hits, faces)``: the same few values over and over, each reduced once."""
    return Fraction(hits, faces)


def _mean(chances: tuple[RowChance, ...], result: str) -> Fraction:
    """The expected ``result`` over the rows: counted in whole faces, one Fraction at the end (the
    same value as summing each row's Fraction, without a reduction per row)."""
    return Fraction(sum(len(c.faces) * getattr(c.row, result) for c in chances),
                    sum(len(c.faces) for c in chances))


def chart_lookup(card: Card, modifier: int, die: Die = D20) -> Lookup:
    """The roller's chart in the die's own faces, for the prompt's ``RollInfo``: each row that can
    happen covers the natural faces that read it (``row_chances`` decides which, so the engine's
    ``outcomes`` are these chances). A row scores (``success``) when it gives points.

    >>> from companion.games.nba_showdown.rosters import shipped_roster
    >>> rows = chart_lookup(shipped_roster("demo-comets").card("Demo Dasher"), 3).rows
    >>> [(r.label, r.result) for r in rows][:2]
    [('1', '0P 0A 0R'), ('2-6', '2P 1A 0R')]
    """
    return lookup_from(row_chances(card, modifier, die), die)


@dataclass(frozen=True)
class ChartLookup(Lookup):
    """A ``Lookup`` that finds a face's row in one step: the engine reads the chart for every face
    a few times over (the chance, the face marks, the outcomes) each time a roll's odds are new.
    The same rows and answers as ``Lookup`` (the first row whose range holds the face)."""

    def __post_init__(self) -> None:
        by_face: dict[int, Row] = {}
        for row in self.rows:
            for face in range(row.low, row.high + 1):
                by_face.setdefault(face, row)
        # ``row_for`` and ``succeeds`` of a face are one dict look-up each (a face is a whole number
        # or a word: a word finds no row, as in ``Lookup``), asked without a Python call: the
        # engine's face marks ask both of every face.
        object.__setattr__(self, "row_for", by_face.get)
        object.__setattr__(self, "succeeds", {face: row.success for face, row in by_face.items()}.get)
        # The engine's caches key the rule's chance and JSON by it: its hash is counted once.
        object.__setattr__(self, "_hash", hash(self.rows))

    def __hash__(self) -> int:
        return self._hash  # type: ignore[attr-defined, no-any-return]

    def __reduce__(self) -> tuple[Any, ...]:
        # Rebuilt from its rows: a string's hash differs from one process to the next.
        return ChartLookup, (self.rows,)

    def chance(self, die: Die) -> Fraction | None:
        if not any(r.success is not None for r in self.rows):
            return None
        row_for = self.row_for
        wins = [f for f in die.distinct_faces if (row := row_for(f)) is not None and row.success]
        return _chance_of(die, wins)

    def outcomes(self, die: Die) -> list[RollOutcome]:
        # ``Lookup.outcomes``: each row's faces in dial order, then the faces no row reads; the
        # faces grouped in one pass instead of one pass per row.
        chances = self.__dict__.get("_chances")
        if chances is not None and die is D20:
            # Made by ``lookup_from`` from the d20's chances: each row is one chance's faces (in dial
            # order, every face read by one), with its chance already counted.
            return [RollOutcome(row.label, chance.probability, row.result, chance.faces)
                    for row, chance in zip(self.rows, chances, strict=True)]
        grouped: dict[int, list[Face]] = {}
        row_for = self.row_for
        for face in die.distinct_faces:
            grouped.setdefault(id(row_for(face)), []).append(face)
        out = []
        for row in self.rows:
            faces = grouped.get(id(row))
            if faces:
                found = tuple(faces)
                out.append(RollOutcome(row.label, _chance_of(die, found), row.result, found))
        missing = grouped.get(id(None))
        if missing:
            found = tuple(missing)
            out.append(RollOutcome("other", _chance_of(die, found), "no effect", found))
        return out


def _count_face_counts(die: Die) -> dict[Face, int]:
    counts: dict[Face, int] = {}
    for face in die.faces:
        counts[face] = counts.get(face, 0) + 1
    return counts


# How many times each face is on a die (its faces never change).
_face_counts = by_identity(_count_face_counts, size=16)


def _chance_of(die: Die, faces: Any) -> Fraction:
    """``die.chance_of(faces)`` for faces of the die, from its face counts (not a scan of its faces)."""
    counts = _face_counts(die)
    return _chance(sum(counts.get(face, 0) for face in set(faces)), len(die.faces))


def lookup_from(chances: tuple[RowChance, ...], die: Die = D20) -> Lookup:
    """The chart rows that can happen, each over the natural faces of ``die`` that read it
    (``chances``: ``row_chances`` for that die)."""
    found = tuple(c for c in chances if c.faces)
    lookup = ChartLookup(tuple(Row(min(c.faces), max(c.faces), short_result(c.row), c.row.pts > 0)
                               for c in found))
    if die is D20 and sorted(f for c in found for f in c.faces) == list(D20.faces):
        # Not a field (equality, hash and pickling read the rows alone): ``outcomes`` on the d20
        # reads each row's faces and chance from here instead of grouping the faces again. Only
        # chances counted on the d20's own faces (a caller's default ``die`` may not be the one
        # the chances were counted for).
        object.__setattr__(lookup, "_chances", found)
    return lookup


def short_result(row: ChartRow) -> str:
    """What a row gives, short enough for one line of a face button: ``4P 2A 1R`` (PTS, AST, REB)."""
    return f"{row.pts}P {row.ast}A {row.reb}R"


def shot_check_rule(needed: int, bonus: int) -> AtLeast:
    """A shot check as a natural face to reach: d20 + ``bonus`` must reach ``needed`` (a total under 1
    counts as 1, and the Shot Line is never under 2, so the floor changes nothing here)."""
    return AtLeast(max(1, needed - bonus), gives="made", misses="missed")


def expected(card: Card, modifier: int, result: str = "pts", die: Die = D20) -> Fraction:
    """Expected PTS (or ``ast`` / ``reb``) of a scoring roll, before any assist is spent."""
    return _mean(row_chances(card, modifier, die), result)


@lru_cache(maxsize=8)
def marker_chances(die: Die = D20) -> tuple[Fraction, Fraction]:
    """(hot, cold) chance: a natural 19-20 gives a hot marker, 1-2 a cold one, whatever the bonus."""
    faces = _faces(die)
    return (Fraction(sum(f in HOT_FACES for f in faces), len(faces)),
            Fraction(sum(f in COLD_FACES for f in faces), len(faces)))


def assists_to_next_row(card: Card, total: int) -> int | None:
    """The fewest assists that lift ``total`` onto the next row up; None on the top row."""
    index = card.row_index(total)
    if index + 1 >= len(card.chart):
        return None
    return card.chart[index + 1].low - floor_one(total)


def assist_steps(card: Card, total: int, available: int) -> tuple[tuple[int, ChartRow], ...]:
    """For each higher row within reach, the fewest assists that reach it (for the prompt's choices)."""
    steps = []
    here = card.row_index(total)
    for row in card.chart[here + 1:]:
        needed = row.low - floor_one(total)
        if needed <= available:
            steps.append((needed, row))
    return tuple(steps)


def shot_check_chance(needed: int, bonus: int, die: Die = D20) -> Fraction:
    """Chance a shot check (d20 + bonus, below 1 counts as 1) reaches ``needed`` (the Shot Line)."""
    return shot_check_rule(needed, bonus).chance(die)


@dataclass(frozen=True)
class StatOdds:
    """What choosing Speed or Power means for one roll: the bonus and what it is likely to give."""

    stat: str
    matchup: int
    modifier: int
    rows: tuple[RowChance, ...]
    expected_pts: Fraction
    expected_ast: Fraction
    expected_reb: Fraction
    hot: Fraction
    cold: Fraction

    # The odds are shared (``stat_odds`` is cached) and every prompt before a roll reads these:
    # each is worked out once per odds.
    @cached_property
    def label(self) -> str:
        return f"{self.stat.title()} +{self.matchup}: {_float(self.expected_pts):.1f} pts expected"

    @cached_property
    def lookup(self) -> Lookup:
        """The roll as the engine reads it (``RollInfo(D20, lookup)``): its outcomes are ``rows``."""
        return lookup_from(self.rows)

    @cached_property
    def p_score(self) -> Fraction:
        """The chance the roll lands on a row that gives points (counted in whole faces, as ``_mean``:
        the same value as summing the rows' chances, without a Fraction per row)."""
        return Fraction(sum(len(c.faces) for c in self.rows if c.row.pts > 0),
                        sum(len(c.faces) for c in self.rows))

    @cached_property
    def hint(self) -> str:
        """A few words for a button: expected points and the chance to score."""
        return f"{_float(self.expected_pts):.1f} pts, scores {_float(self.p_score):.0%}"

    def to_json(self) -> dict[str, Any]:
        return {"stat": self.stat, "matchup": self.matchup, "modifier": self.modifier,
                "rows": [_row_chance_json(r) for r in self.rows],
                "expected_pts": _float(self.expected_pts), "expected_ast": _float(self.expected_ast),
                "expected_reb": _float(self.expected_reb), "hot": _float(self.hot), "cold": _float(self.cold),
                "label": self.label}


@lru_cache(maxsize=1024)
def stat_odds(card: Card, stat: str, matchup: int, other_modifiers: int, markers_on: bool = True,
              die: Die = D20) -> StatOdds:
    """The odds of a scoring roll with ``stat``: matchup bonus plus the other modifiers."""
    modifier = matchup + other_modifiers
    hot, cold = marker_chances(die) if markers_on else (Fraction(0), Fraction(0))
    chances = row_chances(card, modifier, die)  # what ``expected`` reads, looked up once
    # ``_mean`` of each result, in one pass over the rows.
    faces = pts = ast = reb = 0
    for chance in chances:
        hits, row = len(chance.faces), chance.row
        faces += hits
        pts += hits * row.pts
        ast += hits * row.ast
        reb += hits * row.reb
    return StatOdds(stat, matchup, modifier, chances, Fraction(pts, faces), Fraction(ast, faces),
                    Fraction(reb, faces), hot, cold)
