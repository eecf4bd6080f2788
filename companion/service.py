"""The table service: one thread owns the game; buttons, the dice tray and socket clients send it work.

Everything that wants to change the table puts a request on one queue; the owner thread takes
them in order, runs them against the session (validate -> store -> show) and publishes the new
snapshot to subscribers (socket clients, the OLED, LEDs). Slow output never runs on the owner
thread: subscribers must hand work to their own threads.

>>> import tempfile, pathlib
>>> from companion.store import Store
>>> service = TableService(Store.open(pathlib.Path(tempfile.mkdtemp()) / "t.db"))
>>> service.execute({"op": "state"})["ok"]
True
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from companion.errors import CommandError, CompanionError, RuleError, StoreError
from companion.game import JSON, Game, ScoreboardView
from companion.games import find_game
from companion.session import Session, check_command
from companion.store import Store

log = logging.getLogger(__name__)

Reply = Callable[[JSON], None]
Subscriber = Callable[[JSON], None]


def error_reply(exc: BaseException) -> JSON:
    kind = ("rule" if isinstance(exc, RuleError) else "command" if isinstance(exc, CommandError)
            else "store" if isinstance(exc, StoreError) else "internal")
    return {"ok": False, "error": str(exc), "error_kind": kind}


@dataclass
class _Work:
    request: JSON | None = None
    reply: Reply | None = None
    call: Callable[[TableService], None] | None = None


@dataclass
class TableService:
    """Owns the store and the current session; see ``docs/protocol.md`` for the requests."""

    store: Store
    session: Session | None = None
    heartbeat: Callable[[], None] | None = None  # called from the owner loop (systemd watchdog)
    heartbeat_every: float = 1.0
    status: dict[str, Any] = field(default_factory=dict)
    subscribers: list[Subscriber] = field(default_factory=list)
    extra_ops: dict[str, Callable[[TableService, JSON], JSON]] = field(default_factory=dict)
    find_game: Callable[[str], Game] = find_game
    status_sources: dict[str, Callable[[], Any]] = field(default_factory=dict)
    banner: str | None = None  # shown on the scoreboards until the next accepted command (recovery)
    # Given a command's new scoreboard and the snapshot it will make current as soon as they are
    # rendered, before its entry is written and the snapshot published: the OLEDs show a press's
    # result and the next choice at once (``ScoreboardView.saving``: not recorded yet). When the
    # entry then cannot be written the current state is published again, with the error. Called
    # on the owner thread; like subscribers, they hand slow work to their own threads.
    early_hooks: list[Callable[[ScoreboardView, JSON], None]] = field(default_factory=list)

    def __post_init__(self) -> None:
        self._queue: queue.Queue[_Work | None] = queue.Queue()
        self._thread: threading.Thread | None = None
        self.handled = 0
        self.vital_threads: dict[str, threading.Thread] = {}
        self.beats_withheld = 0  # watchdog beats not sent because a vital thread had died

    # -- called from any thread ------------------------------------------------------------------

    def submit(self, request: Mapping[str, Any], reply: Reply | None = None) -> None:
        """Queue a protocol request; ``reply`` is called from the owner thread with the answer."""
        self._queue.put(_Work(request=dict(request), reply=reply))

    def call_soon(self, call: Callable[[TableService], None]) -> None:
        """Run ``call(service)`` on the owner thread (hardware adapters use this)."""
        self._queue.put(_Work(call=call))

    def request(self, request: Mapping[str, Any], timeout: float = 10.0) -> JSON:
        """Submit and wait for the answer (for callers that are not the owner thread)."""
        done = threading.Event()
        answer: list[JSON] = []

        def reply(result: JSON) -> None:
            answer.append(result)
            done.set()

        self.submit(request, reply)
        if not done.wait(timeout):
            raise TimeoutError(f"the table did not answer {request.get('op')!r} within {timeout} s")
        return answer[0]

    def watch_vital(self, thread: threading.Thread) -> None:
        """The watchdog beat stops while ``thread`` is dead (the socket's loop, a hardware reader).

        A thread the table cannot work without registers here; one that ends on purpose
        (a clean close) calls ``forget_vital`` first.
        """
        self.vital_threads[thread.name] = thread

    def forget_vital(self, thread: threading.Thread) -> None:
        if self.vital_threads.get(thread.name) is thread:
            del self.vital_threads[thread.name]

    def dead_vitals(self) -> list[str]:
        return [name for name, thread in list(self.vital_threads.items()) if not thread.is_alive()]

    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, name="table-owner", daemon=True)
        self._thread.start()

    def stop(self, timeout: float = 5.0) -> None:
        self._queue.put(None)
        if self._thread is not None:
            self._thread.join(timeout)

    # -- the owner thread -------------------------------------------------------------------------

    def _run(self) -> None:
        last_beat = 0.0
        while True:
            now = time.monotonic()
            if self.heartbeat is not None and now - last_beat >= self.heartbeat_every:
                self._beat()
                last_beat = now
            try:  # no beat to give (not under systemd's watchdog): asleep until there is work
                work = self._queue.get(timeout=self.heartbeat_every if self.heartbeat else None)
            except queue.Empty:
                continue
            if work is None:
                self._save_snapshots()
                return
            self._do(work)
            if self._queue.empty():
                self._while_idle()

    def _while_idle(self) -> None:
        """Work that would otherwise land inside a press, done once nothing waits: writing the
        game's due snapshots (``Session.save_snapshots``) and copying the store's WAL back
        (``Store.checkpoint_wal``) once enough commits have piled up."""
        self._save_snapshots()
        if not self.store.wal_checkpoint_due:
            return
        try:
            self.store.checkpoint_wal()
        except Exception:  # noqa: BLE001 - SQLite's own automatic checkpoint still runs if this fails
            log.exception("checkpointing the game store while idle failed")

    def _beat(self) -> None:
        # Beating from the owner loop (not a side thread) means a hung loop stops the beats; and a
        # dead vital thread (the socket stopped accepting, say) stops them too, so systemd restarts
        # a table that looks alive but no longer serves anyone.
        dead = self.dead_vitals()
        if dead:
            if not self.beats_withheld:
                log.error("vital thread(s) %s stopped; the watchdog beat is withheld so the table "
                          "is restarted", ", ".join(dead))
            self.beats_withheld += 1
            return
        assert self.heartbeat is not None
        self.heartbeat()

    def _do(self, work: _Work) -> None:
        if work.call is not None:
            try:
                work.call(self)
            except Exception:  # an adapter's bug must not stop the table
                log.exception("hardware call failed")
            return
        assert work.request is not None
        result = self.execute(work.request)
        if work.reply is not None:
            try:
                work.reply(result)
            except Exception:
                log.exception("could not deliver a reply")

    def execute(self, request: Mapping[str, Any]) -> JSON:
        """Run one request now. Only the owner thread (or a test with no thread) calls this."""
        self.handled += 1
        op = request.get("op", "command" if "type" in request else None)
        try:
            if not isinstance(op, str):
                raise CommandError(f"a request needs an \"op\" (a string), not {op!r}")
            if op == "command":
                command = request.get("command", request if "type" in request else None)
                return self.command(check_command(command))
            if op == "state":
                return {"ok": True, "snapshot": self.snapshot()}
            if op == "new_game":
                options = request.get("options") or {}
                if not isinstance(options, dict):
                    raise CommandError("new_game options must be a JSON object")
                return self.new_game(str(request.get("game", "")), options)
            if op == "resume":
                return self.resume(_int(request.get("game_id"), "game_id"))
            if op == "games":
                return {"ok": True, "games": [self._listed(g) for g in self.store.games()]}
            if op == "abandon":
                return self.abandon(_int(request.get("game_id"), "game_id"))
            if op == "delete":
                return self.delete(_int(request.get("game_id"), "game_id"), request.get("confirm"))
            if op == "log":
                if self.session is None:
                    raise RuleError("no game in progress: start a new game or resume one first")
                return {"ok": True, "game_id": self.session.game_id, "seq": self.session.seq,
                        "log": self.session.log()}
            if op == "known_games":
                from companion.games import all_games

                return {"ok": True, "known_games": [{"name": g.name, "title": g.title} for g in all_games()]}
            if op == "game_info":
                from companion.frontend import game_info

                wanted = request.get("game") or (self.session.game.name if self.session else None)
                if not isinstance(wanted, str):
                    raise CommandError("game_info needs a game name (or a game on the table)")
                return {"ok": True, "info": game_info(self.find_game(wanted))}
            if op == "status":
                return {"ok": True, "status": self.full_status()}
            if op in self.extra_ops:
                return self.extra_ops[op](self, dict(request))
            known = ", ".join(["command", "state", "log", "new_game", "resume", "games", "abandon", "delete",
                               "known_games", "game_info", "status", *self.extra_ops])
            raise CommandError(f"unknown op {op!r}; the table knows: {known}")
        except CompanionError as exc:
            if op == "command":  # what the table tried and why it was refused; a bad query is only answered
                self.notice(self._refusal_notice(request, exc), level="error")
            return error_reply(exc)
        except Exception as exc:
            # A bug must not stop the table: the session only commits after everything succeeded,
            # so the state shown is still the last recorded one.
            log.exception("internal error on %r", request)
            text = f"internal error ({type(exc).__name__}: {exc}); nothing was recorded"
            if op == "command":
                self.notice(text, level="error")
            return {"ok": False, "error": text, "error_kind": "internal"}

    def _refusal_notice(self, request: Mapping[str, Any], exc: Exception) -> str:
        """What every client reads about a refusal; a sealed command's reason (which may quote the
        secret value) goes only to whoever sent it, in the reply."""
        command = request.get("command", request)
        kind = command.get("type") if isinstance(command, Mapping) else None
        if self.session is not None and self.session.game.sealed_fields(kind):
            return f"a sealed {kind} was refused; the reason went to whoever sent it"
        return str(exc)

    def command(self, command: JSON) -> JSON:
        if self.session is None:
            raise RuleError("no game in progress: start a new game or resume one first")
        kind = command.get("type")
        undone = self.session.last_words() if kind == "undo" else ""
        hooks = list(self.early_hooks)
        shown: list[ScoreboardView] = []

        def decided(board: ScoreboardView, snapshot: JSON) -> None:
            shown.append(board)
            self._show_early(hooks, board, snapshot)

        try:
            snapshot = self.session.handle(command, decided if hooks else None)
        except Exception:
            if shown:  # shown early, then not recorded: show the current state again
                self.publish()
            raise
        self.banner = None
        reply = self.publish(snapshot)
        # Every client (and whoever pressed the hardware UNDO) reads what was taken back or put back.
        if kind == "undo":
            self.notice(f"Undid: {undone}")
        elif kind == "redo":
            self.notice(f"Redid: {self.session.last_words()}")
        return reply

    @staticmethod
    def _show_early(hooks: list[Callable[[ScoreboardView, JSON], None]], board: ScoreboardView,
                    snapshot: JSON) -> None:
        for hook in hooks:
            try:
                hook(board, snapshot)
            except Exception:  # like a subscriber: a failed display must not stop the table
                log.exception("an early hook failed")

    def new_game(self, game: str, options: Mapping[str, Any]) -> JSON:
        self._save_snapshots()
        self.session = Session.new(self.store, self.find_game(game), options)
        return self.publish()

    def resume(self, game_id: int) -> JSON:
        self._save_snapshots()
        self.session = Session.resume(self.store, game_id, self.find_game)
        return self.publish()

    def _save_snapshots(self) -> None:
        """The game on the table writes the snapshots it still owes before it leaves (they would
        otherwise be lost with the session: restores would replay more)."""
        if self.session is not None and self.session.snapshots_due:
            self.session.save_snapshots()

    def _listed(self, record: Any) -> JSON:
        on_table = self.session is not None and self.session.game_id == record.id
        return {**record.to_json(), "on_table": on_table}

    def abandon(self, game_id: int) -> JSON:
        """Stop offering an unfinished game: it is listed as ``abandoned`` and never resumed at start.

        Nothing recorded is lost: its whole log stays, ``resume`` still opens it, and a command
        recorded then makes it unfinished again. The game on the table is put away first.
        """
        record = self.store.game(game_id)
        if record.status != "playing":
            raise RuleError(f"game {game_id} is {record.status}: only an unfinished game can be abandoned")
        record = self.store.abandon_game(game_id)
        self._put_away(game_id)
        return {"ok": True, "game": self._listed(record)}

    def delete(self, game_id: int, confirm: Any) -> JSON:
        """Delete a saved game and its whole log, for good: only with ``"confirm": true``."""
        self.store.game(game_id)  # an unknown game is named before the confirmation is asked for
        if confirm is not True:
            raise CommandError(f"delete removes game {game_id} and its whole log for good: send "
                               "\"confirm\": true once the player has confirmed it (abandon keeps the log)")
        self._put_away(game_id)
        self.store.delete_game(game_id)
        return {"ok": True, "deleted": game_id}

    def _put_away(self, game_id: int) -> None:
        """The game leaves the table (abandoned or deleted): every client is shown no game."""
        if self.session is not None and self.session.game_id == game_id:
            self._save_snapshots()
            self.session = None
            self.banner = None
            self.publish()

    def resume_latest(self) -> Session | None:
        """On start: pick up the most recently played game, exactly where it was, if it is unfinished.

        When the last game played has ended (finished or abandoned), the table starts with no game
        (the kiosk's Home), not in an older unfinished game. A saved game that no longer replays
        (an unknown game, rules that refuse its log) is skipped (logged, and listed under
        "unresumable" in the status) rather than stopping the table from starting.
        """
        for record in self.store.games():
            if record.status != "playing":
                return None
            try:
                self.session = Session.resume(self.store, record.id, self.find_game)
            except CompanionError as exc:
                log.error("saved game %s cannot be resumed: %s", record.id, exc)
                self.status.setdefault("unresumable", []).append({"game_id": record.id, "error": str(exc)})
                continue
            return self.session
        return None

    def snapshot(self) -> JSON | None:
        return None if self.session is None else self.session.snapshot()

    def publish(self, snapshot: JSON | None = None) -> JSON:
        """Push the current snapshot to every subscriber; returns it as a reply."""
        snapshot = snapshot if snapshot is not None else self.snapshot()
        self._broadcast({"event": "snapshot", "snapshot": snapshot})
        return {"ok": True, "snapshot": snapshot}

    def notice(self, text: str, level: str = "info") -> None:
        """Tell every client something the table should read (a rejected tray line, a display offline)."""
        self._broadcast({"event": "notice", "level": level, "text": text})

    def full_status(self) -> JSON:
        """What the table reports and, read now, what its live sources say (the hardware summary)."""
        live = {}
        for key, source in self.status_sources.items():
            try:
                live[key] = source()
            except Exception:  # a status must never stop the table: say what failed instead
                log.exception("status source %r failed", key)
                live[key] = {"error": f"{key} status unavailable"}
        return {**self.status, **live}

    def set_status(self, key: str, value: Any) -> None:
        self.status[key] = value
        # The whole status, live sources included: a client that replaced its copy with a push missing
        # the hardware summary would say "no report" under a tray it has just been told is connected.
        self._broadcast({"event": "status", "status": self.full_status()})

    def _broadcast(self, message: JSON) -> None:
        for subscriber in list(self.subscribers):
            try:
                subscriber(message)
            except Exception:
                log.exception("a subscriber failed; it is dropped")
                self.subscribers.remove(subscriber)


def _int(value: Any, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise CommandError(f"{name} must be a whole number, not {value!r}")
    return value
