"""Kiosk screenshots of NBA Showdown (setup, card editor, table, a scoring roll, assists, the end) with
``companion run --screenshot``, to look at: ``.venv/bin/python tests/nba_showdown_kiosk_shots.py OUT``.

Needs Xvfb. Each screen is reached the way a table would (commands through a simulated service's
socket); a layout problem ``kiosk/layout_check.py`` reports stops the script.
"""

from __future__ import annotations

import random
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from kiosk_support import PYTHON, kiosk_env, request, run_kiosk, start_service, stop  # noqa: E402
from service_rig import private_display  # noqa: E402

OPTIONS = {"teams": [{"roster": "demo-comets"}, {"roster": "demo-lanterns"}], "first": 0}


def play_until(socket: Path, done: Any, seed: int = 7, limit: int = 3000) -> dict[str, Any]:
    """Random legal input through the socket (an offered choice, or a face of the awaited d20) until
    ``done(snapshot)``."""
    rng = random.Random(seed)
    snapshot = request(socket, {"op": "state"})["snapshot"]
    for _ in range(limit):
        if done(snapshot):
            return snapshot
        prompt = snapshot["prompt"]
        choices = [c["command"] for c in prompt.get("choices") or []]
        if prompt.get("die_info") and (not choices or rng.random() < 0.6):
            command = {"type": "roll", "die": prompt["die"], "face": rng.choice(prompt["die_info"]["faces"])}
        else:
            command = rng.choice(choices)
        reply = request(socket, {"op": "command", "command": command})
        assert reply["ok"], reply
        snapshot = reply["snapshot"]
    raise AssertionError("the game did not get there")


def shoot(table: dict, out: Path, screen: str, name: str, size: str) -> None:
    png = out / f"nba-{name}-{size}.png"
    report = run_kiosk(
        [
            PYTHON,
            "-m",
            "table.cli",
            "run",
            "--sim",
            "--socket",
            str(table["socket"]),
            "--screenshot",
            str(png),
            "--size",
            size,
            "--screen",
            screen,
        ],
        table["env"],
    )
    if report["layout_problems"]:
        raise SystemExit(f"{name} at {size}: {report['layout_problems']}")


def main(out: Path, sizes: list[str]) -> int:
    with private_display() as display:
        return shoot_all(out, sizes, display)


def shoot_all(out: Path, sizes: list[str], display: str) -> int:
    out.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp())
    env = kiosk_env(work, display)
    socket = work / "run" / "table.sock"
    service = start_service(socket, work / "t.db", env)
    try:
        assert request(socket, {"op": "new_game", "game": "nba-showdown", "options": OPTIONS})["ok"]
        for size in sizes:
            shoot({"env": env, "socket": socket}, out, "setup", "setup", size)
            shoot({"env": env, "socket": socket}, out, "card", "card", size)
            shoot({"env": env, "socket": socket}, out, "resolve", "placement", size)
        play_until(socket, lambda s: s["view"]["stage"] == "choose")
        for size in sizes:
            shoot({"env": env, "socket": socket}, out, "resolve", "choose", size)
        play_until(socket, lambda s: s["view"]["stage"] == "roll")
        for size in sizes:
            shoot({"env": env, "socket": socket}, out, "resolve", "roll", size)
            shoot({"env": env, "socket": socket}, out, "table", "table", size)
        play_until(socket, lambda s: s["outcome"] is not None)
        for size in sizes:
            shoot({"env": env, "socket": socket}, out, "gameend", "end", size)
    finally:
        stop(service)
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1]), sys.argv[2:] or ["800x480"]))
