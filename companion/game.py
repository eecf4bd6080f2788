"""What a game is: one declaration of plain functions, plus the small views every front end shows.

A game (boardgame.io's ``Game``, python-chess's variants) is data plus pure functions:

- ``setup(options) -> state``
- ``decide(state, command) -> events`` validates a command and says what happened, or raises
  ``RuleError``; it never changes anything;
- ``apply(state, event) -> state`` is pure and deterministic, so state is always the replay of
  the event log;
- ``play(state, command) -> (state, events)`` (optional) is ``decide`` and ``apply`` in one step,
  for a game whose ``decide`` has to resolve the command to say what happened: the engine keeps
  that resolved state instead of applying the events again (it must be the state ``apply`` gives);
- ``outcome(state)`` is ``None`` while the game goes on;
- ``scoreboard(state)`` is the handful of fields an OLED shows (``companion.board``);
- ``prompt(state)`` tells the table what to do next (who acts, which die and success rule, the
  spread of outcomes, sealed or race input);
- ``view(state)`` is the whole state as JSON for the kiosk, ``companion replay`` and exports.

Beside the functions, the declaration carries the game's dice, its command specs
(``companion.commands``), its side count, its calculators and a demo script the conformance
suite plays (docs/adding-a-game.md).

Commands and events are JSON objects with a ``type``. Dice results are inputs (the players roll
real dice), so ``decide`` never draws a random number.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from dataclasses import field as dataclass_field
from fractions import Fraction
from typing import Any

from companion.board import Counter, Lead, ScoreboardView, SideView
from companion.commands import CommandSpec, Field
from companion.dice import Die
from companion.outcome import Outcome
from companion.success import AtLeast, AtMost, Lookup, Pool, RollInfo, Row, fraction_float
from companion.target import Target, Term, counted_once  # apart, so a calculator needs no engine

JSON = dict[str, Any]
__all__ = ["JSON", "AtLeast", "AtMost", "Choice", "CommandSpec", "Counter", "Field", "Game",
           "Lead", "Lookup", "Outcome", "Pool", "Prompt", "Race", "RollInfo", "Row", "ScoreboardView",
           "Sealed", "SideView", "Target", "Term"]


def _float(value: Fraction | None) -> float | None:
    return None if value is None else fraction_float(value)


@dataclass(frozen=True)
class Choice:
    """One fully formed command the table may send now, with the words a player reads.

    Buttons and the encoder dial through these; the kiosk shows them as buttons. A choice may
    carry its own odds (``p_success``, ``expected_points``) and a short ``hint`` ("55 or less").
    ``side`` names the side that makes it when that is not the prompt's side (an attacker's next card
    offered while the defender may still counter: playing it answers "no counter").
    """

    label: str
    command: JSON
    p_success: Fraction | None = None
    expected_points: Fraction | None = None
    hint: str = ""
    side: int | None = None

    def to_json(self) -> JSON:
        return self._json

    @counted_once
    def _json(self) -> JSON:
        # Written once per choice: a game that offers the same choice from state to state (the same
        # card at the same odds) shares its JSON, read only as every snapshot is.
        out = {"label": self.label, "command": dict(self.command), "p_success": _float(self.p_success),
               "expected_points": _float(self.expected_points), "hint": self.hint}
        if self.side is not None:
            out["side"] = self.side
        return out


@dataclass(frozen=True)
class Sealed:
    """Secret input: ``sides`` must each enter a value in ``field`` before the game reveals them all.

    ``command`` is the command type that carries it (its spec declares the field sealed).
    """

    sides: tuple[int, ...]
    entered: tuple[int, ...]
    command: str
    field: str = "amount"
    min: int = 0
    max_by_side: Mapping[int, int] = dataclass_field(default_factory=dict)

    def to_json(self) -> JSON:
        return {"sides": list(self.sides), "entered": list(self.entered), "command": self.command,
                "field": self.field, "min": self.min,
                "max_by_side": {str(k): v for k, v in self.max_by_side.items()}}


@dataclass(frozen=True)
class Race:
    """Race input: the first of ``sides`` to press wins; a tie within ``window_ms`` goes to
    ``tie_breaker``. The controls send ``command`` with ``order`` and the press times.

    ``tie_breaker`` is ``None`` when nobody holds it yet: a tie is then sent as such (``tie``, the
    order by time) and the game says what it means. ``tempo_ms``: the front ends beat a steady
    tempo (a flash, an LED, the buzzer) every so many ms, so the sides roll in step.
    """

    sides: tuple[int, ...]
    tie_breaker: int | None
    command: str
    window_ms: int = 60
    label: str = "first to press"
    tempo_ms: int | None = None

    def to_json(self) -> JSON:
        return {"sides": list(self.sides), "tie_breaker": self.tie_breaker, "command": self.command,
                "window_ms": self.window_ms, "label": self.label, "tempo_ms": self.tempo_ms}


@dataclass(frozen=True)
class MissingCard:
    """A play the rules would offer but can't, because ``card`` of ``side`` lacks a value (``text``
    says which): the kiosk says so and opens that card's editor."""

    side: int
    card: str
    text: str

    def to_json(self) -> JSON:
        return {"side": self.side, "card": self.card, "text": self.text}


