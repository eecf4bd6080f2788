"""Kiosk first frame: process start to the first frame that shows the table's state, against a bare
one-Label Kivy app, each in a fresh process under a private Xvfb (issue 15).

    python -m benchmarks --only kiosk    (or alone: python -m benchmarks.first_frame [ROUNDS])

The kiosk is ``companion run --socket S`` (what the appliance runs, without ``--sim``) joining a
simulated ``companion serve`` started beforehand with a Valley Hoopers game on the table; its
``--screenshot`` run reports ``ready_wall``, the wall time of the first window flip after the state,
the saved games and the known games have all arrived and been shown. The baseline
(``benchmarks/one_label_app.py``) reports the wall time of its first flip with its Label. Both are
timed from just before the process is started, so the interpreter's start counts on both sides.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))  # kiosk_support: the service, the kiosk's environment, test cards
SIZE = "800x480"


@contextlib.contextmanager
def private_xvfb() -> Iterator[str]:
    """An Xvfb on a free display, ready when this yields (``-displayfd``: no sleeping on a guess)."""
    read, write = os.pipe()
    server = subprocess.Popen(["Xvfb", "-displayfd", str(write), "-screen", "0", "1280x800x24",
                               "-nolisten", "tcp"], pass_fds=(write,), stderr=subprocess.DEVNULL)
    os.close(write)
    try:
        with os.fdopen(read) as answer:
            number = answer.readline().strip()
        if not number:
            raise RuntimeError("Xvfb did not start")
        yield f":{number}"
    finally:
        server.terminate()
        server.wait(10)


def _report(argv: list[str], env: dict[str, str]) -> dict:
    result = subprocess.run(argv, env=env, capture_output=True, text=True, timeout=120, cwd=ROOT)
    lines = [line for line in result.stdout.splitlines() if line.startswith("{")]
    if result.returncode != 0 or not lines:
        raise RuntimeError(f"{argv[1:3]} exited {result.returncode}: {result.stderr[-2000:]}")
    return json.loads(lines[-1])


def bare_round(env: dict[str, str]) -> float:
    started = time.time()
    report = _report([sys.executable, str(ROOT / "benchmarks" / "one_label_app.py"), SIZE], env)
    return report["first_frame_wall"] - started


def kiosk_round(env: dict[str, str], socket_path: Path, shot: Path) -> float:
    started = time.time()
    report = _report([sys.executable, "-m", "table.cli", "run", "--socket", str(socket_path),
                      "--screenshot", str(shot), "--size", SIZE], env)
    return report["ready_wall"] - started


def measure(rounds: int) -> tuple[float, float, str]:
    """Median seconds to the first frame of the kiosk and of the one-Label app, and the screen shown."""
    # benchmarks/measures.py puts benchmarks/ first on the path (its scripts import each other), and
    # there benchmarks/kiosk.py would stand for the kiosk package: import the package from the root.
    saved = sys.path[:]
    sys.path.insert(0, str(ROOT))
    try:
        import kiosk.client  # noqa: F401 - kiosk_support's service check needs the package
    finally:
        sys.path[:] = saved
    from kiosk_support import kiosk_env, request, start_service, stop, table_test_options

    work = Path(tempfile.mkdtemp(prefix="first-frame-"))
    try:
        with private_xvfb() as display:
            env = kiosk_env(work, display)
            # Bytecode cached, as on an installed table (the warm-up launches below write it): a
            # PYTHONDONTWRITEBYTECODE inherited from the shell would compile the kiosk every run.
            env.pop("PYTHONDONTWRITEBYTECODE", None)
            socket_path = work / "run" / "table.sock"
            service = start_service(socket_path, work / "table.db", env)
            try:
                answer = request(socket_path, {"op": "new_game", "game": "valley-hoopers",
                                               "options": table_test_options()})
                if not answer.get("ok"):
                    raise RuntimeError(f"new_game refused: {answer}")
                kiosk, bare = [], []
                # One unmeasured launch of each first: the first run of a process pays for cold
                # caches (bytecode, fonts, shared libraries) that no later start of either pays.
                kiosk_round(env, socket_path, work / "warm.png")
                bare_round(env)
                for n in range(rounds):
                    kiosk.append(kiosk_round(env, socket_path, work / f"shot{n}.png"))
                    bare.append(bare_round(env))
                screen = _report([sys.executable, "-m", "table.cli", "run", "--socket", str(socket_path),
                                  "--screenshot", str(work / "last.png"), "--size", SIZE], env)["screen"]
            finally:
                stop(service)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return statistics.median(kiosk), statistics.median(bare), screen


if __name__ == "__main__":
    kiosk_s, bare_s, shown = measure(int(sys.argv[1]) if len(sys.argv) > 1 else 3)
    print(json.dumps({"kiosk_s": round(kiosk_s, 3), "one_label_s": round(bare_s, 3),
                      "ratio": round(kiosk_s / bare_s, 2), "screen": shown}))
