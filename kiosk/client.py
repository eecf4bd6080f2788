"""A background-thread client of the table socket that reconnects by itself.

The kiosk's UI thread must never block on the socket, so one worker thread owns the connection:
it connects (retrying every ``retry_every`` seconds while the service is down), sends queued
requests, reads replies and pushed events, and hands each to ``deliver`` (the app passes a function
that re-posts onto Kivy's main thread with ``Clock.schedule_once``).

>>> seen = []
>>> conn = TableConnection("/nonexistent/table.sock", on_message=seen.append, deliver=lambda f: f())
>>> conn.connected
False
"""

from __future__ import annotations

import contextlib
import itertools
import json
import queue
import socket
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

JSON = dict[str, Any]
ReplyHandler = Callable[[JSON], None]
Deliver = Callable[[Callable[[], None]], None]


def service_answers(path: str | Path, timeout: float = 1.0) -> bool:
    """True when a table service accepts connections and answers a ``status`` request on ``path``."""
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
            sock.settimeout(timeout)
            sock.connect(str(path))
            sock.sendall(b'{"id": "probe", "op": "status"}\n')
            buffer = b""
            deadline = time.monotonic() + timeout
            while time.monotonic() < deadline:
                chunk = sock.recv(65536)
                if not chunk:
                    return False
                buffer += chunk
                while b"\n" in buffer:
                    line, buffer = buffer.split(b"\n", 1)
                    with contextlib.suppress(ValueError):
                        if json.loads(line).get("id") == "probe":
                            return True
    except OSError:
        return False
    return False


class Prefetch:
    """The kiosk's first questions to the table service, asked on a thread of their own while Kivy
    loads (a second or more on a Pi), so the first frame can show the table instead of waiting for
    a round trip per question: the state, the saved games, the status, the known games and each
    known game's parts (``game_info``). One short connection; ``TableConnection`` asks again when
    it connects (what changed meanwhile arrives then).

    >>> Prefetch("/nonexistent/table.sock").start().result(timeout=5) is None
    True
    """

    OPS = ("state", "games", "status", "known_games")

    def __init__(self, path: str | Path, timeout: float = 10.0) -> None:
        self.path = Path(path)
        self.timeout = timeout
        self._answers: dict[str, Any] | None = None
        self._done = threading.Event()

    def start(self) -> Prefetch:
        threading.Thread(target=self._run, name="kiosk-prefetch", daemon=True).start()
        return self

    def result(self, timeout: float = 0.0) -> dict[str, Any] | None:
        """The answers by op (``game_info``: name -> answer) if all came within ``timeout``, else None."""
        self._done.wait(timeout)
        return self._answers

    def _run(self) -> None:
        try:
            with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
                sock.settimeout(self.timeout)
                sock.connect(str(self.path))
                lines = _lines(sock)
                first = _ask(sock, lines, [{"op": op} for op in self.OPS])
                answers: dict[str, Any] = dict(zip(self.OPS, first, strict=True))
                known = answers["known_games"].get("known_games") if answers["known_games"].get("ok") else []
                names = [str(g.get("name")) for g in known or [] if isinstance(g, dict)]
                infos = _ask(sock, lines, [{"op": "game_info", "game": name} for name in names])
                answers["game_info"] = dict(zip(names, infos, strict=True))
                self._answers = answers
        except (OSError, ValueError, StopIteration):
            pass  # no service yet (or a broken one): the kiosk asks through its own connection
        finally:
            self._done.set()


def _lines(sock: socket.socket) -> Iterator[bytes]:
    buffer = b""
    while True:
        chunk = sock.recv(262144)
        if not chunk:
            return
        buffer += chunk
        while b"\n" in buffer:
            line, buffer = buffer.split(b"\n", 1)
            yield line


def _ask(sock: socket.socket, lines: Iterator[bytes], requests: list[JSON]) -> list[JSON]:
    """Send ``requests`` at once, then read their answers (pushed events skipped), in request order."""
    ids = [f"prefetch-{n}" for n in range(len(requests))]
    sock.sendall(b"".join((json.dumps({"id": i, **r}) + "\n").encode() for i, r in zip(ids, requests,
                                                                                        strict=True)))
    answers: dict[str, JSON] = {}
    while len(answers) < len(ids):
        message = json.loads(next(lines))
        if isinstance(message, dict) and message.get("id") in ids:
            answers[message["id"]] = message
    return [answers[i] for i in ids]


