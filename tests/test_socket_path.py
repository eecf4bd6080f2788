"""Whose socket is it: a second serve never takes over the first's socket, nor a stranger's folder ours."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import stat
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from socket_rig import as_user, build_service, env_for_others, python_for_others

from companion import protocol
from companion.protocol import SocketDirError, default_socket_path, private_dir
from companion.service import TableService
from companion.socket_server import SocketInUse, TableClient, TableSocketServer

ROOT = Path(__file__).resolve().parents[1]
STRANGER = 65534
SERVICE_UID = 64123  # a user of our own making, so that /tmp/companion-<uid> is nobody else's test


def test_a_second_server_on_a_live_socket_refuses_and_leaves_the_first_alone(
        service: TableService, tmp_path: Path) -> None:
    first = TableSocketServer(service, tmp_path / "table.sock")
    first.start()
    second = TableSocketServer(build_service(tmp_path / "other.db"), first.path)
    with pytest.raises(SocketInUse, match=f"another companion serve is running on {first.path}"):
        second.start()
    second.close()
    client = TableClient(first.path)
    assert client.request({"op": "state"})["ok"], "the first server still answers on its socket"
    client.close()
    first.close()
    assert not first.path.exists()


def test_a_server_only_removes_its_own_socket_file(service: TableService, tmp_path: Path) -> None:
    first = TableSocketServer(service, tmp_path / "table.sock")
    first.start()
    first.path.unlink()  # someone replaced it (an operator, a forced restart)
    newer = TableSocketServer(service, first.path)
    newer.start()
    first.close()
    assert first.path.exists(), "the first server removed a socket that was not its own"
    client = TableClient(newer.path)
    assert client.request({"op": "state"})["ok"]
    client.close()
    newer.close()


def test_a_stale_socket_left_by_a_crash_is_replaced(service: TableService, tmp_path: Path) -> None:
    path = tmp_path / "table.sock"
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as dead:
        dead.bind(str(path))  # bound, never listening, then gone: what a killed service leaves
    server = TableSocketServer(service, path)
    server.start()
    client = TableClient(path)
    assert client.request({"op": "state"})["ok"]
    client.close()
    server.close()


def test_a_file_that_is_not_a_socket_is_never_replaced(service: TableService, tmp_path: Path) -> None:
    path = tmp_path / "table.sock"
    path.write_text("keep me")
    with pytest.raises(SocketInUse, match="not a socket"):
        TableSocketServer(service, path).start()
    assert path.read_text() == "keep me"


def serve_argv(db: Path, sock: Path | None, python: str = sys.executable) -> list[str]:
    where = ["--socket", str(sock)] if sock else []
    return [python, "-m", "table.cli", "--db", str(db), "serve", "--no-hardware", *where]


def test_a_second_companion_serve_on_the_same_socket_exits_with_a_clear_message(tmp_path: Path) -> None:
    sock = tmp_path / "table.sock"
    first = subprocess.Popen(serve_argv(tmp_path / "a.db", sock), cwd=ROOT, stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT, text=True)
    try:
        assert first.stdout is not None
        for line in first.stdout:
            if "listening on" in line:
                break
        second = subprocess.run(serve_argv(tmp_path / "b.db", sock), cwd=ROOT, capture_output=True,
                                text=True, timeout=60)
        assert second.returncode == 2
        assert f"another companion serve is running on {sock}" in second.stdout
        client = TableClient(sock)
        assert client.request({"op": "state"})["ok"], "the first serve still answers"
        client.close()
        first.send_signal(signal.SIGTERM)
        assert first.wait(30) == 0
        assert not sock.exists()
    finally:
        first.kill()
        first.wait()
        if first.stdout is not None:
            first.stdout.close()


# -- the /tmp fallback (no XDG_RUNTIME_DIR) -----------------------------------------------------------

def test_a_missing_fallback_folder_is_created_private(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("COMPANION_SOCKET", "RUNTIME_DIRECTORY", "XDG_RUNTIME_DIR"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setattr(protocol, "FALLBACK_ROOT", tmp_path)
    old_umask = os.umask(0)  # whatever the umask, the folder is ours alone
    try:
        path = default_socket_path()
    finally:
        os.umask(old_umask)
    assert path == tmp_path / f"companion-{os.getuid()}" / "table.sock"
    assert stat.S_IMODE(os.lstat(path.parent).st_mode) == 0o700


def test_a_fallback_folder_made_by_another_user_is_refused_naming_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("COMPANION_SOCKET", "RUNTIME_DIRECTORY", "XDG_RUNTIME_DIR"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setattr(protocol, "FALLBACK_ROOT", tmp_path)
    planted = tmp_path / f"companion-{os.getuid()}"
    planted.mkdir(mode=0o700)
    os.chown(planted, STRANGER, STRANGER)
    with pytest.raises(SocketDirError, match=f"{planted} belongs to uid {STRANGER}"):
        default_socket_path()


def test_a_folder_others_can_write_is_refused(tmp_path: Path) -> None:
    for mode in (0o777, 0o770, 0o702):
        folder = tmp_path / f"open-{mode:o}"
        folder.mkdir()
        os.chmod(folder, mode)
        with pytest.raises(SocketDirError, match="writable by others"):
            private_dir(folder)


def test_a_symbolic_link_is_refused_even_to_a_private_folder(tmp_path: Path) -> None:
    real = private_dir(tmp_path / "real")
    (tmp_path / "link").symlink_to(real)
    with pytest.raises(SocketDirError, match="symbolic link"):
        private_dir(tmp_path / "link")


@pytest.mark.skipif(os.geteuid() != 0, reason="needs root to act as two other users")
def test_serve_refuses_a_tmp_folder_another_user_planted_for_it() -> None:
    planted = Path(f"/tmp/companion-{SERVICE_UID}")
    shutil.rmtree(planted, ignore_errors=True)
    home = Path(tempfile.mkdtemp(prefix="companion-svc-"))
    try:
        os.chown(home, SERVICE_UID, SERVICE_UID)
        planted.mkdir()
        os.chmod(planted, 0o777)
        os.chown(planted, STRANGER, STRANGER)  # a stranger got there first, ready to listen for us
        env = {k: v for k, v in env_for_others().items()
               if k not in ("COMPANION_SOCKET", "RUNTIME_DIRECTORY", "XDG_RUNTIME_DIR")}
        argv = [*as_user(SERVICE_UID, SERVICE_UID, []), *serve_argv(home / "t.db", None, python_for_others())]
        result = subprocess.run(argv, cwd=ROOT, capture_output=True, text=True, timeout=60, env=env)
        assert result.returncode == 2, result.stdout + result.stderr
        assert f"the socket folder {planted} belongs to uid {STRANGER}" in result.stdout
        assert not (planted / "table.sock").exists()
    finally:
        shutil.rmtree(planted, ignore_errors=True)
        shutil.rmtree(home, ignore_errors=True)
