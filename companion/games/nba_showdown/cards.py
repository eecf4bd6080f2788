"""NBA Showdown player cards as the table enters them: Speed, Power, positions, point value,
3-point bonus, the scoring chart (rows of PTS / AST / REB) and where the Shot Line sits.

A card is checked in full when it is read: rows must start at 1, run on without a gap or an
overlap, and the Shot Line must sit between two rows. The companion never invents a card.

>>> card = parse_card({"name": "Demo Dasher", "positions": ["PG"], "speed": 17, "power": 10,
...     "point_value": 500, "shot_line": 16, "chart": [
...     {"range": "1-9", "pts": 0}, {"range": "10-15", "pts": 2, "ast": 1},
...     {"range": "16-20", "pts": 4, "reb": 1}, {"range": "21+", "pts": 6, "ast": 2}]})
>>> card.row_for(17).label, card.row_for(-3).label, card.row_for(40).label
('16-20', '1-9', '21+')
>>> parse_chart([{"range": "1-5", "pts": 0}, {"range": "4-9", "pts": 2}], "X")
Traceback (most recent call last):
...
companion.errors.CommandError: X: chart rows 1-5 and 4-9 overlap (4 is on both)
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from companion.errors import CommandError

POSITIONS = ("PG", "SG", "SF", "PF", "C")  # in playmat order: neighbours help on a double team
STATS = ("speed", "power")
RANGE = re.compile(r"^\s*(\d+)\s*(?:(-)\s*(\d+)|(\+))?\s*$")


@dataclass(frozen=True)
class ChartRow:
    """One line of a scoring chart: the totals it covers (``high`` None = "and more") and its result."""

    low: int
    high: int | None
    pts: int
    ast: int = 0
    reb: int = 0

    @property
    def label(self) -> str:
        if self.high is None:
            return f"{self.low}+"
        return str(self.low) if self.high == self.low else f"{self.low}-{self.high}"

    @property
    def result(self) -> str:
        return f"{self.pts} PTS {self.ast} AST {self.reb} REB"

    def to_json(self) -> dict[str, Any]:
        return {"range": self.label, "pts": self.pts, "ast": self.ast, "reb": self.reb}


@dataclass(frozen=True)
class Card:
    """One player card, exactly as entered."""

    name: str
    positions: tuple[str, ...]
    speed: int
    power: int
    point_value: int
    shot_line: int  # the lowest total on the row just under the Shot Line: a shot check needs this
    chart: tuple[ChartRow, ...]
    three_point_bonus: int = 0

    def stat(self, name: str) -> int:
        return self.speed if name == "speed" else self.power

    def row_for(self, total: int) -> ChartRow:
        """The chart row a total reads: below 1 counts as 1, beyond the top row reads the top row."""
        total = max(1, total)
        for row in self.chart:
            if row.high is None or total <= row.high:
                return row
        return self.chart[-1]

    def row_index(self, total: int) -> int:
        """Where ``row_for(total)`` stands in the chart (the first row equal to it: a row equal to an
        earlier one has its range, so the scan stops at the earlier one first)."""
        total = max(1, total)
        for index, row in enumerate(self.chart):
            if row.high is None or total <= row.high:
                return index
        return len(self.chart) - 1

    def __reduce__(self) -> tuple[Any, ...]:
        # Pickled (a state snapshot) as its fields with the chart as plain numbers: a card and its
        # rows as records, each a dict of its fields, were most of a snapshot's pickling.
        return _card_from, (self.name, self.positions, self.speed, self.power, self.point_value,
                            self.shot_line, tuple((r.low, r.high, r.pts, r.ast, r.reb) for r in self.chart),
                            self.three_point_bonus)

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "positions": list(self.positions), "speed": self.speed,
                "power": self.power, "point_value": self.point_value,
                "three_point_bonus": self.three_point_bonus, "shot_line": self.shot_line,
                "chart": [r.to_json() for r in self.chart]}


def _card_from(name: str, positions: tuple[str, ...], speed: int, power: int, point_value: int,
               shot_line: int, chart: tuple[tuple[int, int | None, int, int, int], ...],
               three_point_bonus: int) -> Card:
    """The card ``Card.__reduce__`` pickled (its chart rows rebuilt from their numbers)."""
    return Card(name, positions, speed, power, point_value, shot_line, tuple(ChartRow(*row) for row in chart),
                three_point_bonus)


def _whole(raw: object, field: str, who: str, low: int, high: int) -> int:
    if isinstance(raw, bool) or not isinstance(raw, int) or not low <= raw <= high:
        raise CommandError(f"{who}: {field} must be a whole number from {low} to {high}, not {raw!r}")
    return raw


def _parse_range(raw: object, who: str) -> tuple[int, int | None]:
    match = RANGE.match(raw) if isinstance(raw, str) else None
    if isinstance(raw, int) and not isinstance(raw, bool):
        match = RANGE.match(str(raw))
    if match is None:
        raise CommandError(f"{who}: a chart row's range is written like \"10-15\", \"16\" or \"21+\", "
                           f"not {raw!r}")
    low = int(match.group(1))
    if match.group(4):
        return low, None
    high = int(match.group(3)) if match.group(2) else low
    if high < low:
        raise CommandError(f"{who}: chart row {raw!r} runs backwards ({low} is above {high})")
    return low, high


ROW_SLOTS = tuple(f"row{i}" for i in range(1, 9))  # the card form's chart lines
ROW_TEXT = re.compile(r"^\s*(\d+\s*(?:-\s*\d+|\+)?)\s*[:\s]\s*(\d+)"
                      r"(?:\s*[/\s]\s*(\d+))?(?:\s*[/\s]\s*(\d+))?\s*$")


def row_text(row: ChartRow) -> str:
    """A chart row as the card form writes it: ``10-15 4 2 1`` (range, PTS, AST, REB)."""
    return f"{row.label} {row.pts} {row.ast} {row.reb}"


def parse_row_text(text: str, who: str) -> dict[str, Any]:
    """``"10-15 4 2 1"`` (or ``"10-15: 4/2/1"``; AST and REB may be left off) as a chart row object."""
    match = ROW_TEXT.match(text)
    if match is None:
        raise CommandError(f"{who}: a chart line is the range then PTS, AST, REB, like \"10-15 4 2 1\", "
                           f"not {text!r}")
    return {"range": match.group(1).replace(" ", ""), "pts": int(match.group(2)),
            "ast": int(match.group(3) or 0), "reb": int(match.group(4) or 0)}


def form_data(card: Card) -> dict[str, Any]:
    """A card in the card form's shape (the chart as lines ``row1``...), as the kiosk edits it."""
    data = card.to_json()
    data["chart"] = {slot: row_text(row) for slot, row in zip(ROW_SLOTS, card.chart, strict=False)}
    return data


