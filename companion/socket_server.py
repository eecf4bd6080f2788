"""The table's local socket: newline-delimited JSON over a Unix socket, owner and group only.

One request per line in, one reply per request out (same ``id``), plus ``snapshot``, ``status`` and
``notice`` events pushed to every client. No TCP listener exists. See ``docs/protocol.md``.

One thread (a ``selectors`` loop over non-blocking sockets) serves every client, however many:
it accepts, reads lines, hands requests to the service's owner thread and writes what the owner
thread queued. Each client has a bounded output queue and at most ``OUTSTANDING`` requests in the
owner's queue, so one busy client can neither stall another nor grow the service without bound.
"""

from __future__ import annotations

import contextlib
import errno
import logging
import os
import selectors
import socket
import stat
import threading
import time
from collections import deque
from collections.abc import Callable
from pathlib import Path

from companion.errors import CommandError
from companion.game import JSON
from companion.service import TableService, error_reply
from companion.socket_client import TableClient
from companion.socket_lines import MAX_LINE, check_id, encode, parse_command_line, refusal
from companion.socket_peer import peer_allowed

log = logging.getLogger(__name__)

MAX_CLIENTS = 256  # well under the usual 1,024 open files; one more is refused with a clear line
OUTSTANDING = 4  # one client's requests waiting in the owner's queue at once (fairness)
MAX_UNSENT = 4 * 1024 * 1024  # bytes queued for a client that does not read before it is dropped
PAUSE_READING_AT = 256 * 1024  # stop reading a client's requests while this much of its output waits
ACCEPT_BACKOFF = 0.1  # seconds without accepting after the process ran out of file descriptors
OUT_OF_FILES = {errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM}


class _Client:
    """One connection. The selector thread owns the input side; ``unsent`` is shared under the lock."""

    def __init__(self, conn: socket.socket) -> None:
        self.conn = conn
        self.name = f"client fd {conn.fileno()}"
        self.inbox = bytearray()
        self.skipping = False  # inside an oversized line: drop bytes up to its newline
        self.read_closed = False
        self.unsent: deque[bytes] = deque()  # broadcast lines are shared by every client's queue
        self.unsent_bytes = 0
        self.sent_offset = 0  # of unsent[0]
        self.outstanding = 0  # requests handed to the owner thread and not answered yet
        self.drop_reason: str | None = None
        self.gone = False
        self.events = 0  # what the selector watches now


