"""A session owns one game: it checks a command, shows and makes it durable, then makes it current.

The order is the whole point: decide (nothing changes on a refusal) -> render the new state's
scoreboard, prompt and view (a state that cannot be shown is never written) -> hand them to whoever
shows a result while it is written (``handle``'s ``on_decided``: the table's OLEDs) -> append to the
store (a pulled plug after this loses nothing) -> make it current. The table service then publishes
the snapshot (kiosk, OLED, LEDs): everything acknowledged follows the append.

>>> import tempfile, pathlib
>>> from companion.store import Store
>>> store = Store.open(pathlib.Path(tempfile.mkdtemp()) / "t.db")
>>> session = Session.new(store, "some-game", {})  # doctest: +SKIP
"""

from __future__ import annotations

import json
import logging
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from companion.errors import CommandError, RuleError, StoreError
from companion.game import JSON, Game, ScoreboardView
from companion.games import find_game
from companion.sealed import mask_done
from companion.snapshots import (
    CHECKPOINT_EVERY,
    SNAPSHOT_EVERY,
    SnapshotUnusable,
    dump_head,
    dump_state,
    load_head,
    load_state,
    snapshot_tag,
)
from companion.store import Snapshots, Store
from companion.timeline import Timeline

logger = logging.getLogger(__name__)

MAX_JSON_DEPTH = 32  # a table request nests a few levels (options > sides > cards > skills); never 32


def parse_json_object(line: str | bytes) -> JSON:
    """One line of JSON that must hold an object; the error says what is wrong with it.

    Nesting deeper than ``MAX_JSON_DEPTH`` and integers too long for Python to read (over 4,300
    digits) are refused like any other malformed line, never a RecursionError or a bare ValueError.

    >>> parse_json_object('{"n": ' + '9' * 5000 + '}')
    Traceback (most recent call last):
    ...
    companion.errors.CommandError: not valid JSON: a number with more than 4300 digits
    """
    if isinstance(line, bytes):
        try:
            line = line.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise CommandError(f"not UTF-8 text: {exc}") from exc
    if _depth_over(line, MAX_JSON_DEPTH):
        raise CommandError(f"not a table request: JSON nested more than {MAX_JSON_DEPTH} levels deep")
    try:
        value = json.loads(line)
    except json.JSONDecodeError as exc:
        shown = line if len(line) <= 60 else line[:57] + "..."
        raise CommandError(f"not valid JSON ({exc.msg} at column {exc.colno}): {shown!r}") from exc
    except RecursionError as exc:  # the depth scan above should make this unreachable
        raise CommandError("not a table request: JSON nested too deeply") from exc
    except ValueError as exc:
        # Python refuses to read integers of more than sys.get_int_max_str_digits() digits.
        raise CommandError(f"not valid JSON: a number with more than {sys.get_int_max_str_digits()} "
                           "digits") from exc
    if not isinstance(value, dict):
        raise CommandError(f"a command is a JSON object with a \"type\", not {type(value).__name__}")
    return value


def _depth_over(text: str, limit: int) -> bool:
    """Do brackets outside strings nest deeper than ``limit``? (Before parsing: a RecursionError can
    come from anywhere once a deep value is inside the program.)"""
    if text.count("[") + text.count("{") <= limit:
        return False
    depth = 0
    in_string = escaped = False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            if depth > limit:
                return True
        elif char in "]}":
            depth -= 1
    return False


def parse_command(line: str | bytes) -> JSON:
    """Turn one line of JSON into a command object, or say exactly what is wrong with it.

    >>> parse_command('{"type": "undo"}')
    {'type': 'undo'}
    >>> parse_command('{"type": ')
    Traceback (most recent call last):
    ...
    companion.errors.CommandError: not valid JSON (Expecting value at column 10): '{"type": '
    """
    return check_command(parse_json_object(line))


def check_command(value: Any) -> JSON:
    if not isinstance(value, dict):
        raise CommandError(f"a command is a JSON object with a \"type\", not {type(value).__name__}")
    kind = value.get("type")
    if not isinstance(kind, str) or not kind:
        raise CommandError("a command needs a \"type\" (a string), e.g. {\"type\": \"undo\"}")
    return value


@dataclass(frozen=True)
class _Due:
    """Snapshots due after entry ``seq``: its state, the done and undone seqs after it when a head
    is due, and whether a checkpoint is."""

    seq: int
    state: Any
    seqs: tuple[list[int], list[int]] | None
    checkpoint: bool


