"""Only the service's user and group reach the table socket; nothing listens on TCP."""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path

import pytest
import tally_game
from socket_rig import as_user, env_for_others, python_for_others, rig

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


SERVICE_USER = 64124  # runs the service; its own group plays the "companion" group
KIOSK_USER = 64125  # in that group only as a supplementary group, like the kiosk user on the Pi
ASK_STATE = """
import socket, sys
with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
    sock.settimeout(10)
    sock.connect(sys.argv[1])
    if sys.argv[2] == "ask":
        sock.sendall(b'{"id": 1, "op": "state"}\\n')
    # else: a refused peer is answered at once; a request unread at close would become a reset
    print(sock.recv(65536).decode().splitlines()[0])
"""


def ask_state_as(uid: int, gid: int, groups: list[int], path: Path, ask: bool = True) -> dict:
    argv = [*as_user(uid, gid, groups), python_for_others(), "-c", ASK_STATE, str(path),
            "ask" if ask else "listen"]
    result = subprocess.run(argv, capture_output=True, text=True, timeout=60, env=env_for_others())
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def test_a_supplementary_member_of_the_group_is_let_in_while_proc_is_hidden() -> None:
    """The unit sets ProtectProc=invisible: the service cannot read another user's /proc/<pid>/status.

    The service runs in a mount namespace whose /proc is mounted hidepid=invisible, as its own user;
    the client is another user that has the service's group only as a supplementary group.
    """
    run = Path(tempfile.mkdtemp(prefix="companion-hidepid-", dir="/tmp"))
    os.chmod(run, 0o755)
    os.chown(run, SERVICE_USER, SERVICE_USER)
    hidden_proc = ("unshare", "--mount", "--fork", "sh", "-c",
                   'mount -t proc -o hidepid=invisible proc /proc && exec "$@"', "sh",
                   *as_user(SERVICE_USER, SERVICE_USER, []))
    try:
        with rig(run, argv_prefix=hidden_proc) as (child, path):
            assert "hidepid=invisible" in Path(f"/proc/{child.pid}/mountinfo").read_text()
            answer = ask_state_as(KIOSK_USER, KIOSK_USER, [SERVICE_USER], path)
            assert answer == {"id": 1, "ok": True, "snapshot": None}
            os.chmod(path, 0o666)  # loosen the mode: the service's own check must still hold
            stranger = ask_state_as(KIOSK_USER + 1, KIOSK_USER + 1, [], path, ask=False)
            assert stranger["ok"] is False and "not allowed" in stranger["error"]
    finally:
        shutil.rmtree(run, ignore_errors=True)
