"""Processes the tests start and must stop: a private X server, a real ``companion serve --sim``.

Shared by the kiosk and end-to-end tests (through ``conftest.py`` fixtures) and by the benchmarks
that run their long versions. Every process is started in a session of its own and stopped by its
process group, escalating to SIGKILL, so a test that fails or times out leaves nothing running.

    with private_display() as display, serve_sim(tmp_path) as served:
        served.client.request({"op": "state"})
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from companion.socket_server import TableClient

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE_CONFIG = ROOT / "config.example.toml"
# Tall enough for the portrait 720x1280 window; the landscape sizes fit in it too.
DISPLAY_SCREEN = "1280x1280x24"


def stop_group(child: subprocess.Popen[bytes], timeout: float = 15.0, sig: int = signal.SIGTERM) -> None:
    """Stop ``child`` and everything in its process group (it was started with a new session)."""
    if child.poll() is None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(child.pid, sig)
        try:
            child.wait(timeout)
            return
        except subprocess.TimeoutExpired:  # a loaded machine, or a hang: do not leave it running
            pass
    with contextlib.suppress(ProcessLookupError):
        os.killpg(child.pid, signal.SIGKILL)  # what it started may outlive it in the group
    child.wait(timeout)


def kill_processes_naming(path: Path) -> list[int]:
    """SIGKILL our processes whose command line names ``path`` (a test's own temporary file, so only
    processes that test started): a service started by a kiosk the test had to kill. Returns the ids."""
    killed = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            if entry.stat().st_uid != os.getuid():
                continue
            argv = (entry / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if str(path).encode() in argv:
            with contextlib.suppress(ProcessLookupError):
                os.kill(int(entry.name), signal.SIGKILL)
                killed.append(int(entry.name))
    return killed


def connections_to(socket_path: Path) -> int:
    """How many clients are connected to the Unix socket at ``socket_path`` right now: the server's
    accepted ends are listed under its path in ``/proc/net/unix`` in state 03 (connected)."""
    count = 0
    for line in Path("/proc/net/unix").read_text().splitlines()[1:]:
        fields = line.split()
        if len(fields) >= 8 and fields[7] == str(socket_path) and fields[5] == "03":
            count += 1
    return count


@contextlib.contextmanager
def private_display(screen: str = DISPLAY_SCREEN) -> Iterator[str]:
    """A private Xvfb on a free display number (``-displayfd``); yields ``":N"``."""
    xvfb = shutil.which("Xvfb") or "/usr/bin/Xvfb"
    read, write = os.pipe()
    server = subprocess.Popen([xvfb, "-displayfd", str(write), "-screen", "0", screen, "-nolisten", "tcp"],
                              pass_fds=(write,), stderr=subprocess.DEVNULL, start_new_session=True)
    os.close(write)
    try:
        with os.fdopen(read) as numbers:
            number = numbers.readline().strip()
        assert number, "Xvfb did not start"
        yield f":{number}"
    finally:
        stop_group(server, 10)


@dataclass
class Served:
    """A running ``companion serve --sim``: its socket, store, a connected client and the process."""

    socket: Path
    db: Path
    client: TableClient
    child: subprocess.Popen[bytes]


@contextlib.contextmanager
def serve_sim(folder: Path, config: Path = EXAMPLE_CONFIG, timeout: float = 30.0) -> Iterator[Served]:
    """``companion serve --sim`` in a subprocess with its store and log in ``folder``, until it
    listens; then a client connected to it. Stopped (its whole process group) on the way out."""
    sock, db = folder / "t.sock", folder / "g.db"
    with open(folder / "serve.log", "wb") as log:
        child = subprocess.Popen([sys.executable, "-m", "table.cli", "--db", str(db), "serve", "--sim",
                                  "--socket", str(sock), "--config", str(config)], cwd=ROOT,
                                 env=dict(os.environ), stdout=log, stderr=subprocess.STDOUT,
                                 start_new_session=True)
        try:
            deadline = time.monotonic() + timeout
            while not sock.exists():
                assert child.poll() is None, (folder / "serve.log").read_text()[-3000:]
                assert time.monotonic() < deadline, "companion serve did not open its socket"
                time.sleep(0.05)
            client = TableClient(sock, timeout=15)
            try:
                yield Served(sock, db, client, child)
            finally:
                client.close()
        finally:
            stop_group(child, 30)
