"""A blocking client of the table socket, for the CLI, tests and scripts (the kiosk has its own)."""

from __future__ import annotations

import json
import socket
from pathlib import Path

from companion.game import JSON


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