class TableConnection:
    """One kiosk's link to ``companion serve``: requests out, replies and events back on the UI thread.

    ``on_message`` gets every pushed event (``{"event": ...}``); ``on_state`` gets ``"connected"`` or
    ``"reconnecting"`` when the link changes. A request's ``on_reply`` gets its answer; requests sent
    while disconnected are answered with ``{"ok": false, "error_kind": "offline"}`` at once, so a tap
    never waits on a dead service.
    """

    def __init__(self, path: str | Path, on_message: Callable[[JSON], None],
                 deliver: Deliver, on_state: Callable[[str], None] | None = None,
                 retry_every: float = 0.5) -> None:
        self.path = Path(path)
        self.on_message = on_message
        self.on_state = on_state or (lambda _state: None)
        self.deliver = deliver
        self.retry_every = retry_every
        self.connected = False
        self.connects = 0  # how many times a connection was made (1 + reconnections)
        self._ids = itertools.count(1)
        self._pending: dict[int, ReplyHandler | None] = {}
        self._lock = threading.Lock()
        self._sock: socket.socket | None = None
        self._stop = threading.Event()
        self._outbox: queue.Queue[bytes] = queue.Queue()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, name="kiosk-table-link", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        with self._lock:
            sock = self._sock
        if sock is not None:
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)
        if self._thread is not None:
            self._thread.join(2.0)

    def request(self, request: JSON, on_reply: ReplyHandler | None = None) -> None:
        """Send one protocol request; ``on_reply`` runs on the UI thread with the answer."""
        request_id = next(self._ids)
        line = (json.dumps({"id": request_id, **request}) + "\n").encode()
        with self._lock:
            sock = self._sock if self.connected else None
            if sock is not None:
                self._pending[request_id] = on_reply
        if sock is None:
            if on_reply is not None:
                answer = {"id": request_id, "ok": False, "error_kind": "offline",
                          "error": "the table service is not answering; reconnecting"}
                self.deliver(lambda: on_reply(answer))
            return
        try:
            with self._lock:
                sock.sendall(line)
        except OSError:
            # The reader notices the broken link and fails every pending request.
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)

    # -- the worker thread ---------------------------------------------------------------------------

    def _run(self) -> None:
        while not self._stop.is_set():
            sock = self._connect()
            if sock is None:
                self._stop.wait(self.retry_every)
                continue
            with self._lock:
                self._sock = sock
                self.connected = True
            self.connects += 1
            self.deliver(lambda: self.on_state("connected"))
            self._read_until_closed(sock)
            with self._lock:
                self.connected = False
                self._sock = None
                orphans = list(self._pending.items())
                self._pending.clear()
            with contextlib.suppress(OSError):
                sock.close()
            for request_id, handler in orphans:
                if handler is not None:
                    answer = {"id": request_id, "ok": False, "error_kind": "offline",
                              "error": "the table service went away before answering"}
                    self.deliver(lambda h=handler, a=answer: h(a))
            if not self._stop.is_set():
                self.deliver(lambda: self.on_state("reconnecting"))

    def _connect(self) -> socket.socket | None:
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            sock.connect(str(self.path))
        except OSError:
            sock.close()
            return None
        return sock

    def _read_until_closed(self, sock: socket.socket) -> None:
        buffer = b""
        while not self._stop.is_set():
            try:
                chunk = sock.recv(262144)
            except OSError:
                return
            if not chunk:
                return
            buffer += chunk
            while b"\n" in buffer:
                line, buffer = buffer.split(b"\n", 1)
                if line.strip():
                    self._dispatch(line)

    def _dispatch(self, line: bytes) -> None:
        try:
            message = json.loads(line)
        except ValueError:
            return  # not ours to show; the service never sends this
        if not isinstance(message, dict):
            return
        if "event" in message:
            self.deliver(lambda: self.on_message(message))
            return
        with self._lock:
            handler = self._pending.pop(message.get("id"), None)  # type: ignore[arg-type]
        if handler is not None:
            self.deliver(lambda: handler(message))