class Session:
    """One game in play, backed by the store. Used from the single thread that owns the table."""

    def __init__(self, store: Store, game_id: int, game: Game, timeline: Timeline) -> None:
        self.store = store
        self.game_id = game_id
        self.game = game
        self.timeline = timeline
        self.seq = 0  # seq of the last entry written for this game
        self.last_origin: str | None = None  # the ``origin`` of the last entry written, if any
        self._shown: JSON | None = None  # the rendered view of the current state
        self._due: _Due | None = None  # snapshots due after the last entry, not yet written
        # Hashing the game's and the engine's source takes milliseconds the first time in a process:
        # done as the game is opened, not on the press that writes its first snapshot.
        self._tag = snapshot_tag(game)

    @classmethod
    def new(cls, store: Store, game: Game | str, options: Mapping[str, Any]) -> Session:
        game = find_game(game) if isinstance(game, str) else game
        timeline = Timeline(game)
        entry, state = timeline.plan_setup(options)
        game_id = store.create_game(game.name, entry, _summary(game.scoreboard(state).to_json()))
        timeline.commit(entry, state)
        return cls(store, game_id, game, timeline)

    @classmethod
    def resume(cls, store: Store, game_id: int,
               find: Callable[[str], Game] = find_game) -> Session:
        """The game as its log left it: from the head snapshot plus the entries after it when the
        snapshot is usable (at most ``SNAPSHOT_EVERY`` entries replayed, twice that when the last one
        due was never written), else the whole log."""
        record = store.game(game_id)
        game = find(record.game)
        source = StoreSource(store, game_id, game)
        restored = _from_snapshot(store, game_id, game, source)
        if restored is None:
            entries = store.entries(game_id)
            timeline = Timeline.replay(game, entries, source)
            last = entries[-1]
        else:
            timeline, last = restored
        session = cls(store, game_id, game, timeline)
        session.seq = timeline.seq
        session.last_origin = last.get("origin")
        return session

    @property
    def state(self) -> Any:
        return self.timeline.state

    def handle(self, command: Mapping[str, Any],
               on_decided: Callable[[ScoreboardView, JSON], None] | None = None) -> JSON:
        """Apply one command (or undo / redo). Refusals raise and leave everything unchanged.

        ``on_decided`` is given the new state's scoreboard and the snapshot it will make current as
        soon as they are rendered, before its entry is written (the OLEDs show a press's result and
        the next choice without waiting for the disk, as not recorded yet); when the entry then
        cannot be written, the error is raised, so whoever showed it must show the current state
        again. A state whose scoreboard, prompt or view fails to render raises before anything is
        shown or written.

        A command may name its ``origin`` (``"tray:17:d20:15"``: the dice tray's line 17): it is
        kept in the log entry, not given to the game, and the snapshot's ``last_origin`` shows the
        last entry's, so a sender that never got its answer (the service died between the commit
        and the reply) can tell after a restart that its command was recorded.
        """
        command = check_command(dict(command))
        origin = command.pop("origin", None)
        if origin is not None and (not isinstance(origin, str) or not 0 < len(origin) <= 80):
            got = f"{len(origin)} characters" if isinstance(origin, str) else type(origin).__name__
            raise CommandError(f"origin must be a text of 1 to 80 characters, not {got}")
        kind = command["type"]
        if kind == "undo":
            entry, new_state = self.timeline.plan_undo()
        elif kind == "redo":
            entry, new_state = self.timeline.plan_redo()
        elif kind == "setup":
            raise RuleError("this game is already set up: start a new game to change its setup")
        else:
            entry, new_state = self.timeline.plan_command(command)
        if origin is not None:
            entry = {**entry, "origin": origin}
        # Everything shown of the new state (the scoreboard the entry's row keeps, the prompt, the
        # view) is game code run before anything is written: a state that cannot be shown is never
        # recorded, and whoever shows it (the OLEDs) need not wait for the disk.
        board = self.game.scoreboard(new_state)
        scoreboard = board.to_json()
        outcome = self.game.outcome(new_state)
        shown = self._render_view(new_state, scoreboard, outcome)
        if on_decided is not None:
            # The OLEDs draw it, then the commit waits for the disk: a press's frame, the next
            # choice's words included, no longer waits for the disk's slowest syncs.
            try:
                on_decided(board, self._provisional(entry["kind"], shown, origin))
            except Exception:  # noqa: BLE001 - showing early is a courtesy: the command goes on
                logger.exception("showing game %s entry %d early failed", self.game_id, self.seq + 1)
        status = "finished" if outcome is not None else "playing"
        summary, carried = _summary(scoreboard), self._take_due()
        try:
            self.store.append(self.game_id, self.seq + 1, entry, summary, status, carried)
        except StoreError as refused:
            if carried is None:
                raise
            # The snapshot (of the entry before) must never cost the entry: it goes, the entry is tried
            # alone, and what that says (the disk is full, the file was replaced) is the answer.
            logger.warning("game %s: the snapshot at entry %d was not saved (%s); restores replay from "
                           "the one before", self.game_id, carried.seq, refused)
            self.store.append(self.game_id, self.seq + 1, entry, summary, status, None)
        self.seq += 1
        self.last_origin = origin
        self.timeline.commit(entry, new_state)
        self._shown = shown
        self._due = self._due_after(entry["kind"], new_state)
        return self.snapshot()

    # Snapshots are pickled and written after the press that made them due: by ``save_snapshots``
    # when the table is idle (``TableService``), else beside the next entry. Pickling a state is
    # some ten times a command's own work, and inside the press it set the slowest presses' time.
    # Until they are written a restore starts from the snapshot before (it replays more, no more).

    def _due_after(self, kind: str, state: Any) -> _Due | None:
        """The snapshots the entry just made current makes due (every ``SNAPSHOT_EVERY`` entries, every
        ``CHECKPOINT_EVERY`` depths), with what they read; None when none is."""
        head_due = self.seq % SNAPSHOT_EVERY == 0
        checkpoint_due = kind == "command" and len(self.timeline.done_seqs) % CHECKPOINT_EVERY == 0
        if not head_due and not checkpoint_due:
            return None
        seqs = (list(self.timeline.done_seqs), list(self.timeline.undone_seqs)) if head_due else None
        return _Due(self.seq, state, seqs, checkpoint_due)

    @property
    def snapshots_due(self) -> bool:
        """A snapshot waits to be written (``save_snapshots``)."""
        return self._due is not None

    def save_snapshots(self) -> None:
        """Write the snapshots due now, in a transaction of their own: for an idle moment. A failure
        is logged, never raised: a snapshot only shortens a restore."""
        snapshots = self._take_due()
        if snapshots is None:
            return
        try:
            self.store.save_snapshots(self.game_id, snapshots)
        except Exception as exc:  # noqa: BLE001 - see above
            logger.warning("game %s: the snapshot at entry %d was not saved (%s: %s); restores replay "
                           "from the one before", self.game_id, snapshots.seq, type(exc).__name__, exc)

    def _take_due(self) -> Snapshots | None:
        """The due snapshots, pickled (and no longer due). One that cannot be pickled is left out."""
        due, self._due = self._due, None
        if due is None:
            return None
        tag = self._tag
        try:
            return Snapshots(due.seq,
                             head=None if due.seqs is None else (tag, dump_head(due.state, *due.seqs)),
                             checkpoint=(tag, dump_state(due.state)) if due.checkpoint else None)
        except Exception as exc:  # noqa: BLE001 - a snapshot is an optimisation, never a reason to refuse
            logger.warning("game %s: no snapshot at entry %d (%s: %s); restores replay the log",
                           self.game_id, due.seq, type(exc).__name__, exc)
            return None

    def last_words(self) -> str:
        """The newest command in effect in the log's words ("" at the start of the game)."""
        entry = self.timeline.last_done()
        if entry is None:
            return ""
        entry = mask_done(self.game, [entry])[0]  # a sealed value stays secret until revealed
        texts = [str(e["text"]) for e in entry["events"] if e.get("text")]
        return "; ".join(dict.fromkeys(texts)) or str(entry["command"].get("type"))

    def log(self) -> list[JSON]:
        """The game so far in plain words: one line per command in effect, with the score after it.

        Line 0 is the setup. Undone commands are not in it (they are not in effect); the kiosk's
        History screen and its score-difference chart read this.
        """
        lines: list[JSON] = []
        done = mask_done(self.game, self.timeline.done)  # sealed values stay secret until revealed
        for n, state in enumerate(self.timeline.states):
            board = self.game.scoreboard(state)
            if n == 0:
                text = "game set up"
                command = None
            else:
                entry = done[n - 1]
                command = entry["command"]
                texts = [str(e["text"]) for e in entry["events"] if e.get("text")]
                text = "; ".join(dict.fromkeys(texts)) or str(command.get("type"))
            lines.append({"n": n, "text": text, "command": command, "score": [s.score for s in board.sides],
                          "lead": None if board.lead is None else board.lead.to_json(),
                          "period": board.period, "clock": board.clock})
        return lines

    def _render(self, state: Any) -> JSON:
        return self._render_view(state, self.game.scoreboard(state).to_json(), self.game.outcome(state))

    def _render_view(self, state: Any, scoreboard: JSON, outcome: Any) -> JSON:
        return {
            "view": self.game.view(state),
            "scoreboard": scoreboard,
            "prompt": self.game.prompt(state).to_json(),
            "outcome": None if outcome is None else outcome.to_json(),
        }

    def _provisional(self, kind: str, shown: JSON, origin: str | None) -> JSON:
        """The snapshot an entry of ``kind`` will make current once written (``snapshot``'s shape),
        for whoever shows it while it is written; the timeline is changed only after the write."""
        done, undone = len(self.timeline.done_seqs), len(self.timeline.undone_seqs)
        if kind == "undo":
            done, undone = done - 1, undone + 1
        elif kind == "redo":
            done, undone = done + 1, undone - 1
        else:
            done, undone = done + 1, 0
        return {"game_id": self.game_id, "game": self.game.name, "seq": self.seq + 1, **shown,
                "can_undo": done > 0, "can_redo": undone > 0, "last_origin": origin}

    def snapshot(self) -> JSON:
        """Everything a front end shows, as plain JSON; rendered once per state, shared read-only."""
        if self._shown is None:
            self._shown = self._render(self.state)
        return {"game_id": self.game_id, "game": self.game.name, "seq": self.seq, **self._shown,
                "can_undo": self.timeline.can_undo, "can_redo": self.timeline.can_redo,
                "last_origin": self.last_origin}


