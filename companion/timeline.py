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

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from companion.errors import RuleError
from companion.game import JSON, Game
from companion.snapshots import CHECKPOINT_EVERY

_UNKNOWN: Any = object()  # a state not rebuilt yet (after a restore from a snapshot)


class EntrySource(Protocol):
    """Where a restored timeline finds what its snapshot left out (``companion.session`` uses the store)."""

    def entries(self, seqs: Sequence[int]) -> list[JSON]:
        """The log entries at these positions, in that order."""

    def checkpoint(self, seq: int) -> Any | None:
        """The state after command entry ``seq`` if one was saved (and is usable), else None."""


@dataclass
class Timeline:
    """The states of one game: ``states[0]`` after setup, one more per command in effect.

    Each command in effect is known by its log position (``done_seqs``). A timeline restored from
    a snapshot (``Timeline.restore``) knows only the head state and those positions; the states
    under it and the entries themselves come from its ``source`` when an undo, a redo or the
    history needs them, a checkpoint's worth at a time.
    """

    game: Game
    source: EntrySource | None = None
    seq: int = -1  # log position of the last entry recorded or committed
    done_seqs: list[int] = field(default_factory=list, repr=False)
    undone_seqs: list[int] = field(default_factory=list, repr=False)  # redo stack, most recently undone last
    _states: list[Any] = field(default_factory=list, repr=False)
    _done: list[JSON | None] = field(default_factory=list, repr=False)
    _undone: list[JSON | None] = field(default_factory=list, repr=False)

    @classmethod
    def restore(cls, game: Game, source: EntrySource, seq: int, state: Any,
                done_seqs: list[int], undone_seqs: list[int]) -> Timeline:
        """The timeline as it was after log entry ``seq`` (a head snapshot), nothing replayed."""
        depth = len(done_seqs)
        return cls(game, source, seq, list(done_seqs), list(undone_seqs),
                   [_UNKNOWN] * depth + [state], [None] * depth, [None] * len(undone_seqs))

    @property
    def state(self) -> Any:
        if not self._states:
            raise RuleError("the game has not been set up yet")
        return self._state_at(len(self._states) - 1)

    @property
    def states(self) -> list[Any]:
        """Every state in effect, oldest first (rebuilt from the source if restored from a snapshot)."""
        self._load(self._done, self.done_seqs, range(len(self._done)))
        return [self._state_at(depth) for depth in range(len(self._states))]

    @property
    def done(self) -> list[JSON]:
        """Command entries in effect, oldest first."""
        return self._load(self._done, self.done_seqs, range(len(self._done)))

    def last_done(self) -> JSON | None:
        """The newest command entry in effect (what an undo would take back), read alone."""
        if not self._done:
            return None
        return self._load(self._done, self.done_seqs, [len(self._done) - 1])[-1]

    @property
    def undone(self) -> list[JSON]:
        return self._load(self._undone, self.undone_seqs, range(len(self._undone)))

    @property
    def can_undo(self) -> bool:
        return bool(self._done)

    @property
    def can_redo(self) -> bool:
        return bool(self._undone)

    # Each step is split in two: ``plan_*`` decides without changing anything (so the entry can be
    # written to disk first), ``commit`` then makes it current. That order is what makes a pulled
    # plug lose nothing that was acknowledged.

    def plan_setup(self, options: Mapping[str, Any]) -> tuple[JSON, Any]:
        state = self.game.setup(options)
        return {"kind": "setup", "options": dict(options)}, state

    def plan_command(self, command: Mapping[str, Any]) -> tuple[JSON, Any]:
        if self.game.outcome(self.state) is not None:
            raise RuleError("the game is over: undo to change the result, or start a new game")
        new_state, events = self.game.run(self.state, command)
        return {"kind": "command", "command": dict(command), "events": events}, new_state

    def plan_undo(self) -> tuple[JSON, Any]:
        if not self._done:
            raise RuleError("nothing to undo: this is the start of the game")
        return {"kind": "undo"}, self._state_at(len(self._states) - 2)

    def plan_redo(self) -> tuple[JSON, Any]:
        """Redo re-applies the stored events: the rules are not run again."""
        if not self._undone:
            raise RuleError("nothing to redo")
        entry = self._load(self._undone, self.undone_seqs, [len(self._undone) - 1])[-1]
        return {"kind": "redo"}, self._apply_events(self.state, entry)

    def commit(self, entry: JSON, new_state: Any) -> None:
        kind = entry["kind"]
        if kind == "setup":
            self._states, self._done, self._undone = [new_state], [], []
            self.done_seqs, self.undone_seqs = [], []
        elif kind == "command":
            self._states.append(new_state)
            self._done.append(entry)
            self.done_seqs.append(self.seq + 1)
            self._undone.clear()
            self.undone_seqs.clear()
        elif kind == "undo":
            self._states.pop()
            self._undone.append(self._done.pop())
            self.undone_seqs.append(self.done_seqs.pop())
        elif kind == "redo":
            self._states.append(new_state)
            self._done.append(self._undone.pop())
            self.done_seqs.append(self.undone_seqs.pop())
        else:  # pragma: no cover - entries come from this module
            raise ValueError(f"unknown log entry kind {kind!r}")
        self.seq += 1

    def record(self, entry: JSON) -> None:
        """Re-apply one stored entry (restore): events are applied, never re-decided."""
        kind = entry["kind"]
        if kind == "setup":
            self.commit(entry, self.game.setup(entry["options"]))
        elif kind == "command":
            self.commit(entry, self._apply_events(self.state, entry))
        elif kind == "undo":
            if not self._done:
                raise RuleError("nothing to undo: this is the start of the game")
            # The state under it is rebuilt only when something reads it: a restored tail of undo
            # walks costs nothing until the head is shown.
            self.commit(entry, None)
        elif kind == "redo":
            self.commit(*self.plan_redo())
        else:
            raise ValueError(f"unknown log entry kind {kind!r}")

    @classmethod
    def replay(cls, game: Game, entries: Iterable[JSON], source: EntrySource | None = None) -> Timeline:
        timeline = cls(game, source)
        for entry in entries:
            timeline.record(entry)
        return timeline

    def history(self) -> list[JSON]:
        """The commands in effect, oldest first, with the events each produced."""
        return list(self.done)

    def _apply_events(self, state: Any, entry: JSON) -> Any:
        for event in entry["events"]:
            state = self.game.apply(state, event)
        return state

    def _load(self, entries: list[JSON | None], seqs: list[int], wanted: Iterable[int]) -> list[JSON]:
        """Fill the entries at these indexes from the source (one read for all the missing ones)."""
        missing = [i for i in wanted if entries[i] is None]
        if missing:
            if self.source is None:  # pragma: no cover - only restored timelines have holes
                raise RuntimeError("a restored timeline needs its source")
            for i, entry in zip(missing, self.source.entries([seqs[i] for i in missing]), strict=True):
                entries[i] = entry
        return entries  # type: ignore[return-value]

    def _state_at(self, depth: int) -> Any:
        """The state with ``depth`` commands in effect, rebuilt from the nearest known one below."""
        states = self._states
        if states[depth] is not _UNKNOWN:
            return states[depth]
        base = depth
        while states[base] is _UNKNOWN:
            if base == 0:
                assert self.source is not None
                states[0] = self.game.setup(self.source.entries([0])[0]["options"])
            elif base % CHECKPOINT_EVERY == 0 and self.source is not None:
                found = self.source.checkpoint(self.done_seqs[base - 1])
                if found is not None:
                    states[base] = found
                    continue
                base -= 1
            else:
                base -= 1
        self._load(self._done, self.done_seqs, range(base, depth))
        for level in range(base + 1, depth + 1):
            states[level] = self._apply_events(states[level - 1], self._done[level - 1])  # type: ignore[arg-type]
        return states[depth]
