"""Only the service's user and group reach the table socket; nothing listens on TCP."""

from __future__ import annotations

import os
import shutil
import socket
import tempfile
from pathlib import Path

import pytest
import tally_game

from companion.service import TableService
from companion.socket_server import TableSocketServer
from companion.store import Store

NOBODY = 65534


@pytest.fixture()
def server(tmp_path: Path):
    # A world-traversable folder, so that only the socket's own mode and the peer check decide.
    run = Path(tempfile.mkdtemp(prefix="companion-sec-", dir="/tmp"))
    os.chmod(run, 0o755)
    service = TableService(Store.open(tmp_path / "t.db"), find_game=tally_game.find)
    service.start()
    srv = TableSocketServer(service, run / "table.sock")
    srv.start()
    yield srv
    srv.close()
    service.stop()
    shutil.rmtree(run, ignore_errors=True)


def connect_as_nobody(path: Path) -> str:
    """Fork, drop to nobody:nogroup, try the socket; the child reports what happened."""
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - child
        os.close(read_end)
        result = "?"
        try:
            os.setgroups([])
            os.setgid(NOBODY)
            os.setuid(NOBODY)
            with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
                sock.settimeout(5)
                sock.connect(str(path))
                # Read before writing: a refused peer is answered at once and closed, and a
                # request still unread at close would turn that answer into a reset.
                result = "answered: " + sock.recv(4096).decode()
        except PermissionError:
            result = "permission denied"
        except OSError as exc:
            result = f"os error: {exc}"
        os.write(write_end, result.encode())
        os._exit(0)
    os.close(write_end)
    os.waitpid(pid, 0)
    with os.fdopen(read_end) as pipe:
        return pipe.read()


pytestmark = pytest.mark.skipif(os.geteuid() != 0, reason="needs root to act as another user")


def test_a_user_outside_the_group_cannot_open_the_socket(server: TableSocketServer) -> None:
    assert connect_as_nobody(server.path) == "permission denied"


def test_the_service_itself_refuses_a_stranger_even_if_the_socket_mode_is_loosened(
        server: TableSocketServer) -> None:
    os.chmod(server.path, 0o666)
    answer = connect_as_nobody(server.path)
    assert answer.startswith("answered: ") and "not allowed" in answer and "snapshot" not in answer
