"""A game's front-end parts, served over the socket (``game_info``) so no client imports a game.

A game declares here what its screens need besides the snapshot: the setup form (with its presets),
the card form, the rosters it ships (as data), the Table panels and the box-score columns (paths into
the game's ``view``), the dice it names and how to lay out a crowd of choices. Clients render these
generically: the kiosk holds no rule and names no game.

Paths and texts (the kiosk reads them; ``docs/protocol.md`` has the whole shape):

- a ``source`` is a path into the view, ``/sides/{side}/players``: ``{side}`` is the side a
  per-side panel shows, ``*`` walks every item of a list (a row then also knows ``@side``, the
  item it was found in);
- a ``template`` names values of a row by path, ``"{energy}/{max_energy}"``; ``{path|count}`` is a
  list's length, a list is shown joined with commas; a missing value shows as ``missing``;
- a column (or line) made of ``parts`` shows each part whose ``when`` path holds something other
  than a value in ``hide``, joined by ``join``.

>>> form = CardForm(fields=(FormField("energy", "Energy", "int", minimum=0, maximum=12),))
>>> form.to_json()["fields"][0]["max"]
12
>>> Column("points", "Pts", default=0).to_json()
{'key': 'points', 'label': 'Pts', 'default': 0}
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

# The form parts live in companion.forms, which a game's calculators import without the rest of these.
from companion.forms import Calculator, FieldChoice, FormField, _clean

JSON = dict[str, Any]

__all__ = ["JSON", "BoxScore", "Calculator", "CardForm", "ChoiceGrid", "Column", "DieFaces", "FieldChoice",
           "FormField", "Frontend", "Panel", "Part", "Preset", "Roster", "RosterPick", "SetupForm",
           "game_info"]


@dataclass(frozen=True)
class RosterPick:
    """How a ``roster`` field picks members: ``count`` of them from one roster, some on ``spots``.

    The side's options get ``roster_key`` (a shipped roster by name) or, for a roster the table
    imported, ``custom`` with full cards and the file's own ``file_keys`` (its strategy deck); the
    members go in the field's key (names, or the entered card fields over the roster's card), the
    spots in ``spots_key`` as ``{spot: name}``.
    ``spot_fields`` are the card fields that print where a member may play (for a warning only).
    """

    count: int
    spots: tuple[str, ...]
    reserve: str = ""  # the spot of a picked member who is not on one of ``spots`` ("bench")
    roster_key: str = "roster"
    spots_key: str = "lineup"
    custom: Mapping[str, Any] = field(default_factory=dict)
    spot_fields: tuple[str, ...] = ()
    noun: str = "member"
    nouns: str = "members"
    file_keys: tuple[str, ...] = ()  # what else of an imported roster file goes in the side's options

    def to_json(self) -> JSON:
        return {"count": self.count, "spots": list(self.spots), "reserve": self.reserve,
                "roster_key": self.roster_key, "spots_key": self.spots_key, "custom": dict(self.custom),
                "spot_fields": list(self.spot_fields), "noun": self.noun, "nouns": self.nouns,
                "file_keys": list(self.file_keys)}


@dataclass(frozen=True)
class Preset:
    """A ready setup (the options ``new_game`` takes), e.g. the rulebook's example line-ups."""

    label: str
    options: Mapping[str, Any]
    demo: bool = False  # invented, ready-to-play values (the kiosk's Quick start), never official cards

    def to_json(self) -> JSON:
        out = {"label": self.label, "options": dict(self.options)}
        if self.demo:
            out["demo"] = True
        return out


@dataclass(frozen=True)
class SetupForm:
    """The options a new game asks for: game-wide ``fields``, ``side_fields`` for each side."""

    fields: tuple[FormField, ...] = ()
    side_fields: tuple[FormField, ...] = ()
    sides_key: str = "sides"
    presets: tuple[Preset, ...] = ()

    def to_json(self) -> JSON:
        return {"fields": [f.to_json() for f in self.fields],
                "side_fields": [f.to_json() for f in self.side_fields], "sides_key": self.sides_key,
                "presets": [p.to_json() for p in self.presets]}


@dataclass(frozen=True)
class CardForm:
    """A card the table types in (remembered by the kiosk under ``key``, laid over roster cards).

    ``enter_command``: the command that completes a card mid-game (``{"type", "name_key",
    "side_key"}``); ``from_view``: card field -> the view member's field that holds it.
    """

    fields: tuple[FormField, ...]
    key: str = "name"
    title: str = "Card"
    enter_command: Mapping[str, str] = field(default_factory=dict)
    from_view: Mapping[str, str] = field(default_factory=dict)

    def to_json(self) -> JSON:
        return {"fields": [f.to_json() for f in self.fields], "key": self.key, "title": self.title,
                "enter_command": dict(self.enter_command), "from_view": dict(self.from_view)}


