"""Regenerates the kiosk screenshots in ``docs/img/`` with ``companion run --screenshot``.

    .venv/bin/python tests/kiosk_docs.py        # needs Xvfb; about half a minute

Each screen is brought about the way the table would (commands through the socket of a simulated
service), then rendered at the 7" screen's 800x480 (and the simulation panel at 1024x600). PNGs are
reduced to 64 colours so the repository stays small.
"""

from __future__ import annotations

import json
import shutil
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from kiosk_support import (  # noqa: E402
    PYTHON,
    ROOT,
    kiosk_env,
    play_until,
    request,
    run_kiosk,
    start_service,
    stop,
    table_test_options,
    write_test_cards,
)
from service_rig import private_display  # noqa: E402

OUT = ROOT / "docs" / "img"


def shrink(png: Path) -> None:
    from PIL import Image

    with Image.open(png) as image:
        image.convert("RGB").quantize(colors=64).save(png, optimize=True)


def shoot(table: dict, screen: str, name: str, size: str = "800x480") -> dict:
    png = OUT / f"kiosk-{name}.png"
    report = run_kiosk([PYTHON, "-m", "table.cli", "run", "--sim", "--socket", str(table["socket"]),
                        "--screenshot", str(png), "--size", size, "--screen", screen], table["env"])
    if report["layout_problems"]:
        raise SystemExit(f"{name}: {report['layout_problems']}")
    shrink(png)
    return report


def fresh_table(home: Path, display: str) -> dict:
    env = kiosk_env(home, display)
    write_test_cards(env)
    socket_path = home / "run" / "table.sock"
    return {"env": env, "socket": socket_path, "service": start_service(socket_path, home / "t.db", env)}


def main() -> int:
    with private_display() as display:
        return shoot_all(display)


def shoot_all(display: str) -> int:
    OUT.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp())
    tables: list[dict] = []
    try:
        # A game in its first attack: home (with the game to resume), setup, card editor, table.
        table = fresh_table(work / "a", display)
        tables.append(table)
        shoot(table, "home", "home-empty")
        request(table["socket"], {"op": "new_game", "game": "valley-hoopers",
                                  "options": table_test_options()})
        for command in ({"type": "attack", "shot": "2PS", "position": "SG"},
                        {"type": "defend", "hooper": "Chus Kinder"},
                        {"type": "roll", "die": "d8foul", "face": "whistle"}):
            assert request(table["socket"], {"op": "command", "command": command})["ok"]
        shoot(table, "resolve", "resolve-fouled-shot")
        shoot(table, "home", "home")
        shoot(table, "setup", "setup")
        shoot(table, "card", "card-editor")
        for face in (50, 20, 20):
            roll = {"type": "roll", "die": "d20x5", "face": face}
            request(table["socket"], {"op": "command", "command": roll})
        shoot(table, "table", "table")
        shoot(table, "settings", "settings")
        shoot(table, "resolve", "sim-panel", size="1024x600")

        # Between periods, then the end of a fast game.
        table = fresh_table(work / "b", display)
        tables.append(table)
        request(table["socket"], {"op": "new_game", "game": "valley-hoopers",
                                  "options": table_test_options() | {"variant": "fast"}})
        play_until(table["socket"], lambda s: "replenish the four common playbooks on the scoreboard"
                   in s["view"]["reminders"])
        shoot(table, "between", "between")
        play_until(table["socket"], lambda s: s["outcome"] is not None)
        shoot(table, "gameend", "game-end")
        shoot(table, "history", "history")
    finally:
        for table in tables:
            stop(table["service"])
        shutil.rmtree(work, ignore_errors=True)
    sizes = {p.name: p.stat().st_size for p in sorted(OUT.glob("kiosk-*.png"))}
    print(json.dumps(sizes, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