class StoreSource:
    """What a timeline restored from a snapshot reads lazily: entries and checkpoints of one game."""

    def __init__(self, store: Store, game_id: int, game: Game) -> None:
        self.store, self.game_id, self.game = store, game_id, game

    def entries(self, seqs: list[int]) -> list[JSON]:
        found = self.store.entries_at(self.game_id, list(seqs))
        return [found[s] for s in seqs]

    def checkpoint(self, seq: int) -> Any | None:
        saved = self.store.checkpoint(self.game_id, seq)
        if saved is None:
            return None
        try:
            return load_state(snapshot_tag(self.game), *saved)
        except SnapshotUnusable as exc:
            logger.warning("game %s: checkpoint at entry %d ignored: it %s; rebuilding from further back",
                           self.game_id, seq, exc)
            return None


def _from_snapshot(store: Store, game_id: int, game: Game,
                   source: StoreSource) -> tuple[Timeline, JSON] | None:
    """The timeline from the head snapshot and the entries after it, and the last entry; None (and a
    warning) when there is no usable snapshot, so the caller replays the whole log."""
    saved = store.head_snapshot(game_id)
    if saved is None:
        return None
    seq = saved[0]
    try:
        head = load_head(snapshot_tag(game), *saved)
        tail = store.entries_from(game_id, seq)
        if not tail or tail[0][0] != seq or [s for s, _ in tail] != list(range(seq, seq + len(tail))):
            raise SnapshotUnusable("does not match the log")
        timeline = Timeline.restore(game, source, seq, head.state, head.done_seqs, head.undone_seqs)
        for _, entry in tail[1:]:
            timeline.record(entry)
    except StoreError:
        raise  # the store itself failing is not the snapshot's fault: say so, as a full replay would
    except Exception as exc:  # noqa: BLE001 - anything else means this snapshot cannot be trusted
        logger.warning("game %s: snapshot at entry %d ignored: it %s; replaying the whole log",
                       game_id, seq, exc if isinstance(exc, SnapshotUnusable) else
                       f"does not replay ({type(exc).__name__}: {exc})")
        return None
    return timeline, tail[-1][1]


def _summary(scoreboard: JSON) -> JSON:
    """What the saved-games list shows without replaying: score (or the one signed lead and the
    game's words for it), period, clock, sides."""
    sides = scoreboard["sides"]
    summary = {"sides": [s["name"] for s in sides], "score": [s["score"] for s in sides],
               "period": scoreboard["period"], "clock": scoreboard["clock"], "final": scoreboard["final"]}
    if scoreboard.get("lead") is not None:
        summary["lead"] = scoreboard["lead"]
        summary["lead_text"] = lead_words(summary["sides"], scoreboard["lead"])
    return summary


def lead_words(names: list[str], lead: JSON) -> str:
    """One signed lead in words: "Red +7", or "tied".

    >>> names = ["Red", "Blue"]
    >>> lead_words(names, {"side": 1, "value": 7}), lead_words(names, {"side": None, "value": 0})
    ('Blue +7', 'tied')
    """
    side = lead.get("side")
    if not isinstance(side, int) or not 0 <= side < len(names) or not lead.get("value"):
        return "tied"
    return f"{names[side]} +{lead['value']}"
