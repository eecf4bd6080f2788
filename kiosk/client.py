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
from collections.abc import Callable
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
