"""The table's local socket: newline-delimited JSON over a Unix socket, owner and group only.

One request per line in, one reply per request out (same ``id``), plus ``snapshot``, ``status`` and
``notice`` events pushed to every client. No TCP listener exists. See ``docs/protocol.md``.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import queue
import socket
import struct
import threading
from pathlib import Path

from companion.errors import CommandError
from companion.game import JSON
from companion.service import TableService, error_reply
from companion.session import parse_json_object

log = logging.getLogger(__name__)

MAX_LINE = 64 * 1024  # a command is a few hundred bytes; anything this long is not ours
CLIENT_BACKLOG = 256  # replies and events queued for one slow client before it is dropped


def peer_allowed(conn: socket.socket) -> bool:
    """Allow root, our own user, and members of our group (the filesystem mode says the same)."""
    creds = conn.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, struct.calcsize("3i"))
    pid, uid, gid = struct.unpack("3i", creds)
    if uid in (0, os.getuid()) or gid == os.getgid():
        return True
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return False
    for line in status.splitlines():
        if line.startswith("Groups:"):
            return str(os.getgid()) in line.split()[1:]
    return False


class _Client:
    def __init__(self, conn: socket.socket, server: TableSocketServer) -> None:
        self.conn = conn
        self.server = server
        self.outbox: queue.Queue[bytes | None] = queue.Queue(CLIENT_BACKLOG)
        self.closed = threading.Event()

    def send(self, message: JSON) -> None:
        """Queue a message; never blocks the caller (the owner thread publishes through this)."""
        if self.closed.is_set():
            raise ConnectionError("client gone")
        try:
            self.outbox.put_nowait((json.dumps(message) + "\n").encode())
        except queue.Full:
            self.close()
            raise ConnectionError("client too slow; dropped") from None

    def close(self) -> None:
        if not self.closed.is_set():
            self.closed.set()
            with contextlib.suppress(queue.Full):
                self.outbox.put_nowait(None)
            with contextlib.suppress(OSError):
                self.conn.shutdown(socket.SHUT_RDWR)

    def write_loop(self) -> None:
        try:
            while (data := self.outbox.get()) is not None:
                self.conn.sendall(data)
        except OSError:
            pass
        finally:
            self.close()
            self.conn.close()

    def read_loop(self) -> None:
        buffer = b""
        try:
            while not self.closed.is_set():
                chunk = self.conn.recv(4096)
                if not chunk:
                    break
                buffer += chunk
                while b"\n" in buffer:
                    line, buffer = buffer.split(b"\n", 1)
                    if line.strip():
                        self.handle_line(line)
                if len(buffer) > MAX_LINE:
                    self.send({"ok": False, "error_kind": "command",
                               "error": f"line longer than {MAX_LINE} bytes; dropped"})
                    buffer = b""
        except (OSError, ConnectionError):
            pass
        finally:
            self.server.forget(self)
            self.close()

    def handle_line(self, line: bytes) -> None:
        request_id = None
        try:
            request = parse_command_line(line)
            request_id = request.get("id")
        except CommandError as exc:
            self.send({"id": request_id, **error_reply(exc)})
            return

        def reply(result: JSON) -> None:
            with contextlib.suppress(ConnectionError):
                self.send({"id": request_id, **result})

        self.server.service.submit(request, reply)


def parse_command_line(line: bytes) -> JSON:
    """A request line: JSON object with an ``op`` (or a bare command with a ``type``)."""
    value = parse_json_object(line)
    if isinstance(value.get("op"), str):
        return value
    if isinstance(value.get("type"), str) and value["type"]:
        return value
    raise CommandError("a request is a JSON object with an \"op\" (or a command with a \"type\")")


class TableSocketServer:
    """Accepts clients on a Unix socket and bridges them to the service's queue."""

    def __init__(self, service: TableService, path: str | Path) -> None:
        self.service = service
        self.path = Path(path)
        self.clients: set[_Client] = set()
        self._lock = threading.Lock()
        self._sock: socket.socket | None = None
        self._thread: threading.Thread | None = None
        service.subscribers.append(self._broadcast)

    def start(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with contextlib.suppress(FileNotFoundError):
            self.path.unlink()  # a stale socket from a crash; a live service holds a lock elsewhere
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        old_umask = os.umask(0o117)  # created as srw-rw----: owner and group only
        try:
            sock.bind(str(self.path))
        finally:
            os.umask(old_umask)
        os.chmod(self.path, 0o660)
        sock.listen(8)
        self._sock = sock
        self._thread = threading.Thread(target=self._accept_loop, name="table-socket", daemon=True)
        self._thread.start()

    def _accept_loop(self) -> None:
        assert self._sock is not None
        while True:
            try:
                conn, _ = self._sock.accept()
            except OSError:
                return
            if not peer_allowed(conn):
                with contextlib.suppress(OSError):
                    conn.sendall(b'{"ok": false, "error": "not allowed: join the companion group"}\n')
                conn.close()
                continue
            client = _Client(conn, self)
            with self._lock:
                self.clients.add(client)
            threading.Thread(target=client.write_loop, name="table-client-out", daemon=True).start()
            threading.Thread(target=client.read_loop, name="table-client-in", daemon=True).start()

    def forget(self, client: _Client) -> None:
        with self._lock:
            self.clients.discard(client)

    def _broadcast(self, message: JSON) -> None:
        with self._lock:
            clients = list(self.clients)
        for client in clients:
            try:
                client.send(message)
            except ConnectionError:
                self.forget(client)

    def close(self) -> None:
        if self._sock is not None:
            # shutdown() wakes the thread blocked in accept(); close() alone would leave it there.
            with contextlib.suppress(OSError):
                self._sock.shutdown(socket.SHUT_RDWR)
            self._sock.close()
            if self._thread is not None:
                self._thread.join(timeout=2)
        with self._lock:
            clients = list(self.clients)
        for client in clients:
            client.close()
        with contextlib.suppress(FileNotFoundError):
            self.path.unlink()


class TableClient:
    """A blocking client for the CLI, tests and the kiosk's worker thread."""

    def __init__(self, path: str | Path, timeout: float = 10.0) -> None:
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.settimeout(timeout)
        self.sock.connect(str(path))
        self._buffer = b""
        self._next_id = 0
        self.events: list[JSON] = []

    def read_message(self) -> JSON:
        while b"\n" not in self._buffer:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise ConnectionError("the table service closed the connection")
            self._buffer += chunk
        line, self._buffer = self._buffer.split(b"\n", 1)
        return json.loads(line)

    def request(self, request: JSON) -> JSON:
        self._next_id += 1
        request = {"id": self._next_id, **request}
        self.sock.sendall((json.dumps(request) + "\n").encode())
        while True:
            message = self.read_message()
            if "event" in message:
                self.events.append(message)
                continue
            if message.get("id") == request["id"]:
                return message

    def close(self) -> None:
        self.sock.close()
