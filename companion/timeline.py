"""A game's history as a stack of states, with undo and redo that are themselves recorded.

The log is a list of entries, each a JSON object with a ``kind``:

- ``{"kind": "setup", "options": {...}}`` always first;
- ``{"kind": "command", "command": {...}, "events": [...]}`` for every accepted command;
- ``{"kind": "undo"}`` and ``{"kind": "redo"}``.

State is the fold of ``apply`` over the events of the commands still in effect, so undo, redo
and crash recovery are all "replay" (HOUSE_STYLE). The timeline keeps the state after every
command in effect (python-chess's move stack) so undo is a pop, not a replay.

>>> from companion.games import all_games
>>> t = Timeline(all_games()[0])
>>> t.can_undo
False
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from companion.errors import RuleError
from companion.game import JSON, Game


@dataclass
class Timeline:
    """The states of one game: ``states[0]`` after setup, one more per command in effect."""

    game: Game
    states: list[Any] = field(default_factory=list)
    done: list[JSON] = field(default_factory=list)  # command entries in effect, oldest first
    undone: list[JSON] = field(default_factory=list)  # redo stack, most recently undone last

    @property
    def state(self) -> Any:
        if not self.states:
            raise RuleError("the game has not been set up yet")
        return self.states[-1]

    @property
    def can_undo(self) -> bool:
        return bool(self.done)

    @property
    def can_redo(self) -> bool:
        return bool(self.undone)

    # Each step is split in two: ``plan_*`` decides without changing anything (so the entry can be
    # written to disk first), ``commit`` then makes it current. That order is what makes a pulled
    # plug lose nothing that was shown.

    def plan_setup(self, options: Mapping[str, Any]) -> tuple[JSON, Any]:
        state = self.game.setup(options)
        return {"kind": "setup", "options": dict(options)}, state

    def plan_command(self, command: Mapping[str, Any]) -> tuple[JSON, Any]:
        if self.game.outcome(self.state) is not None:
            raise RuleError("the game is over: undo to change the result, or start a new game")
        new_state, events = self.game.run(self.state, command)
        return {"kind": "command", "command": dict(command), "events": events}, new_state

    def plan_undo(self) -> tuple[JSON, Any]:
        if not self.done:
            raise RuleError("nothing to undo: this is the start of the game")
        return {"kind": "undo"}, self.states[-2]

    def plan_redo(self) -> tuple[JSON, Any]:
        if not self.undone:
            raise RuleError("nothing to redo")
        entry = self.undone[-1]
        state = self.state
        for event in entry["events"]:
            state = self.game.apply(state, event)
        return {"kind": "redo"}, state

    def commit(self, entry: JSON, new_state: Any) -> None:
        kind = entry["kind"]
        if kind == "setup":
            self.states, self.done, self.undone = [new_state], [], []
        elif kind == "command":
            self.states.append(new_state)
            self.done.append(entry)
            self.undone.clear()
        elif kind == "undo":
            self.states.pop()
            self.undone.append(self.done.pop())
        elif kind == "redo":
            self.states.append(new_state)
            self.done.append(self.undone.pop())
        else:  # pragma: no cover - entries come from this module
            raise ValueError(f"unknown log entry kind {kind!r}")

    def record(self, entry: JSON) -> None:
        """Re-apply one stored entry (restore): events are applied, never re-decided."""
        kind = entry["kind"]
        if kind == "setup":
            self.commit(entry, self.game.setup(entry["options"]))
        elif kind == "command":
            state = self.state
            for event in entry["events"]:
                state = self.game.apply(state, event)
            self.commit(entry, state)
        elif kind == "undo":
            self.commit(*self.plan_undo())
        elif kind == "redo":
            self.commit(*self.plan_redo())
        else:
            raise ValueError(f"unknown log entry kind {kind!r}")

    @classmethod
    def replay(cls, game: Game, entries: Iterable[JSON]) -> Timeline:
        timeline = cls(game)
        for entry in entries:
            timeline.record(entry)
        return timeline

    def history(self) -> list[JSON]:
        """The commands in effect, oldest first, with the events each produced."""
        return list(self.done)
