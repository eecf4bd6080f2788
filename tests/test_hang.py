"""Hang: a stopped service stops beating the watchdog; the supervisor restarts it and the game resumes.

The supervisor here does what systemd does with ``WatchdogSec=``: it hands the service a
``$NOTIFY_SOCKET`` and ``$WATCHDOG_USEC``, reads ``READY=1`` and ``WATCHDOG=1`` datagrams, and kills
and restarts the service when the beats stop.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

from companion.socket_server import TableClient

ROOT = Path(__file__).resolve().parents[1]
FULL_GAME = ROOT / "tests" / "games" / "full_game_valley_hoopers.jsonl"


class Supervisor:
    def __init__(self, tmp: Path) -> None:
        self.tmp = tmp
        self.notify_path = tmp / "notify.sock"
        self.listener = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.listener.bind(str(self.notify_path))
        self.listener.settimeout(0.1)
        self.socket_path = tmp / "table.sock"
        self.process: subprocess.Popen[bytes] | None = None

    def start(self, watchdog_s: float) -> None:
        env = {**os.environ, "NOTIFY_SOCKET": str(self.notify_path),
               "WATCHDOG_USEC": str(int(watchdog_s * 1_000_000))}
        self.process = subprocess.Popen(
            [sys.executable, "-m", "table.cli", "--db", str(self.tmp / "g.db"), "serve", "--no-hardware",
             "--socket", str(self.socket_path)], env=env, cwd=ROOT,
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.wait_for(b"READY=1", 20)

    def wait_for(self, message: bytes, timeout: float) -> bool:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                if message in self.listener.recv(4096):
                    return True
            except TimeoutError:
                continue
        return False

    def watch(self, watchdog_s: float, limit: float) -> str:
        """Like systemd: kill the service if no WATCHDOG=1 arrives within the watchdog interval."""
        last_beat = time.monotonic()
        deadline = last_beat + limit
        while time.monotonic() < deadline:
            try:
                if b"WATCHDOG=1" in self.listener.recv(4096):
                    last_beat = time.monotonic()
            except TimeoutError:
                pass
            if time.monotonic() - last_beat > watchdog_s:
                assert self.process is not None
                self.process.send_signal(signal.SIGKILL)
                self.process.wait()
                return "restarted"
        return "alive"

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        self.listener.close()


def test_a_stopped_service_is_killed_by_the_watchdog_and_resumes_the_game(tmp_path: Path) -> None:
    supervisor = Supervisor(tmp_path)
    try:
        supervisor.start(watchdog_s=2.0)
        lines = [json.loads(line) for line in FULL_GAME.read_text().splitlines()[:40]]
        client = TableClient(supervisor.socket_path)
        client.request({"op": "new_game", "game": "valley-hoopers",
                        "options": {k: v for k, v in lines[0].items() if k != "type"}})
        for command in lines[1:]:
            assert client.request({"op": "command", "command": command})["ok"]
        before = client.request({"op": "state"})["snapshot"]
        client.close()
        assert supervisor.watch(2.0, limit=4.0) == "alive"  # beats keep coming while it works
        assert supervisor.process is not None
        os.kill(supervisor.process.pid, signal.SIGSTOP)
        assert supervisor.watch(2.0, limit=8.0) == "restarted"
        supervisor.start(watchdog_s=2.0)
        client = TableClient(supervisor.socket_path)
        after = client.request({"op": "state"})["snapshot"]
        client.close()
        assert after == before
    finally:
        supervisor.stop()
