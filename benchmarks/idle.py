"""Wake-ups of an idle ``companion serve --sim``: context switches of all its threads while nothing happens.

    .venv/bin/python benchmarks/idle.py [--seconds 10]

Starts the service on simulated hardware with a new game (the display shows a scoreboard, the tray
waits for a die), waits until it has settled, then counts the voluntary and involuntary context
switches of every thread (``/proc/<pid>/task/*/status``) over ``--seconds``. A thread that polls
shows up as switches; one blocked in a read, a ``select`` or a queue shows none. Linux only.
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FULL_GAME = ROOT / "tests" / "games" / "full_game_valley_hoopers.jsonl"


def context_switches(pid: int) -> dict[str, int]:
    """Switches so far per thread (``name/tid``), from /proc."""
    counts: dict[str, int] = {}
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            status = (task / "status").read_text()
        except OSError:  # the thread ended meanwhile
            continue
        fields = dict(line.split(":\t", 1) for line in status.splitlines() if ":\t" in line)
        name = f"{fields.get('Name', '?').strip()}/{task.name}"  # Python 3.11 leaves OS names as "python"
        counts[name] = sum(int(fields.get(f"{kind}_ctxt_switches", 0))
                           for kind in ("voluntary", "nonvoluntary"))
    return counts


def _request(path: Path, request: dict) -> dict:
    with socket.socket(socket.AF_UNIX) as sock:
        sock.settimeout(10)
        sock.connect(str(path))
        sock.sendall(json.dumps(request).encode() + b"\n")
        data = b""
        while True:  # skip the events the service pushes; the reply carries "ok"
            while b"\n" not in data:
                chunk = sock.recv(65536)
                if not chunk:
                    raise ConnectionError("the service closed the socket")
                data += chunk
            line, data = data.split(b"\n", 1)
            message = json.loads(line)
            if "ok" in message:
                return message


def _until_quiet(pid: int, quiet_s: float, give_up_s: float = 30.0) -> None:
    """Wait until no thread of ``pid`` has switched for ``quiet_s`` (or ``give_up_s`` went by)."""
    deadline = time.monotonic() + give_up_s
    last = context_switches(pid)
    while time.monotonic() < deadline:
        time.sleep(quiet_s)
        now = context_switches(pid)
        if now == last:
            return
        last = now


def idle_wakeups(seconds: float = 10.0, settle_s: float = 1.0) -> tuple[float, dict[str, int]]:
    """Wake-ups per second of an idle ``serve --sim`` (all threads), and the switches per thread.

    Counting starts once the service has been still for ``settle_s`` after the game was set up (a
    service that never goes still is counted after 30 s anyway).
    """
    with tempfile.TemporaryDirectory() as tmp:
        sock = Path(tmp) / "table.sock"
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        env.pop("NOTIFY_SOCKET", None)  # not under systemd: no watchdog beat
        process = subprocess.Popen(
            [sys.executable, "-m", "table.cli", "serve", "--sim", "--db", str(Path(tmp) / "idle.db"),
             "--socket", str(sock)], env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        try:
            assert process.stdout is not None
            line = process.stdout.readline()
            if "listening" not in line:
                raise RuntimeError(f"serve --sim did not start: {line!r}")
            setup = json.loads(FULL_GAME.read_text().splitlines()[0])
            answer = _request(sock, {"op": "new_game", "game": "valley-hoopers",
                                     "options": {k: v for k, v in setup.items() if k != "type"}})
            if not answer.get("ok"):
                raise RuntimeError(f"new_game refused: {answer}")
            _until_quiet(process.pid, settle_s)  # the first frames, the tray's $EXPECT, our client leaving
            before = context_switches(process.pid)
            time.sleep(seconds)
            after = context_switches(process.pid)
        finally:
            process.terminate()
            process.wait(10)
    per_thread = {name: after[name] - before.get(name, 0) for name in after}
    return sum(per_thread.values()) / seconds, {k: v for k, v in per_thread.items() if v}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=10.0)
    args = parser.parse_args()
    rate, per_thread = idle_wakeups(args.seconds)
    print(f"idle serve --sim: {rate:.2f} wake-ups/s over {args.seconds:g} s; by thread: {per_thread}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