@dataclass(frozen=True)
class Roster:
    """A roster the game ships, as data (``demo``: made up for trying the game, not printed)."""

    name: str
    label: str
    cards: tuple[Mapping[str, Any], ...]
    demo: bool = False

    def to_json(self) -> JSON:
        return {"name": self.name, "label": self.label, "demo": self.demo,
                "cards": [dict(c) for c in self.cards]}


@dataclass(frozen=True)
class Part:
    """A piece of a cell or line: ``template`` shown when ``when`` holds a value not in ``hide``."""

    template: str
    when: str = ""
    hide: tuple[Any, ...] = ()

    def to_json(self) -> JSON:
        return _clean({"template": self.template, "when": self.when, "hide": list(self.hide)})


@dataclass(frozen=True)
class Column:
    """One column of a panel or the box score: a value by ``key``, or a ``template``, or ``parts``.

    ``upper``: shown in capitals unless it equals ``default``; ``opens_card``: a tap on it opens the
    card editor on that row; ``width``: the column's share of the panel's width.
    """

    key: str
    label: str
    template: str = ""
    parts: tuple[Part, ...] = ()
    join: str = ", "
    default: Any = None
    missing: str = "?"
    upper: bool = False
    opens_card: bool = False
    width: float = 1.0

    def to_json(self) -> JSON:
        out = _clean({"key": self.key, "label": self.label, "template": self.template,
                      "parts": [p.to_json() for p in self.parts], "upper": self.upper,
                      "opens_card": self.opens_card})
        if self.parts:
            out["join"] = self.join
        if self.default is not None:
            out["default"] = self.default
        if self.template or self.parts:
            out["missing"] = self.missing
        if self.width != 1.0:
            out["width"] = self.width
        return out


@dataclass(frozen=True)
class Panel:
    """A block of the Table screen: a table (one row per item at ``source``), one ``line`` of parts,
    or ``lead``: the scoreboard's one signed lead as a tug-of-war bar (no source or parts needed).

    ``per_side``: drawn once per side (``{side}`` in the source); ``muted`` / ``alert``: rows whose
    ``muted`` path holds one of ``muted_values`` are greyed (and listed last), rows where an ``alert``
    path holds something are red.
    """

    title: str
    source: str
    columns: tuple[Column, ...] = ()
    kind: str = "table"
    parts: tuple[Part, ...] = ()
    join: str = " · "
    per_side: bool = False
    muted: str = ""
    muted_values: tuple[Any, ...] = ()
    alert: tuple[str, ...] = ()

    def to_json(self) -> JSON:
        out = _clean({"title": self.title, "source": self.source, "kind": self.kind,
                      "columns": [c.to_json() for c in self.columns],
                      "parts": [p.to_json() for p in self.parts],
                      "per_side": self.per_side, "muted": self.muted, "alert": list(self.alert)})
        if self.parts:
            out["join"] = self.join
        if self.muted:
            out["muted_values"] = list(self.muted_values)
        return out


@dataclass(frozen=True)
class BoxScore:
    """The game-end table (and the CSV export): one row per item at ``source``.

    ``total_key``: a row whose value there is true is a side's total line (drawn in bold, never
    named a top scorer); ``summary``: the keys of the columns the QR summary repeats for each total
    line (a side's shooting splits, say), after the line's name: the cell of the ``total_name``
    column (the first column when not given).
    """

    source: str
    columns: tuple[Column, ...]
    total_key: str = ""
    summary: tuple[str, ...] = ()
    total_name: str = ""

    def to_json(self) -> JSON:
        out: JSON = {"source": self.source, "columns": [c.to_json() for c in self.columns]}
        if self.total_key:
            out["total_key"] = self.total_key
        if self.total_name:
            out["total_name"] = self.total_name
        if self.summary:
            out["summary"] = list(self.summary)
        return out


@dataclass(frozen=True)
class DieFaces:
    """A die as the table's screens show it: its title, distinct faces, words for the named faces.

    ``success``: how the game usually reads it against a target (at_most, at_least, lookup); the
    prompt's own ``die_info`` / ``face_marks`` win when the engine sends them.
    """

    name: str
    title: str
    faces: tuple[int | str, ...]
    face_labels: Mapping[str, str] = field(default_factory=dict)
    success: str | None = None

    def to_json(self) -> JSON:
        return {"name": self.name, "title": self.title, "faces": list(self.faces),
                "face_labels": dict(self.face_labels), "success": self.success}