def parse_chart(raw: object, who: str) -> tuple[ChartRow, ...]:
    """Chart rows from a list of ``{"range": "10-15", "pts": 2, "ast": 1, "reb": 0}`` (or the card
    form's lines ``{"row1": "1-4 0 0 0", ...}``; empty lines are skipped), checked."""
    if isinstance(raw, Mapping):
        raw = [parse_row_text(text, who) for _, text in sorted(raw.items(), key=lambda kv: _slot(kv[0], who))
               if isinstance(text, str) and text.strip()]
    if not isinstance(raw, list) or len(raw) < 2:
        raise CommandError(f"{who}: chart must list at least two rows, like "
                           f"[{{\"range\": \"1-9\", \"pts\": 0}}, ...]")
    rows: list[ChartRow] = []
    for entry in raw:
        if not isinstance(entry, Mapping):
            raise CommandError(f"{who}: each chart row is an object with range, pts, ast, reb, not {entry!r}")
        unknown = sorted(set(entry) - {"range", "pts", "ast", "reb"})
        if unknown:
            raise CommandError(f"{who}: chart row has no field {unknown[0]!r} (range, pts, ast, reb)")
        low, high = _parse_range(entry.get("range"), who)
        label = f"chart row {entry.get('range')}"
        rows.append(ChartRow(low, high,
                             _whole(entry.get("pts", 0), f"{label} PTS", who, 0, 30),
                             _whole(entry.get("ast", 0), f"{label} AST", who, 0, 20),
                             _whole(entry.get("reb", 0), f"{label} REB", who, 0, 20)))
    rows.sort(key=lambda r: r.low)
    if rows[0].low != 1:
        raise CommandError(f"{who}: the chart must start at 1 (totals below 1 count as 1), "
                           f"its first row is {rows[0].label}")
    for below, above in zip(rows, rows[1:], strict=False):
        if below.high is None:
            raise CommandError(f"{who}: only the top row can run on (\"{below.label}\"), "
                               f"but {above.label} comes after it")
        if above.low <= below.high:
            raise CommandError(f"{who}: chart rows {below.label} and {above.label} overlap "
                               f"({above.low} is on both)")
        if above.low > below.high + 1:
            gap = f"{below.high + 1}" if above.low == below.high + 2 else f"{below.high + 1}-{above.low - 1}"
            raise CommandError(f"{who}: chart rows {below.label} and {above.label} leave a gap "
                               f"({gap} is on no row)")
    return tuple(rows)


