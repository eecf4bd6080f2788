"""A real table socket in a process of its own, for the socket tests that load it from outside.

Run as ``python tests/socket_rig.py SOCKET DB [--max-clients N] [--nofile N]``: it starts the real
``TableService`` (with the tally test game) and ``TableSocketServer``, prints ``ready`` and serves
until killed. Two test-only ops exist: ``shout`` (broadcast ``count`` notices of ``size`` characters,
a burst like a dice-tray line full of garbage) and ``handled`` (how many requests the owner ran).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import resource
import signal
import subprocess
import sys
import sysconfig
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import tally_game

import companion
from companion.service import TableService
from companion.socket_server import TableSocketServer
from companion.store import Store

RIG = Path(__file__).resolve()
ROOT = RIG.parents[1]


def shout(service: TableService, request: dict[str, Any]) -> dict[str, Any]:
    text = "x" * int(request.get("size", 100))
    for n in range(int(request.get("count", 1))):
        service.notice(f"{n} {text}")
    return {"ok": True}


def handled(service: TableService, _request: dict[str, Any]) -> dict[str, Any]:
    return {"ok": True, "handled": service.handled}


def build_service(db: Path) -> TableService:
    service = TableService(Store.open(db), find_game=tally_game.find)
    service.extra_ops.update(shout=shout, handled=handled)
    return service


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("socket")
    parser.add_argument("db")
    parser.add_argument("--max-clients", type=int)
    parser.add_argument("--nofile", type=int)
    args = parser.parse_args()
    if args.nofile:
        _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        resource.setrlimit(resource.RLIMIT_NOFILE, (args.nofile, hard))
    service = build_service(Path(args.db))
    limits = {"max_clients": args.max_clients} if args.max_clients else {}
    server = TableSocketServer(service, args.socket, **limits)
    server.start()
    service.start()
    print("ready", flush=True)
    threading.Event().wait()


def python_for_others() -> str:
    """An interpreter another user may run: ours, unless it lives under a private folder (/root is 0700)."""
    real = Path(os.path.realpath(sys.executable))
    if all(os.stat(folder).st_mode & 0o001 for folder in real.parents):
        return sys.executable
    return "/usr/bin/python3"


def env_for_others() -> dict[str, str]:
    """The environment for a child running as another user: our sources and installed packages."""
    imports = [str(Path(companion.__file__).parents[1]), str(RIG.parent), sysconfig.get_paths()["purelib"]]
    return {**os.environ, "PYTHONPATH": os.pathsep.join(imports)}


def as_user(uid: int, gid: int, groups: list[int]) -> list[str]:
    """The command prefix that runs what follows as ``uid:gid`` with exactly ``groups`` besides."""
    extra = ["--groups", ",".join(map(str, groups))] if groups else ["--clear-groups"]
    return ["setpriv", f"--reuid={uid}", f"--regid={gid}", *extra]


@contextmanager
def rig(tmp: Path, *extra: str,
        argv_prefix: tuple[str, ...] = ()) -> Iterator[tuple[subprocess.Popen[str], Path]]:
    """Start the rig; yield (process, socket path); kill it afterwards whatever happened."""
    sock = tmp / "table.sock"
    # The child imports the same companion package as this test (and the tally game beside us).
    python = python_for_others() if argv_prefix else sys.executable
    child = subprocess.Popen([*argv_prefix, python, str(RIG), str(sock), str(tmp / "t.db"), *extra],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT,
                             env=env_for_others(), start_new_session=True)
    try:
        assert child.stdout is not None
        line = child.stdout.readline()
        if line.strip() != "ready":
            child.kill()
            why = child.stderr.read() if child.stderr else ""
            raise AssertionError(f"the rig did not start: {line!r} {why}")
        yield child, sock
    finally:
        # The whole group: behind unshare and setpriv the rig is a grandchild that outlives its parent.
        with contextlib.suppress(ProcessLookupError):
            os.killpg(child.pid, signal.SIGKILL)
        child.wait()
        for stream in (child.stdout, child.stderr):
            if stream is not None:
                stream.close()


def proc_status(pid: int, key: str) -> int:
    """A number from /proc/<pid>/status (``VmRSS`` in KiB, ``Threads``)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(key + ":"):
            return int(line.split()[1])
    raise KeyError(key)


def wait_until(condition: Any, timeout: float = 20.0, every: float = 0.01) -> bool:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(every)
    return True


if __name__ == "__main__":
    os.environ.setdefault("PYTHONUNBUFFERED", "1")
    main()