class TableSocketServer:
    """Accepts clients on a Unix socket and bridges them to the service's queue."""

    def __init__(self, service: TableService, path: str | Path, max_clients: int = MAX_CLIENTS) -> None:
        self.service = service
        self.path = Path(path)
        self.max_clients = max_clients
        self.clients: set[_Client] = set()
        self.refused = 0  # connections turned away (full, out of files, not allowed)
        self._lock = threading.Lock()
        self._sock: socket.socket | None = None
        self._bound: tuple[int, int] | None = None  # (st_dev, st_ino) of the socket file we made
        self._thread: threading.Thread | None = None
        self._selector = selectors.DefaultSelector()
        self._wake_r, self._wake_w = socket.socketpair()
        self._dirty: set[_Client] = set()
        self._stopping = False
        self._accept_again_at: float | None = None
        self._spare_fd: int | None = None  # kept free to accept and refuse a client when out of files
        self._out_of_files_logged = -1e9
        service.subscribers.append(self._broadcast)

    # -- start and stop ------------------------------------------------------------------------------

    def listen(self) -> None:
        """Bind the socket (``srw-rw----``) and listen; refuse a path where another service answers."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            self._bind(sock)
        except BaseException:
            sock.close()
            raise
        os.chmod(self.path, 0o660)
        info = os.lstat(self.path)
        self._bound = (info.st_dev, info.st_ino)
        sock.listen(socket.SOMAXCONN)  # a burst of clients waits in the backlog instead of failing
        sock.setblocking(False)
        self._sock = sock

    def _bind(self, sock: socket.socket) -> None:
        old_umask = os.umask(0o117)  # created as srw-rw----: owner and group only
        try:
            try:
                sock.bind(str(self.path))
                return
            except OSError as exc:
                if exc.errno != errno.EADDRINUSE:
                    raise
            self._remove_stale_socket()
            sock.bind(str(self.path))
        finally:
            os.umask(old_umask)

    def _remove_stale_socket(self) -> None:
        """A socket file nobody answers on is left from a crash; a live one belongs to a running serve."""
        if not stat.S_ISSOCK(os.lstat(self.path).st_mode):
            raise SocketInUse(f"{self.path} exists and is not a socket; refusing to replace it")
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as probe:
            try:
                probe.connect(str(self.path))
            except ConnectionRefusedError:
                pass  # nobody listens: stale
            except OSError as exc:
                raise SocketInUse(f"{self.path} exists and is not a table socket ({exc.strerror}); "
                                  f"refusing to replace it") from exc
            else:
                raise SocketInUse(f"another companion serve is running on {self.path}")
        self.path.unlink()

    def start(self) -> None:
        if self._sock is None:
            self.listen()
        assert self._sock is not None
        self._wake_r.setblocking(False)
        self._wake_w.setblocking(False)
        with contextlib.suppress(OSError):
            self._spare_fd = os.open(os.devnull, os.O_RDONLY)
        self._selector.register(self._sock, selectors.EVENT_READ, None)
        self._selector.register(self._wake_r, selectors.EVENT_READ, None)
        self._thread = threading.Thread(target=self._run, name="table-socket", daemon=True)
        self.service.watch_vital(self._thread)
        self._thread.start()

    def close(self) -> None:
        if self._thread is not None:
            self.service.forget_vital(self._thread)
            self._stopping = True
            self._wake()
            self._thread.join(timeout=5)
        if self._sock is not None:
            self._sock.close()
        for client in list(self.clients):
            self._forget(client)
        self._selector.close()
        self._wake_r.close()
        self._wake_w.close()
        if self._spare_fd is not None:
            os.close(self._spare_fd)
            self._spare_fd = None
        self._unlink_if_ours()
        with contextlib.suppress(ValueError):
            self.service.subscribers.remove(self._broadcast)

    def _unlink_if_ours(self) -> None:
        """Remove the socket file only if it is still the one we bound (never another service's)."""
        try:
            info = os.lstat(self.path)
        except FileNotFoundError:
            return
        if self._bound == (info.st_dev, info.st_ino):
            self.path.unlink()

    # -- called from the owner thread ----------------------------------------------------------------

    def _broadcast(self, message: JSON) -> None:
        try:
            data = encode(message)
        except ValueError:
            log.exception("an event could not be written as JSON; not sent")
            return
        with self._lock:
            for client in self.clients:
                self._queue_locked(client, data)
        self._wake()

    def _reply_to(self, client: _Client, request_id: object) -> Callable[[JSON], None]:
        def reply(result: JSON) -> None:
            try:
                data = encode({"id": request_id, **result})
            except ValueError as exc:
                data = refusal(f"the reply could not be written as JSON ({exc}); nothing else went wrong",
                               "internal", request_id)
            with self._lock:
                client.outstanding -= 1
                self._queue_locked(client, data)
            self._wake()
        return reply

    def _queue_locked(self, client: _Client, data: bytes) -> None:
        if client.gone or client.drop_reason:
            self._dirty.add(client)
            return
        if client.unsent_bytes and client.unsent_bytes + len(data) > MAX_UNSENT:
            # It stopped reading: keeping everything for it would grow the table without bound.
            client.drop_reason = f"it left {client.unsent_bytes} bytes unread (limit {MAX_UNSENT})"
            client.unsent.clear()
            client.unsent_bytes = client.sent_offset = 0
        else:
            client.unsent.append(data)
            client.unsent_bytes += len(data)
        self._dirty.add(client)

    def _wake(self) -> None:
        with contextlib.suppress(OSError):  # full means a wake-up is already pending; closed means stopping
            self._wake_w.send(b"\0")

    # -- the selector thread -------------------------------------------------------------------------

    def _run(self) -> None:
        try:
            while not self._stopping:
                timeout = None
                if self._accept_again_at is not None:
                    timeout = max(0.0, self._accept_again_at - time.monotonic())
                for key, events in self._selector.select(timeout):
                    if key.fileobj is self._sock:
                        self._accept()
                    elif key.fileobj is self._wake_r:
                        with contextlib.suppress(OSError):
                            while self._wake_r.recv(4096):
                                pass
                    else:
                        client: _Client = key.data
                        if events & selectors.EVENT_READ:
                            self._read(client)
                        if events & selectors.EVENT_WRITE:
                            self._flush(client)
                        self._settle(client)
                if self._accept_again_at is not None and time.monotonic() >= self._accept_again_at:
                    self._accept_again_at = None
                    self._selector.register(self._sock, selectors.EVENT_READ, None)  # type: ignore[arg-type]
                with self._lock:
                    dirty, self._dirty = self._dirty, set()
                for client in dirty:
                    self._flush(client)
                    self._settle(client)
        except Exception:
            # The thread is registered as vital: the watchdog stops, and systemd restarts the table.
            log.exception("the table socket loop stopped")

    def _accept(self) -> None:
        assert self._sock is not None
        for _ in range(64):  # then let the clients have a turn
            try:
                conn, _ = self._sock.accept()
            except (BlockingIOError, InterruptedError, ConnectionAbortedError):
                return
            except OSError as exc:
                if exc.errno not in OUT_OF_FILES:
                    raise
                self._out_of_files(exc)
                return
            try:
                allowed = peer_allowed(conn)
            except OSError:  # the peer left before we could ask who it was
                allowed = False
            if not allowed:
                self._turn_away(conn, "not allowed: join the companion group")
            elif len(self.clients) >= self.max_clients:
                log.warning("refused a client: %d clients already connected", len(self.clients))
                self._turn_away(conn, f"the table already has {self.max_clients} clients connected; "
                                      f"close one and try again", kind="busy")
            else:
                self._add(conn)

    def _out_of_files(self, exc: OSError) -> None:
        """No file descriptor left for a new client: tell the one waiting, then pause and go on."""
        now = time.monotonic()
        if now - self._out_of_files_logged > 10:  # once per episode, not ten times a second
            self._out_of_files_logged = now
            log.warning("cannot accept a client (%s): %d connected; refusing and pausing %.1f s at a time",
                        exc.strerror, len(self.clients), ACCEPT_BACKOFF)
        if self._spare_fd is not None:
            # The spare descriptor kept for this moment lets us accept the waiting client and say why.
            os.close(self._spare_fd)
            self._spare_fd = None
            with contextlib.suppress(OSError):
                conn, _ = self._sock.accept()  # type: ignore[union-attr]
                self._turn_away(conn, "the table has run out of connections; try again", kind="busy")
        with contextlib.suppress(OSError):
            self._spare_fd = os.open(os.devnull, os.O_RDONLY)
        self._selector.unregister(self._sock)  # type: ignore[arg-type]
        self._accept_again_at = now + ACCEPT_BACKOFF

    def _turn_away(self, conn: socket.socket, error: str, kind: str = "command") -> None:
        self.refused += 1
        with contextlib.suppress(OSError):
            conn.setblocking(False)
            conn.send(refusal(error, kind))
        conn.close()

    def _add(self, conn: socket.socket) -> None:
        if self._spare_fd is None:
            with contextlib.suppress(OSError):
                self._spare_fd = os.open(os.devnull, os.O_RDONLY)
        conn.setblocking(False)
        client = _Client(conn)
        with self._lock:
            self.clients.add(client)
        client.events = selectors.EVENT_READ
        self._selector.register(conn, client.events, client)

    def _read(self, client: _Client) -> None:
        try:
            chunk = client.conn.recv(65536)
        except (BlockingIOError, InterruptedError):
            return
        except OSError:
            self._forget(client)
            return
        if not chunk:
            # The client is done sending (or gone). A half-closed client still gets every reply:
            # its requests run and the answers are written before we close.
            client.read_closed = True
            if client.inbox and not client.skipping:
                client.inbox += b"\n"  # the last request may lack its newline
            return
        if client.skipping:
            newline = chunk.find(b"\n")
            if newline < 0:
                return
            client.skipping = False
            chunk = chunk[newline + 1:]
        client.inbox += chunk

    def _handle_lines(self, client: _Client) -> None:
        while client.outstanding < OUTSTANDING and not client.gone:
            newline = client.inbox.find(b"\n")
            if newline < 0:
                break
            line = bytes(client.inbox[:newline])
            del client.inbox[:newline + 1]
            if len(line) > MAX_LINE:
                self._send_now(client, refusal(f"line longer than {MAX_LINE} bytes; dropped"))
            elif line.strip():
                self._handle_line(client, line)
        if len(client.inbox) > MAX_LINE and b"\n" not in client.inbox:
            # Too long to be ours: drop it, and the rest of it up to its newline, so that its tail is
            # never read as a request of its own.
            client.inbox.clear()
            client.skipping = not client.read_closed
            self._send_now(client, refusal(f"line longer than {MAX_LINE} bytes; dropped"))

    def _handle_line(self, client: _Client, line: bytes) -> None:
        request_id = None
        try:
            request = parse_command_line(line)
            request_id = check_id(request.get("id"))
        except CommandError as exc:
            self._send_now(client, encode({"id": request_id, **error_reply(exc)}))
            return
        except (ValueError, RecursionError) as exc:  # not a CommandError: a parser limit was hit
            self._send_now(client, refusal(f"the request could not be read ({type(exc).__name__})"))
            return
        with self._lock:
            client.outstanding += 1
        self.service.submit(request, self._reply_to(client, request_id))

    def _send_now(self, client: _Client, data: bytes) -> None:
        with self._lock:
            self._queue_locked(client, data)

    def _flush(self, client: _Client) -> None:
        while not client.gone:
            with self._lock:
                if not client.unsent:
                    return
                data, offset = client.unsent[0], client.sent_offset
            try:
                sent = client.conn.send(memoryview(data)[offset:])
            except (BlockingIOError, InterruptedError):
                return
            except OSError:
                self._forget(client)
                return
            with self._lock:
                if client.unsent and client.unsent[0] is data:
                    client.sent_offset += sent
                    client.unsent_bytes -= sent
                    if client.sent_offset >= len(data):
                        client.unsent.popleft()
                        client.sent_offset = 0

    def _settle(self, client: _Client) -> None:
        """Handle waiting lines, then decide what to watch for: close, read, write or nothing."""
        if client.gone:
            return
        if client.drop_reason is None:
            self._handle_lines(client)
            self._flush(client)
        if client.gone:
            return
        with self._lock:
            reason = client.drop_reason
            unsent, outstanding = client.unsent_bytes, client.outstanding
        if reason:
            log.warning("dropped %s: %s", client.name, reason)
            self._forget(client)
            return
        waiting_line = b"\n" in client.inbox
        if client.read_closed and not unsent and not outstanding and not waiting_line:
            self._forget(client)  # everything it asked for is answered and written
            return
        events = 0
        if not client.read_closed and outstanding < OUTSTANDING and unsent < PAUSE_READING_AT \
                and not waiting_line:
            events |= selectors.EVENT_READ
        if unsent:
            events |= selectors.EVENT_WRITE
        if events != client.events:
            if client.events and events:
                self._selector.modify(client.conn, events, client)
            elif events:
                self._selector.register(client.conn, events, client)
            else:
                self._selector.unregister(client.conn)
            client.events = events

    def _forget(self, client: _Client) -> None:
        if client.gone:
            return
        client.gone = True
        if client.events:
            with contextlib.suppress(KeyError, ValueError, RuntimeError):
                self._selector.unregister(client.conn)
            client.events = 0
        with self._lock:
            self.clients.discard(client)
            self._dirty.discard(client)
            client.unsent.clear()
            client.unsent_bytes = 0
        client.inbox = bytearray()
        with contextlib.suppress(OSError):
            client.conn.close()


class SocketInUse(RuntimeError):
    """Another live service already answers on the socket path."""


__all__ = ["MAX_LINE", "SocketInUse", "TableClient", "TableSocketServer", "encode", "parse_command_line",
           "peer_allowed"]
