"""The parts of a form a game declares: fields, their choices, and the calculators built on them.

``companion.frontend`` holds the rest of a game's front end and re-exports these; they live apart so
a game's ``calculators`` module (read by ``companion calc``) imports four small classes, not the
whole front end.

>>> shot = Calculator("shot", "the chance", (FormField("dice", "dice rolled", "int", minimum=1),))
>>> shot.to_json()["fields"]
[{'key': 'dice', 'label': 'dice rolled', 'kind': 'int', 'min': 1}]
"""

from __future__ import annotations

from dataclasses import dataclass, field

TYPE_CHECKING = False  # typing is an import `companion calc` can do without
if TYPE_CHECKING:
    from collections.abc import Callable, Mapping
    from typing import Any

    from companion.frontend import RosterPick

    JSON = dict[str, Any]


def _clean(data: Mapping[str, Any]) -> JSON:
    """Leave out what a part does not use (None, empty, False), so the JSON stays readable."""
    def used(value: Any) -> bool:
        return not (value is None or value is False or value == "" or isinstance(value, list | tuple | dict)
                    and not value)

    return {k: v for k, v in data.items() if used(v) or k in ("label", "title")}


@dataclass(frozen=True)
class FieldChoice:
    """One value a choice field offers: what is sent and what the table reads."""

    value: Any
    label: str

    def to_json(self) -> JSON:
        return {"value": self.value, "label": self.label}


@dataclass(frozen=True)
class FormField:
    """One field of a form: ``kind`` is choice, int, text, bool or roster.

    ``key`` may be dotted (``stats.2PS``): the value sits in a nested object. ``of_sides``: a choice
    of a side (labelled with the sides' names). ``multiple``: a choice of several values (a list).
    ``in_game``: whether a card field can still be entered once the game is on (missing ones only).
    """

    key: str
    label: str
    kind: str
    choices: tuple[FieldChoice, ...] = ()
    default: Any = None
    minimum: int | None = None
    maximum: int | None = None
    step: int | None = None
    start: int | None = None  # where a stepper starts from "not entered"
    help: str = ""
    multiple: bool = False
    of_sides: bool = False
    in_game: bool = True
    pick: RosterPick | None = None

    def to_json(self) -> JSON:
        out = _clean({"key": self.key, "label": self.label, "kind": self.kind,
                      "choices": [c.to_json() for c in self.choices], "default": self.default,
                      "min": self.minimum, "max": self.maximum, "step": self.step, "start": self.start,
                      "help": self.help, "multiple": self.multiple, "of_sides": self.of_sides,
                      "pick": self.pick.to_json() if self.pick else None})
        if self.default is not None:
            out["default"] = self.default
        if not self.in_game:
            out["in_game"] = False
        return out


@dataclass(frozen=True)
class Calculator:
    """A question ``companion calc GAME NAME`` answers: the fields it asks for (``--stat 70``; a
    ``multiple`` field may be given several times) and ``compute(values) -> JSON``, the answer.

    Declared once, for both doors: the CLI builds its options from the fields, and a front end
    can draw the same fields as a form (``game_info`` lists them; ``compute`` stays on the table).
    """

    name: str
    summary: str
    fields: tuple[FormField, ...] = ()
    compute: Callable[[Mapping[str, Any]], JSON] | None = field(default=None, compare=False, repr=False)

    def to_json(self) -> JSON:
        return {"name": self.name, "summary": self.summary, "fields": [f.to_json() for f in self.fields]}