@dataclass(frozen=True)
class Prompt:
    """What the table must do next.

    ``roll`` is the awaited die with its success rule (``None`` when a choice, not a roll, is
    awaited); from it come ``die``, ``faces`` (repeats included: three blanks), ``die_info``,
    ``face_marks`` and ``outcomes`` in the JSON. ``automatic`` means the game resolves without a
    roll. ``commands`` lists the command types legal now; ``choices`` spells out the common ones as
    ready-made commands (the encoder and the kiosk offer exactly these). ``sealed`` and ``race``
    ask for secret or first-to-press input.
    """

    side: int | None
    text: str
    commands: tuple[str, ...]
    roll: RollInfo | None = None
    target: Target | None = None
    p_success: Fraction | None = None
    expected_points: Fraction | None = None
    automatic: bool = False
    choices: tuple[Choice, ...] = ()
    sealed: Sealed | None = None
    race: Race | None = None
    missing_cards: tuple[MissingCard, ...] = ()

    @property
    def die(self) -> str | None:
        return None if self.roll is None else self.roll.die.name

    @property
    def faces(self) -> tuple[int | str, ...]:
        return () if self.roll is None else self.roll.die.faces

    def to_json(self) -> JSON:
        roll = self.roll
        die_info, face_marks, outcomes = (None, [], []) if roll is None else roll.json_parts()
        return {"side": self.side, "text": self.text, "commands": list(self.commands), "die": self.die,
                "faces": list(self.faces), "die_info": die_info, "face_marks": face_marks,
                "outcomes": outcomes,
                "pool": None if roll is None or roll.pool is None else roll.pool.to_json(),
                "choices": [c.to_json() for c in self.choices],
                "target": self.target.to_json() if self.target else None,
                "p_success": _float(self.p_success), "expected_points": _float(self.expected_points),
                "automatic": self.automatic,
                "sealed": None if self.sealed is None else self.sealed.to_json(),
                "race": None if self.race is None else self.race.to_json(),
                **({"missing_cards": [m.to_json() for m in self.missing_cards]}
                   if self.missing_cards else {})}


@dataclass(frozen=True)
class Game:
    """A game declaration. Every function is pure and importable on its own.

    ``dice`` are the game's own dice (names the dice tray and the CLI use); ``commands`` one spec
    per command type; ``sides`` the (min, max) number of sides; ``demo_script(options)`` gives
    setup options and a list of commands that play part of a game (the conformance suite and
    the fuzzers drive the game with it).
    """

    name: str
    title: str
    aliases: tuple[str, ...]
    setup: Callable[[Mapping[str, Any]], Any]
    decide: Callable[[Any, Mapping[str, Any]], list[JSON]]
    apply: Callable[[Any, JSON], Any]
    outcome: Callable[[Any], Outcome | None]
    scoreboard: Callable[[Any], ScoreboardView]
    prompt: Callable[[Any], Prompt]
    view: Callable[[Any], JSON]
    commands: tuple[CommandSpec, ...] = ()
    dice: tuple[Die, ...] = ()
    sides: tuple[int, int] = (2, 2)
    demo_script: Callable[[], tuple[JSON, list[JSON]]] | None = None
    frontend: Any = None  # a companion.frontend.Frontend: setup/card forms, panels... (the game_info op)
    play: Callable[[Any, Mapping[str, Any]], tuple[Any, list[JSON]]] | None = None

    def __repr__(self) -> str:
        return f"Game({self.name!r})"

    def run(self, state: Any, command: Mapping[str, Any]) -> tuple[Any, list[JSON]]:
        """Decide and apply one command: the new state and the events that produced it.

        One resolve per command: a game that declares ``play`` hands back the state its decision
        already computed; replay (restore, redo) still folds ``apply`` over the stored events."""
        if self.play is not None:
            return self.play(state, command)
        events = self.decide(state, command)
        for event in events:
            state = self.apply(state, event)
        return state, events

    def die(self, name: str) -> Die | None:
        """The game's die called ``name`` (``None`` if the game has no such die)."""
        return next((d for d in self.dice if d.name == name), None)

    def command_spec(self, kind: str) -> CommandSpec | None:
        return next((c for c in self.commands if c.type == kind), None)

    def describe(self) -> JSON:
        """The declaration as JSON, for clients that must not import a game (the kiosk)."""
        return {"name": self.name, "title": self.title, "aliases": list(self.aliases),
                "sides": {"min": self.sides[0], "max": self.sides[1]},
                "dice": [d.to_json() for d in self.dice],
                "commands": [c.describe() for c in self.commands],
                "calculators": [c.to_json() for c in getattr(self.frontend, "calculators", ())]}

    def sealed_fields(self, kind: object) -> tuple[str, ...]:
        spec = self.command_spec(kind) if isinstance(kind, str) else None
        return () if spec is None else spec.sealed
