"""Commands declared once: one ``CommandSpec`` per command type, with typed fields.

The same spec checks a command in ``decide`` (``from_json`` gives the canonical form or raises
``CommandError`` naming the field), writes it back (``to_json``) and writes the game's table in
docs/commands.md (``markdown_table``; a test compares the two so they can't drift).

>>> spec = CommandSpec("score", "add points", {"type": "score", "side": 0, "points": 2},
...                    (Field("side", "side", required=True), Field("points", "int", required=True)))
>>> spec.from_json({"type": "score", "side": 1, "points": 3})
{'type': 'score', 'side': 1, 'points': 3}
>>> spec.from_json({"type": "score", "side": 1})
Traceback (most recent call last):
...
companion.errors.CommandError: score needs the field 'points'
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from companion.errors import CommandError
from companion.frozen import by_identity
from companion.trials import event_key

JSON = dict[str, Any]
Check = Callable[[str, object], object]


def check_text(name: str, raw: object) -> str:
    if not isinstance(raw, str) or not raw.strip():
        raise CommandError(f"{name} must be a name, not {raw!r}")
    return raw.strip()


def check_int(name: str, raw: object) -> int:
    if isinstance(raw, bool) or not isinstance(raw, int):
        raise CommandError(f"{name} must be a whole number, not {raw!r}")
    return raw


def check_bool(name: str, raw: object) -> bool:
    if not isinstance(raw, bool):
        raise CommandError(f"{name} must be true or false, not {raw!r}")
    return raw


def check_face(name: str, raw: object) -> int | str:
    if isinstance(raw, bool) or not isinstance(raw, int | str):
        raise CommandError(f"{name} must be a die face, not {raw!r}")
    return raw


def one_of(*allowed: str) -> Check:
    """A checker accepting ``allowed`` words in any case, giving back the declared spelling."""
    spellings = {a.lower(): a for a in allowed}

    def check(name: str, raw: object) -> str:
        value = raw.strip() if isinstance(raw, str) else raw
        if isinstance(value, str):
            match = spellings.get(value.lower())
            if match is not None:
                return match
        raise CommandError(f"{name} must be one of {', '.join(allowed)}, not {raw!r}")

    check.allowed = allowed  # type: ignore[attr-defined]
    return check


def side_index(count: int = 2) -> Check:
    def check(name: str, raw: object) -> int:
        if isinstance(raw, bool) or raw not in range(count):
            allowed = " or ".join(str(i) for i in range(count)) if count <= 2 else f"0 to {count - 1}"
            raise CommandError(f"{name} must be {allowed} (the side's index), not {raw!r}")
        return int(raw)  # type: ignore[arg-type]

    return check


KINDS: dict[str, Check] = {"text": check_text, "int": check_int, "bool": check_bool, "face": check_face,
                           "side": side_index(2)}


@dataclass(frozen=True)
class Field:
    """One field of a command: ``kind`` names its type (``text``, ``int``, ``bool``, ``face``,
    ``side``, ``choice``, ``object`` or a game's own word with a ``check``).

    What a front end needs to draw the field as a form is declared here too, and the same numbers
    check the command: ``minimum`` / ``maximum`` bound a whole number, ``parts`` are an object's
    fields, ``multiple`` takes a list of ``choices``; ``options`` is a path into the game's view
    whose list holds the values a table can pick (``{side}``: the command's ``side``), for a field
    whose values depend on the game (a deck's card names).

    >>> Field("bonus", "int", minimum=-20, maximum=20).parse(21)
    Traceback (most recent call last):
    ...
    companion.errors.CommandError: bonus must be a whole number from -20 to 20, not 21
    >>> Field("adjust", "object", parts=(Field("pts", "int"),)).parse({"pts": 2})
    {'pts': 2}
    """

    name: str
    kind: str = "text"
    required: bool = False
    summary: str = ""
    choices: tuple[str, ...] = ()
    check: Check | None = None
    nullable: bool = False
    minimum: int | None = None
    maximum: int | None = None
    parts: tuple[Field, ...] = ()
    multiple: bool = False
    options: str = ""

    def parse(self, raw: object) -> object:
        if raw is None and self.nullable:
            return None
        return self._checker(self.name, raw)

    @cached_property
    def _checker(self) -> Check:
        # Built once: the prompts check every candidate command they offer.
        if self.check is not None:
            return self.check
        if self.multiple or self.parts or self.minimum is not None or self.maximum is not None:
            return self._parse_declared
        if self.choices:
            return one_of(*self.choices)
        return KINDS[self.kind]

    def _parse_declared(self, name: str, raw: object) -> object:
        if self.multiple:
            if not isinstance(raw, list) or not raw:
                raise CommandError(f"{name} must be a list, like [{', '.join(self.choices[:2])}]")
            return [Field(name, self.kind, choices=self.choices).parse(one) for one in raw]
        if self.choices:
            return one_of(*self.choices)(name, raw)
        if self.parts:
            return self._parse_parts(raw)
        value = KINDS[self.kind](name, raw)
        if isinstance(value, int) and not (
                (self.minimum is None or value >= self.minimum)
                and (self.maximum is None or value <= self.maximum)):
            low = "" if self.minimum is None else f" from {self.minimum}"
            high = "" if self.maximum is None else f" to {self.maximum}"
            raise CommandError(f"{name} must be a whole number{low}{high}, not {raw!r}")
        return value

    def _parse_parts(self, raw: object) -> JSON:
        if not isinstance(raw, Mapping):
            raise CommandError(f"{self.name} must be an object with {', '.join(p.name for p in self.parts)}")
        known = {p.name: p for p in self.parts}
        unknown = sorted(set(raw) - set(known))
        if unknown:
            raise CommandError(f"{self.name} has no field {unknown[0]!r} (known: {', '.join(known)})")
        return {key: known[key].parse(value) for key, value in raw.items()
                if value is not None or known[key].nullable}

    def type_words(self) -> str:
        words = "/".join(self.choices) if self.choices else self.kind
        return words + (" or null" if self.nullable else "")

    def to_json(self) -> JSON:
        out: JSON = {"name": self.name, "kind": "choice" if self.choices else self.kind,
                     "required": self.required, "summary": self.summary, "choices": list(self.choices),
                     "nullable": self.nullable}
        # What only a form needs is sent when declared (older clients never see new keys).
        more = {"min": self.minimum, "max": self.maximum, "options": self.options or None,
                "multiple": self.multiple or None,
                "parts": [p.to_json() for p in self.parts] or None}
        return {**out, **{k: v for k, v in more.items() if v is not None}}


@dataclass(frozen=True)
class CommandSpec:
    """One command a game accepts: its type, what it does, an example and its fields.

    ``sealed`` names the fields that stay secret until the game reveals them (a sealed bid's
    ``amount``): the session masks them in the log, exports and every client.
    ``extra_check`` runs after the fields (a rule between fields, such as "one of a or b").
    """

    type: str
    summary: str
    example: JSON
    fields: tuple[Field, ...] = ()
    sealed: tuple[str, ...] = ()
    extra_check: Callable[[JSON], None] | None = field(default=None, compare=False)
    ignored: tuple[str, ...] = ()  # fields the companion adds to events for the log: accepted, dropped

    def from_json(self, command: Mapping[str, Any]) -> JSON:
        """The checked, canonical command; unknown fields are refused by name."""
        out: JSON = {"type": self.type}
        for spec in self.fields:
            raw = command.get(spec.name)
            if raw is None:
                if spec.required:
                    raise CommandError(f"{self.type} needs the field {spec.name!r}")
                if spec.name in command and spec.nullable:
                    out[spec.name] = None
                continue
            out[spec.name] = spec.parse(raw)
        if not self._known.issuperset(command):
            unknown = sorted(set(command) - self._known)
            raise CommandError(f"{self.type} has no field {unknown[0]!r}")
        if self.extra_check is not None:
            self.extra_check(out)
        return out

    def to_json(self, command: Mapping[str, Any]) -> JSON:
        return {"type": self.type, **{k: v for k, v in command.items() if k != "type"}}

    @cached_property
    def _known(self) -> frozenset[str]:
        return frozenset({"type", *self.ignored, *(f.name for f in self.fields)})

    def describe(self) -> JSON:
        return {"type": self.type, "summary": self.summary, "example": self.example,
                "fields": [f.to_json() for f in self.fields], "sealed": list(self.sealed)}


def spec_for(specs: Iterable[CommandSpec], kind: object, game_title: str) -> CommandSpec:
    specs = tuple(specs)
    found = _by_type(specs).get(kind) if isinstance(kind, str) else None
    if found is not None:
        return found
    known = ", ".join(s.type for s in specs)
    raise CommandError(f"unknown command type {kind!r}; {game_title} knows: {known}")


def checked_once(check: Callable[[Mapping[str, Any]], JSON],
                 size: int = 1024) -> Callable[[Mapping[str, Any]], JSON]:
    """``check(command)`` (a game's spec check), remembered for the commands a game sends or offers
    again and again (a roll's face, a pass, a bid of one more dollar), by ``event_key`` (``true`` and
    ``1`` apart). The checked form is shared: read only. A command with nested values (a list, a
    card's effects) is checked afresh, so no event shares one of them with another.
    """
    memo: dict[object, JSON] = {}

    def checked(command: Mapping[str, Any]) -> JSON:
        if not isinstance(command, Mapping):
            raise CommandError("a command is a JSON object with a type")
        try:
            key = event_key(command)
        except (TypeError, ValueError):  # not plain JSON: nothing to key it by
            return check(command)
        if isinstance(key, str):  # nested values
            return check(command)
        found = memo.get(key)
        if found is None:
            found = check(command)
            if len(memo) >= size:
                memo.clear()  # a bound, not a policy: the same few commands come back soon
            memo[key] = found
        return found

    return checked


def _index_types(specs: tuple[CommandSpec, ...]) -> dict[str, CommandSpec]:
    index: dict[str, CommandSpec] = {}
    for spec in specs:
        index.setdefault(spec.type, spec)  # the first of a type, as a scan finds it
    return index


# A game's specs are one tuple for the life of the process, and every command is normalized by them.
_by_type = by_identity(_index_types, size=16)


def markdown_table(specs: Iterable[CommandSpec]) -> str:
    """The game's command table for docs/commands.md, generated from the specs."""
    import json

    lines = ["| type | what | example |", "|---|---|---|"]
    for spec in specs:
        lines.append(f"| `{spec.type}` | {spec.summary} | `{json.dumps(spec.example)}` |")
    return "\n".join(lines) + "\n"