def _slot(key: object, who: str) -> int:
    if key not in ROW_SLOTS:
        raise CommandError(f"{who}: chart lines are {ROW_SLOTS[0]} to {ROW_SLOTS[-1]}, not {key!r}")
    return ROW_SLOTS.index(key)  # type: ignore[arg-type]


def parse_card(raw: object) -> Card:
    """One player card from a mapping (roster file or setup option), checked field by field."""
    if not isinstance(raw, Mapping):
        raise CommandError(f"a player card is an object with a name, not {raw!r}")
    name = raw.get("name")
    if not isinstance(name, str) or not name.strip():
        raise CommandError(f"every player card needs a name, got {name!r}")
    who = name = name.strip()
    known = {"name", "positions", "speed", "power", "point_value", "three_point_bonus", "shot_line", "chart"}
    unknown = sorted(set(raw) - known)
    if unknown:
        raise CommandError(f"{who}: unknown field {unknown[0]!r} (known: {', '.join(sorted(known))})")
    positions = raw.get("positions")
    if isinstance(positions, str):
        positions = [p for p in re.split(r"[\s,/]+", positions) if p]
    if not isinstance(positions, list) or not positions:
        raise CommandError(f"{who}: positions must list the positions the card shows, like [\"PG\", \"SG\"]")
    checked: list[str] = []
    for p in positions:
        if not isinstance(p, str) or p.strip().upper() not in POSITIONS:
            raise CommandError(f"{who}: positions are {', '.join(POSITIONS)}, not {p!r}")
        if p.strip().upper() in checked:
            raise CommandError(f"{who}: position {p.strip().upper()} is listed twice")
        checked.append(p.strip().upper())
    for field in ("speed", "power", "point_value", "shot_line", "chart"):
        if raw.get(field) is None:
            raise CommandError(f"{who}: {field} is missing: enter it from the card")
    chart = parse_chart(raw["chart"], who)
    shot_line = _whole(raw["shot_line"], "shot_line", who, 2, 99)
    starts = [r.low for r in chart[1:]]
    if shot_line not in starts:
        raise CommandError(f"{who}: the Shot Line sits between two chart rows, so shot_line is the first "
                           f"number of the row under it ({', '.join(map(str, starts))}), not {shot_line}")
    return Card(
        name=name,
        positions=tuple(sorted(checked, key=POSITIONS.index)),
        speed=_whole(raw["speed"], "speed", who, 1, 40),
        power=_whole(raw["power"], "power", who, 1, 40),
        point_value=_whole(raw["point_value"], "point_value", who, 0, 5000),
        three_point_bonus=_whole(raw.get("three_point_bonus", 0), "three_point_bonus", who, 0, 20),
        shot_line=shot_line,
        chart=chart,
    )
