"""Helpers for the kiosk tests: Xvfb, a real table service in a subprocess, the driver, test cards.

Kivy runs in its own process per scenario (``tests/kiosk_driver.py`` or ``companion run``), because
one Kivy window per process is what Kivy supports well; the tests read each run's JSON report and
its screenshots under ``tests/artifacts/kiosk/``.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from service_rig import stop_group

from companion.socket_server import TableClient

ROOT = Path(__file__).resolve().parents[1]
ARTIFACTS = ROOT / "tests" / "artifacts" / "kiosk"
PYTHON = sys.executable
sys.path.insert(0, str(ROOT / "tests" / "games"))


def kiosk_env(home: Path, display: str) -> dict[str, str]:
    """Environment for a kiosk or service process: its own Kivy home, config and data folders."""
    env = dict(os.environ)
    env.update({"DISPLAY": display, "KIVY_NO_ARGS": "1", "KIVY_HOME": str(home / "kivy"),
                "KIVY_NO_CONSOLELOG": "1", "KIVY_NO_FILELOG": "1",
                "XDG_CONFIG_HOME": str(home / "config"), "XDG_DATA_HOME": str(home / "data"),
                "XDG_STATE_HOME": str(home / "state"),
                "XDG_RUNTIME_DIR": str(home / "run"), "PYTHONPATH": str(ROOT)})
    (home / "run").mkdir(parents=True, exist_ok=True)
    return env


def serve_argv(socket_path: Path, db: Path) -> list[str]:
    """``companion serve`` in simulation (the kiosk's simulated hardware panel talks to it)."""
    return [PYTHON, "-m", "table.cli", "--db", str(db), "serve", "--sim", "--socket", str(socket_path)]


def start_service(socket_path: Path, db: Path, env: dict[str, str],
                  timeout: float = 20.0) -> subprocess.Popen[bytes]:
    from kiosk.client import service_answers

    log = open(db.with_suffix(".serve.log"), "ab")  # noqa: SIM115 - closed with the process
    child = subprocess.Popen(serve_argv(socket_path, db), env=env, stdout=log, stderr=subprocess.STDOUT,
                             start_new_session=True)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if child.poll() is not None:
            raise AssertionError(f"companion serve exited {child.returncode}: "
                                 + db.with_suffix(".serve.log").read_text()[-2000:])
        if service_answers(socket_path, 0.5):
            return child
        time.sleep(0.05)
    stop_group(child, 5, signal.SIGKILL)
    raise AssertionError("companion serve did not answer")


def stop(child: subprocess.Popen[bytes], sig: int = 15) -> None:
    """Stop a service from ``start_service`` and its process group (SIGKILL if it does not stop)."""
    stop_group(child, 10, sig)


def request(socket_path: Path, message: dict[str, Any]) -> dict[str, Any]:
    client = TableClient(socket_path)
    try:
        return client.request(message)
    finally:
        client.close()


def write_test_cards(env: dict[str, str]) -> Path:
    """The test table's fully entered hooper cards (test data, see tests/games/valley_hoopers_table.py)
    as the kiosk's remembered cards, so the kiosk's own setup starts a playable game."""
    from valley_hoopers_table import karl_hoopers, lucy_hoopers

    path = Path(env["XDG_CONFIG_HOME"]) / "courtside-companion" / "cards" / "valley-hoopers.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    cards = {c["name"]: {k: v for k, v in c.items() if v is not None}
             for c in lucy_hoopers() + karl_hoopers()}
    path.write_text(json.dumps(cards, indent=2), encoding="utf-8")
    return path


def table_test_options() -> dict[str, Any]:
    from valley_hoopers_table import options

    return options()


def run_kiosk(argv: list[str], env: dict[str, str], timeout: float = 90.0) -> dict[str, Any]:
    """Run a kiosk process (the driver or ``companion run``) and return the JSON it printed last."""
    result = subprocess.run(argv, env=env, capture_output=True, text=True, timeout=timeout, cwd=ROOT)
    reports = [line for line in result.stdout.splitlines() if line.startswith("{")]
    if result.returncode != 0 or not reports:
        raise AssertionError(f"kiosk exited {result.returncode}\nstdout: {result.stdout[-3000:]}\n"
                             f"stderr: {result.stderr[-5000:]}")
    return json.loads(reports[-1])


FOUL_FACES = ["whistle", "whistle2", "whistle3", "charge", "jumpball", "blank", "blank", "blank"]


def next_command(snapshot: dict[str, Any], rng: Any) -> dict[str, Any]:
    """A legal command from the snapshot's prompt: a ready-made choice or a face of the awaited die
    (the socket twin of ``valley_hoopers_table.next_command``)."""
    prompt = snapshot["prompt"]
    die = prompt.get("die")
    if die == "d8foul":
        return {"type": "roll", "die": "d8foul", "face": rng.choice(FOUL_FACES)}
    choices = prompt.get("choices") or []
    if die == "d20x5" and (not choices or prompt["commands"][0] == "roll" or rng.random() < 0.5):
        return {"type": "roll", "die": "d20x5", "face": rng.choice(range(5, 101, 5))}
    preferred = [c for c in choices if c["command"]["type"] not in ("end_turn", "timeout")] or choices
    if not preferred:
        raise AssertionError(f"no legal choice offered: {prompt['text']}")
    return dict(rng.choice(preferred)["command"])


def play_until(socket_path: Path, done: Any, seed: int = 7, limit: int = 5000) -> dict[str, Any]:
    """Play random legal commands through the socket until ``done(snapshot)``; the last snapshot."""
    import random

    rng = random.Random(seed)
    client = TableClient(socket_path)
    try:
        snapshot = client.request({"op": "state"})["snapshot"]
        for _ in range(limit):
            if done(snapshot):
                return snapshot
            reply = client.request({"op": "command", "command": next_command(snapshot, rng)})
            if not reply["ok"]:
                raise AssertionError(f"offered command refused: {reply}")
            snapshot = reply["snapshot"]
    finally:
        client.close()
    raise AssertionError("the game did not get there")


@contextlib.contextmanager
def served_table(tmp_path: Path, display: str, cards: bool = False) -> Iterator[dict[str, Any]]:
    """A simulated table service for a kiosk test (``cards``: the test cards remembered by the kiosk):
    its env, socket, store, process (a test that restarts it puts the new one back) and home."""
    env = kiosk_env(tmp_path, display)
    if cards:
        write_test_cards(env)
    socket_path = tmp_path / "run" / "table.sock"
    info = {"env": env, "socket": socket_path, "db": tmp_path / "table.db", "home": tmp_path,
            "service": start_service(socket_path, tmp_path / "table.db", env)}
    try:
        yield info
    finally:
        stop(info["service"])
