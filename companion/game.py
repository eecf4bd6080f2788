"""What a game is: one declaration of plain functions, plus the small views every front end shows.

A game (boardgame.io's ``Game``, python-chess's variants) is data plus pure functions:

- ``setup(options) -> state``
- ``decide(state, command) -> events`` validates a command and says what happened, or raises
  ``RuleError``; it never changes anything;
- ``apply(state, event) -> state`` is pure and deterministic, so state is always the replay of
  the event log;
- ``outcome(state)`` is ``None`` while the game goes on;
- ``scoreboard(state)`` is the handful of fields an OLED shows;
- ``prompt(state)`` tells the table what to do next (who acts, which die, the target and chance);
- ``view(state)`` is the whole state as JSON for the kiosk, ``companion replay`` and exports.

Commands and events are JSON objects with a ``type``. Dice results are inputs (the players roll
real dice), so ``decide`` never draws a random number.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass, field
from fractions import Fraction
from typing import Any

JSON = dict[str, Any]


@dataclass(frozen=True)
class Term:
    """One named number in a target: ``Term("dribble", 15)``."""

    label: str
    value: int

    def __repr__(self) -> str:
        return f"{self.label} {self.value:+d}"


@dataclass(frozen=True)
class Target:
    """A target number with its breakdown: stat + bonuses - defense = target.

    >>> t = Target("3PS Muy Schillato", 70, (Term("dribble", 15),), (Term("D3 Edd Trapp", 30),))
    >>> t.value, t.text
    (55, '70 (3PS Muy Schillato) + 15 (dribble) - 30 (D3 Edd Trapp) = 55')
    """

    stat_label: str
    stat: int
    bonuses: tuple[Term, ...] = ()
    defense: tuple[Term, ...] = ()

    @property
    def value(self) -> int:
        return self.stat + sum(t.value for t in self.bonuses) - sum(t.value for t in self.defense)

    @property
    def text(self) -> str:
        parts = [f"{self.stat} ({self.stat_label})"]
        parts += [f"{'+' if t.value >= 0 else '-'} {abs(t.value)} ({t.label})" for t in self.bonuses]
        parts += [f"{'-' if t.value >= 0 else '+'} {abs(t.value)} ({t.label})" for t in self.defense]
        return " ".join(parts) + f" = {self.value}"

    def to_json(self) -> JSON:
        return {"stat_label": self.stat_label, "stat": self.stat,
                "bonuses": [asdict(t) for t in self.bonuses],
                "defense": [asdict(t) for t in self.defense],
                "target": self.value, "text": self.text}


@dataclass(frozen=True)
class Choice:
    """One fully formed command the table may send now, with the words a player reads.

    Buttons and the encoder dial through these; the kiosk shows them as buttons.
    """

    label: str
    command: JSON

    def to_json(self) -> JSON:
        return {"label": self.label, "command": dict(self.command)}


@dataclass(frozen=True)
class Prompt:
    """What the table must do next.

    ``die`` names the die expected (``d20x5``, ``d8foul``...) or is ``None`` when a choice, not a
    roll, is awaited, and ``faces`` lists what that die shows in this game (the foul die's blank
    count is a game option). ``automatic`` means the game resolves without a roll. ``commands``
    lists the command types legal now; ``choices`` spells out the common ones as ready-made
    commands (the encoder and the kiosk offer exactly these).
    """

    side: int | None
    text: str
    commands: tuple[str, ...]
    die: str | None = None
    target: Target | None = None
    p_success: Fraction | None = None
    expected_points: Fraction | None = None
    automatic: bool = False
    choices: tuple[Choice, ...] = ()
    faces: tuple[int | str, ...] = ()  # the awaited die's faces, repeats included (three blanks)

    def to_json(self) -> JSON:
        return {"side": self.side, "text": self.text, "commands": list(self.commands), "die": self.die,
                "faces": list(self.faces),
                "choices": [c.to_json() for c in self.choices],
                "target": self.target.to_json() if self.target else None,
                "p_success": float(self.p_success) if self.p_success is not None else None,
                "expected_points": (float(self.expected_points)
                                    if self.expected_points is not None else None),
                "automatic": self.automatic}


@dataclass(frozen=True)
class SideView:
    name: str
    score: int
    team_fouls: int = 0
    bonus: bool = False
    extra: str = ""


@dataclass(frozen=True)
class ScoreboardView:
    """The few fields a 128x64 OLED shows, the same shape for every game.

    ``lead`` is set by games that keep one signed score (Crunch Time) instead of a score per side.
    """

    game: str
    sides: tuple[SideView, ...]
    period: str
    clock: str
    possession: int | None = None
    target: int | None = None
    message: str = ""
    lead: int | None = None
    final: bool = False

    def to_json(self) -> JSON:
        return asdict(self)


@dataclass(frozen=True)
class Outcome:
    """How a game ended: ``winner`` is a side index, or ``None`` for a draw."""

    winner: int | None
    reason: str


@dataclass(frozen=True)
class CommandSpec:
    """One command a game accepts, with an example (the game's section of docs/commands.md lists them)."""

    type: str
    summary: str
    example: JSON
    fields: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Game:
    """A game declaration. Every function is pure and importable on its own."""

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
    frontend: Any = None  # a companion.frontend.Frontend: setup/card forms, panels... (the game_info op)

    def __repr__(self) -> str:
        return f"Game({self.name!r})"

    def run(self, state: Any, command: Mapping[str, Any]) -> tuple[Any, list[JSON]]:
        """Decide and apply one command: the new state and the events that produced it."""
        events = self.decide(state, command)
        for event in events:
            state = self.apply(state, event)
        return state, events