@dataclass(frozen=True)
class ChoiceGrid:
    """Many choices as a grid: rows by a command field (the first of ``row_keys`` present, a word or a
    number), columns by ``column_key``'s values; ``names`` labels a cell from the view (``{"source",
    "key", "label"}``); ``column_labels`` (one per column) and ``row_labels`` (row value -> words) say
    the headers in the table's words when the command's values are not; ``cell_labels`` (one per
    column) the cells' words instead of the choice's label, and ``corner`` the row labels' heading. A
    column that is a side index may name its side in a label with ``{side}``."""

    row_keys: tuple[str, ...]
    column_key: str
    columns: tuple[str | int, ...]
    names: Mapping[str, str] = field(default_factory=dict)
    at_least: int = 6  # fewer matching choices read better as a plain list of buttons
    column_labels: tuple[str, ...] = ()
    row_labels: Mapping[str, str] = field(default_factory=dict)
    cell_labels: tuple[str, ...] = ()
    corner: str = ""
    per_line: int = 1
    label_share: float = 0.7

    def to_json(self) -> JSON:
        out = {"row_keys": list(self.row_keys), "column_key": self.column_key, "columns": list(self.columns),
               "names": dict(self.names), "at_least": self.at_least}
        if self.column_labels:
            out["column_labels"] = list(self.column_labels)
        if self.row_labels:
            out["row_labels"] = dict(self.row_labels)
        if self.cell_labels:
            out["cell_labels"] = list(self.cell_labels)
        if self.corner:
            out["corner"] = self.corner
        if self.per_line != 1:
            out["per_line"] = self.per_line
        if self.label_share != 0.7:
            out["label_share"] = self.label_share
        return out


@dataclass(frozen=True)
class Frontend:
    """Everything a game offers its front ends beyond the snapshot (``Game.frontend``)."""

    setup_form: SetupForm = SetupForm()
    card_form: CardForm | None = None
    rosters: tuple[Roster, ...] = ()
    panels: tuple[Panel, ...] = ()
    box_score: BoxScore | None = None
    calculators: tuple[Calculator, ...] = ()
    dice: tuple[DieFaces, ...] = ()
    choice_grid: ChoiceGrid | None = None
    # Grids for other prompts (the first grid that lays out a prompt's choices is drawn).
    more_grids: tuple[ChoiceGrid, ...] = ()
    side_names: tuple[str, ...] = ()
    min_sides: int = 2
    max_sides: int = 2

    def to_json(self) -> JSON:
        return {"setup_form": self.setup_form.to_json(),
                "card_form": self.card_form.to_json() if self.card_form else None,
                "rosters": [r.to_json() for r in self.rosters], "panels": [p.to_json() for p in self.panels],
                "box_score": self.box_score.to_json() if self.box_score else None,
                "calculators": [c.to_json() for c in self.calculators],
                "dice": [d.to_json() for d in self.dice],
                "choice_grid": self.choice_grid.to_json() if self.choice_grid else None,
                "more_grids": [g.to_json() for g in self.more_grids]}


def _side_range(game: Any, frontend: Frontend) -> tuple[int, int]:
    """How many sides the game takes: the declaration's own numbers when it has them (``sides`` as
    ``(min, max)`` or with ``min``/``max``), else the front end's."""
    sides = getattr(game, "sides", None)
    if isinstance(sides, tuple | list) and len(sides) == 2:
        return int(sides[0]), int(sides[1])
    if isinstance(sides, Mapping):
        return int(sides.get("min", frontend.min_sides)), int(sides.get("max", frontend.max_sides))
    return frontend.min_sides, frontend.max_sides


def _dice(game: Any, frontend: Frontend) -> list[JSON]:
    """The game's dice (``Game.dice`` when declared) with the front end's words for their faces on top."""
    found: dict[str, JSON] = {}
    for die in getattr(game, "dice", None) or ():
        faces = list(dict.fromkeys(getattr(die, "faces", ())))
        labels = {str(face): label for face, label in (getattr(die, "labels", None) or {}).items()}
        found[die.name] = {"name": die.name, "title": getattr(die, "title", die.name), "faces": faces,
                           "face_labels": labels, "success": None}
    for declared in frontend.dice:
        found[declared.name] = {**found.get(declared.name, {}), **declared.to_json()}
    return list(found.values())


def game_info(game: Any) -> JSON:
    """The ``game_info`` reply's ``info``: the game's name, title, sides and front-end parts.

    Works for a game that declares no front end (an empty setup form).
    """
    frontend: Frontend = getattr(game, "frontend", None) or Frontend()
    low, high = _side_range(game, frontend)
    declared = list(frontend.side_names)[:high]
    names = declared + [f"Side {i + 1}" for i in range(len(declared), high)]
    # The commands with their typed fields: a front end draws a form for a command the prompt offers
    # without a ready choice (a strategy card and what it does).
    commands = [c.describe() for c in getattr(game, "commands", None) or ()]
    return {"name": game.name, "title": game.title, "sides": {"min": low, "max": high, "names": names},
            **frontend.to_json(), "dice": _dice(game, frontend), "commands": commands}
